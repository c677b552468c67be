//===- Ref.h - Scalar C++ references of the intrinsics' semantics ---------===//
//
// Written from docs/language.md, independently of lang/devicelib: floats are
// computed in double and rounded (to float, then to half), which is the
// correctly rounded result for + - * / of float or half operands.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TEST_INTRINSICS_REF_H
#define BANGC_TEST_INTRINSICS_REF_H

#include "Harness.h"

#include <cstdio>
#include <limits>

namespace intrtest {

template <typename T> double val(T x) {
  if constexpr (std::is_same_v<T, H>)
    return x.f();
  else
    return (double)x;
}

/// A double rounded to T: floats to nearest even, integers wrap.
template <typename T> T fromDouble(double v) {
  if constexpr (std::is_same_v<T, H>)
    return H::round((float)v);
  else if constexpr (std::is_same_v<T, float>)
    return (float)v;
  else
    return (T)(int64_t)v;
}

template <typename T> T one() { return fromDouble<T>(1.0); }
template <typename T> T zero() { return fromDouble<T>(0.0); }

/// Integers wrap modulo 2^bits.
template <typename T> T wrap(int64_t v) { return (T)(uint64_t)v; }

template <typename T> bool signBit(T x) {
  if constexpr (std::is_same_v<T, H>)
    return x.bits & 0x8000;
  else
    return std::signbit(val(x));
}

/// The value of T as a C expression with the exact bits.
template <typename T> std::string lit(T x) {
  char buf[96];
  if constexpr (std::is_same_v<T, H>) {
    std::snprintf(buf, sizeof buf, "__builtin_bit_cast(half, (uint16_t)0x%04x)", x.bits);
  } else if constexpr (std::is_same_v<T, float>) {
    uint32_t b;
    std::memcpy(&b, &x, 4);
    std::snprintf(buf, sizeof buf, "__builtin_bit_cast(float, (uint32_t)0x%08xu)", b);
  } else {
    std::snprintf(buf, sizeof buf, "(%s)%lld", Ty<T>::name, (long long)x);
  }
  return buf;
}

/// maximum / minimum: the first NaN operand, else the larger (smaller)
/// value, with -0 < +0.
template <typename T> T refMax(T a, T b) {
  if (isNaN(a))
    return a;
  if (isNaN(b))
    return b;
  if (val(a) != val(b))
    return val(a) > val(b) ? a : b;
  return signBit(a) ? b : a;
}
template <typename T> T refMin(T a, T b) {
  if (isNaN(a))
    return a;
  if (isNaN(b))
    return b;
  if (val(a) != val(b))
    return val(a) < val(b) ? a : b;
  return signBit(a) ? a : b;
}

template <typename T> T arith(char op, T a, T b) {
  if constexpr (isFloat<T>) {
    double x = val(a), y = val(b);
    double r = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
    return fromDouble<T>(r);
  } else {
    // In uint64_t: the low bits wrap<T> keeps, without signed overflow
    // (32-bit unsigned products exceed int64_t).
    uint64_t x = uint64_t(int64_t(a)), y = uint64_t(int64_t(b));
    return wrap<T>(int64_t(op == '+' ? x + y : op == '-' ? x - y : x * y));
  }
}

} // namespace intrtest

#endif // BANGC_TEST_INTRINSICS_REF_H
