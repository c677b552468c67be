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

template <typename T>
BANG_DEV void checkFusion(mluFusionOp_t op, int n, int nc) {
  checkCount(n);
  if ((int)op < FUSION_FMA || (int)op > FUSION_FSM)
    __bangsim_fault("__bang_fusion: unknown fusion operation");
  if (nc != n)
    __bangsim_fault("__bang_fusion: the two counts must be equal");
}

/// The loop of fusion operation `op`; b(i) is element i of b (a vector or
/// a scalar).
template <typename T, typename B>
BANG_DEV void fusionLoop(mluFusionOp_t op, T *dst, const T *a, B b, const T *c,
                         int n) {
  switch (op) { // one loop per operation so each vectorises
  case FUSION_FMA:
    for (int i = 0; i < n; ++i)
      dst[i] = a[i] * b(i) + c[i];
    break;
  case FUSION_FMS:
    for (int i = 0; i < n; ++i)
      dst[i] = a[i] * b(i) - c[i];
    break;
  case FUSION_FAM:
    for (int i = 0; i < n; ++i)
      dst[i] = (a[i] + c[i]) * b(i);
    break;
  default:
    for (int i = 0; i < n; ++i)
      dst[i] = (a[i] - c[i]) * b(i);
    break;
  }
}

/// fusionLoop with a or c passed as dst when they are dst (sameOrApart).
template <typename T, typename B>
BANG_DEV void fusionInPlace(mluFusionOp_t op, T *dst, const T *a, B b,
                            const T *c, int n) {
  sameOrApart(dst, a, [&](const T *x) {
    sameOrApart(dst, c, [&](const T *z) { fusionLoop(op, dst, x, b, z, n); });
  });
}

/// __bang_fusion with a vector b.
template <typename T>
BANG_DEV void fusionOp(RowClass opClass, mluFusionOp_t op, T *dst, const T *a,
                       const T *b, const T *c, int n, int nc) {
  checkFusion<T>(op, n, nc);
  reads(a, n);
  reads(b, n);
  reads(c, n);
  writes(dst, n);
  charge<T>(opClass, n);
  auto bAt = [b](int i) { return b[i]; };
  fusionInPlace(op, dst, a, bAt, c, n);
}

/// __bang_fusion with a scalar b.
template <typename T>
BANG_DEV void fusionOp(RowClass opClass, mluFusionOp_t op, T *dst, const T *a,
                       T b, const T *c, int n, int nc) {
  checkFusion<T>(op, n, nc);
  reads(a, n);
  reads(c, n);
  writes(dst, n);
  charge<T>(opClass, n);
  auto bAt = [b](int) { return b; };
  fusionInPlace(op, dst, a, bAt, c, n);
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

#endif // BANG_DEVICELIB_ELEMENTWISE_H
