//===- ReduceTest.cpp - Lookup, reductions, pools, transpose, matrix ------===//
#include "Ref.h"

using namespace intrtest;

namespace {

template <typename T> void lutOne(Batch &b, Gen &g) {
  for (int len : {1, 17, 300}) {
    int n = 261;
    auto table = g.vec<T>(len);
    std::vector<T> idx(n);
    for (T &i : idx)
      i = (T)g.range(0, len - 1);
    int64_t ot = b.nram(table), oi = b.nram(idx), od = b.scratch(n * sizeof(T));
    b.call("__bang_lut(" + Batch::p<T>(od) + ", " + Batch::p<T>(oi) + ", " +
           Batch::p<T>(ot) + ", " + std::to_string(n) + ", " + std::to_string(len) + ");");
    b.expect(od, mapRef<T>(idx, [&](T i) { return table[i]; }),
             std::string("__bang_lut<") + Ty<T>::name + "> len=" + std::to_string(len));
    // In place: dst == idx.
    b.call("__bang_lut(" + Batch::p<T>(oi) + ", " + Batch::p<T>(oi) + ", " +
           Batch::p<T>(ot) + ", " + std::to_string(n) + ", " + std::to_string(len) + ");");
    b.expect(oi, mapRef<T>(idx, [&](T i) { return table[i]; }),
             std::string("__bang_lut<") + Ty<T>::name + "> in place");
  }
}

/// Sum in order in float, rounded once.
template <typename T> T sumRef(const std::vector<T> &x) {
  float acc = 0;
  for (T v : x)
    acc += (float)val(v);
  return fromDouble<T>(acc);
}

/// The first extreme, NaN skipped unless all are NaN (then index 0).
template <typename T> int argRef(const std::vector<T> &x, bool max) {
  int best = -1;
  for (size_t i = 0; i < x.size(); ++i) {
    if (isNaN(x[i]))
      continue;
    if (best < 0 || (max ? val(x[i]) > val(x[best]) : val(x[i]) < val(x[best])))
      best = (int)i;
  }
  return best < 0 ? 0 : best;
}

template <typename T> void reduceOne(Batch &b, Gen &g) {
  for (int n : counts()) {
    // Finite data for the sum, so that the order of additions matters.
    auto x = g.vec<T>(n);
    auto xs = x;
    for (T &v : xs)
      if (!std::isfinite(val(v)) || std::fabs(val(v)) > 1e4)
        v = fromDouble<T>(g.uniform(-50, 50));
    int64_t ox = b.nram(x), oxs = b.nram(xs);
    int64_t os = b.scratch(64), oa = b.scratch(8), om = b.scratch(8);
    std::string N = std::to_string(n), t = Ty<T>::name;
    b.call("__bang_reduce_sum(" + Batch::p<T>(os) + ", " + Batch::p<T>(oxs) + ", " + N + ");");
    b.expect(os, std::vector<T>{sumRef(xs)}, "__bang_reduce_sum<" + t + "> n=" + N);
    b.call("__bang_reduce_sum(" + Batch::p<T>(os + 32) + ", " + Batch::p<T>(ox) + ", " + N + ");");
    b.expect(os + 32, std::vector<T>{sumRef(x)}, "__bang_reduce_sum<" + t + "> specials n=" + N);
    for (bool max : {true, false}) {
      int64_t o = max ? oa : om;
      b.call(std::string(max ? "__bang_argmax(" : "__bang_argmin(") + Batch::p<T>(o) +
             ", " + Batch::p<T>(ox) + ", " + N + ");");
      int i = argRef(x, max);
      b.expect(o, std::vector<T>{x[i]}, std::string(max ? "__bang_argmax<" : "__bang_argmin<") + t + "> value n=" + N);
      b.expect(o + 4, std::vector<uint32_t>{(uint32_t)i},
               std::string(max ? "__bang_argmax<" : "__bang_argmin<") + t + "> index n=" + N);
    }
  }
}

template <typename T>
std::vector<T> poolRef(const std::vector<T> &src, int kind, int c, int h, int w, int kh, int kw,
                       int sh, int sw) {
  int oh = (h - kh) / sh + 1, ow = (w - kw) / sw + 1;
  std::vector<T> out((size_t)oh * ow * c);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x)
      for (int ch = 0; ch < c; ++ch) {
        float acc = 0;
        T m{};
        for (int ky = 0; ky < kh; ++ky)
          for (int kx = 0; kx < kw; ++kx) {
            T v = src[((size_t)(y * sh + ky) * w + x * sw + kx) * c + ch];
            acc += (float)val(v);
            m = (ky == 0 && kx == 0) ? v : refMax(m, v);
          }
        T r = kind == 0 ? fromDouble<T>(acc)
              : kind == 1 ? m
                          : fromDouble<T>(acc / (float)(kh * kw));
        out[((size_t)y * ow + x) * c + ch] = r;
      }
  return out;
}

