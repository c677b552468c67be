//===- ExecutorTest.cpp - Each compute block against an independent loop -===//
#include "TestUtil.h"

#include "graph/Builder.h"
#include "graph/Precision.h"
#include "graph/WeightInit.h"
#include "support/Half.h"

#include <functional>

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace bangc;
using namespace bangc::graph;
using namespace bangc::graph::test;
using namespace bangc::taskir;

namespace {

/// Zero-padded copy of an (H, W, C) tensor, in a plain nested layout.
struct Image {
  int64_t H, W, C;
  std::vector<double> V;
  double at(int64_t y, int64_t x, int64_t ch) const {
    if (y < 0 || x < 0 || y >= H || x >= W)
      return 0;
    return V[(y * W + x) * C + ch];
  }
};

/// Reference convolution written independently of the executor: for each
/// output pixel, an explicit dot product over the receptive field.
std::vector<double> refConv(const Image &in, const std::vector<double> &w,
                            const std::vector<double> &bias, int64_t nf,
                            int64_t k, int64_t s, int64_t pad, int64_t dil,
                            int64_t oh, int64_t ow) {
  std::vector<double> out;
  for (int64_t y = 0; y < oh; ++y)
    for (int64_t x = 0; x < ow; ++x)
      for (int64_t f = 0; f < nf; ++f) {
        double acc = bias.empty() ? 0 : bias[f];
        for (int64_t c = 0; c < in.C; ++c)
          for (int64_t a = 0; a < k; ++a)
            for (int64_t b = 0; b < k; ++b)
              acc += in.at(y * s - pad + a * dil, x * s - pad + b * dil, c) *
                     w[((f * in.C + c) * k + a) * k + b];
        out.push_back(acc);
      }
  return out;
}

// support/DTypes.def's TASKIR column is the inverse of precisionDType (the
// .npy element type of a precision) wherever Task IR has the type.
TEST(Executor, DTypeTableAgreesWithPrecisionDType) {
  int checked = 0;
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, CTYPE, NPY, ALIAS1,      \
                    ALIAS2, MLUOP, TASKIR)                                     \
  if (TASKIR != PRECISION_UNSPECIFIED) {                                       \
    EXPECT_EQ(precisionDType(TASKIR), DType::ENUM) << NAME;                    \
    ++checked;                                                                 \
  }
#include "support/DTypes.def"
  EXPECT_EQ(checked, 8);
}

TEST(Executor, ConvInt8ToInt32WithPaddingStrideDilation) {
  const int64_t h = 7, w = 6, c = 3, nf = 4, k = 3, s = 2, pad = 2, dil = 2;
  GraphBuilder gb;
  int64_t x = gb.input("x", INT8, h, w, c);
  std::vector<double> wt = randomInts(nf * c * k * k, -128, 127, 1);
  std::vector<double> bs = randomInts(nf, -1000, 1000, 2);
  int64_t y = gb.conv2d(x, nf, Window{k, s, pad, dil}, Param::values(INT8, wt),
                        Param::values(INT32, bs), INT32, "conv");
  gb.output(y, "y");
  Graph g = mustCreate(gb.take());
  std::vector<double> in = randomInts(h * w * c, -128, 127, 3);
  TensorMap out = mustRun(g, {{"x", array(INT8, {h, w, c}, in)}});
  int64_t oh = (h + 2 * pad - dil * (k - 1) - 1) / s + 1;
  int64_t ow = (w + 2 * pad - dil * (k - 1) - 1) / s + 1;
  EXPECT_EQ(out["y"].shape, (std::vector<int64_t>{oh, ow, nf}));
  EXPECT_EQ(values(out["y"], INT32),
            refConv({h, w, c, in}, wt, bs, nf, k, s, pad, dil, oh, ow));
}

TEST(Executor, ConvFloat32) {
  const int64_t h = 5, w = 5, c = 2, nf = 3, k = 3;
  GraphBuilder gb;
  int64_t x = gb.input("x", FLOAT32, h, w, c);
  std::vector<double> wt = randomReals(nf * c * k * k, 4);
  int64_t y = gb.conv2d(x, nf, Window{k, 1, 1, 1}, Param::values(FLOAT32, wt),
                        std::nullopt, FLOAT32, "conv");
  gb.output(y, "y");
  Graph g = mustCreate(gb.take());
  std::vector<double> in = randomReals(h * w * c, 5);
  TensorMap out = mustRun(g, {{"x", array(FLOAT32, {h, w, c}, in)}});
  std::vector<double> want =
      refConv({h, w, c, in}, wt, {}, nf, k, 1, 1, 1, h, w);
  std::vector<double> got = values(out["y"], FLOAT32);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], double(float(want[i]))) << i;
}

