//===- Gemm.h - The matrix unit's reduction at host speed ------*- C++ -*-===//
//
// __bang_conv, __bang_matmul and __bang_mlp all reduce to one product:
//
//   out[i][c] = finish(sum over (s, r) of x_i[seg[s] + r] * w[s*len + r][c])
//
// for rows i in [0, m) (matrix rows, or output pixels of a convolution,
// whose row i starts at Rows::at(i)), columns c in [0, n) (output
// channels), `segs` segments of `len` reduction steps each (kernel taps or
// kernel rows of a convolution; one segment for a matrix multiply) whose
// inputs start seg[s] elements after the row's start, and weights
// w[segs*len][n], row-major.
//
// Each output element keeps the order Reduce.h documents: one accumulator,
// starting at 0, acc = acc + x*w for every step in reduction order (s, then
// r), the product rounded to the accumulator type before the sum, no fused
// multiply-add. That fixes every result bit regardless of how the work is
// blocked, so the blocking below only decides speed, and results are the
// same on every run and any thread count.
//
// The blocking is register tiles of MR rows by NV host vectors of VL
// columns (Vec<A, VL>; 64 bytes of accumulators is one AVX-512 register or
// two AVX2 ones: the library is compiled for the host CPU, so the generic
// vectors become its own). Per reduction step a tile loads NV weight
// vectors, broadcasts one input per row and adds MR * NV products into
// accumulators that stay in registers: the columns are the vector lanes and
// the reduction stays sequential in every lane. Columns go in panels of one
// 64-byte vector in 12-row tiles, then at most one panel of half a vector
// in 10-row tiles; fewer columns than that run the same order in scalar
// code. One vector per panel lets each row's product take its input as a
// broadcast memory operand of the multiply: a panel of two vectors needs a
// separate broadcast instruction per row, and on an AVX-512 host (AMD EPYC,
// bench/gemm) 6 x 2 tiles ran at 76 GFLOP/s a thread where 12 x 1 tiles run
// at 105. A half-vector tile (a conv split into 8 float output channels per
// task) keeps 10 rows: with 12 a row pointer no longer fits in a register
// (82 GFLOP/s instead of 87). When the destination is the accumulator type
// (float results of float or half inputs) the reduction is cut into chunks
// of kChunk steps whose partial sums wait in the destination itself (stored
// and reloaded exactly), so a chunk of weights stays in L1 while every row
// tile uses it.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_GEMM_H
#define BANG_DEVICELIB_GEMM_H

#include "DeviceLib.h"

