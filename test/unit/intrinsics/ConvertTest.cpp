//===- ConvertTest.cpp - Conversions with explicit rounding ---------------===//
#include "Ref.h"

#include <algorithm>
#include <cmath>

using namespace intrtest;

namespace {

// RD is to nearest with ties away from zero (C's round()); DN is down.
enum Mode { RN, TZ, RD, UP, DN };
const char *const suffix[] = {"rn", "tz", "rd", "up", "dn"};
const Mode allModes[] = {RN, TZ, RD, UP, DN};

/// Every non-negative finite binary16 value, ascending (bits 0..0x7bff).
const std::vector<double> &halfTable() {
  static const std::vector<double> t = [] {
    std::vector<double> v;
    for (uint32_t b = 0; b <= 0x7bff; ++b)
      v.push_back(bangc::halfToFloat((uint16_t)b));
    return v;
  }();
  return t;
}

/// An exact value rounded to binary16 in `mode`, from the table of values
/// (independent of support/Half.cpp and of the device library).
H toHalf(double v, Mode mode) {
  if (std::isnan(v))
    return H::fromBits(0x7e00);
  bool neg = std::signbit(v);
  uint16_t sign = neg ? 0x8000 : 0;
  double m = std::fabs(v);
  if (std::isinf(v))
    return H::fromBits(sign | 0x7c00);
  // Toward zero or away from zero, for this sign.
  bool towardZero = mode == TZ || (mode == DN && !neg) || (mode == UP && neg);
  const std::vector<double> &t = halfTable();
  size_t hi = std::lower_bound(t.begin(), t.end(), m) - t.begin();
  if (hi < t.size() && t[hi] == m)
    return H::fromBits(sign | (uint16_t)hi);
  // t[hi-1] < m < t[hi], with t[size] = the infinity.
  size_t lo = hi - 1;
  uint16_t bits;
  if (mode == RN || mode == RD) {
    if (hi == t.size()) // above the largest: the next step would be 2^16
      bits = m >= 65520.0 ? 0x7c00 : 0x7bff;
    else {
      double dl = m - t[lo], dh = t[hi] - m;
      size_t tie = mode == RD ? hi : (lo % 2 == 0 ? lo : hi);
      bits = (uint16_t)(dl < dh ? lo : dh < dl ? hi : tie);
    }
  } else {
    bits = (uint16_t)(towardZero ? lo : hi); // hi == 0x7c00 is the infinity
  }
  return H::fromBits(sign | bits);
}

double roundMode(double v, Mode m) {
  switch (m) {
  case RN:
    return std::nearbyint(v); // ties to even in the default mode
  case TZ:
    return std::trunc(v);
  case RD:
    return std::round(v); // ties away from zero
  case DN:
    return std::floor(v);
  default:
    return std::ceil(v);
  }
}

template <typename I> I toInt(double v, Mode m) {
  if (std::isnan(v))
    return 0;
  double r = roundMode(v, m);
  if (r <= (double)std::numeric_limits<I>::min())
    return std::numeric_limits<I>::min();
  if (r >= (double)std::numeric_limits<I>::max())
    return std::numeric_limits<I>::max();
  return (I)r;
}

template <typename S> double srcValue(S x) { return val(x); }

/// The conversion in mode m; plain (no suffix) is TZ.
template <typename I, typename S>
void toIntCase(Batch &b, Gen &g, const char *from, const char *to, Mode m, int pos,
               bool plain = false) {
  int n = m == RN ? 261 : 67;
  auto x = g.vec<S>(n);
  // Exact ties of every kind at this position.
  for (int i = 0; i < n; i += 5)
    x[i] = fromDouble<S>(std::ldexp(g.range(-80, 80) + 0.5, pos));
  int64_t ox = b.nram(x), od = b.scratch(n * sizeof(I));
  std::string name = std::string("__bang_") + from + "2" + to +
                     (plain ? std::string() : std::string("_") + suffix[m]);
  b.call(name + "(" + Batch::p<I>(od) + ", " + Batch::p<S>(ox) + ", " +
         std::to_string(n) + ", " + std::to_string(pos) + ");");
  auto want = mapRef<I>(x, [&](S v) { return toInt<I>(std::ldexp(srcValue(v), -pos), m); });
  b.expect(od, want, name + " pos=" + std::to_string(pos));
}

template <typename D, typename I>
void fromIntCase(Batch &b, Gen &g, const char *from, const char *to, int pos) {
  int n = 261;
  auto x = g.vec<I>(n);
  // Values that need rounding to half or float.
  for (int i = 0; i < n; i += 3)
    x[i] = (I)(g.u32() >> (sizeof(I) == 4 ? g.range(1, 12) : g.range(1, 6)));
  if (sizeof(I) == 4) { // through float, these would round twice
    x[1] = (I)((1 << 25) + (1 << 14) + 1);
    x[2] = (I)-((1 << 25) + (1 << 14) + 1);
    x[4] = (I)((1 << 30) + (1 << 19) + 1);
  }
  int64_t ox = b.nram(x), od = b.scratch(n * sizeof(D));
  std::string name = std::string("__bang_") + from + "2" + to;
  b.call(name + "(" + Batch::p<D>(od) + ", " + Batch::p<I>(ox) + ", " +
         std::to_string(n) + ", " + std::to_string(pos) + ");");
  auto want = mapRef<D>(x, [&](I v) {
    double e = std::ldexp((double)v, pos); // exact
    if constexpr (std::is_same_v<D, H>)
      return toHalf(e, RN);
    else
      return (float)e; // one rounding of an exact double
  });
  b.expect(od, want, name + " pos=" + std::to_string(pos));
}

/// Fixed point to fixed point: floor(x * 2^(src_pos - dst_pos)), saturated.
template <typename D, typename S> D fixRef(S x, int dstPos, int srcPos) {
  long double v = std::ldexp((long double)x, srcPos - dstPos);
  long double f = std::floor(v);
  if (f <= (long double)std::numeric_limits<D>::min())
    return std::numeric_limits<D>::min();
  if (f >= (long double)std::numeric_limits<D>::max())
    return std::numeric_limits<D>::max();
  return (D)f;
}

template <typename D, typename S>
void fixCase(Batch &b, Gen &g, const char *name, int dstPos, int srcPos) {
  int n = 67;
  auto x = g.vec<S>(n);
  int64_t ox = b.nram(x), od = b.scratch(n * sizeof(D));
  b.call(std::string(name) + "(" + Batch::p<D>(od) + ", " + Batch::p<S>(ox) + ", " +
         std::to_string(n) + ", " + std::to_string(dstPos) + ", " +
         std::to_string(srcPos) + ");");
  auto want = mapRef<D>(x, [&](S v) { return fixRef<D>(v, dstPos, srcPos); });
  b.expect(od, want, std::string(name) + " dst_pos=" + std::to_string(dstPos) +
                         " src_pos=" + std::to_string(srcPos));
}

} // namespace

