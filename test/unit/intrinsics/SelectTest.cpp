//===- SelectTest.cpp - mlu-ops family F6: selection and bit masks --------===//
//
// __bang_filter, __bang_filter_bitindex, __bang_count, __bang_findfirst1,
// __bang_findlast1, __bang_sum, __bang_gt_bitindex, __bang_ge_bitindex,
// __bang_minpool, __bang_maxpool_value_index and __gather (NRAM to NRAM)
// against scalar references written from docs/language.md: masks with NaN
// and -0, odd counts, empty results, in place where allowed.
//
//===----------------------------------------------------------------------===//
#include "Ref.h"

using namespace intrtest;

namespace {

template <typename T> bool nz(T x) {
  if constexpr (std::is_same_v<T, H>)
    return (x.bits & 0x7fff) != 0;
  else
    return x != T(0); // NaN != 0 is true; -0.0f == 0 is false
}

/// A mask: mostly 0/1, with -0, NaN and other non-zero values mixed in.
template <typename T> std::vector<T> maskOf(Gen &g, int n) {
  std::vector<T> m(n);
  for (T &v : m) {
    int r = g.range(0, 9);
    if (r < 4)
      v = zero<T>();
    else if (r < 8)
      v = one<T>();
    else
      v = g.value<T>();
  }
  if (n > 2) {
    m[1] = fromDouble<T>(-0.0);
    if constexpr (isFloat<T>)
      m[2] = fromDouble<T>(NAN);
  }
  return m;
}

bool bitAt(const std::vector<uint8_t> &bits, int i) { return (bits[i / 8] >> (7 - i % 8)) & 1; }

std::string intSlot(int64_t off, int k) {
  return Batch::p<int32_t>(off) + "[" + std::to_string(k) + "]";
}

template <typename T> void filterOne(Batch &b, Gen &g) {
  for (int n : {1, 7, 67, 261}) {
    auto x = g.vec<T>(n);
    auto m = maskOf<T>(g, n);
    std::vector<T> want;
    for (int i = 0; i < n; ++i)
      if (nz(m[i]))
        want.push_back(x[i]);
    std::string N = std::to_string(n), label = std::string("<") + Ty<T>::name + "> n=" + N;
    int64_t ox = b.nram(x), om = b.nram(m), od = b.scratch(n * sizeof(T)),
            oc = b.scratch(16);
    b.call(intSlot(oc, 0) + " = __bang_filter(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) +
           ", " + Batch::p<T>(om) + ", " + N + ");");
    b.expect(od, want, "__bang_filter" + label);
    // What follows the selected elements is untouched.
    b.expect(od + (int64_t)(want.size() * sizeof(T)),
             std::vector<uint8_t>((n - want.size()) * sizeof(T), 0xa5),
             "__bang_filter" + label + " tail");
    // In place.
    int64_t ox2 = b.nram(x);
    b.call(intSlot(oc, 1) + " = __bang_filter(" + Batch::p<T>(ox2) + ", " +
           Batch::p<T>(ox2) + ", " + Batch::p<T>(om) + ", " + N + ");");
    b.expect(ox2, want, "__bang_filter" + label + " in place");
    // The same selection by bits.
    std::vector<uint8_t> bits((n + 7) / 8);
    for (uint8_t &v : bits)
      v = (uint8_t)g.u32();
    std::vector<T> wantBits;
    for (int i = 0; i < n; ++i)
      if (bitAt(bits, i))
        wantBits.push_back(x[i]);
    int64_t ob = b.nram(bits), od2 = b.scratch(n * sizeof(T));
    b.call(intSlot(oc, 2) + " = __bang_filter_bitindex(" + Batch::p<T>(od2) + ", " +
           Batch::p<T>(ox) + ", " + Batch::p("int8_t", ob) + ", " + N + ");");
    b.expect(od2, wantBits, "__bang_filter_bitindex" + label);
    b.expect(oc,
             std::vector<int32_t>{(int32_t)want.size(), (int32_t)want.size(),
                                  (int32_t)wantBits.size()},
             "__bang_filter counts" + label);
  }
  // mlu-ops' abs kernel: bytes of 0xAA select the even elements.
  std::vector<T> x = g.vec<T>(16), even;
  for (int i = 0; i < 16; i += 2)
    even.push_back(x[i]);
  int64_t ox = b.nram(x), ob = b.nram(std::vector<uint8_t>{0xaa, 0xaa}),
          od = b.scratch(16 * sizeof(T));
  b.call("__bang_filter_bitindex(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) + ", " +
         Batch::p("int8_t", ob) + ", 16);");
  b.expect(od, even, std::string("__bang_filter_bitindex<") + Ty<T>::name + "> 0xAA");
}

template <typename T> void countFindSumOne(Batch &b, Gen &g) {
  for (int n : {0, 1, 7, 67, 261}) {
    auto m = maskOf<T>(g, n);
    if (n == 7)
      m.assign(n, fromDouble<T>(-0.0)); // nothing non-zero
    int count = 0, first = -1, last = -1;
    for (int i = 0; i < n; ++i)
      if (nz(m[i])) {
        ++count;
        last = i;
        if (first < 0)
          first = i;
      }
    std::string N = std::to_string(n), label = std::string("<") + Ty<T>::name + "> n=" + N;
    int64_t om = b.nram(std::vector<T>(m.begin(), m.end())), oc = b.scratch(16);
    if (n == 0)
      om = b.scratch(4);
    b.call(intSlot(oc, 0) + " = __bang_count(" + Batch::p<T>(om) + ", " + N + ");");
    b.call(intSlot(oc, 1) + " = __bang_findfirst1(" + Batch::p<T>(om) + ", " + N + ");");
    b.call(intSlot(oc, 2) + " = __bang_findlast1(" + Batch::p<T>(om) + ", " + N + ");");
    b.expect(oc, std::vector<int32_t>{count, first, last}, "count/find" + label);
    // The sum: floats in float in index order, rounded once; integers wrap.
    auto x = g.vec<T>(n);
    int64_t ox = n ? b.nram(x) : b.scratch(4), os = b.scratch(sizeof(T));
    T want;
    if constexpr (isFloat<T>) {
      float acc = 0.0f;
      for (T v : x)
        acc += Ty<T>::toF(v);
      want = Ty<T>::fromF(acc);
    } else {
      int64_t acc = 0;
      for (T v : x)
        acc += v;
      want = wrap<T>(acc);
    }
    b.call(Batch::p<T>(os) + "[0] = __bang_sum(" + Batch::p<T>(ox) + ", " + N + ");");
    b.expect(os, std::vector<T>{want}, "__bang_sum" + label);
  }
}

template <typename T> void bitindexOne(Batch &b, Gen &g) {
  for (int n : {8, 64, 264}) {
    auto x = g.vec<T>(n), y = g.vec<T>(n);
    for (int i = 0; i < n; i += 5)
      y[i] = x[i]; // equal: ge but not gt
    std::vector<uint8_t> gt(n / 8), ge(n / 8);
    for (int i = 0; i < n; ++i) {
      double a = val(x[i]), c = val(y[i]);
      gt[i / 8] |= (uint8_t)((a > c ? 1 : 0) << (7 - i % 8));
      ge[i / 8] |= (uint8_t)((a >= c ? 1 : 0) << (7 - i % 8));
    }
    int64_t ox = b.nram(x), oy = b.nram(y), o1 = b.scratch(n / 8 + 8), o2 = b.scratch(n / 8);
    std::string N = std::to_string(n), label = std::string("<") + Ty<T>::name + "> n=" + N;
    b.call("__bang_gt_bitindex(" + Batch::p<T>(o1) + ", " + Batch::p<T>(ox) + ", " +
           Batch::p<T>(oy) + ", " + N + ");");
    b.call("__bang_ge_bitindex(" + Batch::p<T>(o2) + ", " + Batch::p<T>(ox) + ", " +
           Batch::p<T>(oy) + ", " + N + ");");
    b.expect(o1, gt, "__bang_gt_bitindex" + label);
    b.expect(o1 + n / 8, std::vector<uint8_t>(8, 0xa5), "__bang_gt_bitindex" + label + " past");
    b.expect(o2, ge, "__bang_ge_bitindex" + label);
  }
}

/// IEEE minimum / maximum as docs/language.md: NaN wins, -0 < +0.
template <typename T> T extreme(T a, T c, bool max) {
  if (isNaN(a))
    return a;
  if (isNaN(c))
    return c;
  double x = val(a), y = val(c);
  if (x == y) {
    bool sa = signBit(a), sc = signBit(c);
    return (max ? sa && !sc : !sa && sc) ? c : a;
  }
  return (max ? y > x : y < x) ? c : a;
}

template <typename T> bool sameBits(T a, T c) { return std::memcmp(&a, &c, sizeof(T)) == 0; }

template <typename T> void poolsOne(Batch &b, Gen &g) {
  struct Shape {
    int c, h, w, kh, kw, sh, sw;
  };
  for (Shape s : {Shape{5, 1, 24, 1, 24, 1, 24}, Shape{3, 5, 7, 2, 3, 1, 2},
                  Shape{17, 4, 4, 4, 4, 4, 4}}) {
    int oh = (s.h - s.kh) / s.sh + 1, ow = (s.w - s.kw) / s.sw + 1;
    int outs = oh * ow * s.c;
    auto x = g.vec<T>(s.h * s.w * s.c);
    for (int i = 0; i < (int)x.size(); i += 7)
      x[i] = x[(i * 13) % x.size()]; // repeated values: ties
    std::vector<T> mins(outs), maxs(outs);
    std::vector<uint32_t> where(outs);
    for (int y = 0; y < oh; ++y)
      for (int xx = 0; xx < ow; ++xx)
        for (int c = 0; c < s.c; ++c) {
          auto at = [&](int ky, int kx) {
            return x[((size_t)(y * s.sh + ky) * s.w + (xx * s.sw + kx)) * s.c + c];
          };
          T mn = at(0, 0), mx = at(0, 0);
          uint32_t w = 0;
          for (int ky = 0; ky < s.kh; ++ky)
            for (int kx = 0; kx < s.kw; ++kx) {
              mn = extreme(mn, at(ky, kx), false);
              T next = extreme(mx, at(ky, kx), true);
              if (!sameBits(next, mx)) {
                mx = next;
                w = (uint32_t)(ky * s.kw + kx);
              }
            }
          int o = (y * ow + xx) * s.c + c;
          mins[o] = mn;
          maxs[o] = mx;
          where[o] = w;
        }
    std::string args = std::to_string(s.c) + ", " + std::to_string(s.h) + ", " +
                       std::to_string(s.w) + ", " + std::to_string(s.kh) + ", " +
                       std::to_string(s.kw) + ", " + std::to_string(s.sh) + ", " +
                       std::to_string(s.sw);
    std::string label = std::string("<") + Ty<T>::name + "> c=" + std::to_string(s.c) +
                        " w=" + std::to_string(s.w);
    int64_t ox = b.nram(x), on = b.scratch(outs * sizeof(T));
    b.call("__bang_minpool(" + Batch::p<T>(on) + ", " + Batch::p<T>(ox) + ", " + args + ");");
    b.expect(on, mins, "__bang_minpool" + label);
    // Values, then the indices at a byte stride rounded up to 4.
    int stride = (outs * (int)sizeof(T) + 3) / 4 * 4;
    int64_t ov = b.scratch(stride + outs * 4);
    b.call("__bang_maxpool_value_index(" + Batch::p<T>(ov) + ", " + Batch::p<T>(ox) + ", " +
           args + ", " + std::to_string(stride) + ");");
    b.expect(ov, maxs, "__bang_maxpool_value_index" + label + " values");
    b.expect(ov + stride, where, "__bang_maxpool_value_index" + label + " indices");
  }
}

void gatherOne(Batch &b, Gen &g) {
  int n = 37, size = 12, stride = 16;
  auto src = g.vec<uint8_t>(512);
  std::vector<uint32_t> off(n);
  for (uint32_t &o : off)
    o = (uint32_t)g.range(0, 500);
  int64_t os = b.nram(src), oo = b.nram(off), od = b.scratch(n * stride);
  std::vector<uint8_t> want(n * stride, 0xa5);
  for (int i = 0; i < n; ++i)
    std::memcpy(&want[i * stride], &src[off[i]], size);
  b.call("__gather(" + Batch::p("void", od) + ", " + Batch::p("void", os) + ", " +
         Batch::p("unsigned int", oo) + ", " + std::to_string(size) + ", NRAM2NRAM, " +
         std::to_string(stride) + ", " + std::to_string(n) + ");");
  b.expect(od, want, "__gather NRAM2NRAM");
}

} // namespace

TEST(Select, FilterCountFindSum) {
  Gen g(81);
  Batch b("select");
  filterOne<H>(b, g);
  filterOne<float>(b, g);
  filterOne<int32_t>(b, g);
  countFindSumOne<H>(b, g);
  countFindSumOne<float>(b, g);
  countFindSumOne<int8_t>(b, g);
  countFindSumOne<int16_t>(b, g);
  countFindSumOne<int32_t>(b, g);
  b.run();
}

TEST(Select, BitIndexPoolsGather) {
  Gen g(82);
  Batch b("bitindex_pools");
  bitindexOne<H>(b, g);
  bitindexOne<float>(b, g);
  poolsOne<H>(b, g);
  poolsOne<float>(b, g);
  gatherOne(b, g);
  b.run();
}