TEST(Executor, VectorMatrixWithConstB) {
  const int64_t nr = 6, nf = 4;
  GraphBuilder gb;
  int64_t x = gb.addBlock(SIFC, INT16, Dims{{DR, nr}}, "x");
  std::vector<double> wt = randomInts(nf * nr, -300, 300, 6);
  int64_t sw = gb.addBlock(SWFC, INT16, Dims{{DF, nf}, {DR, nr}});
  gb.setParam(sw, Param::values(INT16, wt));
  int64_t c = gb.addBlock(CVM, INT32, Dims{{DF, nf}, {DR, nr}});
  gb.setAttr(c, CONST_B, -7);
  gb.connect(x, c, {}, InputRole::Data);
  gb.connect(sw, c, {}, InputRole::Weight);
  int64_t o = gb.addBlock(SO, INT32, Dims{{DF, nf}}, "y");
  gb.connect(c, o);
  Graph g = mustCreate(gb.take());
  std::vector<double> in = randomInts(nr, -32768, 32767, 7);
  TensorMap out = mustRun(g, {{"x", array(INT16, {nr}, in)}});
  std::vector<double> got = values(out["y"], INT32);
  for (int64_t f = 0; f < nf; ++f) {
    int64_t acc = -7;
    for (int64_t r = 0; r < nr; ++r)
      acc += int64_t(wt[f * nr + r]) * int64_t(in[r]);
    EXPECT_EQ(got[f], double(std::clamp<int64_t>(acc, INT32_MIN, INT32_MAX)));
  }
}

/// Builds x (and x2) -> compute block of type T -> y, for element-wise
/// blocks, with an optional SB bias / alpha.
struct ElementwiseGraph {
  Graph G;
  static ElementwiseGraph
  make(BlockType t, Precision in, Precision out, int numInputs,
       const std::vector<double> *alpha, const std::vector<double> *bias,
       std::function<void(GraphBuilder &, int64_t)> attrs,
       Precision biasP = INT32) {
    GraphBuilder gb;
    Dims d{{DY, 2}, {DX, 3}, {DF, 4}};
    int64_t c = gb.addBlock(t, out, d, "op");
    for (int i = 0; i < numInputs; ++i) {
      int64_t x = gb.addBlock(SI, in, d, "x" + std::to_string(i));
      gb.connect(x, c, {}, InputRole::Data);
    }
    if (alpha) {
      int64_t a = gb.addBlock(SB, biasP, Dims{{DF, 4}});
      gb.setParam(a, Param::values(biasP, *alpha));
      gb.connect(a, c, {}, InputRole::Alpha);
    }
    if (bias) {
      int64_t b = gb.addBlock(SB, biasP, Dims{{DF, 4}});
      gb.setParam(b, Param::values(biasP, *bias));
      gb.connect(b, c, {}, InputRole::Bias);
    }
    if (attrs)
      attrs(gb, c);
    int64_t o = gb.addBlock(SO, out, d, "y");
    gb.connect(c, o);
    return {mustCreate(gb.take())};
  }
};

TEST(Executor, CaddSumsInputsAndBiasAndSaturatesInt8) {
  std::vector<double> bias = {1, -1, 100, -100};
  ElementwiseGraph e =
      ElementwiseGraph::make(CADD, INT8, INT8, 3, nullptr, &bias, nullptr);
  std::vector<double> a = randomInts(24, -128, 127, 8),
                      b = randomInts(24, -128, 127, 9),
                      c = randomInts(24, -128, 127, 10);
  TensorMap out = mustRun(e.G, {{"x0", array(INT8, {2, 3, 4}, a)},
                                {"x1", array(INT8, {2, 3, 4}, b)},
                                {"x2", array(INT8, {2, 3, 4}, c)}});
  std::vector<double> got = values(out["y"], INT8);
  int saturated = 0;
  for (int i = 0; i < 24; ++i) {
    double sum = bias[i % 4] + a[i] + b[i] + c[i];
    double want = std::clamp(sum, -128.0, 127.0);
    saturated += want != sum;
    EXPECT_EQ(got[i], want) << i;
  }
  EXPECT_GT(saturated, 0) << "the data should exercise saturation";
}

