//===- Reduce.h - Lookup, reductions, pools, transpose, matrix --*- C++ -*-===//
#ifndef BANG_DEVICELIB_REDUCE_H
#define BANG_DEVICELIB_REDUCE_H

#include "DeviceLib.h"
#include "Gemm.h"

namespace bangdev {

/// dst[i] = table[idx[i]]; I is T or its unsigned twin.
template <typename T, typename I>
BANG_DEV void lut(RowClass opClass, T *dst, const I *idx, const T *table, int n,
                  int len) {
  checkCount(n);
  if (len <= 0)
    __bangsim_fault("__bang_lut: table_len must be positive");
  reads(idx, n);
  reads(table, len);
  writes(dst, n);
  charge<T>(opClass, n);
  bool bad = false; // checked first, in a loop that vectorises
  for (int i = 0; i < n; ++i)
    bad |= (long long)idx[i] < 0 || (long long)idx[i] >= len;
  if (bad)
    __bangsim_fault("__bang_lut: index outside the table");
  for (int i = 0; i < n; ++i)
    dst[i] = table[idx[i]];
}

/// dst[0] = the sum of src[0..n), accumulated in order in float.
template <typename T>
BANG_DEV void reduceSum(RowClass opClass, T *dst, const T *src, int n) {
  checkCount(n);
  reads(src, n);
  writes(dst, 1);
  charge<T>(opClass, n);
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    acc += (float)src[i];
  dst[0] = (T)acc;
}

/// dst[0] = the extreme value (the first one on ties; NaN only when all are
/// NaN), and the uint32 at byte offset 4 of dst = its index.
template <typename T, bool Max>
BANG_DEV void argExtreme(RowClass opClass, T *dst, const T *src, int n) {
  checkCount(n);
  if (n == 0)
    __bangsim_fault("__bang_argmax/argmin: count must be positive");
  reads(src, n);
  writesBytes(dst, 8);
  charge<T>(opClass, n);
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

enum PoolKind { SumPool, MaxPool, AvgPool, MinPool };

/// HWC tiles: src is [height][width][channel], dst is
/// [(height-kh)/sh+1][(width-kw)/sw+1][channel]; no padding. Each output is
/// accumulated in float over the window in order (ky, kx): a sum, or
/// maxOf (NaN wins, -0 < +0), or minOf for minpool; avgpool divides the float sum by kh*kw in
/// float. The result is rounded once to the element type. Channels are the
/// inner loop, so it vectorises.
template <typename T, int Kind>
BANG_DEV void pool(RowClass opClass, T *dst, const T *src, int c, int h, int w,
                   int kh, int kw, int sh, int sw) {
  if (c <= 0 || h <= 0 || w <= 0 || kh <= 0 || kw <= 0 || sh <= 0 || sw <= 0)
    __bangsim_fault("pool: sizes, kernel and stride must be positive");
  if (kh > h || kw > w)
    __bangsim_fault("pool: kernel larger than the input tile");
  int oh = (h - kh) / sh + 1, ow = (w - kw) / sw + 1;
  reads(src, (long long)h * w * c);
  writes(dst, (long long)oh * ow * c);
  if (dst == src)
    __bangsim_fault("pool: dst and src must not be the same");
  charge<T>(opClass, (long long)oh * ow * c * kh * kw);
  constexpr int Chunk = 256;
  float acc[Chunk];
  float window = (float)(kh * kw);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      T *out = dst + ((long long)y * ow + x) * c;
      const T *corner = src + ((long long)y * sh * w + (long long)x * sw) * c;
      for (int c0 = 0; c0 < c; c0 += Chunk) {
        int cn = c - c0 < Chunk ? c - c0 : Chunk;
        for (int ch = 0; ch < cn; ++ch)
          acc[ch] = Kind == MaxPool || Kind == MinPool ? (float)corner[c0 + ch]
                                                       : 0.0f;
        for (int ky = 0; ky < kh; ++ky)
          for (int kx = 0; kx < kw; ++kx) {
            if ((Kind == MaxPool || Kind == MinPool) && ky == 0 && kx == 0)
              continue;
            const T *in = corner + ((long long)ky * w + kx) * c + c0;
            for (int ch = 0; ch < cn; ++ch) {
              float v = (float)in[ch];
              acc[ch] = Kind == MaxPool   ? maxOf(acc[ch], v)
                        : Kind == MinPool ? minOf(acc[ch], v)
                                          : acc[ch] + v;
            }
          }
        for (int ch = 0; ch < cn; ++ch)
          out[c0 + ch] = (T)(Kind == AvgPool ? acc[ch] / window : acc[ch]);
      }
    }
}

/// src is [height][width]; dst becomes [width][height].
template <typename T>
BANG_DEV void transpose(RowClass opClass, T *dst, const T *src, int h, int w) {
  if (h < 0 || w < 0)
    __bangsim_fault("__bang_transpose: negative size");
  reads(src, (long long)h * w);
  writes(dst, (long long)h * w);
  if (dst == src && h > 1 && w > 1)
    __bangsim_fault("__bang_transpose: dst and src must not be the same");
  charge<T>(opClass, (long long)h * w);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      dst[(long long)x * h + y] = src[(long long)y * w + x];
}

//===----------------------------------------------------------------------===//
// Matrix unit: convolution, matrix multiply, fully connected
//
// The matrix unit's intrinsics. Activations and results live in NRAM, weights
// in WRAM. Layouts (all row-major, innermost last):
//
//   __bang_conv    src    NRAM [ih][iw][ci]          (HWC)
//                  kernel WRAM [kh][kw][ci][co]      (HWIO)
//                  dst    NRAM [oh][ow][co]          (HWC)
//                  oh = (ih - ((kh-1)*dh + 1)) / sh + 1, likewise ow; no
//                  padding (pad the NRAM tile).
//   __bang_matmul  a NRAM [m][k], b WRAM [k][n], dst NRAM [m][n]
//   __bang_mlp     as matmul, plus bias NRAM [n] added once at the end
//
// Each output element is one accumulator (float for float and half inputs,
// 64-bit integer for integer inputs) that starts at 0 and adds the products
// in the order of the reduction index (ky, kx, ci for conv; k for matmul):
// acc = acc + x*w, the product rounded to the accumulator type and then the
// sum (no fused multiply-add). The accumulator is rounded once to the
// destination type at the end (float to half: to nearest even; integer to
// int32: saturating). Products of two halves are exact in float.
//
// The work itself is Gemm.h: register tiles of rows by host vectors of
// output channels, each lane keeping the order above.
//
//===----------------------------------------------------------------------===//
BANG_DEV bool overlaps(const void *p, long long pBytes, const void *q,
                       long long qBytes) {
  const char *a = (const char *)p, *b = (const char *)q;
  return pBytes > 0 && qBytes > 0 && a < b + qBytes && b < a + pBytes;
}

template <typename T> BANG_DEV void readsWram(const T *p, long long n) {
  __bangsim_check_vec(p, n * (long long)sizeof(T), BANG_IN_WRAM, BANG_READ);
}

/// The largest number of kernel taps (kh * kw) of one conv call.
constexpr int kMaxTaps = 1024;

template <typename D, typename S>
BANG_DEV void conv(RowClass opClass, D *dst, const S *src, const S *kernel,
                   int ci, int ih, int iw, int kh, int kw, int sh, int sw,
                   int co, int dh, int dw) {
  if (ci <= 0 || ih <= 0 || iw <= 0 || kh <= 0 || kw <= 0 || co <= 0)
    __bangsim_fault("__bang_conv: sizes must be positive");
  if (sh <= 0 || sw <= 0 || dh <= 0 || dw <= 0)
    __bangsim_fault("__bang_conv: stride and dilation must be positive");
  if ((long long)kh * kw > kMaxTaps)
    __bangsim_fault("__bang_conv: more than 1024 kernel taps (kh * kw)");
  long long ekh = (long long)(kh - 1) * dh + 1, ekw = (long long)(kw - 1) * dw + 1;
  if (ekh > ih || ekw > iw)
    __bangsim_fault("__bang_conv: the (dilated) kernel is larger than the "
                    "input tile");
  int oh = (int)((ih - ekh) / sh + 1), ow = (int)((iw - ekw) / sw + 1);
  long long inN = (long long)ih * iw * ci, wN = (long long)kh * kw * ci * co,
            outN = (long long)oh * ow * co;
  reads(src, inN);
  readsWram(kernel, wN);
  writes(dst, outN);
  if (overlaps(dst, outN * sizeof(D), src, inN * sizeof(S)))
    __bangsim_fault("__bang_conv: dst overlaps src");
  charge<S>(opClass, outN * kh * kw * ci);
  // With no dilation along x, the kw taps of a kernel row are one
  // contiguous run of kw*ci inputs and weights: one segment per row.
  bool rowRuns = dw == 1;
  int segs = rowRuns ? kh : kh * kw;
  int len = rowRuns ? kw * ci : ci;
  long long seg[kMaxTaps];
  for (int ky = 0, t = 0; ky < kh; ++ky)
    for (int kx = 0; kx < (rowRuns ? 1 : kw); ++kx, ++t)
      seg[t] = ((long long)ky * dh * iw + (long long)kx * dw) * ci;
  Reduction<S> red{{src, ow, (long long)sh * iw * ci, (long long)sw * ci},
                   seg,
                   segs,
                   len,
                   kernel,
                   co};
  gemm<D, S, D, false>(dst, red, oh * ow, (const D *)nullptr);
}

template <bool Bias, typename D, typename S>
BANG_DEV void matmul(RowClass opClass, D *dst, const S *a, const S *b,
                     const D *bias, int m, int k, int n) {
  if (m <= 0 || k <= 0 || n <= 0)
    __bangsim_fault(Bias ? "__bang_mlp: sizes must be positive"
                         : "__bang_matmul: sizes must be positive");
  long long aN = (long long)m * k, outN = (long long)m * n;
  reads(a, aN);
  readsWram(b, (long long)k * n);
  if (Bias)
    reads(bias, n);
  writes(dst, outN);
  if (overlaps(dst, outN * sizeof(D), a, aN * sizeof(S)))
    __bangsim_fault(Bias ? "__bang_mlp: dst overlaps src"
                         : "__bang_matmul: dst overlaps a");
  charge<S>(opClass, outN * k);
  const long long seg[1] = {0};
  Reduction<S> red{{a, 1, k, 0}, seg, 1, k, b, n};
  gemm<D, S, D, Bias>(dst, red, m, bias);
}

} // namespace bangdev

#endif // BANG_DEVICELIB_REDUCE_H