TEST(Convert, FloatHalf) {
  Gen g(11);
  Batch b("float_half");
  for (Mode m : allModes)
    for (int n : counts()) {
      auto x = g.vec<float>(n);
      // Values near half's rounding points, overflow and underflow.
      for (int i = 0; i < n; i += 2)
        x[i] = std::ldexp(g.uniform(-2, 2), g.range(-27, 17));
      int64_t ox = b.nram(x), od = b.scratch(n * 2);
      std::string name = std::string("__bang_float2half_") + suffix[m];
      b.call(name + "(" + Batch::p<H>(od) + ", " + Batch::p<float>(ox) + ", " +
             std::to_string(n) + ");");
      b.expect(od, mapRef<H>(x, [&](float v) { return toHalf(v, m); }),
               name + " n=" + std::to_string(n));
    }
  for (int n : counts()) {
    auto x = g.vec<H>(n);
    int64_t ox = b.nram(x), od = b.scratch(n * 4);
    b.call("__bang_half2float(" + Batch::p<float>(od) + ", " + Batch::p<H>(ox) + ", " +
           std::to_string(n) + ");");
    b.expect(od, mapRef<float>(x, [](H v) { return v.f(); }),
             "__bang_half2float n=" + std::to_string(n));
  }
  // RN of every half-way case between two halves is the even one: a check
  // of the table reference itself.
  EXPECT_EQ(toHalf(1.0 + 1.0 / 2048, RN).bits, 0x3c00);
  EXPECT_EQ(toHalf(1.0 + 3.0 / 2048, RN).bits, 0x3c02);
  EXPECT_EQ(toHalf(65520.0, RN).bits, 0x7c00);
  EXPECT_EQ(toHalf(65519.0, RN).bits, 0x7bff);
  EXPECT_EQ(toHalf(1e6, TZ).bits, 0x7bff);
  EXPECT_EQ(toHalf(-1e-9, DN).bits, 0x8001);
  EXPECT_EQ(toHalf(-1e-9, UP).bits, 0x8000);
  EXPECT_EQ(toHalf(1.0 + 1.0 / 2048, RD).bits, 0x3c01);
  EXPECT_EQ(toHalf(-(1.0 + 1.0 / 2048), RD).bits, 0xbc01);
  EXPECT_EQ(toHalf(std::ldexp(1.0, -25), RD).bits, 0x0001);
  b.run();
}

