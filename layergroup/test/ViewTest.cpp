//===- ViewTest.cpp - LayerGroup: rearranging edges as strided views ------===//
//
// The fit of an edge's element map by strided boxes (View.h), the views
// buildNet makes of Task IR edges, maps gathered in NRAM when no boxes fit,
// the planner keeping a view's source out of the group that loads it, and
// grouped runs equal to the reference executor with the planner's byte
// counts equal to the simulator's.
//
//===----------------------------------------------------------------------===//
#include "layergroup/View.h"
#include "layergroup/Planner.h"
#include "layergroup/Runner.h"

#include "graph/Builder.h"
#include "graph/Executor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace bangc;
using namespace llvm;
using namespace bangc::lg;
using namespace bangc::graph;
namespace tir = bangc::taskir;

namespace {

/// The map of an h x w x c view whose element (y, x, k) reads f(y, x, k).
ViewMap mapOf(int64_t h, int64_t w, int64_t c,
              const std::function<std::pair<int, int64_t>(int64_t, int64_t,
                                                          int64_t)> &f) {
  ViewMap m;
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x)
      for (int64_t k = 0; k < c; ++k) {
        auto [s, i] = f(y, x, k);
        m.Source.push_back(s);
        m.Index.push_back(i);
      }
  return m;
}

/// Every element of \p m as \p pieces read it.
void expectTiles(const ViewMap &m, const std::vector<ViewPiece> &pieces,
                 int64_t h, int64_t w, int64_t c) {
  std::vector<int> seen(m.Source.size(), 0);
  for (const ViewPiece &p : pieces)
    for (int64_t y = p.H0; y < p.H1; ++y)
      for (int64_t x = p.W0; x < p.W1; ++x)
        for (int64_t k = p.C0; k < p.C1; ++k) {
          size_t i = size_t((y * w + x) * c + k);
          ++seen[i];
          EXPECT_EQ(m.Source[i], p.Source);
          if (p.Source >= 0) // (a box of zeros reads nothing)
            EXPECT_EQ(m.Index[i],
                      p.Off + (y / p.DH) * p.SH + (x / p.DW) * p.SW + k * p.SC);
        }
  for (int s : seen)
    EXPECT_EQ(s, 1);
  (void)h;
}

TEST(View, CropPermuteReflectAreOneBox) {
  // Of a 10 x 9 x 6 source: rows 1.., columns 2.., channels 1..4.
  auto crop = mapOf(8, 6, 4, [](int64_t y, int64_t x, int64_t k) {
    return std::pair<int, int64_t>{0, ((y + 1) * 9 + x + 2) * 6 + k + 1};
  });
  std::string why;
  auto p = fitViewPieces(crop, 8, 6, 4, MaxViewPieces, why);
  ASSERT_EQ(p.size(), 1u) << why;
  EXPECT_EQ(p[0].SH, 54);
  EXPECT_EQ(p[0].SW, 6);
  EXPECT_EQ(p[0].SC, 1);
  expectTiles(crop, p, 8, 6, 4);
  // The channel axis first ([C][H][W] of an 8 x 6 x 4 source), columns
  // reflected.
  auto perm = mapOf(4, 8, 6, [](int64_t y, int64_t x, int64_t k) {
    return std::pair<int, int64_t>{0, (x * 6 + (5 - k)) * 4 + y};
  });
  p = fitViewPieces(perm, 4, 8, 6, MaxViewPieces, why);
  ASSERT_EQ(p.size(), 1u) << why;
  EXPECT_EQ(p[0].SC, -4);
  expectTiles(perm, p, 4, 8, 6);
}

