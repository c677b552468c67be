//===- Half.cpp - IEEE 754 binary16 conversions --------------------------===//
#include "support/Half.h"

#include <cstring>

namespace bangc {

static uint32_t floatBits(float F) {
  uint32_t U;
  std::memcpy(&U, &F, sizeof(U));
  return U;
}

static float bitsFloat(uint32_t U) {
  float F;
  std::memcpy(&F, &U, sizeof(F));
  return F;
}

float halfToFloat(uint16_t Bits) {
  uint32_t Sign = uint32_t(Bits & 0x8000) << 16;
  uint32_t Exp = (Bits >> 10) & 0x1f;
  uint32_t Mant = Bits & 0x3ff;
  if (Exp == 0x1f) // Inf or NaN; keep the payload.
    return bitsFloat(Sign | 0x7f800000 | (Mant << 13));
  if (Exp != 0)
    return bitsFloat(Sign | ((Exp + 112) << 23) | (Mant << 13));
  // Zero or subnormal: value = Mant * 2^-24, exactly representable.
  float Mag = float(Mant) * bitsFloat(0x33800000); // 2^-24
  return (Sign ? -Mag : Mag);
}

uint16_t floatToHalf(float Value) {
  uint32_t U = floatBits(Value);
  uint16_t Sign = uint16_t((U >> 16) & 0x8000);
  uint32_t Exp = (U >> 23) & 0xff;
  uint32_t Mant = U & 0x7fffff;
  if (Exp == 0xff) { // Inf or NaN.
    if (Mant == 0)
      return Sign | 0x7c00;
    return Sign | 0x7e00 | uint16_t(Mant >> 13);
  }
  int32_t HalfExp = int32_t(Exp) - 127 + 15;
  if (HalfExp >= 0x1f) // Overflow to infinity.
    return Sign | 0x7c00;
  if (HalfExp <= 0) {
    // Subnormal half (or zero). Shift the full significand into place and
    // round to nearest even.
    if (HalfExp < -10)
      return Sign; // Rounds to zero (values below half the smallest subnormal).
    uint32_t Full = Mant | 0x800000;
    uint32_t Shift = uint32_t(14 - HalfExp);
    uint32_t Res = Full >> Shift;
    uint32_t Rem = Full & ((1u << Shift) - 1);
    uint32_t HalfWay = 1u << (Shift - 1);
    if (Rem > HalfWay || (Rem == HalfWay && (Res & 1)))
      ++Res;
    return Sign | uint16_t(Res);
  }
  uint32_t Res = (uint32_t(HalfExp) << 10) | (Mant >> 13);
  uint32_t Rem = Mant & 0x1fff;
  if (Rem > 0x1000 || (Rem == 0x1000 && (Res & 1)))
    ++Res; // May carry into the exponent, up to infinity: that is correct.
  return Sign | uint16_t(Res);
}

} // namespace bangc
