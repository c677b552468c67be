//===- Layout.h - Rearranging NRAM tiles (mlu-ops family F10) -*- C++ -*-===//
//
// The intrinsics that move the elements of a tile without computing on them
// (rotations by 90, 180 and 270 degrees, mirror, zero padding, the filter
// reshape for the matrix unit), and the channel expansion that multiplies a
// per-row scalar into each row. Cambricon's mlu-ops kernels (FFT, active
// rotated filter, multi-scale deformable attention) call them. The rows are
// in intrinsics.def; docs/language.md gives the layouts and the choices
// made where the BANG C guide is silent.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_LAYOUT_H
#define BANG_DEVICELIB_LAYOUT_H

#include "DeviceLib.h"
#include "Elementwise.h"

namespace bangdev {

/// Faults when two operand ranges overlap: these intrinsics read a source
/// element after they may have written its place.
BANG_DEV void disjoint(const void *d, long long dBytes, const void *s,
                       long long sBytes, const char *message) {
  auto dl = (__UINTPTR_TYPE__)d, sl = (__UINTPTR_TYPE__)s;
  if (dBytes > 0 && sBytes > 0 && dl < sl + sBytes && sl < dl + dBytes)
    __bangsim_fault(message);
}

/// A positive tile: both sizes at least 1, the product within int.
BANG_DEV long long tileCount(int height, int width, const char *message) {
  if (height <= 0 || width <= 0)
    __bangsim_fault(message);
  return (long long)height * width;
}

enum Turn { Turn90, Turn180, Turn270, Mirror };

/// src is [height][width]. Turn90 (clockwise) and Turn270 give dst
/// [width][height]; Turn180 and Mirror (each row reversed) [height][width].
template <Turn K, typename T>
BANG_DEV void turn(RowClass opClass, T *dst, const T *src, int height,
                   int width) {
  long long n = tileCount(height, width,
                          "rotate/mirror: height and width must be positive");
  reads(src, n);
  writes(dst, n);
  disjoint(dst, n * (long long)sizeof(T), src, n * (long long)sizeof(T),
           "rotate/mirror: dst must not overlap src");
  charge<T>(opClass, n);
  if constexpr (K == Turn180 || K == Mirror) {
    // Each row reversed, into the mirrored row (180) or the same one: a
    // simple reversed copy per row, which vectorises.
    for (int y = 0; y < height; ++y) {
      const T *s = src + (long long)y * width;
      T *d = dst + (long long)(K == Turn180 ? height - 1 - y : y) * width +
             (width - 1);
      for (int x = 0; x < width; ++x)
        d[-x] = s[x];
    }
  } else {
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        T v = src[(long long)y * width + x];
        if constexpr (K == Turn90) // row y becomes column height-1-y
          dst[(long long)x * height + (height - 1 - y)] = v;
        else // Turn270: row y becomes column y, upwards
          dst[(long long)(width - 1 - x) * height + y] = v;
      }
  }
}

/// src [height][width][channel] into the middle of dst [pad_top + height +
/// pad_bottom][pad_left + width + pad_right][channel], zeros around it.
template <typename T>
BANG_DEV void pad(RowClass opClass, T *dst, const T *src, int channel,
                  int height, int width, int top, int bottom, int left,
                  int right) {
  if (channel <= 0 || height <= 0 || width <= 0)
    __bangsim_fault("__bang_pad: channel, height and width must be positive");
  if (top < 0 || bottom < 0 || left < 0 || right < 0)
    __bangsim_fault("__bang_pad: a negative padding");
  long long oh = (long long)top + height + bottom;
  long long ow = (long long)left + width + right;
  long long row = (long long)width * channel, orow = ow * channel;
  long long n = height * row, on = oh * orow;
  reads(src, n);
  writes(dst, on);
  disjoint(dst, on * (long long)sizeof(T), src, n * (long long)sizeof(T),
           "__bang_pad: dst must not overlap src");
  charge<T>(opClass, on);
  for (long long i = 0; i < on; ++i)
    dst[i] = T(0);
  for (int y = 0; y < height; ++y)
    __builtin_memcpy(dst + (top + y) * orow + (long long)left * channel,
                     src + y * row, row * sizeof(T));
}

/// A filter [n][h][w][c] (output channels outermost) into the layout the
/// matrix unit reads weights in, [h][w][c][n] (docs/language.md, "Matrix
/// unit"): dst[((y * w + x) * c + ci) * n + o] = src[((o * h + y) * w + x) *
/// c + ci].
template <typename T>
BANG_DEV void reshapeFilter(RowClass opClass, T *dst, const T *src, int n,
                            int h, int w, int c) {
  if (n <= 0 || h <= 0 || w <= 0 || c <= 0)
    __bangsim_fault("__bang_reshape_filter: every size must be positive");
  long long inner = (long long)h * w * c, count = inner * n;
  reads(src, count);
  writes(dst, count);
  disjoint(dst, count * (long long)sizeof(T), src, count * (long long)sizeof(T),
           "__bang_reshape_filter: dst must not overlap src");
  charge<T>(opClass, count);
  for (int o = 0; o < n; ++o)
    for (long long k = 0; k < inner; ++k)
      dst[k * n + o] = src[o * inner + k];
}