TEST(View, ConcatenationAndCyclicShiftAreABoxEach) {
  // Channels [0, 3) of tensor 1, [3, 8) of tensor 2 (5 channels).
  auto cat = mapOf(4, 4, 8, [](int64_t y, int64_t x, int64_t k) {
    return k < 3 ? std::pair<int, int64_t>{1, (y * 4 + x) * 3 + k}
                 : std::pair<int, int64_t>{2, (y * 4 + x) * 5 + k - 3};
  });
  std::string why;
  auto p = fitViewPieces(cat, 4, 4, 8, MaxViewPieces, why);
  ASSERT_EQ(p.size(), 2u) << why;
  expectTiles(cat, p, 4, 4, 8);
  // Rows shifted cyclically by 3 of 8.
  auto shift = mapOf(8, 5, 2, [](int64_t y, int64_t x, int64_t k) {
    return std::pair<int, int64_t>{0, (((y + 5) % 8) * 5 + x) * 2 + k};
  });
  p = fitViewPieces(shift, 8, 5, 2, MaxViewPieces, why);
  ASSERT_EQ(p.size(), 2u) << why;
  EXPECT_EQ(p[0].H1, 3);
  expectTiles(shift, p, 8, 5, 2);
}

TEST(View, ZeroFillIsABoxOfZerosAndShufflesAreRefused) {
  auto zero = mapOf(4, 4, 2, [](int64_t y, int64_t x, int64_t k) {
    return y == 0 ? std::pair<int, int64_t>{-1, -1}
                  : std::pair<int, int64_t>{0, ((y - 1) * 4 + x) * 2 + k};
  });
  std::string why;
  auto p = fitViewPieces(zero, 4, 4, 2, MaxViewPieces, why);
  ASSERT_EQ(p.size(), 2u) << why;
  EXPECT_EQ(p[0].Source, -1);
  EXPECT_EQ(p[0].H1, 1);
  expectTiles(zero, p, 4, 4, 2);
  auto shuffle = mapOf(8, 8, 1, [](int64_t y, int64_t x, int64_t) {
    return std::pair<int, int64_t>{0, (y * 8 + x) * 37 % 64};
  });
  EXPECT_TRUE(fitViewPieces(shuffle, 8, 8, 1, MaxViewPieces, why).empty());
  EXPECT_NE(why.find("16 or fewer"), std::string::npos) << why;
}

TEST(View, RepeatedRowsAreABoxLoadedOncePerSourceRow) {
  // Nearest upsampling of a 20 x 3 x 2 source by 5 rows (the last run cut
  // to 4): a box per source row would be 20, over MaxViewPieces.
  auto up = mapOf(99, 3, 2, [](int64_t y, int64_t x, int64_t k) {
    return std::pair<int, int64_t>{0, ((y / 5) * 3 + x) * 2 + k};
  });
  std::string why;
  auto p = fitViewPieces(up, 99, 3, 2, MaxViewPieces, why);
  ASSERT_EQ(p.size(), 1u) << why;
  EXPECT_EQ(p[0].DH, 5);
  EXPECT_EQ(p[0].H1, 99);
  EXPECT_EQ(p[0].SH, 6);
  expectTiles(up, p, 99, 3, 2);
  // Rows read once each; a slice from row 7 to 23 reads source rows 1..4.
  Tensor t;
  t.C = 2, t.H = 99, t.W = 3, t.View = p;
  EXPECT_EQ(t.loadedElements(0, 99, 0, 3), 20 * 3 * 2);
  EXPECT_EQ(t.loadedElements(7, 23, 0, 3), 4 * 3 * 2);
  // Columns repeated as well (2 x 2 nearest upsampling of 20 x 20 x 3, the
  // last column run cut): one box, the DMA repeating each pixel.
  auto both = mapOf(40, 39, 3, [](int64_t y, int64_t x, int64_t k) {
    return std::pair<int, int64_t>{0, ((y / 2) * 20 + x / 2) * 3 + k};
  });
  p = fitViewPieces(both, 40, 39, 3, MaxViewPieces, why);
  ASSERT_EQ(p.size(), 1u) << why;
  EXPECT_EQ(p[0].DH, 2);
  EXPECT_EQ(p[0].DW, 2);
  expectTiles(both, p, 40, 39, 3);
  // A strided channel axis with repeated columns: refused (the DMA repeats
  // contiguous pixels).
  auto strided = mapOf(4, 40, 2, [](int64_t y, int64_t x, int64_t k) {
    return std::pair<int, int64_t>{0, k * 80 + y * 20 + x / 2};
  });
  EXPECT_TRUE(fitViewPieces(strided, 4, 40, 2, MaxViewPieces, why).empty());
}

