//===- Cast.cpp - cnrtCastDataType_V2: host-side type conversion ----------===//
//
// mlu-ops converts half and bfloat16 values to float on the host with
// cnrtCastDataType_V2 (for example to print them). Every source value is
// read exactly into a long double (x86's 64-bit significand holds every
// value of every type here, int64 and uint64 included), then rounded once
// to the destination with the requested mode:
//   rn nearest, ties to even     rz toward zero    rd down    ru up
//   ro away from zero            rm nearest, ties away from zero
// Floating destinations overflow to infinity or to the largest finite value
// as IEEE 754 directs for the mode; integer destinations saturate and take
// 0 for NaN; a bool destination is "value != 0". Quantisation parameters are
// not supported (cnrtErrorNotSupport).
//
//===----------------------------------------------------------------------===//
#include "State.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

using namespace bangsim::cnrt;

namespace {

struct FloatFormat {
  int precision; ///< significand bits, the implicit one included
  int minExp;    ///< exponent of the smallest normal, as 2^minExp
  int maxExp;    ///< exponent of the largest finite, as 2^maxExp * 1.xxx
};
constexpr FloatFormat Half{11, -14, 15}, Bfloat{8, -126, 127},
    Float{24, -126, 127}, Double{53, -1022, 1023};

long double roundIntegral(long double x, cnrtRoundingMode_t mode) {
  switch (mode) {
  case cnrtRounding_rn: {
    long double f = std::floor(x), d = x - f;
    if (d > 0.5L || (d == 0.5L && std::fmod(f, 2.0L) != 0))
      return f + 1;
    return f;
  }
  case cnrtRounding_rz: return std::trunc(x);
  case cnrtRounding_rd: return std::floor(x);
  case cnrtRounding_ru: return std::ceil(x);
  case cnrtRounding_ro: return x < 0 ? std::floor(x) : std::ceil(x);
  default: return std::round(x); // rm: ties away from zero
  }
}

/// `v` rounded to the format: the result is exactly representable there.
long double roundToFormat(long double v, const FloatFormat &f,
                          cnrtRoundingMode_t mode) {
  if (std::isnan(v) || std::isinf(v) || v == 0)
    return v;
  int e;
  std::frexp(v, &e); // v = m * 2^e, 0.5 <= |m| < 1
  int exp = std::max(e - 1, f.minExp); // unbiased exponent of the leading bit
  int shift = f.precision - 1 - exp;   // scale so the last kept bit is 1
  long double scaled = std::ldexp(v, shift);
  long double r = std::ldexp(roundIntegral(scaled, mode), -shift);
  long double maxFinite =
      std::ldexp(2.0L - std::ldexp(1.0L, 1 - f.precision), f.maxExp);
  if (std::fabs(r) > maxFinite) {
    bool toInf = mode == cnrtRounding_rn || mode == cnrtRounding_rm ||
                 mode == cnrtRounding_ro ||
                 (mode == cnrtRounding_ru && r > 0) ||
                 (mode == cnrtRounding_rd && r < 0);
    long double inf = std::numeric_limits<long double>::infinity();
    return r > 0 ? (toInf ? inf : maxFinite) : (toInf ? -inf : -maxFinite);
  }
  return r;
}

uint16_t halfBits(long double v) {
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v))
    return 0x7e00;
  v = std::fabs(v);
  if (std::isinf(v))
    return sign | 0x7c00;
  if (v == 0)
    return sign;
  int e;
  std::frexp(v, &e);
  int exp = e - 1;
  if (exp < -14) // subnormal: v = m * 2^-24
    return sign | uint16_t(std::ldexp(v, 24));
  uint16_t mant = uint16_t(std::ldexp(v, 10 - exp) - 1024);
  return sign | uint16_t((exp + 15) << 10) | mant;
}

long double halfValue(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  long double s = (h & 0x8000) ? -1 : 1;
  if (exp == 0x1f)
    return mant ? std::numeric_limits<long double>::quiet_NaN()
                : s * std::numeric_limits<long double>::infinity();
  if (exp == 0)
    return s * std::ldexp((long double)mant, -24);
  return s * std::ldexp((long double)(mant + 1024), exp - 25);
}

size_t widthOf(int t) {
  switch (t) {
  case cnrtDouble: case cnrtUlonglong: case cnrtLonglong: return 8;
  case cnrtFloat: case cnrtUint: case cnrtInt: return 4;
  case cnrtHalf: case cnrtBfloat: case cnrtUshort: case cnrtShort: return 2;
  case cnrtUchar: case cnrtChar: case cnrtBoolean: return 1;
  default: return 0;
  }
}

