//===- LayoutTest.cpp - Tile layouts, strided moves, sequences, shifts ----===//
//
// The intrinsics of mlu-ops families F8 and F10 that work in NRAM (rotations,
// mirror, pad, reshape_filter, expand_channel_mul[_add], the strided
// __bang_move, the 3-level strided NRAM2NRAM __memcpy, __nramset_async,
// __load_nram) and __bang_incseq, __bang_srl, each against a scalar C++
// reference on data with NaN, infinities, -0 and denormals, at odd sizes.
// The GDRAM and SRAM forms and the faults are lit tests
// (test/lit/run/data-movement.mlu).
//
//===----------------------------------------------------------------------===//
#include "Ref.h"

namespace intrtest {
template <> struct Ty<int64_t> {
  static constexpr const char *name = "int64_t";
};
} // namespace intrtest

using namespace intrtest;

namespace {

std::string S(long long v) { return std::to_string(v); }

/// src [h][w]: clockwise 90, 180, 270 and the mirror (rows reversed).
template <typename T>
std::vector<T> turnRef(const std::vector<T> &src, int h, int w, int kind) {
  std::vector<T> d(src.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      T v = src[y * w + x];
      if (kind == 90)
        d[x * h + (h - 1 - y)] = v;
      else if (kind == 270)
        d[(w - 1 - x) * h + y] = v;
      else if (kind == 180)
        d[(h - 1 - y) * w + (w - 1 - x)] = v;
      else
        d[y * w + (w - 1 - x)] = v;
    }
  return d;
}

template <typename T> void turnOne(Batch &b, Gen &g) {
  std::string t = Ty<T>::name;
  for (auto [h, w] : {std::pair{1, 1}, {3, 7}, {5, 2}, {1, 67}, {13, 9}}) {
    auto src = g.vec<T>(h * w);
    int64_t os = b.nram(src);
    for (auto [name, kind] : {std::pair{"__bang_rotate90", 90},
                              {"__bang_rotate180", 180},
                              {"__bang_rotate270", 270},
                              {"__bang_mirror", 0}}) {
      int64_t od = b.scratch(h * w * sizeof(T));
      b.call(std::string(name) + "(" + Batch::p<T>(od) + ", " +
             Batch::p<T>(os) + ", " + S(h) + ", " + S(w) + ");");
      b.expect(od, turnRef(src, h, w, kind),
               std::string(name) + "<" + t + "> " + S(h) + "x" + S(w));
    }
  }
}

template <typename T> void padOne(Batch &b, Gen &g) {
  struct P {
    int c, h, w, top, bottom, left, right;
  };
  for (P p : {P{1, 3, 5, 0, 2, 0, 3}, P{3, 2, 7, 1, 1, 2, 0},
              P{1, 1, 1, 0, 0, 0, 0}, P{5, 4, 3, 2, 0, 1, 1}}) {
    auto src = g.vec<T>(p.c * p.h * p.w);
    int oh = p.top + p.h + p.bottom, ow = p.left + p.w + p.right;
    std::vector<T> want(oh * ow * p.c, zero<T>());
    for (int y = 0; y < p.h; ++y)
      for (int x = 0; x < p.w; ++x)
        for (int c = 0; c < p.c; ++c)
          want[((p.top + y) * ow + p.left + x) * p.c + c] =
              src[(y * p.w + x) * p.c + c];
    int64_t os = b.nram(src), od = b.scratch(want.size() * sizeof(T));
    b.call("__bang_pad(" + Batch::p<T>(od) + ", " + Batch::p<T>(os) + ", " +
           S(p.c) + ", " + S(p.h) + ", " + S(p.w) + ", " + S(p.top) + ", " +
           S(p.bottom) + ", " + S(p.left) + ", " + S(p.right) + ");");
    b.expect(od, want,
             std::string("__bang_pad<") + Ty<T>::name + "> c=" + S(p.c));
  }
}

template <typename T> void reshapeOne(Batch &b, Gen &g) {
  for (auto [n, h, w, c] :
       {std::tuple{3, 1, 1, 7}, {2, 2, 3, 5}, {1, 1, 1, 1}, {9, 3, 1, 2}}) {
    int inner = h * w * c;
    auto src = g.vec<T>(n * inner);
    std::vector<T> want(src.size());
    for (int o = 0; o < n; ++o)
      for (int k = 0; k < inner; ++k)
        want[k * n + o] = src[o * inner + k];
    int64_t os = b.nram(src), od = b.scratch(src.size() * sizeof(T));
    b.call("__bang_reshape_filter(" + Batch::p<T>(od) + ", " + Batch::p<T>(os) +
           ", " + S(n) + ", " + S(h) + ", " + S(w) + ", " + S(c) + ");");
    b.expect(od, want,
             std::string("__bang_reshape_filter<") + Ty<T>::name +
                 "> n=" + S(n));
  }
}

template <typename T> void expandOne(Batch &b, Gen &g) {
  std::string t = Ty<T>::name;
  for (auto [n, c] : {std::pair{1, 1}, {7, 3}, {5, 67}}) {
    auto a = g.vec<T>(n), x = g.vec<T>(n * c), acc = g.vec<T>(n * c);
    std::vector<T> ones(c, one<T>());
    int64_t oa = b.nram(a), ox = b.nram(x), oc = b.nram(acc), ow = b.wram(ones);
    int64_t od = b.scratch(n * c * sizeof(T)),
            oe = b.scratch(n * c * sizeof(T));
    std::vector<T> mul(n * c), mad(n * c);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < c; ++j) {
        T p = fromDouble<T>(val(a[i]) * val(x[i * c + j]));
        mul[i * c + j] = p;
        mad[i * c + j] = fromDouble<T>(val(p) + val(acc[i * c + j]));
      }
    b.call("__bang_expand_channel_mul(" + Batch::p<T>(od) + ", " +
           Batch::p<T>(oa) + ", " + Batch::w<T>(ow) + ", " + Batch::p<T>(ox) +
           ", " + S(n) + ", " + S(c) + ");");
    b.expect(od, mul,
             "__bang_expand_channel_mul<" + t + "> " + S(n) + "x" + S(c));
    b.call("__bang_expand_channel_mul_add(" + Batch::p<T>(oe) + ", " +
           Batch::p<T>(oa) + ", " + Batch::w<T>(ow) + ", " + Batch::p<T>(ox) +
           ", " + Batch::p<T>(oc) + ", " + S(n) + ", " + S(c) + ");");
    b.expect(oe, mad,
             "__bang_expand_channel_mul_add<" + t + "> " + S(n) + "x" + S(c));
    // In place on the channels operand, as mlu-ops calls it.
    b.call("__bang_expand_channel_mul(" + Batch::p<T>(ox) + ", " +
           Batch::p<T>(oa) + ", " + Batch::w<T>(ow) + ", " + Batch::p<T>(ox) +
           ", " + S(n) + ", " + S(c) + ");");
    b.expect(ox, mul, "__bang_expand_channel_mul<" + t + "> in place");
  }
}

} // namespace

