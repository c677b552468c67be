//===- Elementwise.h - Fill, move, arithmetic, compare, logic ---*- C++ -*-===//
#ifndef BANG_DEVICELIB_ELEMENTWISE_H
#define BANG_DEVICELIB_ELEMENTWISE_H

#include "DeviceLib.h"

namespace bangdev {

template <typename T>
BANG_DEV void fill(RowClass opClass, void *dst, int n, T value) {
  checkCount(n);
  writes((T *)dst, n);
  charge<T>(opClass, n);
  T *d = (T *)dst;
  for (int i = 0; i < n; ++i)
    d[i] = value;
}

template <typename T> BANG_DEV void zero(RowClass opClass, T *dst, int n) {
  fill<T>(opClass, dst, n, T(0));
}

BANG_DEV void move(RowClass opClass, void *dst, const void *src, int bytes) {
  checkCount(bytes);
  readsBytes(src, bytes);
  writesBytes(dst, bytes);
  charge<int8_t>(opClass, bytes);
  __builtin_memmove(dst, src, bytes);
}

/// Calls loop(x) with x = src, or with x = dst itself when src is dst. A
/// call in place (dst == src, which element-wise intrinsics allow) then reads
/// and writes through one pointer, and its loop vectorises. With two pointers
/// whose values are not known (the precompiled device library), the
/// vectoriser checks at run time that they do not overlap; equal pointers
/// fail that check and the scalar loop would run. Partly overlapping operands
/// are not supported, so these two cases are all.
template <typename D, typename S, typename L>
BANG_DEV void sameOrApart(D *dst, S *src, L loop) {
  if ((const void *)src == (const void *)dst)
    loop((S *)dst);
  else
    loop(src);
}

/// Applies `f` element by element; dst may alias a or b exactly.
template <typename T, typename F>
BANG_DEV void binary(RowClass opClass, T *dst, const T *a, const T *b, int n,
                     F f) {
  checkCount(n);
  reads(a, n);
  reads(b, n);
  writes(dst, n);
  charge<T>(opClass, n);
  sameOrApart(dst, a, [&](const T *x) {
    sameOrApart(dst, b, [&](const T *y) {
      for (int i = 0; i < n; ++i)
        dst[i] = f(x[i], y[i]);
    });
  });
}

template <typename T, typename F>
BANG_DEV void unary(RowClass opClass, T *dst, const T *src, int n, F f) {
  checkCount(n);
  reads(src, n);
  writes(dst, n);
  charge<T>(opClass, n);
  sameOrApart(dst, src, [&](const T *x) {
    for (int i = 0; i < n; ++i)
      dst[i] = f(x[i]);
  });
}

template <typename T, typename F>
BANG_DEV void withScalar(RowClass opClass, T *dst, const T *a, T b, int n,
                         F f) {
  checkCount(n);
  reads(a, n);
  writes(dst, n);
  charge<T>(opClass, n);
  sameOrApart(dst, a, [&](const T *x) {
    for (int i = 0; i < n; ++i)
      dst[i] = f(x[i], b);
  });
}

/// Faults unless op is a fusion operation and nb, the count of a vector b,
/// is in [1, n] and divides n (or both are 0).
BANG_DEV void checkFusion(mluFusionOp_t op, int n, int nb) {
  checkCount(n);
  if ((int)op < FUSION_FMA || (int)op > FUSION_FSS)
    __bangsim_fault("__bang_fusion: unknown fusion operation");
  if (n == 0 && nb == 0)
    return;
  if (nb <= 0 || nb > n || n % nb != 0)
    __bangsim_fault("__bang_fusion: the count of b must divide the count");
}

/// One element of fusion operation Op: (a op1 b) op2 c.
template <int Op, typename T> BANG_DEV T fuse(T a, T b, T c) {
  if constexpr (Op == FUSION_FMA)
    return addOf(mulOf(a, b), c);
  else if constexpr (Op == FUSION_FMS)
    return subOf(mulOf(a, b), c);
  else if constexpr (Op == FUSION_FAM)
    return mulOf(addOf(a, b), c);
  else if constexpr (Op == FUSION_FSM)
    return mulOf(subOf(a, b), c);
  else if constexpr (Op == FUSION_FAS)
    return subOf(addOf(a, b), c);
  else if constexpr (Op == FUSION_FSA)
    return addOf(subOf(a, b), c);
  else
    return subOf(subOf(a, b), c);
}

/// A fusion operand: a vector (element i) or a scalar (every element).
template <typename T> struct FusionVec {
  const T *p;
  T at(int i) const { return p[i]; }
};
template <typename T> struct FusionScalar {
  T v;
  T at(int) const { return v; }
};

/// dst[base + k] = fuse(a[base + k], b[k], c[base + k]) for each segment of
/// nb elements (b repeats along a).
template <int Op, typename T, typename B, typename C>
BANG_DEV void fusionLoop(T *dst, const T *a, B b, C c, int n, int nb) {
  for (int base = 0; base < n; base += nb)
    for (int k = 0; k < nb; ++k)
      dst[base + k] = fuse<Op>(a[base + k], b.at(k), c.at(base + k));
}

/// One loop per operation so each vectorises; a (and a vector c) passed as
/// dst when they are dst (sameOrApart).
template <typename T, typename B, typename C>
BANG_DEV void fusionDispatch(mluFusionOp_t op, T *dst, const T *a, B b, C c,
                             int n, int nb) {
  sameOrApart(dst, a, [&](const T *x) {
    switch (op) {
    case FUSION_FMA:
      return fusionLoop<FUSION_FMA>(dst, x, b, c, n, nb);
    case FUSION_FMS:
      return fusionLoop<FUSION_FMS>(dst, x, b, c, n, nb);
    case FUSION_FAM:
      return fusionLoop<FUSION_FAM>(dst, x, b, c, n, nb);
    case FUSION_FSM:
      return fusionLoop<FUSION_FSM>(dst, x, b, c, n, nb);
    case FUSION_FAS:
      return fusionLoop<FUSION_FAS>(dst, x, b, c, n, nb);
    case FUSION_FSA:
      return fusionLoop<FUSION_FSA>(dst, x, b, c, n, nb);
    default:
      return fusionLoop<FUSION_FSS>(dst, x, b, c, n, nb);
    }
  });
}

/// Operands of a vector b and c: c is n elements, b nb elements repeated.
template <typename T, typename B, typename C>
BANG_DEV void fusionChecked(RowClass opClass, mluFusionOp_t op, T *dst,
                            const T *a, B b, C c, int n, int nb) {
  checkFusion(op, n, nb);
  reads(a, n);
  if constexpr (__is_same(B, FusionVec<T>))
    reads(b.p, nb);
  if constexpr (__is_same(C, FusionVec<T>))
    reads(c.p, n);
  writes(dst, n);
  charge<T>(opClass, n);
  if constexpr (__is_same(C, FusionVec<T>))
    sameOrApart(dst, c.p, [&](const T *z) {
      fusionDispatch(op, dst, a, b, FusionVec<T>{z}, n, nb);
    });
  else
    fusionDispatch(op, dst, a, b, c, n, nb);
}

/// The four forms of __bang_fusion: b and c each a vector or a scalar. A
/// scalar b has no count of its own: the last count must be n.
template <typename T>
BANG_DEV void fusionOp(RowClass opClass, mluFusionOp_t op, T *dst, const T *a,
                       const T *b, const T *c, int n, int nb) {
  fusionChecked(opClass, op, dst, a, FusionVec<T>{b}, FusionVec<T>{c}, n, nb);
}
template <typename T>
BANG_DEV void fusionOp(RowClass opClass, mluFusionOp_t op, T *dst, const T *a,
                       T b, const T *c, int n, int nb) {
  if (nb != n)
    __bangsim_fault("__bang_fusion: with a scalar b the two counts must be "
                    "equal");
  fusionChecked(opClass, op, dst, a, FusionScalar<T>{b}, FusionVec<T>{c}, n,
                n);
}
template <typename T>
BANG_DEV void fusionOp(RowClass opClass, mluFusionOp_t op, T *dst, const T *a,
                       const T *b, T c, int n, int nb) {
  fusionChecked(opClass, op, dst, a, FusionVec<T>{b}, FusionScalar<T>{c}, n,
                nb);
}
/// __bang_div: floats IEEE-rounded (vector or scalar divisor); integers
/// truncate toward zero, a zero divisor faults, INT_MIN / -1 wraps.
template <typename T>
BANG_DEV void divOp(RowClass opClass, T *dst, const T *a, const T *b, int n) {
  if constexpr (isInt<T>) {
    checkCount(n);
    reads(b, n);
    bool zero = false; // checked first, before anything is written
    for (int i = 0; i < n; ++i)
      zero |= b[i] == 0;
    if (zero)
      __bangsim_fault("__bang_div: division by zero");
    binary(opClass, dst, a, b, n,
           [](T x, T y) { return (T)((long long)x / (long long)y); });
  } else {
    binary(opClass, dst, a, b, n, [](T x, T y) { return x / y; });
  }
}
template <typename T>
BANG_DEV void divOp(RowClass opClass, T *dst, const T *a, T b, int n) {
  withScalar(opClass, dst, a, b, n, [](T x, T y) { return x / y; });
}

/// The 6-argument form (no count of b): its body passes nb = -1.
template <typename T>
BANG_DEV void fusionOp(RowClass opClass, mluFusionOp_t op, T *dst, const T *a,
                       T b, T c, int n, int nb) {
  (void)nb;
  fusionChecked(opClass, op, dst, a, FusionScalar<T>{b}, FusionScalar<T>{c}, n,
                n);
}

template <typename F>
BANG_DEV void bytewise(RowClass opClass, void *dst, const void *a,
                       const void *b, int bytes, F f) {
  checkCount(bytes);
  readsBytes(a, bytes);
  readsBytes(b, bytes);
  writesBytes(dst, bytes);
  charge<int8_t>(opClass, bytes);
  uint8_t *d = (uint8_t *)dst;
  sameOrApart(d, (const uint8_t *)a, [&](const uint8_t *x) {
    sameOrApart(d, (const uint8_t *)b, [&](const uint8_t *y) {
      for (int i = 0; i < bytes; ++i)
        d[i] = f(x[i], y[i]);
    });
  });
}

} // namespace bangdev

/// The 6-argument __bang_fusion row has no parameter n_b: its body (the one
/// body of every __bang_fusion row) finds this constant instead.
static constexpr int n_b = -1;

#endif // BANG_DEVICELIB_ELEMENTWISE_H