TEST(Executor, CvvhHadamard) {
  std::vector<double> bias = {0.5, 0, -0.25, 1};
  ElementwiseGraph e = ElementwiseGraph::make(CVVH, FLOAT32, FLOAT32, 2,
                                              nullptr, &bias, nullptr, FLOAT32);
  std::vector<double> a = randomReals(24, 11), b = randomReals(24, 12);
  TensorMap out = mustRun(e.G, {{"x0", array(FLOAT32, {2, 3, 4}, a)},
                                {"x1", array(FLOAT32, {2, 3, 4}, b)}});
  std::vector<double> got = values(out["y"], FLOAT32);
  for (int i = 0; i < 24; ++i)
    EXPECT_EQ(got[i], double(float(bias[i % 4] + a[i] * b[i])));
}

TEST(Executor, CaxScalesPerChannel) {
  std::vector<double> alpha = {2, -3, 0, 1000}, bias = {5, 5, 5, 5};
  ElementwiseGraph e =
      ElementwiseGraph::make(CAX, INT16, INT16, 1, &alpha, &bias, nullptr);
  std::vector<double> a = randomInts(24, -1000, 1000, 13);
  TensorMap out = mustRun(e.G, {{"x0", array(INT16, {2, 3, 4}, a)}});
  std::vector<double> got = values(out["y"], INT16);
  for (int i = 0; i < 24; ++i)
    EXPECT_EQ(got[i], std::clamp(5 + alpha[i % 4] * a[i], -32768.0, 32767.0));
}

TEST(Executor, CvsRequantisesWithFloatConstant) {
  ElementwiseGraph e = ElementwiseGraph::make(
      CVS, INT32, INT8, 1, nullptr, nullptr, [](GraphBuilder &gb, int64_t c) {
        gb.setAttrFloat(c, CONST_A, 1.0 / 64);
        gb.setAttr(c, CONST_B, 3);
      });
  std::vector<double> a = randomInts(24, -20000, 20000, 14);
  a[0] = 32;   // 3 + 0.5 -> rounds half away from zero to 4
  a[1] = -224; // 3 - 3.5 = -0.5 -> -1
  TensorMap out = mustRun(e.G, {{"x0", array(INT32, {2, 3, 4}, a)}});
  std::vector<double> got = values(out["y"], INT8);
  EXPECT_EQ(got[0], 4);
  EXPECT_EQ(got[1], -1);
  for (int i = 0; i < 24; ++i) {
    double r = 3 + a[i] / 64;
    double want = std::clamp(std::round(r), -128.0, 127.0);
    EXPECT_EQ(got[i], want) << i;
  }
}

TEST(Executor, Int32OverflowSaturatesAndUint32StaysExact) {
  // CADD INT32 + INT32: the 64-bit sum is exact, the INT32 result saturates.
  ElementwiseGraph e =
      ElementwiseGraph::make(CADD, INT32, INT32, 2, nullptr, nullptr, nullptr);
  std::vector<double> a(24, 2147483647.0), b(24, 1.0);
  b[1] = -1;
  std::vector<double> a2 = a;
  a2[2] = -2147483648.0;
  b[2] = -5;
  TensorMap out = mustRun(e.G, {{"x0", array(INT32, {2, 3, 4}, a2)},
                                {"x1", array(INT32, {2, 3, 4}, b)}});
  std::vector<double> got = values(out["y"], INT32);
  EXPECT_EQ(got[0], 2147483647.0);
  EXPECT_EQ(got[1], 2147483646.0);
  EXPECT_EQ(got[2], -2147483648.0);
  // UINT32 CVVH: 4e9 * 1 stays exact, 70000 * 70000 saturates at 2^32-1.
  ElementwiseGraph u = ElementwiseGraph::make(CVVH, UINT32, UINT32, 2, nullptr,
                                              nullptr, nullptr);
  std::vector<double> p(24, 1), q(24, 4000000000.0);
  p[1] = 70000;
  q[1] = 70000;
  TensorMap uo = mustRun(u.G, {{"x0", array(UINT32, {2, 3, 4}, p)},
                               {"x1", array(UINT32, {2, 3, 4}, q)}});
  std::vector<double> ug = values(uo["y"], UINT32);
  EXPECT_EQ(ug[0], 4000000000.0);
  EXPECT_EQ(ug[1], 4294967295.0);
}