namespace bangdev {

template <typename S> struct AccOf { using type = float; };
template <> struct AccOf<int8_t> { using type = long long; };
template <> struct AccOf<int16_t> { using type = long long; };

/// The accumulator rounded once to the destination type.
template <typename D, typename A> BANG_DEV D finish(A acc) {
  if constexpr (sizeof(A) == 8) { // integer: saturate
    constexpr long long lo = -(1LL << (sizeof(D) * 8 - 1));
    constexpr long long hi = (1LL << (sizeof(D) * 8 - 1)) - 1;
    return (D)(acc < lo ? lo : (acc > hi ? hi : acc));
  } else {
    return (D)acc;
  }
}

/// A host vector of VL accumulators; kLanes<A> of them fill 64 bytes.
template <typename A, int VL>
using Vec = A __attribute__((ext_vector_type(VL)));
template <typename A> constexpr int kLanes = 64 / (int)sizeof(A);

/// v = VL consecutive elements of type S at p (any alignment), converted to
/// A. (An out parameter: a 64-byte vector returned by value would warn of
/// the baseline ABI the bitcode is first compiled for.)
template <typename A, int VL, typename S>
BANG_DEV void loadAs(Vec<A, VL> &v, const S *p) {
  Vec<S, VL> in;
  __builtin_memcpy(&in, p, sizeof in);
  v = __builtin_convertvector(in, Vec<A, VL>);
}

/// Where row i of the reduction starts: src + (i / ow) * yStep + (i % ow) *
/// xStep (a convolution's output pixel (y, x); a matrix row when ow is 1).
template <typename S> struct Rows {
  const S *src;
  int ow;
  long long yStep, xStep;
  inline __attribute__((always_inline)) const S *at(int i) const {
    return src + (long long)(i / ow) * yStep + (long long)(i % ow) * xStep;
  }
};

/// The shape of one reduction (see the banner).
template <typename S> struct Reduction {
  Rows<S> rows;
  const long long *seg;
  int segs, len;
  const S *w;
  int n;
};

/// Register tile rows [i0, i0+MR) x columns [c0, c0 + NV*VL) over the
/// reduction steps r in [r0, r1) of segments [s0, s1). `first`: the
/// accumulators start at 0, else at the partial sums in out; `last`: the
/// sums are finished into out (with bias), else stored there as partials.
template <int MR, int NV, int VL, typename D, typename S, typename B, bool Bias>
BANG_DEV void tile(D *out, const Reduction<S> &red, int i0, int c0, int s0,
                   int s1, int r0, int r1, bool first, bool last,
                   const B *bias) {
  using A = typename AccOf<S>::type;
  using V = Vec<A, VL>;
  const long long n = red.n;
  V acc[MR][NV];
#pragma unroll
  for (int i = 0; i < MR; ++i)
#pragma unroll
    for (int v = 0; v < NV; ++v) {
      if (first)
        acc[i][v] = (A)0;
      else
        loadAs<A, VL>(acc[i][v], out + (i0 + i) * n + c0 + v * VL);
    }
  const S *base[MR];
#pragma unroll
  for (int i = 0; i < MR; ++i)
    base[i] = red.rows.at(i0 + i);
  for (int s = s0; s < s1; ++s) {
    const S *x[MR];
#pragma unroll
    for (int i = 0; i < MR; ++i)
      x[i] = base[i] + red.seg[s];
    const S *w = red.w + ((long long)s * red.len) * n + c0;
    for (int r = r0; r < r1; ++r) {
      V wv[NV];
#pragma unroll
      for (int v = 0; v < NV; ++v)
        loadAs<A, VL>(wv[v], w + r * n + v * VL);
#pragma unroll
      for (int i = 0; i < MR; ++i) {
        A xv = (A)x[i][r];
#pragma unroll
        for (int v = 0; v < NV; ++v)
          acc[i][v] = acc[i][v] + xv * wv[v];
      }
    }
  }
#pragma unroll
  for (int i = 0; i < MR; ++i)
#pragma unroll
    for (int v = 0; v < NV; ++v) {
      D *o = out + (i0 + i) * n + c0 + v * VL;
      if (!last) { // D is A here
        __builtin_memcpy(o, &acc[i][v], sizeof(V));
        continue;
      }
      A lanes[VL];
      __builtin_memcpy(lanes, &acc[i][v], sizeof(V));
#pragma unroll
      for (int l = 0; l < VL; ++l) {
        if constexpr (Bias)
          o[l] = finish<D>(lanes[l] + (A)bias[c0 + v * VL + l]);
        else
          o[l] = finish<D>(lanes[l]);
      }
    }
}

/// tile<rows, NV, VL> for 1 <= rows <= MR: full tiles and the rows left at
/// the bottom.
template <int MR, int NV, int VL, typename D, typename S, typename B, bool Bias>
BANG_DEV void tileRows(int rows, D *out, const Reduction<S> &red, int i0,
                       int c0, int s0, int s1, int r0, int r1, bool first,
                       bool last, const B *bias) {
  if constexpr (MR > 1)
    if (rows < MR)
      return tileRows<MR - 1, NV, VL, D, S, B, Bias>(
          rows, out, red, i0, c0, s0, s1, r0, r1, first, last, bias);
  tile<MR, NV, VL, D, S, B, Bias>(out, red, i0, c0, s0, s1, r0, r1, first, last,
                                  bias);
}

/// Every row, in tiles of MR rows, for columns [c0, c0 + NV*VL).
template <int MR, int NV, int VL, typename D, typename S, typename B, bool Bias>
BANG_DEV void panel(D *out, const Reduction<S> &red, int m, int c0, int s0,
                    int s1, int r0, int r1, bool first, bool last,
                    const B *bias) {
  for (int i0 = 0; i0 < m; i0 += MR)
    tileRows<MR, NV, VL, D, S, B, Bias>(m - i0 < MR ? m - i0 : MR, out, red, i0,
                                        c0, s0, s1, r0, r1, first, last, bias);
}

/// Columns [c0, n) (fewer than one vector) of every row, in scalar code.
template <typename D, typename S, typename B, bool Bias>
BANG_DEV void tailColumns(D *out, const Reduction<S> &red, int m, int c0,
                          const B *bias) {
  using A = typename AccOf<S>::type;
  const long long n = red.n;
  for (int i = 0; i < m; ++i) {
    const S *base = red.rows.at(i);
    for (int c = c0; c < n; ++c) {
      A acc = 0;
      for (int s = 0; s < red.segs; ++s) {
        const S *x = base + red.seg[s];
        const S *w = red.w + ((long long)s * red.len) * n + c;
        for (int r = 0; r < red.len; ++r)
          acc = acc + (A)x[r] * (A)w[r * n];
      }
      if constexpr (Bias)
        out[i * n + c] = finish<D>(acc + (A)bias[c]);
      else
        out[i * n + c] = finish<D>(acc);
    }
  }
}

/// Reduction steps per chunk when partial sums can wait in the destination:
/// a chunk of weights for one vector of float columns is 16 KiB (half of a
/// common L1; 128 steps stored and reloaded the partial sums twice as often,
/// about 6% slower).
constexpr int kChunk = 256;

/// out[m][n] = the reduction `red` (plus bias[n]), in the order the banner
/// documents. Not inlined: one body per type, whatever calls it.
template <typename D, typename S, typename B, bool Bias>
__attribute__((noinline)) static void gemm(D *out, const Reduction<S> &red,
                                           int m, const B *bias) {
  using A = typename AccOf<S>::type;
  constexpr int L = kLanes<A>;
  // Partial sums can wait in out only if out holds accumulators exactly.
  constexpr bool chunked = __is_same(D, A);
  const int n = red.n;
  // Columns in panels of 1 vector (12-row tiles), then at most one of half
  // a vector (10-row tiles).
  const int half = n / L * L;
  const bool halfOne = n - half >= L / 2;
  const int vec = half + (halfOne ? L / 2 : 0);
  auto span = [&](int s0, int s1, int r0, int r1, bool first, bool last) {
    for (int c0 = 0; c0 < half; c0 += L)
      panel<12, 1, L, D, S, B, Bias>(out, red, m, c0, s0, s1, r0, r1, first,
                                     last, bias);
    if (halfOne)
      panel<10, 1, L / 2, D, S, B, Bias>(out, red, m, half, s0, s1, r0, r1,
                                         first, last, bias);
  };
  if (vec > 0) {
    if constexpr (chunked) {
      for (int s = 0; s < red.segs; ++s)
        for (int r0 = 0; r0 < red.len; r0 += kChunk) {
          int r1 = red.len - r0 < kChunk ? red.len : r0 + kChunk;
          span(s, s + 1, r0, r1, s == 0 && r0 == 0,
               s == red.segs - 1 && r1 == red.len);
        }
    } else {
      span(0, red.segs, 0, red.len, true, true);
    }
  }
  if (vec < n)
    tailColumns<D, S, B, Bias>(out, red, m, vec, bias);
}

} // namespace bangdev

#endif // BANG_DEVICELIB_GEMM_H
