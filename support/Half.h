//===- Half.h - IEEE 754 binary16 conversions -------------------*- C++ -*-===//
//
// Bit-exact conversions between IEEE binary16 (stored as uint16_t) and
// float. float -> half rounds to nearest, ties to even, and keeps infinities
// and NaNs; half -> float is exact.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_SUPPORT_HALF_H
#define BANGC_SUPPORT_HALF_H

#include <cstdint>

namespace bangc {

float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);

/// Rounds a float to the nearest binary16 value and back.
inline float roundToHalf(float value) {
  return halfToFloat(floatToHalf(value));
}

} // namespace bangc

#endif // BANGC_SUPPORT_HALF_H
