//===- Vector.h - Vector registers: vv_* types, __vv_* -------*- C++ -*-===//
//
// Real BANG C (Cambricon's mlu-ops, kernels/utils/common.h and its Philox
// generator) computes some sequences in vector registers: vv_float, vv_half,
// vv_int16, vv_uint16, vv_int32 and vv_uint32 (prelude.h), each
// BANG_VV_BYTES bytes, filled by __vv_move / __vv_index / __vv_load,
// combined by __vv_add, __vv_mul, __vv_mulh, __vv_xor, __vv_trixor and
// written to NRAM by __vv_store. Here a register is a value of the kernel;
// each operation charges its class for a register's elements, and only the
// NRAM operands of __vv_load and __vv_store are checked.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_VECTOR_H
#define BANG_DEVICELIB_VECTOR_H

#include "Elementwise.h"

namespace bangdev {

/// The high half of the double-width product (signed for signed T).
template <typename T> BANG_DEV T mulHighOf(T x, T y) {
  constexpr int Bits = sizeof(T) * 8;
  if constexpr ((T)-1 < (T)0)
    return (T)(((long long)x * (long long)y) >> Bits);
  else
    return (T)(((unsigned long long)x * (unsigned long long)y) >> Bits);
}

/// The element type T and count N of a register type (prelude.h).
template <typename V> struct VVOf;
#define BANG_VV_OF(VT, ET)                                                     \
  template <> struct VVOf<VT> {                                                \
    using T = ET;                                                              \
    static constexpr int N = BANG_VV_BYTES / sizeof(ET);                       \
  };
BANG_VV_OF(vv_half, half)
BANG_VV_OF(vv_float, float)
BANG_VV_OF(vv_int16, int16_t)
BANG_VV_OF(vv_uint16, uint16_t)
BANG_VV_OF(vv_int32, int32_t)
BANG_VV_OF(vv_uint32, uint32_t)
#undef BANG_VV_OF
template <typename V> using ElemOf = typename VVOf<V>::T;

template <typename V>
BANG_DEV void vvMove(RowClass opClass, V &d, ElemOf<V> value) {
  charge<ElemOf<V>>(opClass, VVOf<V>::N);
  for (int i = 0; i < VVOf<V>::N; ++i)
    d[i] = value;
}
template <typename V> BANG_DEV void vvMove(RowClass opClass, V &d, const V &s) {
  charge<ElemOf<V>>(opClass, VVOf<V>::N);
  d = s;
}

template <typename V>
BANG_DEV void vvLoad(RowClass opClass, V &d, const ElemOf<V> *src) {
  reads(src, VVOf<V>::N);
  charge<ElemOf<V>>(opClass, VVOf<V>::N);
  __builtin_memcpy(&d, src, sizeof(V));
}

/// The count of __vv_store's two-operand form, which has no parameter `num`:
/// its body finds this constant instead (the count form's parameter hides
/// it).
static constexpr struct WholeRegister {
} num{};

/// Stores the first n elements of the register.
template <typename V>
BANG_DEV void vvStore(RowClass opClass, ElemOf<V> *dst, const V &s, int n) {
  checkCount(n);
  if (n > VVOf<V>::N)
    __bangsim_fault("__vv_store: more elements than a vector register holds");
  writes(dst, n);
  charge<ElemOf<V>>(opClass, n);
  __builtin_memcpy(dst, &s, n * sizeof(ElemOf<V>));
}
template <typename V>
BANG_DEV void vvStore(RowClass opClass, ElemOf<V> *dst, const V &s,
                      WholeRegister) {
  vvStore(opClass, dst, s, VVOf<V>::N);
}

/// d[i] = start + i * step, each operation rounded to T (integers wrap).
template <typename V>
BANG_DEV void vvIndex(RowClass opClass, V &d, ElemOf<V> start, ElemOf<V> step) {
  using T = ElemOf<V>;
  charge<T>(opClass, VVOf<V>::N);
  for (int i = 0; i < VVOf<V>::N; ++i)
    d[i] = addOf(start, mulOf((T)i, step));
}

/// d[i] = f(a[i], b(i)); b(i) is element i of a register or a scalar. d may
/// be a or b.
template <typename V, typename B, typename F>
BANG_DEV void vvMap(RowClass opClass, V &d, const V &a, B b, F f) {
  charge<ElemOf<V>>(opClass, VVOf<V>::N);
  V r;
  for (int i = 0; i < VVOf<V>::N; ++i)
    r[i] = f(a[i], b(i));
  d = r;
}
template <typename V, typename F>
BANG_DEV void vvBinary(RowClass opClass, V &d, const V &a, const V &b, F f) {
  vvMap(
      opClass, d, a, [&](int i) { return b[i]; }, f);
}
template <typename V, typename F>
BANG_DEV void vvBinary(RowClass opClass, V &d, const V &a, ElemOf<V> b, F f) {
  vvMap(
      opClass, d, a, [b](int) { return b; }, f);
}

template <typename V>
BANG_DEV void vvTrixor(RowClass opClass, V &d, const V &a, const V &b,
                       const V &c) {
  using T = ElemOf<V>;
  vvMap(
      opClass, d, a, [&](int i) { return (T)(b[i] ^ c[i]); },
      [](T x, T y) { return (T)(x ^ y); });
}

} // namespace bangdev

// --- Bodies of the rows (see Intrinsics.cpp)
#define BODY___vv_get_length return BANG_VV_BYTES
#define BODY___vv_move vvMove(rowClass, dst, src)
#define BODY___vv_load vvLoad(rowClass, dst, src)
#define BODY___vv_store vvStore(rowClass, dst, src, num)
#define BODY___vv_index vvIndex(rowClass, dst, start, step)
#define BANG_VV2(EXPR)                                                         \
  vvBinary(rowClass, dst, a, b,                                                \
           [](auto x, auto y) { return (decltype(x))(EXPR); })
#define BODY___vv_add BANG_VV2(addOf(x, y))
#define BODY___vv_mul BANG_VV2(mulOf(x, y))
#define BODY___vv_mulh BANG_VV2(mulHighOf(x, y))
#define BODY___vv_xor BANG_VV2(x ^ y)
#define BODY___vv_trixor vvTrixor(rowClass, dst, a, b, c)
/// Scalar conversions.
#define BODY___float2half_rn return (half)x

#endif // BANG_DEVICELIB_VECTOR_H