TEST(Executor, Float16RoundsResults) {
  ElementwiseGraph e =
      ElementwiseGraph::make(CVS, FLOAT16, FLOAT16, 1, nullptr, nullptr,
                             [](GraphBuilder &gb, int64_t c) {
                               gb.setAttrFloat(c, CONST_A, 1.0 / 3);
                             });
  std::vector<double> a(24);
  for (int i = 0; i < 24; ++i)
    a[i] = halfToFloat(floatToHalf(float(i) * 1.7f));
  TensorMap out = mustRun(e.G, {{"x0", array(FLOAT16, {2, 3, 4}, a)}});
  std::vector<double> got = values(out["y"], FLOAT16);
  for (int i = 0; i < 24; ++i)
    EXPECT_EQ(got[i], halfToFloat(floatToHalf(float(a[i] / 3)))) << i;
}

/// x (H, W, C) -> pooling block -> y.
Graph poolGraph(BlockType t, Precision p, int64_t h, int64_t w, int64_t c,
                Window wd, std::optional<double> cmp) {
  GraphBuilder gb;
  int64_t x = gb.input("x", p, h, w, c);
  int64_t y = t == CCMPS || t == CCMPB ? gb.maxPool(x, wd, "pool")
                                       : gb.sumPool(x, wd, "pool");
  int64_t blk = y - 1;
  gb.block(blk).set_type(t);
  if (cmp)
    gb.setAttr(blk, CMP, int64_t(*cmp));
  gb.output(y, "y");
  return mustCreate(gb.take());
}

TEST(Executor, PoolingWindows) {
  const int64_t h = 6, w = 5, c = 2;
  std::vector<double> in = randomInts(h * w * c, -50, 50, 15);
  Image img{h, w, c, in};
  for (BlockType t : {CCMPB, CCMPS, CAVG}) {
    Window wd{3, 2, 1, 1};
    Graph g = poolGraph(t, INT16, h, w, c, wd, std::nullopt);
    TensorMap out = mustRun(g, {{"x", array(INT16, {h, w, c}, in)}});
    int64_t oh = (h + 2 - 3) / 2 + 1, ow = (w + 2 - 3) / 2 + 1;
    std::vector<double> got = values(out["y"], INT16);
    ASSERT_EQ(got.size(), size_t(oh * ow * c));
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t f = 0; f < c; ++f) {
          double best = t == CCMPB ? -32768 : 32767, sum = 0;
          for (int64_t a = 0; a < 3; ++a)
            for (int64_t b = 0; b < 3; ++b) {
              int64_t iy = y * 2 - 1 + a, ix = x * 2 - 1 + b;
              if (iy < 0 || ix < 0 || iy >= h || ix >= w)
                continue; // padding: skipped by max/min, zero for sums
              double v = img.at(iy, ix, f);
              best = t == CCMPB ? std::max(best, v) : std::min(best, v);
              sum += v;
            }
          EXPECT_EQ(got[(y * ow + x) * c + f], t == CAVG ? sum : best)
              << blockTypeName(t) << " at " << y << "," << x << "," << f;
        }
  }
}

TEST(Executor, CompareInitialValueActsAsReluClamp) {
  // CCMPB with CMP = 0 and a 1x1 window is max(x, 0).
  std::vector<double> in = randomInts(12, -9, 9, 16);
  Graph g = poolGraph(CCMPB, INT8, 2, 3, 2, Window{1, 1, 0, 1}, 0.0);
  TensorMap out = mustRun(g, {{"x", array(INT8, {2, 3, 2}, in)}});
  std::vector<double> got = values(out["y"], INT8);
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(got[i], std::max(in[i], 0.0));
  // CCMPS with CMP = 5 is min(x, 5).
  Graph g2 = poolGraph(CCMPS, INT8, 2, 3, 2, Window{1, 1, 0, 1}, 5.0);
  out = mustRun(g2, {{"x", array(INT8, {2, 3, 2}, in)}});
  got = values(out["y"], INT8);
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(got[i], std::min(in[i], 5.0));
}

