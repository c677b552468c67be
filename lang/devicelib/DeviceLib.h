//===- DeviceLib.h - Shared helpers of the device library -----*- C++ -*-===//
//
// The device library implements the intrinsics of intrinsics.def in plain C++.
// It is compiled to bitcode at build time (with the prelude force-included,
// so every definition matches its declaration), embedded in the compiler and
// linked into each kernel module before optimisation: each intrinsic inlines
// into the kernel and vectorises for the host CPU there.
//
// Every intrinsic first checks its operands (per call, never per element: in
// the kernel for an operand in the task's own NRAM, by a call into simrt for
// any other) and charges its cost, then does the work.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_H
#define BANG_DEVICELIB_H

#define BANG_DEV static inline __attribute__((always_inline))

namespace bangdev {

template <typename T> struct DTypeOf;
template <> struct DTypeOf<int8_t> { static constexpr int value = BANG_DT_I8; };
template <> struct DTypeOf<uint8_t> { static constexpr int value = BANG_DT_U8; };
template <> struct DTypeOf<int16_t> { static constexpr int value = BANG_DT_I16; };
template <> struct DTypeOf<uint16_t> { static constexpr int value = BANG_DT_U16; };
template <> struct DTypeOf<int32_t> { static constexpr int value = BANG_DT_I32; };
template <> struct DTypeOf<uint32_t> { static constexpr int value = BANG_DT_U32; };
template <> struct DTypeOf<half> { static constexpr int value = BANG_DT_F16; };
template <> struct DTypeOf<float> { static constexpr int value = BANG_DT_F32; };
/// bfloat16 is costed as the 16-bit float it is as wide as (the cost model
/// has no dtype of its own for it).
template <> struct DTypeOf<__bf16> { static constexpr int value = BANG_DT_F16; };

BANG_DEV void checkCount(long long n) {
  if (n < 0)
    __bangsim_fault("negative count");
}

/// Whether [p, p+bytes) lies wholly in this task's own NRAM. That common
/// case is settled here, without a call into simrt; any other operand
/// (another space, another core's NRAM, out of bounds, a negative size) goes
/// to __bangsim_check_vec, which accepts it or faults with the full message.
BANG_DEV bool inOwnNram(const void *p, long long bytes) {
  const BangTaskContext *c = __bangsim_ctx();
  unsigned long long size = (unsigned long long)c->nramBytes;
  unsigned long long at = (unsigned long long)(__UINTPTR_TYPE__)p -
                          (unsigned long long)(__UINTPTR_TYPE__)c->nram;
  return at <= size && (unsigned long long)bytes <= size - at;
}

/// Operand checks: vector operands live in NRAM.
BANG_DEV void checkNram(const void *p, long long bytes, int access) {
  if (!inOwnNram(p, bytes))
    __bangsim_check_vec(p, bytes, BANG_IN_NRAM, access);
}
template <typename T> BANG_DEV void reads(const T *p, long long n) {
  checkNram(p, n * (long long)sizeof(T), BANG_READ);
}
template <typename T> BANG_DEV void writes(T *p, long long n) {
  checkNram(p, n * (long long)sizeof(T), BANG_WRITE);
}
BANG_DEV void readsBytes(const void *p, long long bytes) {
  checkNram(p, bytes, BANG_READ);
}
BANG_DEV void writesBytes(void *p, long long bytes) {
  checkNram(p, bytes, BANG_WRITE);
}

/// A cost class (BangOpClass), as only a row of intrinsics.def gives it: a
/// definition in Intrinsics.cpp declares its row's class as `rowClass`, and
/// its body passes that on to the helper that charges.
struct RowClass {
  int id;
};

/// Charges n operations of element type T in the row's class.
template <typename T> BANG_DEV void charge(RowClass opClass, long long n) {
  __bangsim_compute(opClass.id, DTypeOf<T>::value, n);
}

template <typename T> BANG_DEV bool isNaN(T x) { return x != x; }

/// The unsigned integer of the same width, for bit operations.
template <int Bytes> struct UIntOfSize;
template <> struct UIntOfSize<1> { using type = uint8_t; };
template <> struct UIntOfSize<2> { using type = uint16_t; };
template <> struct UIntOfSize<4> { using type = uint32_t; };
template <typename T> using BitsOf = typename UIntOfSize<sizeof(T)>::type;

template <typename T> constexpr bool isInt = __is_integral(T);

/// Integer arithmetic wraps modulo 2^bits (computed unsigned: no UB).
template <typename T> BANG_DEV T addOf(T x, T y) {
  if constexpr (isInt<T>)
    return (T)((uint32_t)x + (uint32_t)y);
  else
    return x + y;
}
template <typename T> BANG_DEV T subOf(T x, T y) {
  if constexpr (isInt<T>)
    return (T)((uint32_t)x - (uint32_t)y);
  else
    return x - y;
}
template <typename T> BANG_DEV T mulOf(T x, T y) {
  if constexpr (isInt<T>)
    return (T)((uint32_t)x * (uint32_t)y);
  else
    return x * y;
}

/// IEEE 754-2019 maximum/minimum: NaN if either operand is NaN (that
/// operand, a first), and -0 < +0.
template <typename T> BANG_DEV T maxOf(T a, T b) {
  if constexpr (isInt<T>) {
    return a > b ? a : b;
  } else {
    using U = BitsOf<T>;
    U ab = __builtin_bit_cast(U, a), bb = __builtin_bit_cast(U, b);
    T eq = __builtin_bit_cast(T, (U)(ab & bb)); // +0 wins over -0
    T r = a > b ? a : (b > a ? b : eq);
    return isNaN(a) ? a : (isNaN(b) ? b : r);
  }
}
template <typename T> BANG_DEV T minOf(T a, T b) {
  if constexpr (isInt<T>) {
    return a < b ? a : b;
  } else {
    using U = BitsOf<T>;
    U ab = __builtin_bit_cast(U, a), bb = __builtin_bit_cast(U, b);
    T eq = __builtin_bit_cast(T, (U)(ab | bb)); // -0 wins over +0
    T r = a < b ? a : (b < a ? b : eq);
    return isNaN(a) ? a : (isNaN(b) ? b : r);
  }
}

} // namespace bangdev

#endif // BANG_DEVICELIB_H
