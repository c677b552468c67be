//===- Convert.h - Type conversions with explicit rounding ------*- C++ -*-===//
//
// Rounding suffixes: _rn to nearest, ties to even; _tz toward zero; _rd to
// nearest, ties away from zero (C's round(), as mlu-ops uses it); _dn down
// (toward -inf); _up up (toward +inf); no suffix: _tz for float to integer,
// _rn for integer to float. Conversions to integers saturate to the
// destination range and turn NaN into 0. A fixed-point position `pos` (in
// [-126, 127]) scales: float -> int gives round(x * 2^-pos); int -> float
// gives x * 2^pos, rounded once in the mode (to nearest even by default).
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_CONVERT_H
#define BANG_DEVICELIB_CONVERT_H

#include "DeviceLib.h"

namespace bangdev {

enum Rounding { RN, TZ, RD, UP, DN };

/// The next binary16 value toward +inf (up) or -inf (!up); h is finite.
BANG_DEV half halfStep(half h, bool up) {
  uint16_t bits = __builtin_bit_cast(uint16_t, h);
  bool negative = bits & 0x8000;
  if ((bits & 0x7fff) == 0) // +-0
    return __builtin_bit_cast(half, (uint16_t)(up ? 0x0001 : 0x8001));
  bits = (negative == up) ? bits - 1 : bits + 1;
  return __builtin_bit_cast(half, bits);
}

template <int R> BANG_DEV half floatToHalf(float x) {
  half h = (half)x; // round to nearest even
  if (R == RN || isNaN(x))
    return h;
  float back = (float)h;
  if (back == x)
    return h;
  bool tooHigh = back > x;
  if (R == RD) { // differs from RN on an exact tie only: then away from zero
    half other = halfStep(h, !tooHigh);
    double dh = (double)back - x, dother = (double)(float)other - x;
    bool tie = dh == -dother;
    bool hAway = (x > 0) == tooHigh; // |h| > |x|
    return tie && !hAway ? other : h;
  }
  // Infinity from an overflow of a finite value steps back to the largest.
  if (R == TZ) {
    if (x > 0 && tooHigh)
      return halfStep(h, false);
    if (x < 0 && !tooHigh)
      return halfStep(h, true);
    return h;
  }
  if (R == DN)
    return tooHigh ? halfStep(h, false) : h;
  return tooHigh ? h : halfStep(h, true);
}

/// float to bfloat16 (the high 16 bits of a float) in rounding mode R.
template <int R> BANG_DEV __bf16 floatToBf16(float x) {
  uint32_t u = __builtin_bit_cast(uint32_t, x);
  if (isNaN(x)) // a quiet NaN of the same sign
    return __builtin_bit_cast(__bf16, (uint16_t)((u >> 16) | 0x40));
  uint32_t low = u & 0xffff;
  uint16_t trunc = (uint16_t)(u >> 16); // toward zero; trunc + 1 is away
  bool negative = u >> 31;
  bool away;
  if (R == RN)
    away = low > 0x8000 || (low == 0x8000 && (trunc & 1));
  else if (R == RD)
    away = low >= 0x8000;
  else if (R == TZ)
    away = false;
  else if (R == DN)
    away = negative && low != 0;
  else
    away = !negative && low != 0;
  return __builtin_bit_cast(__bf16, (uint16_t)(trunc + (away ? 1 : 0)));
}

/// 2^p as a float, for p in [-126, 127] (a normal number: scaling by it is
/// exact unless the result overflows or falls below 2^-126).
BANG_DEV float pow2(int p) {
  return __builtin_bit_cast(float, (uint32_t)(p + 127) << 23);
}
BANG_DEV void checkPos(int pos) {
  if (pos < -126 || pos > 127)
    __bangsim_fault("fixed-point position outside [-126, 127]");
}

template <int R> BANG_DEV float roundFloat(float x) {
  if (R == RN)
    return __builtin_rintf(x);
  if (R == TZ)
    return __builtin_truncf(x);
  if (R == RD)
    return __builtin_roundf(x);
  if (R == DN)
    return __builtin_floorf(x);
  return __builtin_ceilf(x);
}

template <typename I, int R> BANG_DEV I floatToInt(float x) {
  constexpr float lo = (float)(I)(((I)1) << (sizeof(I) * 8 - 1));
  constexpr float hi = -lo; // 2^(bits-1), just above the largest value
  float r = roundFloat<R>(x);
  if (isNaN(r))
    return 0;
  if (r <= lo)
    return (I)(((I)1) << (sizeof(I) * 8 - 1));
  if (r >= hi)
    return (I)~(((I)1) << (sizeof(I) * 8 - 1));
  return (I)r;
}

template <typename D, typename S, typename F>
BANG_DEV void convert(RowClass opClass, D *dst, const S *src, int n, F f) {
  checkCount(n);
  reads(src, n);
  writes(dst, n);
  charge<D>(opClass, n);
  for (int i = 0; i < n; ++i)
    dst[i] = f(src[i]);
}

template <int R>
BANG_DEV void f2h(RowClass opClass, half *dst, const float *src, int n) {
  convert(opClass, dst, src, n, [](float x) { return floatToHalf<R>(x); });
}

template <typename I, int R, typename S>
BANG_DEV void toInt(RowClass opClass, I *dst, const S *src, int n, int pos) {
  checkPos(pos);
  float scale = pow2(-pos);
  convert(opClass, dst, src, n, [scale](S x) {
    float v = (float)x, r = v * scale;
    // A product that underflows to 0 keeps its sign for the rounding: any
    // nonzero value below 1 in magnitude rounds as the exact one would.
    r = (r == 0.0f && v != 0.0f) ? __builtin_copysignf(1e-30f, v) : r;
    return floatToInt<I, R>(r);
  });
}

/// int32 to float rounded to odd (truncated, and the last bit set when
/// inexact): rounding that once more to half is then the correctly rounded
/// int32 to half, which float's 24 bits >= 11 + 2 guarantee.
BANG_DEV float int32ToFloatOdd(int32_t x) {
  float f = (float)x; // to nearest
  long long back = (long long)f;
  uint32_t bits = __builtin_bit_cast(uint32_t, f);
  bool away = x >= 0 ? back > x : back < x;
  bits -= away ? 1 : 0; // |f| > |x|: one step toward zero
  bits |= back != x ? 1 : 0;
  return __builtin_bit_cast(float, bits);
}

/// int32 to float in rounding mode R (exact below 2^24 in magnitude).
template <int R> BANG_DEV float int32ToFloat(int32_t x) {
  float f = (float)x; // to nearest even
  long long back = (long long)f;
  if (R == RN || back == x)
    return f;
  // lo < x < hi, two adjacent floats (|x| > 2^24: neither is 0).
  uint32_t bits = __builtin_bit_cast(uint32_t, f);
  bool fHigh = back > x;
  uint32_t otherBits = (fHigh == (f > 0)) ? bits - 1 : bits + 1;
  float other = __builtin_bit_cast(float, otherBits);
  float lo = fHigh ? other : f, hi = fHigh ? f : other;
  if (R == RD) { // ties away from zero
    long long dl = (long long)x - (long long)lo, dh = (long long)hi - x;
    if (dl != dh)
      return f;
    return x > 0 ? hi : lo;
  }
  if (R == TZ)
    return x > 0 ? lo : hi;
  return R == DN ? lo : hi;
}

/// int32 to float with a rounding mode, then scaled by 2^pos.
template <int R>
BANG_DEV void int32ToFloatMode(RowClass opClass, float *dst, const int32_t *src,
                               int n, int pos) {
  checkPos(pos);
  float scale = pow2(pos);
  convert(opClass, dst, src, n,
          [scale](int32_t x) { return int32ToFloat<R>(x) * scale; });
}

/// float to bfloat16 in mode R; bfloat16 to float (exact).
template <int R>
BANG_DEV void f2bf(RowClass opClass, __bf16 *dst, const float *src, int n) {
  convert(opClass, dst, src, n, [](float x) { return floatToBf16<R>(x); });
}
BANG_DEV void bf2f(RowClass opClass, float *dst, const __bf16 *src, int n) {
  convert(opClass, dst, src, n, [](__bf16 x) {
    uint32_t u = (uint32_t)__builtin_bit_cast(uint16_t, x) << 16;
    return __builtin_bit_cast(float, u);
  });
}

template <typename D, typename I>
BANG_DEV void fromInt(RowClass opClass, D *dst, const I *src, int n, int pos) {
  checkPos(pos);
  float scale = pow2(pos);
  if constexpr (sizeof(D) == 2 && sizeof(I) == 4)
    convert(opClass, dst, src, n,
            [scale](I x) { return (D)(int32ToFloatOdd(x) * scale); });
  else // exact in float (int16) or rounded once (int32 to float)
    convert(opClass, dst, src, n,
            [scale](I x) { return (D)((float)x * scale); });
}

/// Fixed point to fixed point: value = src * 2^src_pos, dst = value /
/// 2^dst_pos, rounded toward -inf and saturated.
template <typename D, typename S>
BANG_DEV void fixToFix(RowClass opClass, D *dst, const S *src, int n,
                       int dstPos, int srcPos) {
  long long diff = (long long)srcPos - dstPos;
  // Beyond 32 either way the result is saturated, 0 or -1 already.
  int shift = diff > 32 ? 32 : (diff < -63 ? -63 : (int)diff);
  convert(opClass, dst, src, n, [shift](S x) {
    long long v = shift >= 0 ? (long long)x * (1LL << shift)
                             : ((long long)x >> -shift);
    constexpr long long lo = -(1LL << (sizeof(D) * 8 - 1));
    constexpr long long hi = (1LL << (sizeof(D) * 8 - 1)) - 1;
    return (D)(v < lo ? lo : (v > hi ? hi : v));
  });
}

} // namespace bangdev