tir::Rearrange rearrange(tir::RearrangeType t, std::vector<double> ps) {
  return makeRearrange(t, std::move(ps));
}

/// x [12][10][4] -> ReLU -> r; r's rows 1..9 and channels 1..3, columns
/// swapped with rows (PERMUTE) -> view [10][9][3] -> ReLU -> y.
Expected<Graph> cropPermuteGraph() {
  GraphBuilder b;
  int64_t x = b.input("x", tir::FLOAT32, 12, 10, 4);
  int64_t r = b.relu(x, "r");
  int64_t v = b.addBlock(tir::SI, tir::FLOAT32,
                         Dims{{DY, 10}, {DX, 9}, {DF, 3}}, "view");
  b.connectBox(
      r, Dims{{DY, 1}, {DX, 0}, {DF, 1}}, Dims{{DY, 9}, {DX, 10}, {DF, 3}}, v,
      0, Dims{{DY, 10}, {DX, 9}, {DF, 3}}, Dims{{DY, 0}, {DX, 0}, {DF, 0}},
      Dims{{DY, 10}, {DX, 9}, {DF, 3}}, {rearrange(tir::PERMUTE, {1, 0, 2})});
  b.output(b.relu(v, "r2"), "y");
  return b.finish();
}

bangsim::DeviceSpec spec(const char *name) {
  auto s = bangsim::loadDeviceSpec(name);
  EXPECT_TRUE(bool(s));
  return *s;
}

TEST(View, EdgesBecomeViewsLoadedByTheNextGroup) {
  auto g = cropPermuteGraph();
  ASSERT_TRUE(bool(g)) << toString(g.takeError());
  auto n = buildNet(*g);
  ASSERT_TRUE(bool(n)) << toString(n.takeError());
  ASSERT_EQ(n->Layers.size(), 2u);
  int view = n->Layers[1].Inputs[0], r = n->Layers[0].Output;
  const Tensor &v = n->Tensors[view];
  ASSERT_TRUE(v.isView());
  EXPECT_EQ(v.H, 10);
  EXPECT_EQ(v.W, 9);
  EXPECT_EQ(v.C, 3);
  ASSERT_EQ(v.View.size(), 1u);
  EXPECT_EQ(v.View[0].Source, r);
  EXPECT_EQ(v.View[0].SH, 4);                  // a view row is a column of r
  EXPECT_EQ(v.View[0].SW, 10 * 4);             // a view column is a row of r
  EXPECT_EQ(n->inputs(), std::vector<int>{0}); // the view is no input
  EXPECT_EQ(n->Tensors[r].ViewReaders, std::vector<int>{1});
  // One group of both would compute r and load its view: refused.
  std::string why;
  EXPECT_FALSE(planGroupWith(*n, spec("mlu370"), 1, groupInfo(*n, 0, 1), 1, 1,
                             1, 1, PlanOptions{}, &why));
  EXPECT_NE(why.find("which the group computes"), std::string::npos) << why;
  // r is an output of its own group, for the view's reader.
  EXPECT_EQ(groupInfo(*n, 0, 0).Outputs, std::vector<int>{r});
}

/// Runs \p g grouped on \p dev and compares with the reference executor
/// (exactly: the views move values) and the planner's bytes with the
/// simulator's.
void runAgainstReference(const Graph &g, const char *dev, int64_t h, int64_t w,
                         int64_t c, int *lastItems = nullptr) {
  auto n = buildNet(g);
  ASSERT_TRUE(bool(n)) << toString(n.takeError());
  std::vector<double> xs(size_t(h * w * c));
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = double(int64_t(i * 7919 % 257) - 128) / 64;
  TensorMap in;
  in["x"] = valuesToNpy(xs, {h, w, c}, tir::FLOAT32);
  auto ref = runGraph(g, in);
  ASSERT_TRUE(bool(ref)) << toString(ref.takeError());
  auto want = npyToValues(ref->at("y"), tir::FLOAT32, "y");
  ASSERT_TRUE(bool(want));
  auto p = planNet(*n, spec(dev), 1);
  ASSERT_TRUE(bool(p)) << toString(p.takeError());
  EXPECT_GE(p->Groups.size(), 2u);
  if (lastItems)
    *lastItems = p->Groups.back().spatialSecs();
  auto run = runPlan(*n, *p, spec(dev), 1, HostTensors{{0, xs}});
  ASSERT_TRUE(bool(run)) << toString(run.takeError());
  EXPECT_EQ(run->ReadBytes, p->ReadBytes);
  EXPECT_EQ(run->WriteBytes, p->WriteBytes);
  EXPECT_EQ(run->Outputs.at(n->outputs()[0]), *want);
}