template <typename T> void poolOne(Batch &b, Gen &g) {
  struct Shape {
    int c, h, w, kh, kw, sh, sw;
  } shapes[] = {{3, 5, 7, 2, 3, 1, 2}, {37, 6, 6, 3, 3, 2, 2}, {300, 4, 3, 2, 2, 2, 1},
                {1, 1, 1, 1, 1, 1, 1}};
  const char *names[] = {"__bang_sumpool", "__bang_maxpool", "__bang_avgpool"};
  for (const Shape &s : shapes)
    for (int kind = 0; kind < 3; ++kind) {
      auto x = g.vec<T>(s.c * s.h * s.w);
      if (kind != 1) // finite data for sums
        for (T &v : x)
          if (!std::isfinite(val(v)) || std::fabs(val(v)) > 1e4)
            v = fromDouble<T>(g.uniform(-50, 50));
      auto want = poolRef(x, kind, s.c, s.h, s.w, s.kh, s.kw, s.sh, s.sw);
      int64_t ox = b.nram(x), od = b.scratch(want.size() * sizeof(T));
      char args[128];
      std::snprintf(args, sizeof args, "%d, %d, %d, %d, %d, %d, %d", s.c, s.h, s.w, s.kh,
                    s.kw, s.sh, s.sw);
      b.call(std::string(names[kind]) + "(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) +
             ", " + args + ");");
      b.expect(od, want, std::string(names[kind]) + "<" + Ty<T>::name + "> " + args);
    }
}

template <typename T> void transposeOne(Batch &b, Gen &g) {
  for (auto [h, w] : std::vector<std::pair<int, int>>{{1, 9}, {7, 3}, {33, 65}}) {
    auto x = g.vec<T>(h * w);
    std::vector<T> want(h * w);
    for (int y = 0; y < h; ++y)
      for (int xx = 0; xx < w; ++xx)
        want[(size_t)xx * h + y] = x[(size_t)y * w + xx];
    int64_t ox = b.nram(x), od = b.scratch(h * w * sizeof(T));
    b.call("__bang_transpose(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) + ", " +
           std::to_string(h) + ", " + std::to_string(w) + ");");
    b.expect(od, want, std::string("__bang_transpose<") + Ty<T>::name + "> " +
                           std::to_string(h) + "x" + std::to_string(w));
  }
}

} // namespace

TEST(Reduce, LutSumArg) {
  Gen g(21);
  Batch b("lut_sum_arg");
  lutOne<int32_t>(b, g);
  lutOne<int16_t>(b, g);
  reduceOne<H>(b, g);
  reduceOne<float>(b, g);
  // All NaN: index 0 and NaN.
  std::vector<float> nans(5, NAN);
  int64_t on = b.nram(nans), oa = b.scratch(8);
  b.call("__bang_argmax(" + Batch::p<float>(oa) + ", " + Batch::p<float>(on) + ", 5);");
  b.expect(oa, std::vector<float>{NAN}, "__bang_argmax all NaN");
  b.expect(oa + 4, std::vector<uint32_t>{0}, "__bang_argmax all NaN index");
  b.run();
}

TEST(Reduce, PoolsAndTranspose) {
  Gen g(22);
  Batch b("pool_transpose");
  poolOne<H>(b, g);
  poolOne<float>(b, g);
  transposeOne<H>(b, g);
  transposeOne<float>(b, g);
  b.run();
}

// --- Matrix unit -------------------------------------------------------===//
namespace {

template <typename S> using AccT = std::conditional_t<isFloat<S>, float, int64_t>;

template <typename D, typename S> D finishRef(AccT<S> acc) {
  if constexpr (isFloat<S>) {
    return fromDouble<D>(acc);
  } else {
    if (acc < INT32_MIN)
      return INT32_MIN;
    if (acc > INT32_MAX)
      return INT32_MAX;
    return (D)acc;
  }
}

template <typename S> AccT<S> accOf(S x) {
  if constexpr (isFloat<S>)
    return (float)val(x);
  else
    return (int64_t)x;
}

/// Conv with one accumulator per output, summed in (ky, kx, ci) order.
template <typename D, typename S>
std::vector<D> convRef(const std::vector<S> &in, const std::vector<S> &wt, int ci, int ih, int iw,
                       int kh, int kw, int sh, int sw, int co, int dh, int dw) {
  int oh = (ih - ((kh - 1) * dh + 1)) / sh + 1, ow = (iw - ((kw - 1) * dw + 1)) / sw + 1;
  std::vector<D> out((size_t)oh * ow * co);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x)
      for (int o = 0; o < co; ++o) {
        AccT<S> acc = 0;
        for (int ky = 0; ky < kh; ++ky)
          for (int kx = 0; kx < kw; ++kx)
            for (int c = 0; c < ci; ++c) {
              S a = in[((size_t)(y * sh + ky * dh) * iw + x * sw + kx * dw) * ci + c];
              S wv = wt[(((size_t)ky * kw + kx) * ci + c) * co + o];
              acc = acc + accOf(a) * accOf(wv);
            }
        out[((size_t)y * ow + x) * co + o] = finishRef<D, S>(acc);
      }
  return out;
}