TEST(Convert, ToInteger) {
  Gen g(12);
  Batch b("to_int");
  for (Mode m : allModes)
    for (int pos : {0, 3, -5}) {
      toIntCase<int32_t, float>(b, g, "float", "int32", m, pos);
      toIntCase<int32_t, H>(b, g, "half", "int32", m, pos);
      toIntCase<int16_t, float>(b, g, "float", "int16", m, pos);
      toIntCase<int16_t, H>(b, g, "half", "int16", m, pos);
      toIntCase<int8_t, float>(b, g, "float", "int8", m, pos);
      toIntCase<int8_t, H>(b, g, "half", "int8", m, pos);
    }
  // No suffix: toward zero.
  for (int pos : {0, 2}) {
    toIntCase<int32_t, float>(b, g, "float", "int32", TZ, pos, true);
    toIntCase<int32_t, H>(b, g, "half", "int32", TZ, pos, true);
    toIntCase<int16_t, float>(b, g, "float", "int16", TZ, pos, true);
    toIntCase<int16_t, H>(b, g, "half", "int16", TZ, pos, true);
    toIntCase<int8_t, float>(b, g, "float", "int8", TZ, pos, true);
    toIntCase<int8_t, H>(b, g, "half", "int8", TZ, pos, true);
  }
  b.run();
}

TEST(Convert, FromIntegerAndFixedPoint) {
  Gen g(13);
  Batch b("from_int");
  for (int pos : {0, 4, -7, -10, -15, -20}) {
    fromIntCase<float, int32_t>(b, g, "int32", "float", pos);
    fromIntCase<H, int32_t>(b, g, "int32", "half", pos);
    fromIntCase<float, int16_t>(b, g, "int16", "float", pos);
    fromIntCase<H, int16_t>(b, g, "int16", "half", pos);
    fromIntCase<float, int8_t>(b, g, "int8", "float", pos);
    fromIntCase<H, int8_t>(b, g, "int8", "half", pos);
  }
  for (auto [d, s] : std::vector<std::pair<int, int>>{
           {0, 0}, {4, 0}, {0, 4}, {-3, 5}, {7, -2}, {40, 0}, {0, 40}, {-100, 100}}) {
    fixCase<int16_t, int32_t>(b, g, "__bang_int322int16", d, s);
    fixCase<int32_t, int16_t>(b, g, "__bang_int162int32", d, s);
  }
  b.run();
}

namespace {

/// An exact value (|v| < 2^53) rounded to float in `mode`.
float toFloat(double v, Mode mode) {
  float f = (float)v; // to nearest even
  if ((double)f == v || mode == RN)
    return f;
  float lo = (double)f < v ? f : std::nextafter(f, -INFINITY);
  float hi = (double)f > v ? f : std::nextafter(f, INFINITY);
  switch (mode) {
  case TZ:
    return v > 0 ? lo : hi;
  case DN:
    return lo;
  case UP:
    return hi;
  default: { // RD: nearest, ties away from zero
    double dl = v - lo, dh = hi - v;
    return dl < dh ? lo : dh < dl ? hi : (v > 0 ? hi : lo);
  }
  }
}

/// float to bfloat16 bits in `mode`, from the float's value (NaN: quiet,
/// same sign and high bits).
uint16_t toBf16(float x, Mode mode) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if (std::isnan(x))
    return (uint16_t)((u >> 16) | 0x40);
  auto asFloat = [](uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return (double)f;
  };
  uint32_t t = u & 0xffff0000u;
  double v = x, zt = asFloat(t), away = asFloat(t + 0x10000u);
  if (zt == v)
    return (uint16_t)(t >> 16);
  if (std::isinf(away)) // past the largest: rounds as if to 2^128
    away = std::copysign(std::ldexp(1.0, 128), away);
  bool neg = std::signbit(x);
  bool pickAway;
  double dz = std::fabs(v - zt), da = std::fabs(away - v);
  switch (mode) {
  case TZ:
    pickAway = false;
    break;
  case DN:
    pickAway = neg;
    break;
  case UP:
    pickAway = !neg;
    break;
  case RD:
    pickAway = da <= dz;
    break;
  default:
    pickAway = da < dz || (da == dz && ((t >> 16) & 1));
  }
  return (uint16_t)((t >> 16) + (pickAway ? 1 : 0));
}

} // namespace

