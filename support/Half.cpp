//===- Half.cpp - IEEE 754 binary16 conversions --------------------------===//
#include "support/Half.h"

#include <cstring>

namespace bangc {

static uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

static float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t mant = bits & 0x3ff;
  if (exp == 0x1f) // Inf or NaN; keep the payload.
    return bitsFloat(sign | 0x7f800000 | (mant << 13));
  if (exp != 0)
    return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
  // Zero or subnormal: value = Mant * 2^-24, exactly representable.
  float mag = float(mant) * bitsFloat(0x33800000); // 2^-24
  return (sign ? -mag : mag);
}

uint16_t floatToHalf(float value) {
  uint32_t u = floatBits(value);
  uint16_t sign = uint16_t((u >> 16) & 0x8000);
  uint32_t exp = (u >> 23) & 0xff;
  uint32_t mant = u & 0x7fffff;
  if (exp == 0xff) { // Inf or NaN.
    if (mant == 0)
      return sign | 0x7c00;
    return sign | 0x7e00 | uint16_t(mant >> 13);
  }
  int32_t halfExp = int32_t(exp) - 127 + 15;
  if (halfExp >= 0x1f) // Overflow to infinity.
    return sign | 0x7c00;
  if (halfExp <= 0) {
    // Subnormal half (or zero). Shift the full significand into place and
    // round to nearest even.
    if (halfExp < -10)
      return sign; // Rounds to zero (values below half the smallest subnormal).
    uint32_t full = mant | 0x800000;
    uint32_t shift = uint32_t(14 - halfExp);
    uint32_t res = full >> shift;
    uint32_t rem = full & ((1u << shift) - 1);
    uint32_t halfWay = 1u << (shift - 1);
    if (rem > halfWay || (rem == halfWay && (res & 1)))
      ++res;
    return sign | uint16_t(res);
  }
  uint32_t res = (uint32_t(halfExp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (res & 1)))
    ++res; // May carry into the exponent, up to infinity: that is correct.
  return sign | uint16_t(res);
}

} // namespace bangc