TEST(View, CropAndPermuteRunAsTheReference) {
  auto g = cropPermuteGraph();
  ASSERT_TRUE(bool(g)) << toString(g.takeError());
  runAgainstReference(*g, "mlu370", 12, 10, 4);
}

TEST(View, SlicedLoadsOfAConcatenationRunAsTheReference) {
  // x [24][20][8] -> ReLU and x -> ReLU -> ReLU, side by side along
  // channels, rows reflected -> ReLU: on the tiny device (16 KiB NRAM) the
  // reader is H sliced, each slice loading its rows of both boxes.
  GraphBuilder b;
  int64_t x = b.input("x", tir::FLOAT32, 24, 20, 8);
  int64_t r1 = b.relu(x, "r1");
  int64_t r2 = b.relu(b.relu(x, "r2a"), "r2");
  Dims whole{{DY, 24}, {DX, 20}, {DF, 16}}, half{{DY, 24}, {DX, 20}, {DF, 8}};
  int64_t cat = b.addBlock(tir::SI, tir::FLOAT32, whole, "cat");
  Dims origin{{DY, 0}, {DX, 0}, {DF, 0}};
  b.connectBox(r1, origin, half, cat, 0, whole, origin, half,
               {rearrange(tir::REFLECT, {0})});
  b.connectBox(r2, origin, half, cat, 0, whole, Dims{{DY, 0}, {DX, 0}, {DF, 8}},
               half, {rearrange(tir::REFLECT, {0})});
  b.output(b.relu(cat, "y.relu"), "y");
  auto g = b.finish();
  ASSERT_TRUE(bool(g)) << toString(g.takeError());
  auto n = buildNet(*g);
  ASSERT_TRUE(bool(n)) << toString(n.takeError());
  int view = n->Layers.back().Inputs[0];
  EXPECT_EQ(n->Tensors[view].View.size(), 2u);
  int items = 0;
  runAgainstReference(*g, "tiny", 24, 20, 8, &items);
  EXPECT_GT(items, 1);
}