TEST(Convert, Int32ToFloatModes) {
  Gen g(14);
  Batch b("int32_float_modes");
  for (Mode m : allModes)
    for (int pos : {0, 3, -9}) {
      int n = 131;
      auto x = g.vec<int32_t>(n);
      for (int i = 0; i < n; i += 3) // inexact above 2^24, with exact ties
        x[i] = (int32_t)(((g.u32() >> g.range(0, 6)) | 0x1000000u) & 0x7fffffffu) *
               (g.range(0, 1) ? 1 : -1);
      x[1] = (1 << 24) + 1; // a tie
      x[2] = -((1 << 24) + 3);
      x[4] = INT32_MIN;
      x[5] = INT32_MAX;
      int64_t ox = b.nram(x), od = b.scratch(n * 4);
      std::string name = std::string("__bang_int322float_") + suffix[m];
      b.call(name + "(" + Batch::p<float>(od) + ", " + Batch::p<int32_t>(ox) + ", " +
             std::to_string(n) + ", " + std::to_string(pos) + ");");
      b.expect(od, mapRef<float>(x, [&](int32_t v) {
                 return std::ldexp(toFloat((double)v, m), pos);
               }),
               name + " pos=" + std::to_string(pos));
    }
  EXPECT_EQ(toFloat((1 << 24) + 1, RD), 16777218.0f);
  EXPECT_EQ(toFloat((1 << 24) + 1, RN), 16777216.0f);
  EXPECT_EQ(toFloat(-((1 << 24) + 1), DN), -16777218.0f);
  b.run();
}

TEST(Convert, Bfloat16) {
  Gen g(15);
  Batch b("bf16");
  for (Mode m : allModes)
    for (int n : counts()) {
      auto x = g.vec<float>(n);
      for (int i = 0; i < n; i += 4) { // exact ties between two bfloat16
        uint32_t bits = (g.u32() & 0xffff0000u) | 0x8000u;
        std::memcpy(&x[i], &bits, 4);
      }
      int64_t ox = b.nram(x), od = b.scratch(n * 2);
      std::string name = std::string("__bang_float2bfloat16_") + suffix[m];
      b.call(name + "(" + Batch::p("bfloat16_t", od) + ", " + Batch::p<float>(ox) + ", " +
             std::to_string(n) + ");");
      b.expect(od, mapRef<uint16_t>(x, [&](float v) { return toBf16(v, m); }),
               name + " n=" + std::to_string(n));
    }
  for (int n : counts()) {
    auto x = g.vec<uint16_t>(n);
    int64_t ox = b.nram(x), od = b.scratch(n * 4);
    b.call("__bang_bfloat162float(" + Batch::p<float>(od) + ", " +
           Batch::p("bfloat16_t", ox) + ", " + std::to_string(n) + ");");
    b.expect(od, mapRef<float>(x, [](uint16_t v) {
               uint32_t u = (uint32_t)v << 16;
               float f;
               std::memcpy(&f, &u, 4);
               return f;
             }),
             "__bang_bfloat162float n=" + std::to_string(n));
  }
  EXPECT_EQ(toBf16(1.0f + 1.0f / 256, RN), 0x3f80); // tie to even
  EXPECT_EQ(toBf16(1.0f + 1.0f / 256, RD), 0x3f81); // tie away
  EXPECT_EQ(toBf16(-1.0f - 1.0f / 1024, DN), 0xbf81);
  b.run();
}

TEST(Convert, ScalarToInt32) {
  Gen g(16);
  Batch b("scalar_to_int32");
  const char *plainAndModes[] = {"", "_rn", "_tz", "_rd", "_dn", "_up"};
  const Mode modeOf[] = {TZ, RN, TZ, RD, DN, UP};
  for (int k = 0; k < 6; ++k)
    for (int from = 0; from < 2; ++from) {
      int n = 41;
      std::vector<int32_t> want(n);
      int64_t od = b.scratch(n * 4);
      std::string name = std::string(from ? "__half2int32" : "__float2int32") +
                         plainAndModes[k];
      for (int i = 0; i < n; ++i) {
        std::string arg;
        double v;
        if (from) {
          H h = i % 3 ? g.value<H>() : H::round(g.range(-60, 60) * 0.5f);
          arg = lit(h);
          v = h.f();
        } else {
          float f = i % 3 ? g.value<float>() : g.range(-60, 60) * 0.5f;
          arg = lit(f);
          v = f;
        }
        want[i] = toInt<int32_t>(v, modeOf[k]);
        b.call(Batch::p<int32_t>(od) + "[" + std::to_string(i) + "] = " + name + "(" +
               arg + ");");
      }
      b.expect(od, want, name);
    }
  b.run();
}

TEST(Convert, CnMathCast) {
  Gen g(17);
  Batch b("cn_cast");
  for (int n : counts()) {
    auto x = g.vec<float>(n);
    int64_t ox = b.nram(x), od = b.scratch(n * 4);
    b.call("__cn_vector_cast_f32_to_s32(" + std::to_string(n) + ", " + Batch::p<int32_t>(od) +
           ", " + Batch::p<float>(ox) + ");");
    b.expect(od, mapRef<int32_t>(x, [](float v) { return toInt<int32_t>(v, TZ); }),
             "__cn_vector_cast_f32_to_s32 n=" + std::to_string(n));
  }
  b.run();
}
