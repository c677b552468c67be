//===- Reduce.h - Lookup, reductions, pools and transpose -------*- C++ -*-===//
#ifndef BANG_DEVICELIB_REDUCE_H
#define BANG_DEVICELIB_REDUCE_H

#include "DeviceLib.h"

namespace bangdev {

template <typename T>
BANG_DEV void lut(T *dst, const T *idx, const T *table, int n, int len) {
  checkCount(n);
  if (len <= 0)
    __bangsim_fault("__bang_lut: table_len must be positive");
  reads(idx, n);
  reads(table, len);
  writes(dst, n);
  charge<T>(BANG_OP_REDUCE, n);
  for (int i = 0; i < n; ++i) {
    if (idx[i] < 0 || idx[i] >= len)
      __bangsim_fault("__bang_lut: index outside the table");
    dst[i] = table[idx[i]];
  }
}

/// dst[0] = the sum of src[0..n), accumulated in order in float.
template <typename T> BANG_DEV void reduceSum(T *dst, const T *src, int n) {
  checkCount(n);
  reads(src, n);
  writes(dst, 1);
  charge<T>(BANG_OP_REDUCE, n);
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    acc += (float)src[i];
  dst[0] = (T)acc;
}

/// dst[0] = the extreme value (the first one on ties; NaN only when all are
/// NaN), and the uint32 at byte offset 4 of dst = its index.
template <typename T, bool Max>
BANG_DEV void argExtreme(T *dst, const T *src, int n) {
  checkCount(n);
  if (n == 0)
    __bangsim_fault("__bang_argmax/argmin: count must be positive");
  reads(src, n);
  writesBytes(dst, 8);
  charge<T>(BANG_OP_REDUCE, n);
  int best = 0;
  for (int i = 1; i < n; ++i) {
    if (isNaN(src[i]))
      continue;
    if (isNaN(src[best]) || (Max ? src[i] > src[best] : src[i] < src[best]))
      best = i;
  }
  T value = src[best];
  uint32_t index = (uint32_t)best;
  __builtin_memcpy((char *)dst + 4, &index, 4);
  dst[0] = value;
}

enum PoolKind { SumPool, MaxPool, AvgPool };

/// HWC tiles: src is [height][width][channel], dst is
/// [(height-kh)/sh+1][(width-kw)/sw+1][channel]; no padding.
template <typename T, int Kind>
BANG_DEV void pool(T *dst, const T *src, int c, int h, int w, int kh, int kw,
                   int sh, int sw) {
  if (c <= 0 || h <= 0 || w <= 0 || kh <= 0 || kw <= 0 || sh <= 0 || sw <= 0)
    __bangsim_fault("pool: sizes, kernel and stride must be positive");
  if (kh > h || kw > w)
    __bangsim_fault("pool: kernel larger than the input tile");
  int oh = (h - kh) / sh + 1, ow = (w - kw) / sw + 1;
  reads(src, (long long)h * w * c);
  writes(dst, (long long)oh * ow * c);
  charge<T>(BANG_OP_REDUCE, (long long)oh * ow * c * kh * kw);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      T *out = dst + ((long long)y * ow + x) * c;
      for (int ch = 0; ch < c; ++ch) {
        float acc = Kind == MaxPool ? (float)src[((long long)y * sh * w + x * sw) * c + ch] : 0.0f;
        for (int ky = 0; ky < kh; ++ky)
          for (int kx = 0; kx < kw; ++kx) {
            float v = (float)src[((long long)(y * sh + ky) * w + x * sw + kx) * c + ch];
            if (Kind == MaxPool)
              acc = (v > acc || isNaN(v)) ? v : acc;
            else
              acc += v;
          }
        if (Kind == AvgPool)
          acc /= (float)(kh * kw);
        out[ch] = (T)acc;
      }
    }
}

/// src is [height][width]; dst becomes [width][height].
template <typename T>
BANG_DEV void transpose(T *dst, const T *src, int h, int w) {
  if (h < 0 || w < 0)
    __bangsim_fault("__bang_transpose: negative size");
  reads(src, (long long)h * w);
  writes(dst, (long long)h * w);
  if (dst == src && h > 1 && w > 1)
    __bangsim_fault("__bang_transpose: dst and src must not be the same");
  charge<T>(BANG_OP_MOVE, (long long)h * w);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      dst[(long long)x * h + y] = src[(long long)y * w + x];
}

} // namespace bangdev

#endif // BANG_DEVICELIB_REDUCE_H
