//===- Convert.h - Type conversions with explicit rounding ------*- C++ -*-===//
//
// Rounding suffixes: _rn to nearest, ties to even; _tz toward zero; _rd down
// (toward -inf); _up up (toward +inf). Conversions to integers saturate to
// the destination range and turn NaN into 0. A fixed-point position `pos`
// (in [-126, 127]) scales: float -> int gives round(x * 2^-pos); int ->
// float gives x * 2^pos, rounded once to nearest even.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_CONVERT_H
#define BANG_DEVICELIB_CONVERT_H

#include "DeviceLib.h"

namespace bangdev {

enum Rounding { RN, TZ, RD, UP };

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
  // Infinity from an overflow of a finite value steps back to the largest.
  if (R == TZ) {
    if (x > 0 && tooHigh)
      return halfStep(h, false);
    if (x < 0 && !tooHigh)
      return halfStep(h, true);
    return h;
  }
  if (R == RD)
    return tooHigh ? halfStep(h, false) : h;
  return tooHigh ? h : halfStep(h, true);
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

#endif // BANG_DEVICELIB_CONVERT_H
