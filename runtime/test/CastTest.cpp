//===- CastTest.cpp - cnrtCastDataType_V2 conversions and rounding --------===//
#include "cnrt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

uint16_t toHalf(float v, cnrtRoundingMode_t mode) {
  uint16_t h = 0xffff;
  EXPECT_EQ(cnrtCastDataType_V2(&v, cnrtFloat, &h, cnrtHalf, 1, nullptr, mode),
            cnrtSuccess);
  return h;
}

float fromHalf(uint16_t h) {
  float f = -1;
  EXPECT_EQ(cnrtCastDataType_V2(&h, cnrtHalf, &f, cnrtFloat, 1, nullptr,
                                cnrtRounding_rm),
            cnrtSuccess);
  return f;
}

TEST(CnrtCast, HalfToFloatIsExact) {
  EXPECT_EQ(fromHalf(0x3c00), 1.0f);
  EXPECT_EQ(fromHalf(0xc000), -2.0f);
  EXPECT_EQ(fromHalf(0x7bff), 65504.0f);
  EXPECT_EQ(fromHalf(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
  EXPECT_EQ(fromHalf(0x0400), std::ldexp(1.0f, -14)); // smallest normal
  EXPECT_TRUE(std::isinf(fromHalf(0xfc00)) && fromHalf(0xfc00) < 0);
  EXPECT_TRUE(std::isnan(fromHalf(0x7e01)));
  // Every finite half survives half -> float -> half.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00)
      continue;
    EXPECT_EQ(toHalf(fromHalf(uint16_t(h)), cnrtRounding_rn), h) << h;
  }
}

TEST(CnrtCast, FloatToHalfRoundingModes) {
  const float tie = 1.0f + std::ldexp(1.0f, -11); // halfway 1 and 1+2^-10
  EXPECT_EQ(toHalf(tie, cnrtRounding_rn), 0x3c00);  // ties to even
  EXPECT_EQ(toHalf(tie, cnrtRounding_rm), 0x3c01);  // ties away
  const float tie2 = 1.0f + 3 * std::ldexp(1.0f, -11); // odd below: up to even
  EXPECT_EQ(toHalf(tie2, cnrtRounding_rn), 0x3c02);
  const float small = 1.0f + std::ldexp(1.0f, -12);
  EXPECT_EQ(toHalf(small, cnrtRounding_rn), 0x3c00);
  EXPECT_EQ(toHalf(small, cnrtRounding_ru), 0x3c01);
  EXPECT_EQ(toHalf(small, cnrtRounding_ro), 0x3c01);
  EXPECT_EQ(toHalf(small, cnrtRounding_rz), 0x3c00);
  EXPECT_EQ(toHalf(small, cnrtRounding_rd), 0x3c00);
  EXPECT_EQ(toHalf(-small, cnrtRounding_rd), 0xbc01);
  EXPECT_EQ(toHalf(-small, cnrtRounding_ru), 0xbc00);
  EXPECT_EQ(toHalf(-small, cnrtRounding_ro), 0xbc01);
  // Overflow: to infinity or to the largest finite value by mode.
  EXPECT_EQ(toHalf(70000.0f, cnrtRounding_rn), 0x7c00);
  EXPECT_EQ(toHalf(70000.0f, cnrtRounding_rz), 0x7bff);
  EXPECT_EQ(toHalf(70000.0f, cnrtRounding_rd), 0x7bff);
  EXPECT_EQ(toHalf(-70000.0f, cnrtRounding_rd), 0xfc00);
  EXPECT_EQ(toHalf(-70000.0f, cnrtRounding_ru), 0xfbff);
  EXPECT_EQ(toHalf(65519.0f, cnrtRounding_rn), 0x7bff); // below the midpoint
  EXPECT_EQ(toHalf(65520.0f, cnrtRounding_rn), 0x7c00); // the midpoint
  // Subnormals and underflow.
  EXPECT_EQ(toHalf(std::ldexp(1.0f, -24), cnrtRounding_rn), 0x0001);
  EXPECT_EQ(toHalf(std::ldexp(1.0f, -26), cnrtRounding_rn), 0x0000);
  EXPECT_EQ(toHalf(std::ldexp(1.0f, -26), cnrtRounding_ru), 0x0001);
  EXPECT_EQ(toHalf(-0.0f, cnrtRounding_rn), 0x8000);
  EXPECT_EQ(toHalf(std::numeric_limits<float>::quiet_NaN(), cnrtRounding_rn) &
                0x7c00,
            0x7c00);
}

TEST(CnrtCast, Bfloat16) {
  float in[3] = {1.0f, 1.0f + std::ldexp(1.0f, -8), -3.5f}, out[3];
  uint16_t b[3];
  ASSERT_EQ(cnrtCastDataType_V2(in, cnrtFloat, b, cnrtBfloat, 3, nullptr,
                                cnrtRounding_rn),
            cnrtSuccess);
  EXPECT_EQ(b[0], 0x3f80);
  EXPECT_EQ(b[1], 0x3f80); // a tie, to even
  EXPECT_EQ(b[2], 0xc060);
  ASSERT_EQ(cnrtCastDataType_V2(b, cnrtBfloat, out, cnrtFloat, 3, nullptr,
                                cnrtRounding_rm),
            cnrtSuccess);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[2], -3.5f);
  ASSERT_EQ(cnrtCastDataType_V2(in + 1, cnrtFloat, b, cnrtBfloat, 1, nullptr,
                                cnrtRounding_rm),
            cnrtSuccess);
  EXPECT_EQ(b[0], 0x3f81);
}