TEST(Layout, RotateMirror) {
  Gen g(31);
  Batch b("rotate_mirror");
  turnOne<H>(b, g);
  turnOne<float>(b, g);
  b.run();
}

TEST(Layout, PadReshapeExpand) {
  Gen g(32);
  Batch b("pad_reshape_expand");
  padOne<H>(b, g);
  padOne<float>(b, g);
  reshapeOne<H>(b, g);
  reshapeOne<float>(b, g);
  expandOne<H>(b, g);
  expandOne<float>(b, g);
  b.run();
}

TEST(Layout, StridedMovesFillsSequencesShifts) {
  Gen g(33);
  Batch b("moves_fills_seq_srl");
  auto src = g.vec<float>(96);
  int64_t os = b.nram(src);

  // __bang_move: `segnum` segments (a count), strides in bytes, here
  // interleaving 5 floats into every other place.
  int64_t om = b.nram(std::vector<float>(12, 7.0f));
  b.call("__bang_move(" + Batch::p<float>(om) + ", " + Batch::p<float>(os) +
         ", 4, 8, 4, 5);");
  std::vector<float> mv(12, 7.0f);
  for (int i = 0; i < 5; ++i)
    mv[2 * i] = src[i];
  b.expect(om, mv, "__bang_move strided");
  // Segments of 12 bytes read backwards (a negative source stride).
  int64_t om2 = b.scratch(36);
  b.call("__bang_move(" + Batch::p<float>(om2) + ", " +
         Batch::p<float>(os + 24 * 4) + ", 12, 12, -12, 3);");
  std::vector<float> mv2;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      mv2.push_back(src[24 - 3 * i + j]);
  b.expect(om2, mv2, "__bang_move negative stride");

  // Overlapping extents: the segments go in order, each a memmove, so a
  // one-element shift right smears the first element.
  std::vector<float> sm(8);
  for (int i = 0; i < 8; ++i)
    sm[i] = src[40 + i];
  int64_t osm = b.nram(sm);
  b.call("__bang_move(" + Batch::p<float>(osm + 4) + ", " +
         Batch::p<float>(osm) + ", 4, 4, 4, 6);");
  std::vector<float> smear(8, sm[0]);
  smear[7] = sm[7];
  b.expect(osm, smear, "__bang_move overlapping, in order");

  // The 3-level __memcpy: 3 x 4 segments of 2 floats; the source repeats
  // each row (stride0 0), the destination packs them.
  int64_t o3 = b.scratch(3 * 4 * 2 * 4);
  b.call("__memcpy(" + Batch::p<float>(o3) + ", " + Batch::p<float>(os) +
         ", 8, NRAM2NRAM, 8, 3, 32, 2, 0, 3, 20, 2);");
  std::vector<float> m3;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 4; ++k)
      for (int e = 0; e < 2; ++e)
        m3.push_back(src[r * 5 + e]);
  b.expect(o3, m3, "__memcpy 3-level");
  // The same count of segments in another shape: 2 x 3 into 6 x 1.
  int64_t o4 = b.scratch(6 * 4);
  b.call("__memcpy_async(" + Batch::p<float>(o4) + ", " + Batch::p<float>(os) +
         ", 4, NRAM2NRAM, 4, 5, 0, 0, 8, 2, 40, 1); __sync();");
  b.expect(
      o4, std::vector<float>{src[0], src[2], src[4], src[10], src[12], src[14]},
      "__memcpy_async 3-level reshaped");

  // __nramset_async: segnum + 1 runs of n elements, stride bytes apart.
  int64_t of = b.nram(std::vector<float>(16, 1.0f));
  b.call("__nramset_async(" + Batch::p<float>(of) +
         ", 3, -0.0f, 20, 2); __sync();");
  std::vector<float> fl(16, 1.0f);
  for (int s = 0; s < 3; ++s)
    for (int e = 0; e < 3; ++e)
      fl[s * 5 + e] = -0.0f;
  b.expect(of, fl, "__nramset_async");
  int64_t oh = b.nram(std::vector<H>(5, H::round(2.0f)));
  b.call("__nramset_async(" + Batch::p<H>(oh) +
         ", 5, (half)-65504.0f, 0, 0); __sync();");
  b.expect(oh, std::vector<H>(5, H::round(-65504.0f)), "__nramset_async<half>");

  // __load_nram reads the element; stored where the test can see it.
  int64_t ol = b.scratch(8);
  b.call("*" + Batch::p<float>(ol) + " = __load_nram(" +
         Batch::p<float>(os + 17 * 4) + ");");
  b.call("*" + Batch::p<int32_t>(ol + 4) + " = __load_nram(" +
         Batch::p<int32_t>(os + 3 * 4) + ");");
  int32_t bits3;
  std::memcpy(&bits3, &src[3], 4);
  b.expect(ol, std::vector<float>{src[17]}, "__load_nram<float>");
  b.expect(ol + 4, std::vector<int32_t>{bits3}, "__load_nram<int32_t>");

  for (int n : counts()) {
    int64_t oi = b.scratch(n * 4), ol8 = b.scratch(n * 8);
    b.call("__bang_incseq(" + Batch::p<int32_t>(oi) + ", " + S(n) + ");");
    b.call("__bang_incseq(" + Batch::p<int64_t>(ol8) + ", " + S(n) + ");");
    std::vector<int32_t> s32(n);
    std::vector<int64_t> s64(n);
    for (int i = 0; i < n; ++i)
      s32[i] = i, s64[i] = i;
    b.expect(oi, s32, "__bang_incseq<int32_t> n=" + S(n));
    b.expect(ol8, s64, "__bang_incseq<int64_t> n=" + S(n));

    auto u = g.vec<uint32_t>(n);
    int64_t ou = b.nram(u);
    for (uint32_t shift : {0u, 1u, 29u, 31u, 32u, 40u}) {
      int64_t od = b.scratch(n * 4);
      b.call("__bang_srl(" + Batch::p<uint32_t>(od) + ", " +
             Batch::p<uint32_t>(ou) + ", " + S(shift) + "u, " + S(n) + ");");
      b.expect(
          od,
          mapRef<uint32_t>(
              u, [&](uint32_t x) { return shift >= 32 ? 0u : x >> shift; }),
          "__bang_srl shift=" + S(shift) + " n=" + S(n));
    }
    // In place, as lgamma calls it.
    b.call("__bang_srl(" + Batch::p<uint32_t>(ou) + ", " +
           Batch::p<uint32_t>(ou) + ", 29u, " + S(n) + ");");
    b.expect(ou, mapRef<uint32_t>(u, [](uint32_t x) { return x >> 29; }),
             "__bang_srl in place n=" + S(n));
  }
  b.run();
}
