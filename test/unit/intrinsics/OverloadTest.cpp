//===- OverloadTest.cpp - mlu-ops family F9: overloads of older intrinsics -===//
//
// The overloads mlu-ops calls beyond the first table: __bang_fusion with a
// repeating b and a scalar c, and its 6-argument form (int32 too);
// __bang_div by a scalar and on int32; uint32 add/sub/mul and their scalar
// forms; __bang_lut with unsigned indices; __bang_transpose on integers.
// Each against a scalar reference written from docs/language.md.
//
//===----------------------------------------------------------------------===//
#include "Ref.h"

using namespace intrtest;

namespace {

const char *const fusionOps[] = {"FUSION_FMA", "FUSION_FMS", "FUSION_FAM",
                                 "FUSION_FSM", "FUSION_FAS", "FUSION_FSA",
                                 "FUSION_FSS"};

/// (a op1 b) op2 c, each step rounded to T.
template <typename T> T fuseRef(int op, T a, T b, T c) {
  const char first[] = {'*', '*', '+', '-', '+', '-', '-'};
  const char second[] = {'+', '-', '*', '*', '-', '+', '-'};
  return arith<T>(second[op], arith<T>(first[op], a, b), c);
}

template <typename T> void fusionFormsOne(Batch &b, Gen &g) {
  for (int op = 0; op < 7; ++op)
    for (auto [n, nb] : std::vector<std::pair<int, int>>{{261, 261}, {261, 87}, {64, 1}, {7, 7}}) {
      auto x = g.vec<T>(n), y = g.vec<T>(nb);
      T sb = g.value<T>(), sc = g.value<T>();
      std::string N = std::to_string(n), NB = std::to_string(nb), name = fusionOps[op];
      std::string label = name + "<" + Ty<T>::name + "> n=" + N + " nb=" + NB;
      int64_t ox = b.nram(x), oy = b.nram(y), od = b.scratch(n * sizeof(T));
      // b a vector of nb elements repeated along a, c a scalar.
      b.call("__bang_fusion(" + name + ", " + Batch::p<T>(od) + ", " + Batch::p<T>(ox) + ", " +
             Batch::p<T>(oy) + ", " + lit(sc) + ", " + N + ", " + NB + ");");
      std::vector<T> want(n), want6(n);
      for (int i = 0; i < n; ++i) {
        want[i] = fuseRef(op, x[i], y[i % nb], sc);
        want6[i] = fuseRef(op, x[i], sb, sc);
      }
      b.expect(od, want, label + " scalar c");
      // In place on a.
      int64_t ox2 = b.nram(x);
      b.call("__bang_fusion(" + name + ", " + Batch::p<T>(ox2) + ", " + Batch::p<T>(ox2) + ", " +
             Batch::p<T>(oy) + ", " + lit(sc) + ", " + N + ", " + NB + ");");
      b.expect(ox2, want, label + " scalar c, dst == a");
      // Vector b and c, b repeating.
      auto z = g.vec<T>(n);
      int64_t oz = b.nram(z), od3 = b.scratch(n * sizeof(T));
      b.call("__bang_fusion(" + name + ", " + Batch::p<T>(od3) + ", " + Batch::p<T>(ox) + ", " +
             Batch::p<T>(oy) + ", " + Batch::p<T>(oz) + ", " + N + ", " + NB + ");");
      std::vector<T> want3(n);
      for (int i = 0; i < n; ++i)
        want3[i] = fuseRef(op, x[i], y[i % nb], z[i]);
      b.expect(od3, want3, label + " vector c");
      // The 6-argument form: b and c scalars.
      int64_t od6 = b.scratch(n * sizeof(T));
      b.call("__bang_fusion(" + name + ", " + Batch::p<T>(od6) + ", " + Batch::p<T>(ox) + ", " +
             lit(sb) + ", " + lit(sc) + ", " + N + ");");
      b.expect(od6, want6, label + " 6 arguments");
    }
}

template <typename T> void divScalarOne(Batch &b, Gen &g) {
  for (int n : counts()) {
    auto x = g.vec<T>(n);
    for (T s : {g.value<T>(), fromDouble<T>(0.0), fromDouble<T>(-0.0), fromDouble<T>(3.0)}) {
      int64_t ox = b.nram(x), od = b.scratch(n * sizeof(T));
      b.call("__bang_div(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) + ", " + lit(s) + ", " +
             std::to_string(n) + ");");
      b.expect(od, mapRef<T>(x, [&](T v) { return arith<T>('/', v, s); }),
               std::string("__bang_div<") + Ty<T>::name + "> scalar n=" + std::to_string(n));
      b.call("__bang_div(" + Batch::p<T>(ox) + ", " + Batch::p<T>(ox) + ", " + lit(s) + ", " +
             std::to_string(n) + ");");
      b.expect(ox, mapRef<T>(x, [&](T v) { return arith<T>('/', v, s); }),
               std::string("__bang_div<") + Ty<T>::name + "> scalar in place");
    }
  }
}

void divIntOne(Batch &b, Gen &g) {
  for (int n : counts()) {
    auto x = g.vec<int32_t>(n), y = g.vec<int32_t>(n);
    for (int i = 0; i < n; ++i)
      if (y[i] == 0)
        y[i] = g.range(1, 9) * (g.range(0, 1) ? 1 : -1);
    x[0] = INT32_MIN;
    y[0] = -1; // wraps to INT32_MIN
    int64_t ox = b.nram(x), oy = b.nram(y), od = b.scratch(n * 4);
    b.call("__bang_div(" + Batch::p<int32_t>(od) + ", " + Batch::p<int32_t>(ox) + ", " +
           Batch::p<int32_t>(oy) + ", " + std::to_string(n) + ");");
    std::vector<int32_t> want(n);
    for (int i = 0; i < n; ++i)
      want[i] = wrap<int32_t>((int64_t)x[i] / (int64_t)y[i]); // C: toward zero
    b.expect(od, want, "__bang_div<int32_t> n=" + std::to_string(n));
  }
}

void uint32One(Batch &b, Gen &g) {
  struct Op {
    const char *name;
    char op;
  };
  for (int n : counts()) {
    auto x = g.vec<uint32_t>(n), y = g.vec<uint32_t>(n);
    uint32_t s = g.u32();
    for (Op op : {Op{"__bang_add", '+'}, Op{"__bang_sub", '-'}, Op{"__bang_mul", '*'}}) {
      int64_t ox = b.nram(x), oy = b.nram(y), od = b.scratch(n * 4), os = b.scratch(n * 4);
      b.call(std::string(op.name) + "(" + Batch::p<uint32_t>(od) + ", " +
             Batch::p<uint32_t>(ox) + ", " + Batch::p<uint32_t>(oy) + ", " +
             std::to_string(n) + ");");
      std::vector<uint32_t> want(n), wantS(n);
      for (int i = 0; i < n; ++i) {
        want[i] = arith<uint32_t>(op.op, x[i], y[i]);
        wantS[i] = arith<uint32_t>(op.op, x[i], s);
      }
      b.expect(od, want, std::string(op.name) + "<uint32_t> n=" + std::to_string(n));
      b.call(std::string(op.name) + "_scalar(" + Batch::p<uint32_t>(os) + ", " +
             Batch::p<uint32_t>(ox) + ", " + std::to_string(s) + "u, " + std::to_string(n) +
             ");");
      b.expect(os, wantS, std::string(op.name) + "_scalar<uint32_t> n=" + std::to_string(n));
    }
    x[0] = 0;
    int64_t ox = b.nram(x), od = b.scratch(n * 4);
    b.call("__bang_not(" + Batch::p<uint32_t>(od) + ", " + Batch::p<uint32_t>(ox) + ", " +
           std::to_string(n) + ");");
    b.expect(od, mapRef<uint32_t>(x, [](uint32_t v) { return v == 0 ? 1u : 0u; }),
             "__bang_not<uint32_t> n=" + std::to_string(n));
  }
}

template <typename T, typename I> void lutUnsignedOne(Batch &b, Gen &g) {
  for (int len : {1, 64, 300}) {
    int n = 261;
    auto table = g.vec<T>(len);
    std::vector<I> idx(n);
    for (I &i : idx)
      i = (I)g.range(0, len - 1);
    int64_t ot = b.nram(table), oi = b.nram(idx), od = b.scratch(n * sizeof(T));
    std::string label =
        std::string("__bang_lut<") + Ty<T>::name + ", " + Ty<I>::name + "> len=" + std::to_string(len);
    b.call("__bang_lut(" + Batch::p<T>(od) + ", " + Batch::p<I>(oi) + ", " + Batch::p<T>(ot) +
           ", " + std::to_string(n) + ", " + std::to_string(len) + ");");
    b.expect(od, mapRef<T>(idx, [&](I i) { return table[i]; }), label);
    // In place, as mlu-ops calls it: dst and idx the same bytes.
    b.call("__bang_lut((" + std::string(Ty<T>::name) + " *)" + Batch::p<I>(oi) + ", " +
           Batch::p<I>(oi) + ", " + Batch::p<T>(ot) + ", " + std::to_string(n) + ", " +
           std::to_string(len) + ");");
    b.expect(oi, mapRef<T>(idx, [&](I i) { return table[i]; }), label + " in place");
  }
}

template <typename T> void transposeIntOne(Batch &b, Gen &g) {
  for (auto [h, w] : std::vector<std::pair<int, int>>{{1, 9}, {7, 3}, {33, 65}, {4, 1}}) {
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

TEST(Overload, FusionForms) {
  Gen g(91);
  Batch b("fusion_forms");
  fusionFormsOne<H>(b, g);
  fusionFormsOne<float>(b, g);
  fusionFormsOne<int32_t>(b, g);
  // mlu-ops' own uses: ((int)mask + 1) * -1 turns 0/-1 into -1/0.
  std::vector<int32_t> mask = {0, -1, 0, -1, -1};
  int64_t om = b.nram(mask);
  b.call("__bang_fusion(FUSION_FAM, " + Batch::p<int32_t>(om) + ", " + Batch::p<int32_t>(om) +
         ", 1, -1, 5);");
  b.expect(om, std::vector<int32_t>{-1, 0, -1, 0, 0}, "FUSION_FAM mask inversion");
  b.run();
}

TEST(Overload, DivUint32LutTranspose) {
  Gen g(92);
  Batch b("div_uint32_lut_transpose");
  divScalarOne<H>(b, g);
  divScalarOne<float>(b, g);
  divIntOne(b, g);
  uint32One(b, g);
  lutUnsignedOne<int32_t, uint32_t>(b, g);
  lutUnsignedOne<int16_t, uint16_t>(b, g);
  transposeIntOne<int8_t>(b, g);
  transposeIntOne<int16_t>(b, g);
  transposeIntOne<int32_t>(b, g);
  b.run();
}
