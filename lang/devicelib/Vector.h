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

template <typename T, int N>
BANG_DEV void vvMove(RowClass opClass, T (&d)[N], T value) {
  charge<T>(opClass, N);
  for (int i = 0; i < N; ++i)
    d[i] = value;
}
template <typename T, int N>
BANG_DEV void vvMove(RowClass opClass, T (&d)[N], const T (&s)[N]) {
  charge<T>(opClass, N);
  __builtin_memmove(d, s, sizeof(d));
}

template <typename T, int N>
BANG_DEV void vvLoad(RowClass opClass, T (&d)[N], const T *src) {
  reads(src, N);
  charge<T>(opClass, N);
  __builtin_memcpy(d, src, sizeof(d));
}

/// The count of __vv_store's two-operand form, which has no parameter `num`:
/// its body finds this constant instead (the count form's parameter hides
/// it).
static constexpr struct WholeRegister {
} num{};

/// Stores the first n elements of the register.
template <typename T, int N>
BANG_DEV void vvStore(RowClass opClass, T *dst, const T (&s)[N], int n) {
  checkCount(n);
  if (n > N)
    __bangsim_fault("__vv_store: more elements than a vector register holds");
  writes(dst, n);
  charge<T>(opClass, n);
  __builtin_memcpy(dst, s, n * sizeof(T));
}
template <typename T, int N>
BANG_DEV void vvStore(RowClass opClass, T *dst, const T (&s)[N],
                      WholeRegister) {
  vvStore(opClass, dst, s, N);
}

/// The elements of a register operand, or a scalar operand itself.
template <typename T> BANG_DEV T vvOperand(T x) { return x; }
#define BANG_VV_OPERAND_OF(VT)                                                 \
  BANG_DEV const decltype(VT::v) &vvOperand(const VT &r) { return r.v; }
BANG_VV_OPERAND_OF(vv_half)
BANG_VV_OPERAND_OF(vv_float)
BANG_VV_OPERAND_OF(vv_int16)
BANG_VV_OPERAND_OF(vv_uint16)
BANG_VV_OPERAND_OF(vv_int32)
BANG_VV_OPERAND_OF(vv_uint32)
#undef BANG_VV_OPERAND_OF

/// d[i] = start + i * step, each operation rounded to T (integers wrap).
template <typename T, int N>
BANG_DEV void vvIndex(RowClass opClass, T (&d)[N], T start, T step) {
  charge<T>(opClass, N);
  for (int i = 0; i < N; ++i)
    d[i] = addOf(start, mulOf((T)i, step));
}

/// d[i] = f(a[i], b(i)); b(i) is element i of a register or a scalar. d may
/// be a or b.
template <typename T, int N, typename B, typename F>
BANG_DEV void vvMap(RowClass opClass, T (&d)[N], const T (&a)[N], B b, F f) {
  charge<T>(opClass, N);
  T r[N];
  for (int i = 0; i < N; ++i)
    r[i] = f(a[i], b(i));
  __builtin_memcpy(d, r, sizeof(d));
}
template <typename T, int N, typename F>
BANG_DEV void vvBinary(RowClass opClass, T (&d)[N], const T (&a)[N],
                       const T (&b)[N], F f) {
  vvMap(
      opClass, d, a, [&](int i) { return b[i]; }, f);
}
template <typename T, int N, typename F>
BANG_DEV void vvBinary(RowClass opClass, T (&d)[N], const T (&a)[N], T b, F f) {
  vvMap(
      opClass, d, a, [b](int) { return b; }, f);
}

template <typename T, int N>
BANG_DEV void vvTrixor(RowClass opClass, T (&d)[N], const T (&a)[N],
                       const T (&b)[N], const T (&c)[N]) {
  vvMap(
      opClass, d, a, [&](int i) { return (T)(b[i] ^ c[i]); },
      [](T x, T y) { return (T)(x ^ y); });
}

} // namespace bangdev

// --- Bodies of the rows (see Intrinsics.cpp)
#define BODY___vv_get_length return BANG_VV_BYTES
#define BODY___vv_move vvMove(rowClass, dst.v, vvOperand(src))
#define BODY___vv_load vvLoad(rowClass, dst.v, src)
#define BODY___vv_store vvStore(rowClass, dst, src.v, num)
#define BODY___vv_index vvIndex(rowClass, dst.v, start, step)
#define BANG_VV2(EXPR)                                                         \
  vvBinary(rowClass, dst.v, a.v, vvOperand(b),                                 \
           [](auto x, auto y) { return (decltype(x))(EXPR); })
#define BODY___vv_add BANG_VV2(addOf(x, y))
#define BODY___vv_mul BANG_VV2(mulOf(x, y))
#define BODY___vv_mulh BANG_VV2(mulHighOf(x, y))
#define BODY___vv_xor BANG_VV2(x ^ y)
#define BODY___vv_trixor vvTrixor(rowClass, dst.v, a.v, b.v, c.v)
/// Scalar conversions.
#define BODY___float2half_rn return (half)x

#endif // BANG_DEVICELIB_VECTOR_H
