#include "support/Half.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace bangc;

TEST(Half, KnownValues) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // rounds up to infinity
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(floatToHalf(5.9604645e-8f), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(2.9802322e-8f), 0x0000); // exactly half of it: even
  EXPECT_EQ(floatToHalf(0.333333333f), 0x3555);
  EXPECT_EQ(halfToFloat(0x3555), 0.33325195f);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
}

TEST(Half, RoundTripAllHalves) {
  // Every non-NaN half converts to float and back unchanged.
  for (uint32_t b = 0; b < 0x10000; ++b) {
    uint16_t h = uint16_t(b);
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
      continue;
    ASSERT_EQ(floatToHalf(halfToFloat(h)), h) << std::hex << b;
  }
}

TEST(Half, TiesToEven) {
  // 1 + 2^-11 lies exactly between 1 and 1 + 2^-10: rounds to 1 (even).
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3*2^-11 lies between 1+2^-10 (odd) and 1+2^-9 (even): rounds up.
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
}
