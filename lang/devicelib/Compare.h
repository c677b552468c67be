//===- Compare.h - Scalar compares, cycle operations (F2, F3) -*- C++ -*-===//
//
// Two families real BANG C code (Cambricon's mlu-ops) calls often: compares
// of a vector with a scalar (__bang_lt_scalar ..., __bang_maxeq_scalar,
// __bang_band_scalar) and the cycle operations, whose second operand is a
// segment repeated along the first (__bang_cycle_add ...). Compares give 1
// or 0 in the destination type, as __bang_lt does; the rows are in
// intrinsics.def, the semantics in docs/language.md.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_COMPARE_H
#define BANG_DEVICELIB_COMPARE_H

#include "Elementwise.h"

namespace bangdev {

/// Faults unless seg_n is positive and divides n.
BANG_DEV void checkCycle(long long n, long long segN) {
  checkCount(n);
  if (segN <= 0)
    __bangsim_fault("cycle operation: the segment count must be positive");
  if (n % segN != 0)
    __bangsim_fault("cycle operation: the segment count must divide the count");
}

/// dst[i] = f(src[i], seg[i % segN]). dst may be src; dst must not overlap
/// seg.
template <typename T, typename F>
BANG_DEV void cycle(RowClass opClass, T *dst, const T *src, const T *seg, int n,
                    int segN, F f) {
  checkCycle(n, segN);
  reads(src, n);
  reads(seg, segN);
  writes(dst, n);
  charge<T>(opClass, n);
  sameOrApart(dst, src, [&](const T *x) {
    for (int base = 0; base < n; base += segN)
      for (int k = 0; k < segN; ++k)
        dst[base + k] = f(x[base + k], seg[k]);
  });
}

/// The cycle form of the bitwise operations: counts in bytes.
template <typename F>
BANG_DEV void cycleBytes(RowClass opClass, void *dst, const void *src,
                         const void *seg, int bytes, int segBytes, F f) {
  cycle(opClass, (uint8_t *)dst, (const uint8_t *)src, (const uint8_t *)seg,
        bytes, segBytes, f);
}

} // namespace bangdev

// --- Bodies of the rows (see Intrinsics.cpp)
#define BANG_SCALAR_PRED(EXPR)                                                 \
  withScalar(rowClass, dst, a, b, n,                                           \
             [](auto x, auto y) { return (decltype(x))(EXPR ? 1 : 0); })
#define BODY___bang_lt_scalar BANG_SCALAR_PRED(x < y)
#define BODY___bang_le_scalar BANG_SCALAR_PRED(x <= y)
#define BODY___bang_gt_scalar BANG_SCALAR_PRED(x > y)
#define BODY___bang_ge_scalar BANG_SCALAR_PRED(x >= y)
#define BODY___bang_eq_scalar BANG_SCALAR_PRED(x == y)
#define BODY___bang_ne_scalar BANG_SCALAR_PRED(x != y)
#define BODY___bang_maxeq_scalar                                               \
  withScalar(rowClass, dst, a, b, n, [](auto x, auto y) { return maxOf(x, y); })
#define BODY___bang_mineq_scalar                                               \
  withScalar(rowClass, dst, a, b, n, [](auto x, auto y) { return minOf(x, y); })
#define BODY___bang_band_scalar                                                \
  withScalar(rowClass, dst, a, b, n,                                           \
             [](auto x, auto y) { return (decltype(x))(x & y); })

#define BANG_CYCLE(EXPR)                                                       \
  cycle(rowClass, dst, src, seg, n, seg_n, [](auto x, auto y) { return EXPR; })
#define BANG_CYCLE_PRED(EXPR) BANG_CYCLE((decltype(x))(EXPR ? 1 : 0))
#define BODY___bang_cycle_add BANG_CYCLE(addOf(x, y))
#define BODY___bang_cycle_sub BANG_CYCLE(subOf(x, y))
#define BODY___bang_cycle_mul BANG_CYCLE(mulOf(x, y))
#define BODY___bang_cycle_maxequal BANG_CYCLE(maxOf(x, y))
#define BODY___bang_cycle_minequal BANG_CYCLE(minOf(x, y))
#define BODY___bang_cycle_lt BANG_CYCLE_PRED(x < y)
#define BODY___bang_cycle_le BANG_CYCLE_PRED(x <= y)
#define BODY___bang_cycle_gt BANG_CYCLE_PRED(x > y)
#define BODY___bang_cycle_ge BANG_CYCLE_PRED(x >= y)
#define BODY___bang_cycle_eq BANG_CYCLE_PRED(x == y)
#define BODY___bang_cycle_ne BANG_CYCLE_PRED(x != y)
#define BODY___bang_cycle_and BANG_CYCLE_PRED(x != 0 && y != 0)
#define BODY___bang_cycle_or BANG_CYCLE_PRED(x != 0 || y != 0)
#define BODY___bang_cycle_xor BANG_CYCLE_PRED((x != 0) != (y != 0))
#define BODY___bang_cycle_band                                                 \
  cycleBytes(rowClass, dst, src, seg, bytes, seg_bytes,                        \
             [](uint8_t x, uint8_t y) { return (uint8_t)(x & y); })
#define BODY___bang_cycle_bor                                                  \
  cycleBytes(rowClass, dst, src, seg, bytes, seg_bytes,                        \
             [](uint8_t x, uint8_t y) { return (uint8_t)(x | y); })

#endif // BANG_DEVICELIB_COMPARE_H