TEST(View, ZeroBoxesAreClearedInReusedBuffers) {
  // r shifted down 3 rows with zero fill (SHIFT mode 1), 3 images in 4 H
  // slices each on the 4 cores of the tiny device: core 2 runs (n1, hs2),
  // (n1, hs3), (n2, hs0), so the zero rows of (n2, hs0) land in a buffer
  // that (n1, hs2) filled with values; the load must clear them.
  const int64_t H = 16, W = 8, C = 4, N = 3;
  GraphBuilder b;
  int64_t x = b.input("x", tir::FLOAT32, H, W, C);
  int64_t r = b.relu(x, "r");
  Dims d{{DY, H}, {DX, W}, {DF, C}};
  int64_t v = b.addBlock(tir::SI, tir::FLOAT32, d, "view");
  b.connect(r, v, {rearrange(tir::SHIFT, {0, 3, 1})});
  b.output(b.relu(v, "r2"), "y");
  auto g = b.finish();
  ASSERT_TRUE(bool(g)) << toString(g.takeError());
  auto n = buildNet(*g);
  ASSERT_TRUE(bool(n)) << toString(n.takeError());
  const Tensor &view = n->Tensors[n->Layers[1].Inputs[0]];
  ASSERT_EQ(view.View.size(), 2u);
  EXPECT_EQ(view.View[0].Source, -1);
  // The zero rows are not read: 13 of 16 rows per image.
  EXPECT_EQ(view.loadedElements(0, H, 0, W), 13 * W * C);

  std::vector<double> xs(size_t(N * H * W * C));
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = double(int64_t(i * 7919 % 257) - 64) / 64;
  TensorMap in;
  in["x"] = valuesToNpy(xs, {N, H, W, C}, tir::FLOAT32);
  graph::RunOptions ro;
  ro.TimeSteps = int(N);
  auto ref = runGraph(*g, in, ro);
  ASSERT_TRUE(bool(ref)) << toString(ref.takeError());
  auto want = npyToValues(ref->at("y"), tir::FLOAT32, "y");
  ASSERT_TRUE(bool(want));

  bangsim::DeviceSpec tiny = spec("tiny");
  std::string why;
  auto g0 = planGroupWith(*n, tiny, N, groupInfo(*n, 0, 0), 3, 4, 1, 1,
                          PlanOptions{}, &why);
  ASSERT_TRUE(g0) << why;
  auto g1 = planGroupWith(*n, tiny, N, groupInfo(*n, 1, 1), 3, 4, 1, 1,
                          PlanOptions{}, &why);
  ASSERT_TRUE(g1) << why;
  ASSERT_EQ(g1->Cores, 4);
  ASSERT_EQ(g1->items(), 12);
  NetPlan plan;
  for (const GroupPlan *p : {&*g0, &*g1}) {
    plan.Groups.push_back(*p);
    plan.ReadBytes += p->ReadBytes, plan.WriteBytes += p->WriteBytes;
  }
  EXPECT_EQ(g1->ReadBytes, N * 13 * W * C * 4);
  auto run = runPlan(*n, plan, tiny, N, HostTensors{{0, xs}});
  ASSERT_TRUE(bool(run)) << toString(run.takeError());
  EXPECT_EQ(run->ReadBytes, plan.ReadBytes);
  EXPECT_EQ(run->WriteBytes, plan.WriteBytes);
  EXPECT_EQ(run->Outputs.at(n->outputs()[0]), *want);
}

TEST(View, LoadsCostTheirStridedCopies) {
  // relu over x [8][6][4], or over the view [4][8][6] of x with the channel
  // axis first (an element per segment): the same bytes, but the view's
  // load is 192 segments, each a whole 64 B GDRAM block.
  auto readerDma = [](bool view) {
    Net N;
    int X = N.addInput("x", 4, 8, 6);
    int In = X;
    if (view) {
      Tensor V;
      V.Name = "v";
      V.C = 6, V.H = 4, V.W = 8;
      V.View = {ViewPiece{X, 0, 4, 0, 8, 0, 6, 0, 1, 24, 4}};
      N.Tensors.push_back(V);
      In = int(N.Tensors.size()) - 1;
    }
    N.markOutput(N.relu(In, "r"), "y");
    auto P = planGroupWith(N, spec("mlu370"), 1, groupInfo(N, 0, 0), 1, 1, 1, 1,
                           PlanOptions{});
    EXPECT_TRUE(P);
    EXPECT_EQ(P->ReadBytes, 4 * 8 * 6 * 4);
    return P ? P->Steps[0].DmaCycles : 0.0;
  };
  double plain = readerDma(false), strided = readerDma(true);
  EXPECT_GT(plain, 0);
  EXPECT_GT(strided, 4 * plain);
}