// --- Bodies of the F4 rows (the older conversion rows are in Intrinsics.cpp)
#define BANG_TO_INT(I, R) toInt<I, R>(rowClass, dst, src, n, pos)
#define BODY___bang_float2int32 BANG_TO_INT(int32_t, TZ)
#define BODY___bang_float2int32_dn BANG_TO_INT(int32_t, DN)
#define BODY___bang_half2int32 BANG_TO_INT(int32_t, TZ)
#define BODY___bang_half2int32_dn BANG_TO_INT(int32_t, DN)
#define BODY___bang_float2int16 BANG_TO_INT(int16_t, TZ)
#define BODY___bang_float2int16_dn BANG_TO_INT(int16_t, DN)
#define BODY___bang_half2int16 BANG_TO_INT(int16_t, TZ)
#define BODY___bang_half2int16_dn BANG_TO_INT(int16_t, DN)
#define BODY___bang_float2int8 BANG_TO_INT(int8_t, TZ)
#define BODY___bang_float2int8_rn BANG_TO_INT(int8_t, RN)
#define BODY___bang_float2int8_tz BANG_TO_INT(int8_t, TZ)
#define BODY___bang_float2int8_rd BANG_TO_INT(int8_t, RD)
#define BODY___bang_float2int8_dn BANG_TO_INT(int8_t, DN)
#define BODY___bang_float2int8_up BANG_TO_INT(int8_t, UP)
#define BODY___bang_half2int8 BANG_TO_INT(int8_t, TZ)
#define BODY___bang_half2int8_rn BANG_TO_INT(int8_t, RN)
#define BODY___bang_half2int8_tz BANG_TO_INT(int8_t, TZ)
#define BODY___bang_half2int8_rd BANG_TO_INT(int8_t, RD)
#define BODY___bang_half2int8_dn BANG_TO_INT(int8_t, DN)
#define BODY___bang_half2int8_up BANG_TO_INT(int8_t, UP)
#define BODY___bang_float2half_dn f2h<DN>(rowClass, dst, src, n)
#define BODY___bang_int322float_rn int32ToFloatMode<RN>(rowClass, dst, src, n, pos)
#define BODY___bang_int322float_tz int32ToFloatMode<TZ>(rowClass, dst, src, n, pos)
#define BODY___bang_int322float_rd int32ToFloatMode<RD>(rowClass, dst, src, n, pos)
#define BODY___bang_int322float_dn int32ToFloatMode<DN>(rowClass, dst, src, n, pos)
#define BODY___bang_int322float_up int32ToFloatMode<UP>(rowClass, dst, src, n, pos)
#define BODY___bang_int82float fromInt(rowClass, dst, src, n, pos)
#define BODY___bang_int82half fromInt(rowClass, dst, src, n, pos)
#define BODY___bang_float2bfloat16_rn f2bf<RN>(rowClass, dst, src, n)
#define BODY___bang_float2bfloat16_tz f2bf<TZ>(rowClass, dst, src, n)
#define BODY___bang_float2bfloat16_rd f2bf<RD>(rowClass, dst, src, n)
#define BODY___bang_float2bfloat16_dn f2bf<DN>(rowClass, dst, src, n)
#define BODY___bang_float2bfloat16_up f2bf<UP>(rowClass, dst, src, n)
#define BODY___bang_bfloat162float bf2f(rowClass, dst, src, n)
#define BODY___cn_vector_cast_f32_to_s32 toInt<int32_t, TZ>(rowClass, dst, src, n, 0)
// Scalars: a scalar instruction, not charged as a vector operation.
#define BANG_SCALAR_TO_INT(R) return floatToInt<int32_t, R>((float)x)
#define BODY___float2int32 BANG_SCALAR_TO_INT(TZ)
#define BODY___float2int32_rn BANG_SCALAR_TO_INT(RN)
#define BODY___float2int32_tz BANG_SCALAR_TO_INT(TZ)
#define BODY___float2int32_rd BANG_SCALAR_TO_INT(RD)
#define BODY___float2int32_dn BANG_SCALAR_TO_INT(DN)
#define BODY___float2int32_up BANG_SCALAR_TO_INT(UP)
#define BODY___half2int32 BANG_SCALAR_TO_INT(TZ)
#define BODY___half2int32_rn BANG_SCALAR_TO_INT(RN)
#define BODY___half2int32_tz BANG_SCALAR_TO_INT(TZ)
#define BODY___half2int32_rd BANG_SCALAR_TO_INT(RD)
#define BODY___half2int32_dn BANG_SCALAR_TO_INT(DN)
#define BODY___half2int32_up BANG_SCALAR_TO_INT(UP)

#endif // BANG_DEVICELIB_CONVERT_H
