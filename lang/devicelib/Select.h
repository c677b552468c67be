//===- Select.h - Filter, count, find, sum, bit masks (F6) -----*- C++ -*-===//
//
// The selection family Cambricon's mlu-ops calls (F6): compacting a vector
// by a mask (__bang_filter, __bang_filter_bitindex), counting and finding
// its non-zero elements (__bang_count, __bang_findfirst1, __bang_findlast1),
// summing it to a scalar (__bang_sum), comparisons that produce bit masks
// (__bang_gt_bitindex, __bang_ge_bitindex), and the pools __bang_minpool
// and __bang_maxpool_value_index. The rows are in intrinsics.def, the
// semantics in docs/language.md ("Selection and bit masks").
//
// Bit masks hold element i in bit 7 - i % 8 of byte i / 8 (the most
// significant bit first): mlu-ops' abs kernel selects the even elements of
// [re, im, re, im, ...] with bytes of 0xAA.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_SELECT_H
#define BANG_DEVICELIB_SELECT_H

#include "Elementwise.h"
#include "Reduce.h"

namespace bangdev {

/// Whether element i of a bit mask is set.
BANG_DEV bool maskBit(const uint8_t *bits, int i) {
  return (bits[i >> 3] >> (7 - (i & 7))) & 1;
}

/// An element is selected, counted or found when it is not ±0 (NaN is).
template <typename T> BANG_DEV bool nonZero(T x) { return x != (T)0; }

/// dst[0..k) = the src[i] whose keep(i) holds, in order; returns k. dst may
/// be src (each write is at or before the read).
template <typename T, typename K>
BANG_DEV int compact(T *dst, const T *src, int n, K keep) {
  int k = 0;
  for (int i = 0; i < n; ++i) {
    T x = src[i];
    if (keep(i))
      dst[k++] = x;
  }
  return k;
}

template <typename T>
BANG_DEV int filter(RowClass opClass, T *dst, const T *src, const T *mask,
                    int n) {
  checkCount(n);
  reads(src, n);
  reads(mask, n);
  int k = 0;
  for (int i = 0; i < n; ++i)
    k += nonZero(mask[i]) ? 1 : 0;
  writes(dst, k);
  charge<T>(opClass, n);
  return compact(dst, src, n, [mask](int i) { return nonZero(mask[i]); });
}

template <typename T>
BANG_DEV int filterBits(RowClass opClass, T *dst, const T *src,
                        const void *bitmask, int n) {
  checkCount(n);
  const uint8_t *bits = (const uint8_t *)bitmask;
  reads(src, n);
  readsBytes(bits, (n + 7) / 8);
  int k = 0;
  for (int i = 0; i < n; ++i)
    k += maskBit(bits, i) ? 1 : 0;
  writes(dst, k);
  charge<T>(opClass, n);
  return compact(dst, src, n, [bits](int i) { return maskBit(bits, i); });
}

template <typename T>
BANG_DEV int countNonZero(RowClass opClass, const T *src, int n) {
  checkCount(n);
  reads(src, n);
  charge<T>(opClass, n);
  int k = 0;
  for (int i = 0; i < n; ++i)
    k += nonZero(src[i]) ? 1 : 0;
  return k;
}

/// The index of the first (First) or last non-zero element, -1 if none.
template <bool First, typename T>
BANG_DEV int findOne(RowClass opClass, const T *src, int n) {
  checkCount(n);
  reads(src, n);
  charge<T>(opClass, n);
  if (First) {
    for (int i = 0; i < n; ++i)
      if (nonZero(src[i]))
        return i;
  } else {
    for (int i = n - 1; i >= 0; --i)
      if (nonZero(src[i]))
        return i;
  }
  return -1;
}

/// The sum of src[0..n): floats accumulated in float in index order from
/// +0.0 and rounded once to T, integers wrapping.
template <typename T> BANG_DEV T sumOf(RowClass opClass, const T *src, int n) {
  checkCount(n);
  reads(src, n);
  charge<T>(opClass, n);
  if constexpr (isInt<T>) {
    T acc = 0;
    for (int i = 0; i < n; ++i)
      acc = addOf(acc, src[i]);
    return acc;
  } else {
    float acc = 0.0f;
    for (int i = 0; i < n; ++i)
      acc += (float)src[i];
    return (T)acc;
  }
}

/// Bit i of dst (most significant first) = pred(a[i], b[i]); n must be a
/// multiple of 8 (whole bytes); writes n / 8 bytes.
template <typename T, typename P>
BANG_DEV void compareBits(RowClass opClass, T *dst, const T *a, const T *b,
                          int n, P pred) {
  checkCount(n);
  if (n % 8 != 0)
    __bangsim_fault("bit index compare: the count must be a multiple of 8");
  reads(a, n);
  reads(b, n);
  uint8_t *out = (uint8_t *)dst;
  writesBytes(out, n / 8);
  charge<T>(opClass, n);
  for (int byte = 0; byte < n / 8; ++byte) {
    uint8_t v = 0;
    for (int k = 0; k < 8; ++k)
      v |= (uint8_t)((pred(a[byte * 8 + k], b[byte * 8 + k]) ? 1 : 0)
                     << (7 - k));
    out[byte] = v;
  }
}

/// The pool's output size, checked as __bang_maxpool's (Reduce.h).
BANG_DEV void checkPoolShape(int channel, int height, int width, int kh,
                             int kw, int sh, int sw) {
  if (channel <= 0 || height <= 0 || width <= 0 || kh <= 0 || kw <= 0 ||
      sh <= 0 || sw <= 0)
    __bangsim_fault("pool: every size must be positive");
  if (kh > height || kw > width)
    __bangsim_fault("pool: the kernel is larger than the tile");
}

/// __bang_maxpool_value_index: the maxima as __bang_maxpool computes them
/// at dst, and at byte offset indexStride of dst, as uint32, the position
/// ky * kw + kx in its window of the first element equal to (for NaN: the
/// first NaN) each maximum.
template <typename T>
BANG_DEV void maxpoolValueIndex(RowClass opClass, T *dst, const T *src,
                                int channel, int height, int width, int kh,
                                int kw, int sh, int sw, int indexStride) {
  checkPoolShape(channel, height, width, kh, kw, sh, sw);
  int oh = (height - kh) / sh + 1, ow = (width - kw) / sw + 1;
  long long outs = (long long)oh * ow * channel;
  if (indexStride < 0 || indexStride % 4 != 0)
    __bangsim_fault("__bang_maxpool_value_index: the index stride must be a "
                    "non-negative multiple of 4");
  if ((long long)indexStride < outs * (long long)sizeof(T))
    __bangsim_fault("__bang_maxpool_value_index: the indices overlap the "
                    "values");
  reads(src, (long long)height * width * channel);
  writes(dst, outs);
  uint32_t *index = (uint32_t *)((char *)dst + indexStride);
  writes(index, outs);
  if ((const void *)dst == (const void *)src)
    __bangsim_fault("__bang_maxpool_value_index: dst must not be src");
  charge<T>(opClass, outs * kh * kw);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x)
      for (int c = 0; c < channel; ++c) {
        const T *at = src + ((long long)y * sh * width + (long long)x * sw) *
                                channel + c;
        T best = at[0];
        uint32_t where = 0;
        for (int ky = 0; ky < kh; ++ky)
          for (int kx = 0; kx < kw; ++kx) {
            T v = at[((long long)ky * width + kx) * channel];
            T m = maxOf(best, v);
            bool changed = __builtin_bit_cast(BitsOf<T>, m) !=
                        __builtin_bit_cast(BitsOf<T>, best);
            if (changed) {
              best = m;
              where = (uint32_t)(ky * kw + kx);
            }
          }
        long long o = ((long long)y * ow + x) * channel + c;
        dst[o] = best;
        index[o] = where;
      }
}

} // namespace bangdev