TEST(View, AnSoOverARearrangingEdgeStoresACopyOfItsView) {
  // x [12][10][4] -> ReLU -> r; SO y = r's columns reflected, rows 2..11
  // upsampled by 2 (nearest): a copy layer (a scale by 1) loads the view
  // and stores y.
  GraphBuilder b;
  int64_t x = b.input("x", tir::FLOAT32, 12, 10, 4);
  int64_t r = b.relu(x, "r");
  int64_t y =
      b.addBlock(tir::SO, tir::FLOAT32, Dims{{DY, 20}, {DX, 10}, {DF, 4}}, "y");
  b.connectBox(
      r, Dims{{DY, 2}, {DX, 0}, {DF, 0}}, Dims{{DY, 10}, {DX, 10}, {DF, 4}}, y,
      0, Dims{{DY, 20}, {DX, 10}, {DF, 4}}, Dims{{DY, 0}, {DX, 0}, {DF, 0}},
      Dims{{DY, 20}, {DX, 10}, {DF, 4}},
      {rearrange(tir::REFLECT, {1}), rearrange(tir::SCALE, {2})});
  auto g = b.finish();
  ASSERT_TRUE(bool(g)) << toString(g.takeError());
  auto n = buildNet(*g);
  ASSERT_TRUE(bool(n)) << toString(n.takeError());
  const Layer &copy = n->Layers.back();
  EXPECT_EQ(copy.Kind, OpKind::Scale);
  EXPECT_TRUE(n->Tensors[copy.Inputs[0]].isView());
  EXPECT_EQ(n->Tensors[copy.Inputs[0]].View[0].DH, 2);
  EXPECT_EQ(n->outputs(), std::vector<int>{copy.Output});
  runAgainstReference(*g, "mlu370", 12, 10, 4);
  runAgainstReference(*g, "tiny", 12, 10, 4);
  // Other precisions copy exactly in their own type: FLOAT16 through float
  // (HalfViaFloat), integers in the integer loop (runs:
  // test/lit/layergroup/rearrange.test).
  for (tir::Precision prec : {tir::FLOAT16, tir::INT8, tir::TERNARY}) {
    GraphBuilder h;
    int64_t hx = h.input("x", prec, 4, 4, 2);
    int64_t hy =
        h.addBlock(tir::SO, prec, Dims{{DY, 4}, {DX, 4}, {DF, 2}}, "y");
    h.connect(h.relu(hx, "r"), hy, {rearrange(tir::REFLECT, {1})});
    auto hg = h.finish();
    ASSERT_TRUE(bool(hg)) << toString(hg.takeError());
    auto hn = buildNet(*hg);
    ASSERT_TRUE(bool(hn)) << toString(hn.takeError());
    const Layer &c = hn->Layers.back();
    const Tensor &in = hn->Tensors[c.Inputs[0]], &out = hn->Tensors[c.Output];
    EXPECT_EQ(c.HalfViaFloat, prec == tir::FLOAT16);
    EXPECT_EQ(c.Integer, prec != tir::FLOAT16);
    EXPECT_FALSE(c.RealMath);
    EXPECT_EQ(out.Type, in.Type);
    EXPECT_EQ(out.Narrowed, in.Narrowed);
  }
}