long double load(const char *p, cnrtDataType_V2_t t) {
  auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (t) {
  case cnrtDouble: return get(double());
  case cnrtFloat: return get(float());
  case cnrtHalf: return halfValue(get(uint16_t()));
  case cnrtBfloat: {
    uint32_t bits = uint32_t(get(uint16_t())) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case cnrtUlonglong: return get(uint64_t());
  case cnrtUint: return get(uint32_t());
  case cnrtUshort: return get(uint16_t());
  case cnrtUchar: return get(uint8_t());
  case cnrtLonglong: return get(int64_t());
  case cnrtInt: return get(int32_t());
  case cnrtShort: return get(int16_t());
  case cnrtChar: return get(int8_t());
  default: return get(uint8_t()) != 0; // cnrtBoolean
  }
}

template <typename T> T toInteger(long double v, cnrtRoundingMode_t mode) {
  if (std::isnan(v))
    return 0;
  long double r = roundIntegral(v, mode);
  if (r <= (long double)std::numeric_limits<T>::min())
    return std::numeric_limits<T>::min();
  if (r >= (long double)std::numeric_limits<T>::max())
    return std::numeric_limits<T>::max();
  return T(r);
}

void store(char *p, cnrtDataType_V2_t t, long double v,
           cnrtRoundingMode_t mode) {
  auto put = [p](auto v) { std::memcpy(p, &v, sizeof v); };
  switch (t) {
  case cnrtDouble: put(double(roundToFormat(v, Double, mode))); return;
  case cnrtFloat: put(float(roundToFormat(v, Float, mode))); return;
  case cnrtHalf: put(halfBits(roundToFormat(v, Half, mode))); return;
  case cnrtBfloat: {
    float f = float(roundToFormat(v, Bfloat, mode));
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    if (std::isnan(f))
      bits = 0x7fc00000;
    put(uint16_t(bits >> 16));
    return;
  }
  case cnrtUlonglong: put(toInteger<uint64_t>(v, mode)); return;
  case cnrtUint: put(toInteger<uint32_t>(v, mode)); return;
  case cnrtUshort: put(toInteger<uint16_t>(v, mode)); return;
  case cnrtUchar: put(toInteger<uint8_t>(v, mode)); return;
  case cnrtLonglong: put(toInteger<int64_t>(v, mode)); return;
  case cnrtInt: put(toInteger<int32_t>(v, mode)); return;
  case cnrtShort: put(toInteger<int16_t>(v, mode)); return;
  case cnrtChar: put(toInteger<int8_t>(v, mode)); return;
  default: put(uint8_t(v != 0)); return; // cnrtBoolean (NaN != 0)
  }
}

} // namespace

cnrtRet_t cnrtCastDataType_V2(void *src, cnrtDataType_V2_t srcType, void *dst,
                              cnrtDataType_V2_t dstType, size_t count,
                              cnrtQuantizedParam_t param,
                              cnrtRoundingMode_t rounding) {
  const char *function = "cnrtCastDataType_V2";
  int rawSrc = rawEnum(srcType), rawDst = rawEnum(dstType);
  size_t srcWidth = widthOf(rawSrc), dstWidth = widthOf(rawDst);
  if (!srcWidth || !dstWidth)
    return fail(cnrtErrorArgsInvalid, function,
                "unknown data type " + llvm::Twine(srcWidth ? rawDst : rawSrc));
  if (unsigned(rawEnum(rounding)) >= unsigned(cnrtRounding_max))
    return fail(cnrtErrorArgsInvalid, function,
                "unknown rounding mode " + llvm::Twine(rawEnum(rounding)));
  if (param)
    return fail(cnrtErrorNotSupport, function,
                "quantisation parameters are not supported");
  if (count == 0)
    return cnrtSuccess;
  if (!src || !dst)
    return fail(cnrtErrorArgsInvalid, function,
                llvm::Twine(!src ? "src" : "dst") + " is NULL");
  const char *in = static_cast<const char *>(src);
  char *out = static_cast<char *>(dst);
  for (size_t i = 0; i < count; ++i)
    store(out + i * dstWidth, dstType, load(in + i * srcWidth, srcType),
          rounding);
  return cnrtSuccess;
}