TEST(Executor, LookupTableIndexedByInputValue) {
  GraphBuilder gb;
  Dims d{{DY, 1}, {DX, 4}, {DF, 8}};
  int64_t x = gb.addBlock(SI, INT8, d, "x");
  int64_t c = gb.addBlock(CLUT, INT16, d, "lut");
  std::vector<double> table(256);
  for (int v = -128; v < 128; ++v)
    table[v + 128] = v * v - 100; // an arbitrary function of the input
  gb.setParam(c, Param::values(INT16, table));
  gb.connect(x, c);
  int64_t o = gb.addBlock(SO, INT16, d, "y");
  gb.connect(c, o);
  Graph g = mustCreate(gb.take());
  std::vector<double> in = randomInts(32, -128, 127, 17);
  in[0] = -128;
  in[1] = 127;
  TensorMap out = mustRun(g, {{"x", array(INT8, {1, 4, 8}, in)}});
  std::vector<double> got = values(out["y"], INT16);
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(got[i], in[i] * in[i] - 100);
}

TEST(Executor, LifIntegratesFiresAndResetsOverTime) {
  // One neuron per input; T = 6 steps with constant and varying currents.
  GraphBuilder gb;
  int64_t x = gb.input("i", INT32, 1, 1, 3);
  GraphBuilder::LifParams p;
  p.Threshold = 10;
  p.Reset = 0;
  p.Leak = 1;
  p.Decay = 0.5;
  int64_t s = gb.lif(x, p, UINT8, "lif");
  gb.output(s, "s");
  Graph g = mustCreate(gb.take());
  const int steps = 6;
  std::vector<double> in;
  for (int t = 0; t < steps; ++t)
    for (double v : {6.0, 12.0, double(3 * t)})
      in.push_back(v);
  RunOptions o;
  o.TimeSteps = steps;
  TensorMap out = mustRun(g, {{"i", array(INT32, {steps, 1, 1, 3}, in)}}, o);
  EXPECT_EQ(out["s"].shape, (std::vector<int64_t>{steps, 1, 1, 3}));
  std::vector<double> got = values(out["s"], UINT8);
  // Independent simulation of the documented update.
  double v[3] = {0, 0, 0};
  for (int t = 0; t < steps; ++t)
    for (int n = 0; n < 3; ++n) {
      double x = std::floor(0.5 * v[n] + in[t * 3 + n] - 1);
      bool fire = x >= 10;
      v[n] = fire ? 0 : x;
      EXPECT_EQ(got[t * 3 + n], fire ? 1 : 0) << "t=" << t << " n=" << n;
    }
  // Neuron 1 (12 per step) fires every step; neuron 0 (6 per step) never
  // reaches 10 with decay 0.5 (fixed point 10 - 1 - ... stays below).
  EXPECT_EQ(got[1], 1);
  // Soft reset keeps the excess: with threshold 10, input 15, no leak:
  GraphBuilder gB2;
  int64_t x2 = gB2.input("i", INT32, 1, 1, 1);
  GraphBuilder::LifParams p2;
  p2.Threshold = 10;
  p2.SoftReset = true;
  gB2.output(gB2.lif(x2, p2, UINT8, "lif"), "s");
  Graph g2 = mustCreate(gB2.take());
  o.TimeSteps = 4;
  TensorMap out2 = mustRun(g2, {{"i", array(INT32, {1, 1, 1}, {15})}}, o);
  // V: 15 -> fire, 5; 20 -> fire, 10; 25 -> fire, 15; 30 -> fire, 20.
  EXPECT_EQ(values(out2["s"], UINT8), (std::vector<double>{1, 1, 1, 1}));
  TensorMap out3 = mustRun(g2, {{"i", array(INT32, {1, 1, 1}, {6})}}, o);
  // 6 -> 12 fire (2) -> 8 -> 14 fire (4).
  EXPECT_EQ(values(out3["s"], UINT8), (std::vector<double>{0, 1, 0, 1}));
}

TEST(Executor, ConcatenationThroughInterfaces) {
  // Two (2, 2, 1) inputs written side by side into one (2, 4, 1) SI, the
  // second one reflected left-right on its edge.
  GraphBuilder gb;
  Dims half{{DY, 2}, {DX, 2}, {DF, 1}}, full{{DY, 2}, {DX, 4}, {DF, 1}};
  int64_t a = gb.addBlock(SI, INT8, half, "a");
  int64_t b = gb.addBlock(SI, INT8, half, "b");
  int64_t cat = gb.addBlock(SI, INT8, full, "cat");
  Dims z{{DY, 0}, {DX, 0}, {DF, 0}}, right{{DY, 0}, {DX, 2}, {DF, 0}};
  gb.connectBox(a, z, half, cat, 0, full, z, half);
  gb.connectBox(b, z, half, cat, 0, full, right, half,
                {makeRearrange(REFLECT, {1})});
  gb.output(cat, "y");
  Graph g = mustCreate(gb.take());
  TensorMap out = mustRun(g, {{"a", array(INT8, {2, 2, 1}, {1, 2, 3, 4})},
                              {"b", array(INT8, {2, 2, 1}, {5, 6, 7, 8})}});
  EXPECT_EQ(values(out["y"], INT8),
            (std::vector<double>{1, 2, 6, 5, 3, 4, 8, 7}));
}