TEST(View, MapsNoBoxesFitAreGatheredFromOneSource) {
  // An 8 x 8 x 1 shuffle of a 64-element source, its first row zero.
  auto shuffle = mapOf(8, 8, 1, [](int64_t y, int64_t x, int64_t) {
    return y == 0 ? std::pair<int, int64_t>{-1, -1}
                  : std::pair<int, int64_t>{3, (y * 8 + x) * 37 % 64};
  });
  std::string why;
  ASSERT_TRUE(fitViewPieces(shuffle, 8, 8, 1, MaxViewPieces, why).empty());
  Tensor t;
  t.C = 1, t.H = 8, t.W = 8;
  ASSERT_TRUE(gatherView(shuffle, 8, 8, 1, t, why)) << why;
  ASSERT_EQ(t.View.size(), 1u);
  EXPECT_EQ(t.View[0].Source, 3);
  EXPECT_EQ(t.View[0].H1, 8);
  EXPECT_TRUE(t.gathered());
  ASSERT_EQ(t.Gather.size(), 64u);
  for (size_t i = 0; i < 64; ++i)
    EXPECT_EQ(t.Gather[i], shuffle.Index[i]);
  // Row 1 reads (8 + x) * 37 % 64 for x < 8: 40, 13, 50, 23, 60, 33, 6, 43.
  EXPECT_EQ(t.GatherRowLo[1], 6);
  EXPECT_EQ(t.GatherRowHi[1], 61);
  EXPECT_EQ(t.gatherWindow(0, 1), 0); // the zero row reads nothing
  EXPECT_EQ(t.gatherWindow(0, 2), 55);
  // Loaded per image: the window, and the table's entries of the item and
  // two bounds a row, in elements of the view's type.
  EXPECT_EQ(t.loadedElements(1, 2, 0, 8), 55 + (8 + 2));
  EXPECT_EQ(t.loadedElements(1, 2, 2, 5), 55 + (3 + 2));
  t.Type = DType::F16;
  EXPECT_EQ(t.loadedElements(1, 2, 0, 8), 55 + (8 + 2) * 2);
  // Several sources: a table and row bounds each (-1 where another source
  // gives the element), in order of first use.
  shuffle.Source[9] = 4;
  Tensor two;
  two.C = 1, two.H = 8, two.W = 8;
  ASSERT_TRUE(gatherView(shuffle, 8, 8, 1, two, why)) << why;
  ASSERT_EQ(two.View.size(), 2u);
  EXPECT_EQ(two.View[0].Source, 3);
  EXPECT_EQ(two.View[1].Source, 4);
  ASSERT_EQ(two.Gather.size(), 128u);
  EXPECT_EQ(two.Gather[9], -1);
  EXPECT_EQ(two.Gather[64 + 9], shuffle.Index[9]);
  EXPECT_EQ(two.Gather[64 + 8], -1);
  // Row 1 of source 4 is element 9 alone, 13; source 3 keeps the rest.
  EXPECT_EQ(two.GatherRowLo[8 + 1], 13);
  EXPECT_EQ(two.GatherRowHi[8 + 1], 14);
  EXPECT_EQ(two.GatherRowLo[1], 6);
  EXPECT_EQ(two.gatherWindow(1, 2), 55 + 1);
  EXPECT_EQ(two.loadedElements(1, 2, 0, 8), 56 + 2 * (8 + 2));
  // At most MaxGatherSources.
  for (size_t i = 8; i < 8 + MaxGatherSources; ++i)
    shuffle.Source[i] = int(10 + i);
  EXPECT_FALSE(gatherView(shuffle, 8, 8, 1, two, why));
  EXPECT_NE(why.find("more than 4 tensors"), std::string::npos) << why;
}

TEST(View, ShufflesShearsAndAffinesRunGatheredAsTheReference) {
  // x [24][20][4] -> ReLU -> r -> SHUFFLE / SHEAR / AFFINE (a rotation)
  // -> view -> ReLU -> y, on mlu370 and sliced on tiny.
  // A SHUFFLE of all 1920 elements (7919 is prime to 1920).
  std::vector<double> all{-1};
  for (int i = 0; i < 1920; ++i)
    all.push_back(double((i * 7919 + 13) % 1920));
  double c = std::cos(0.5), s = std::sin(0.5), cy = 11.5, cx = 9.5;
  std::vector<double> rot{c, -s, cy - c * cy + s * cx,
                          s, c,  cx - s * cy - c * cx};
  struct Case {
    tir::RearrangeType Type;
    std::vector<double> Params;
    int64_t H;
  };
  for (const Case &k :
       {Case{tir::SHUFFLE, all, 24}, Case{tir::SHEAR, {1, 0}, 44},
        Case{tir::AFFINE, rot, 24}}) {
    GraphBuilder b;
    int64_t x = b.input("x", tir::FLOAT32, 24, 20, 4);
    int64_t r = b.relu(x, "r");
    int64_t v = b.addBlock(tir::SI, tir::FLOAT32,
                           Dims{{DY, k.H}, {DX, 20}, {DF, 4}}, "view");
    b.connect(r, v, {rearrange(k.Type, k.Params)});
    b.output(b.relu(v, "r2"), "y");
    auto g = b.finish();
    ASSERT_TRUE(bool(g)) << toString(g.takeError());
    auto n = buildNet(*g);
    ASSERT_TRUE(bool(n)) << toString(n.takeError());
    EXPECT_TRUE(n->Tensors[n->Layers.back().Inputs[0]].gathered());
    runAgainstReference(*g, "mlu370", 24, 20, 4);
    int items = 0;
    runAgainstReference(*g, "tiny", 24, 20, 4, &items);
    EXPECT_GT(items, 1);
  }
}

} // namespace