template <typename S> std::vector<S> matrixData(Gen &g, int n) {
  std::vector<S> v(n);
  for (S &x : v) {
    if constexpr (isFloat<S>)
      x = fromDouble<S>(g.uniform(-4, 4));
    else
      x = (S)g.u32();
  }
  return v;
}

template <typename D, typename S> void matrixOne(Batch &b, Gen &g) {
  std::string t = std::string(Ty<D>::name) + "<-" + Ty<S>::name;
  struct Conv {
    int ci, ih, iw, kh, kw, sh, sw, co, dh, dw;
  } convs[] = {{3, 6, 7, 3, 3, 1, 1, 5, 1, 1},
               {17, 9, 8, 3, 2, 2, 3, 33, 1, 1},
               {4, 9, 11, 3, 3, 1, 2, 300, 2, 3},
               {1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
               // Register tiles of 12 rows by 1 vector and of 10 rows by
               // 1/2 vector of columns with rows and columns left over
               // (81 = 6 * 12 + 9 = 8 * 10 + 1), and reductions
               // longer than one chunk (Gemm.h, 256 steps): 81 rows,
               // 26 = 16 + 8 + 2 columns, 2 kernel rows of 5 * 60 steps;
               // dilated taps of 140 steps.
               {60, 10, 13, 2, 5, 1, 1, 26, 1, 1},
               {140, 7, 9, 2, 2, 1, 2, 17, 2, 2}};
  for (const Conv &c : convs) {
    auto in = matrixData<S>(g, c.ci * c.ih * c.iw);
    auto wt = matrixData<S>(g, c.kh * c.kw * c.ci * c.co);
    auto want = convRef<D>(in, wt, c.ci, c.ih, c.iw, c.kh, c.kw, c.sh, c.sw, c.co, c.dh, c.dw);
    int64_t oi = b.nram(in), ow = b.wram(wt), od = b.scratch(want.size() * sizeof(D));
    char args[160];
    std::snprintf(args, sizeof args, "%d, %d, %d, %d, %d, %d, %d, %d", c.ci, c.ih, c.iw, c.kh,
                  c.kw, c.sh, c.sw, c.co);
    std::string dil = c.dh == 1 && c.dw == 1
                          ? ""
                          : ", " + std::to_string(c.dh) + ", " + std::to_string(c.dw);
    b.call("__bang_conv(" + Batch::p<D>(od) + ", " + Batch::p<S>(oi) + ", " + Batch::w<S>(ow) +
           ", " + args + dil + ");");
    b.expect(od, want, "__bang_conv<" + t + "> " + args + dil);
  }
  for (auto [m, k, n] : std::vector<std::tuple<int, int, int>>{{1, 1, 1}, {5, 37, 19}, {3, 64, 300}, {13, 300, 49}, {6, 129, 64}}) {
    auto a = matrixData<S>(g, m * k), w = matrixData<S>(g, k * n);
    std::vector<D> bias(n);
    for (D &x : bias) {
      if constexpr (isFloat<D>)
        x = fromDouble<D>(g.uniform(-2, 2));
      else
        x = (D)g.u32();
    }
    std::vector<D> want(m * n), wantBias(m * n);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        AccT<S> acc = 0;
        for (int kk = 0; kk < k; ++kk)
          acc = acc + accOf(a[(size_t)i * k + kk]) * accOf(w[(size_t)kk * n + j]);
        want[(size_t)i * n + j] = finishRef<D, S>(acc);
        AccT<S> withBias;
        if constexpr (isFloat<S>)
          withBias = acc + (float)val(bias[j]);
        else
          withBias = acc + (int64_t)bias[j];
        wantBias[(size_t)i * n + j] = finishRef<D, S>(withBias);
      }
    int64_t oa = b.nram(a), ob = b.nram(bias), ow = b.wram(w),
            od = b.scratch(m * n * sizeof(D)), od2 = b.scratch(m * n * sizeof(D));
    std::string dims = std::to_string(m) + ", " + std::to_string(k) + ", " + std::to_string(n);
    b.call("__bang_matmul(" + Batch::p<D>(od) + ", " + Batch::p<S>(oa) + ", " + Batch::w<S>(ow) +
           ", " + dims + ");");
    b.expect(od, want, "__bang_matmul<" + t + "> " + dims);
    b.call("__bang_mlp(" + Batch::p<D>(od2) + ", " + Batch::p<S>(oa) + ", " + Batch::w<S>(ow) +
           ", " + Batch::p<D>(ob) + ", " + dims + ");");
    b.expect(od2, wantBias, "__bang_mlp<" + t + "> " + dims);
  }
}

} // namespace

TEST(Matrix, ConvMatmulMlp) {
  Gen g(23);
  Batch b("matrix");
  matrixOne<float, float>(b, g);
  matrixOne<H, H>(b, g);
  matrixOne<float, H>(b, g);
  matrixOne<int32_t, int8_t>(b, g);
  matrixOne<int32_t, int16_t>(b, g);
  b.run();
}