// --- Bodies of the rows (see Intrinsics.cpp)
#define BODY___bang_filter return filter(rowClass, dst, src, mask, n)
#define BODY___bang_filter_bitindex                                            \
  return filterBits(rowClass, dst, src, bitmask, n)
#define BODY___bang_count return countNonZero(rowClass, src, n)
#define BODY___bang_findfirst1 return findOne<true>(rowClass, src, n)
#define BODY___bang_findlast1 return findOne<false>(rowClass, src, n)
#define BODY___bang_sum return sumOf(rowClass, src, n)
#define BODY___bang_gt_bitindex                                                \
  compareBits(rowClass, dst, a, b, n, [](auto x, auto y) { return x > y; })
#define BODY___bang_ge_bitindex                                                \
  compareBits(rowClass, dst, a, b, n, [](auto x, auto y) { return x >= y; })
#define BODY___bang_minpool                                                    \
  pool<decltype(+*src), MinPool>(rowClass, dst, src, channel, height, width,   \
                                 kernel_h, kernel_w, stride_h, stride_w)
#define BODY___bang_maxpool_value_index                                        \
  maxpoolValueIndex(rowClass, dst, src, channel, height, width, kernel_h,      \
                    kernel_w, stride_h, stride_w, value_index_stride)

#endif // BANG_DEVICELIB_SELECT_H