/// dst[i][j] = a[i] * b[i][j] (+ acc[i][j]) for i < n, j < c, each
/// operation rounded to T. `filter` is the matrix unit's expansion filter
/// in WRAM: checked to hold c elements there, its values not used.
template <bool Add, typename T>
BANG_DEV void expandChannel(RowClass opClass, T *dst, const T *a,
                            const T *filter, const T *b, const T *acc, int n,
                            int c) {
  long long count =
      tileCount(n, c, "__bang_expand_channel_mul: n and c must be positive");
  reads(a, n);
  reads(b, count);
  if constexpr (Add)
    reads(acc, count);
  writes(dst, count);
  __bangsim_check_vec(filter, (long long)c * (long long)sizeof(T), BANG_IN_WRAM,
                      BANG_READ);
  disjoint(dst, count * (long long)sizeof(T), a, n * (long long)sizeof(T),
           "__bang_expand_channel_mul: dst must not overlap the scalars");
  charge<T>(opClass, count);
  for (int i = 0; i < n; ++i) {
    T s = a[i];
    const T *bi = b + (long long)i * c;
    T *di = dst + (long long)i * c;
    if constexpr (Add) {
      const T *ci = acc + (long long)i * c;
      for (int j = 0; j < c; ++j)
        di[j] = (T)(s * bi[j]) + ci[j];
    } else {
      for (int j = 0; j < c; ++j)
        di[j] = s * bi[j];
    }
  }
}

/// The bytes [lo, hi) relative to p that `count` segments of `seg` bytes,
/// `stride` apart, cover.
BANG_DEV void segmentSpan(long long seg, long long stride, long long count,
                          long long &lo, long long &hi) {
  long long last = (count - 1) * stride;
  lo = last < 0 ? last : 0;
  hi = (last > 0 ? last : 0) + seg;
}

/// Copies `count` elements of U, d advancing by dstStride and s by
/// srcStride bytes (not necessarily aligned).
template <typename U>
BANG_DEV void copySegments(char *d, const char *s, long long dstStride,
                           long long srcStride, int count) {
  for (int i = 0; i < count; ++i) {
    U v;
    __builtin_memcpy(&v, s + i * srcStride, sizeof(U));
    __builtin_memcpy(d + i * dstStride, &v, sizeof(U));
  }
}

/// The strided __bang_move: `segnum` segments of `seg` bytes (a count, not
/// segnum + 1 as __memcpy's), dst advancing by dstStride and src by
/// srcStride bytes after each; each segment is a memmove, in order.
BANG_DEV void moveStrided(RowClass opClass, void *dst, const void *src, int seg,
                          int dstStride, int srcStride, int segnum) {
  if (seg < 0 || segnum < 0)
    __bangsim_fault("__bang_move: negative size or segment count");
  if (seg == 0 || segnum == 0)
    return;
  long long dlo, dhi, slo, shi;
  segmentSpan(seg, dstStride, segnum, dlo, dhi);
  segmentSpan(seg, srcStride, segnum, slo, shi);
  writesBytes((char *)dst + dlo, dhi - dlo);
  readsBytes((const char *)src + slo, shi - slo);
  charge<int8_t>(opClass, (long long)seg * segnum);
  char *d = (char *)dst;
  const char *s = (const char *)src;
  // Segments of one element (mlu-ops interleaves floats) copy as typed
  // loads and stores, which vectorise, when the two extents are apart (then
  // the order of the segments cannot matter).
  bool apart = d + dhi <= s + slo || s + shi <= d + dlo;
  if (apart && (seg == 2 || seg == 4 || seg == 8)) {
    if (seg == 2)
      copySegments<uint16_t>(d, s, dstStride, srcStride, segnum);
    else if (seg == 4)
      copySegments<uint32_t>(d, s, dstStride, srcStride, segnum);
    else
      copySegments<uint64_t>(d, s, dstStride, srcStride, segnum);
    return;
  }
  for (int i = 0; i < segnum; ++i)
    __builtin_memmove(d + (long long)i * dstStride,
                      s + (long long)i * srcStride, seg);
}

/// Both overloads of __bang_move share one body, move(rowClass, dst, src,
/// bytes, dst_stride, src_stride, segnum): in the plain overload, which has
/// no stride parameters, those names are the Unstrided constants below.
struct Unstrided {};
BANG_DEV void move(RowClass opClass, void *dst, const void *src, int bytes,
                   Unstrided, Unstrided, Unstrided) {
  move(opClass, dst, src, bytes);
}
BANG_DEV void move(RowClass opClass, void *dst, const void *src, int bytes,
                   int dstStride, int srcStride, int segnum) {
  moveStrided(opClass, dst, src, bytes, dstStride, srcStride, segnum);
}

} // namespace bangdev

static constexpr bangdev::Unstrided dst_stride, src_stride, segnum;

#define BODY___bang_rotate90 turn<Turn90>(rowClass, dst, src, height, width)
#define BODY___bang_rotate180 turn<Turn180>(rowClass, dst, src, height, width)
#define BODY___bang_rotate270 turn<Turn270>(rowClass, dst, src, height, width)
#define BODY___bang_mirror turn<Mirror>(rowClass, dst, src, height, width)
#define BODY___bang_pad                                                        \
  pad(rowClass, dst, src, channel, height, width, pad_top, pad_bottom,         \
      pad_left, pad_right)
#define BODY___bang_reshape_filter reshapeFilter(rowClass, dst, src, n, h, w, c)
#define BODY___bang_expand_channel_mul                                         \
  expandChannel<false>(rowClass, dst, a, filter, b, (const decltype(+*a) *)0,  \
                       n, c)
#define BODY___bang_expand_channel_mul_add                                     \
  expandChannel<true>(rowClass, dst, a, filter, b, acc, n, c)

#endif // BANG_DEVICELIB_LAYOUT_H