TEST(CnrtCast, IntegersSaturateAndRound) {
  float in[5] = {2.5f, -2.5f, 1e10f, -1e10f, std::nanf("")};
  int32_t out[5];
  ASSERT_EQ(cnrtCastDataType_V2(in, cnrtFloat, out, cnrtInt, 5, nullptr,
                                cnrtRounding_rn),
            cnrtSuccess);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], -2);
  EXPECT_EQ(out[2], INT32_MAX);
  EXPECT_EQ(out[3], INT32_MIN);
  EXPECT_EQ(out[4], 0);
  ASSERT_EQ(cnrtCastDataType_V2(in, cnrtFloat, out, cnrtInt, 2, nullptr,
                                cnrtRounding_rm),
            cnrtSuccess);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], -3);
  uint8_t u[2];
  ASSERT_EQ(cnrtCastDataType_V2(in + 1, cnrtFloat, u, cnrtUchar, 2, nullptr,
                                cnrtRounding_rz),
            cnrtSuccess);
  EXPECT_EQ(u[0], 0);
  EXPECT_EQ(u[1], 255);
  // int64 -> double rounds once, exactly.
  int64_t big = (int64_t(1) << 53) + 1;
  double d = 0;
  ASSERT_EQ(cnrtCastDataType_V2(&big, cnrtLonglong, &d, cnrtDouble, 1, nullptr,
                                cnrtRounding_ru),
            cnrtSuccess);
  EXPECT_EQ(d, std::ldexp(1.0, 53) + 2);
  bool flags[2];
  float bools[2] = {0.0f, -0.25f};
  ASSERT_EQ(cnrtCastDataType_V2(bools, cnrtFloat, flags, cnrtBoolean, 2,
                                nullptr, cnrtRounding_rn),
            cnrtSuccess);
  EXPECT_FALSE(flags[0]);
  EXPECT_TRUE(flags[1]);
}

TEST(CnrtCast, BadArguments) {
  float f = 1, g;
  EXPECT_EQ(cnrtCastDataType_V2(&f, cnrtDataType_V2_t(0x99), &g, cnrtFloat, 1,
                                nullptr, cnrtRounding_rn),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtCastDataType_V2(&f, cnrtFloat, &g, cnrtUnknown, 1, nullptr,
                                cnrtRounding_rn),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtCastDataType_V2(&f, cnrtFloat, &g, cnrtFloat, 1, nullptr,
                                cnrtRounding_max),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtCastDataType_V2(&f, cnrtFloat, &g, cnrtFloat, 1,
                                reinterpret_cast<cnrtQuantizedParam_t>(&f),
                                cnrtRounding_rn),
            cnrtErrorNotSupport);
  EXPECT_EQ(cnrtCastDataType_V2(nullptr, cnrtFloat, &g, cnrtFloat, 1, nullptr,
                                cnrtRounding_rn),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtCastDataType_V2(nullptr, cnrtFloat, nullptr, cnrtFloat, 0,
                                nullptr, cnrtRounding_rn),
            cnrtSuccess);
}

} // namespace