TEST(Executor, InputErrorsAreClear) {
  GraphBuilder gb;
  gb.output(gb.input("x", INT8, 2, 2, 1), "y");
  Graph g = mustCreate(gb.take());
  auto err = [&](const TensorMap &in) {
    llvm::Expected<TensorMap> r = runGraph(g, in);
    return r ? std::string() : llvm::toString(r.takeError());
  };
  EXPECT_NE(err({}).find("input 'x'"), std::string::npos);
  EXPECT_NE(
      err({{"x", array(INT8, {2, 2}, {1, 2, 3, 4})}}).find("does not match"),
      std::string::npos);
  EXPECT_NE(err({{"x", array(INT16, {2, 2, 1}, {1, 2, 3, 4})}})
                .find("expected a i8 array"),
            std::string::npos);
  EXPECT_NE(err({{"x", array(INT8, {2, 2, 1}, {1, 2, 3, 4})},
                 {"z", array(INT8, {1}, {1})}})
                .find("no input block"),
            std::string::npos);
}

TEST(Executor, WeightInitIsDeterministic) {
  GraphBuilder gb;
  int64_t x = gb.input("x", FLOAT32, 3, 3, 2);
  gb.output(gb.conv2d(x, 2, Window{3, 1, 0, 1},
                      Param::uniform(FLOAT32, 42, 0.5), std::nullopt, FLOAT32,
                      "c"),
            "y");
  TaskGraph p = gb.take();
  // The same graph with the weights materialised as data.
  TaskGraph q = p;
  for (TaskBlock &b : *q.mutable_blocks())
    if (b.has_init()) {
      std::vector<double> v =
          materializeInit(b.init(), b.precision(), blockDims(b).volume());
      b.clear_init();
      for (double x : v)
        b.mutable_data()->add_float_data(float(x));
      // The documented generator: element 0 of seed 42.
      EXPECT_EQ(v[0], double(float(0.5 * (2 * initUniform01(42, 0) - 1))));
    }
  std::vector<double> in = randomReals(18, 18);
  Graph gp = mustCreate(p), gq = mustCreate(q);
  TensorMap a = mustRun(gp, {{"x", array(FLOAT32, {3, 3, 2}, in)}});
  TensorMap b = mustRun(gq, {{"x", array(FLOAT32, {3, 3, 2}, in)}});
  EXPECT_EQ(a["y"].data, b["y"].data);
}

// materializeInit splits its elements over the host threads
// (BANGC_HOST_THREADS, else the host's): every split gives the documented
// generator's values, bit for bit, in every precision.
TEST(WeightInit, SameValuesOnEveryThreadCount) {
  const char *old = std::getenv("BANGC_HOST_THREADS");
  std::string saved = old ? old : "";
  WeightInit init;
  init.set_kind(WeightInit::UNIFORM);
  init.set_seed(7);
  const int64_t count = 300001; // several parts, the last one uneven
  for (Precision p : {FLOAT32, FLOAT16, INT8, INT16}) {
    init.set_scale(isFloatPrecision(p) ? 0.5 : 300.0);
    std::vector<double> want(count);
    for (int64_t i = 0; i < count; ++i) {
      double r = init.scale() * (2 * initUniform01(7, uint64_t(i)) - 1);
      want[i] = isFloatPrecision(p) ? roundToFloatPrecision(r, p)
                                    : double(realToInt(r, p));
    }
    for (const char *threads : {"1", "2", "3", "8"}) {
      ::setenv("BANGC_HOST_THREADS", threads, 1);
      EXPECT_EQ(materializeInit(init, p, count), want)
          << precisionName(p) << " on " << threads << " threads";
    }
  }
  if (old)
    ::setenv("BANGC_HOST_THREADS", saved.c_str(), 1);
  else
    ::unsetenv("BANGC_HOST_THREADS");
}

// The FLOAT32 draw has a vectorised build for AVX-512 hosts beside the
// baseline one: both give the documented generator's values bit for bit,
// over any range (vector bodies and scalar tails), and the vectorised one is
// what materializeInitFloat uses where the host has it.
TEST(WeightInit, VectorisedDrawEqualsTheBaseline) {
  const int64_t count = 100003;
  std::vector<float> want(count);
  for (uint32_t seed : {0u, 7u, 0xFFFFFFFFu})
    for (double scale : {0.05, 1.0, 3e5}) {
      for (int64_t i = 0; i < count; ++i)
        want[i] = float(scale * (2 * initUniform01(seed, uint64_t(i)) - 1));
      for (bool vectorised : {false, true}) {
        if (vectorised && !hostHasVectorisedDraw())
          continue;
        std::vector<float> got(count, -7.0f);
        for (int64_t b = 0; b < count; b += 9973)
          drawUniformFloats(got.data() + b, b, std::min(count, b + 9973), seed,
                            scale, vectorised);
        EXPECT_EQ(0, std::memcmp(got.data(), want.data(), count * 4))
            << "seed " << seed << " scale " << scale
            << (vectorised ? " vectorised" : " baseline");
      }
    }
  if (!hostHasVectorisedDraw())
    GTEST_SKIP() << "no AVX-512 here: only the baseline build was checked";
}

// The float path (layer-group weights, drawn straight into floats) gives
// materializeInit's values bit for bit, in every precision exact in float
// and on every thread count; a value not exact in float is refused.
TEST(WeightInit, FloatPathKeepsTheValues) {
  const char *old = std::getenv("BANGC_HOST_THREADS");
  std::string saved = old ? old : "";
  WeightInit init;
  init.set_kind(WeightInit::UNIFORM);
  init.set_seed(11);
  const int64_t count = 300001;
  for (Precision p :
       {FLOAT32, FLOAT16, INT8, UINT8, INT9, INT16, UINT16, TERNARY}) {
    ASSERT_TRUE(precisionFitsFloat(p)) << precisionName(p);
    init.set_scale(isFloatPrecision(p) ? 0.5 : 40000.0);
    ::setenv("BANGC_HOST_THREADS", "1", 1);
    std::vector<double> want = materializeInit(init, p, count);
    for (const char *threads : {"1", "2", "3", "8"}) {
      ::setenv("BANGC_HOST_THREADS", threads, 1);
      std::vector<float> got = materializeInitFloat(init, p, count);
      ASSERT_EQ(got.size(), want.size());
      int64_t differ = 0;
      for (int64_t i = 0; i < count; ++i)
        differ += double(got[i]) != want[i];
      EXPECT_EQ(differ, 0) << precisionName(p) << " on " << threads
                           << " threads";
    }
  }
  if (old)
    ::setenv("BANGC_HOST_THREADS", saved.c_str(), 1);
  else
    ::unsetenv("BANGC_HOST_THREADS");
  EXPECT_FALSE(precisionFitsFloat(INT32));
  EXPECT_FALSE(precisionFitsFloat(UINT32));

  // blockValuesFloat: from the init, from data, and refusing 2^24 + 1.
  TaskBlock b;
  b.set_precision(FLOAT16);
  b.mutable_shape()->set_f(1000);
  init.set_scale(3.0);
  *b.mutable_init() = init;
  auto viaInit = blockValuesFloat(b);
  auto wide = blockValues(b);
  ASSERT_TRUE(bool(viaInit)) << toString(viaInit.takeError());
  ASSERT_TRUE(bool(wide)) << toString(wide.takeError());
  EXPECT_EQ(std::vector<double>(viaInit->begin(), viaInit->end()), *wide);
  TaskBlock d;
  d.set_precision(INT32);
  d.mutable_shape()->set_f(2);
  d.mutable_data()->add_int32_data(-5);
  d.mutable_data()->add_int32_data((1 << 24) + 1);
  auto refused = blockValuesFloat(d);
  ASSERT_FALSE(bool(refused));
  EXPECT_NE(toString(refused.takeError()).find("not exact in float"),
            std::string::npos);
  d.mutable_data()->set_int32_data(1, 1 << 24);
  auto kept = blockValuesFloat(d);
  ASSERT_TRUE(bool(kept)) << toString(kept.takeError());
  EXPECT_EQ(*kept, (std::vector<float>{-5.0f, 16777216.0f}));
}

} // namespace
