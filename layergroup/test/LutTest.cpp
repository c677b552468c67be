//===- LutTest.cpp - LayerGroup: CLUT in channel-sliced groups ------------===//
//
// CLUT's table is indexed by value, so a CLUT may follow the convolution of
// a group sliced by output channels: every item reads the whole table. An
// INT8 net (conv -> requantizing CVS -> CLUT) run as one such group equals
// the reference executor exactly.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Planner.h"
#include "layergroup/Runner.h"

#include "graph/Builder.h"
#include "graph/Executor.h"

#include <gtest/gtest.h>

#include <set>

using namespace bangc;
using namespace llvm;
using namespace bangc::lg;
using namespace bangc::graph;
namespace tir = bangc::taskir;

namespace {

TEST(Lut, FollowsAChannelSlicedConvolution) {
  const int64_t H = 8, W = 8, C = 4, F = 16;
  GraphBuilder b;
  int64_t x = b.input("x", tir::INT8, H, W, C);
  std::vector<double> w(size_t(F * C * 9));
  std::vector<double> bias(static_cast<size_t>(F));
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = double(int64_t(i * 37 % 29) - 14);
  for (size_t i = 0; i < bias.size(); ++i)
    bias[i] = double(int64_t(i * 53 % 101) - 50);
  int64_t conv = b.conv2d(x, F, Window{3, 1, 1}, Param::values(tir::INT8, w),
                          Param::values(tir::INT32, bias), tir::INT32, "conv");
  int64_t q = b.scale(conv, 1.0 / 64, tir::INT8, "requant");
  Dims d{{DY, H}, {DX, W}, {DF, F}};
  int64_t lut = b.addBlock(tir::CLUT, tir::INT8, d, "lut");
  std::vector<double> table(256);
  for (int i = 0; i < 256; ++i) // an odd map of [-128, 127] onto itself
    table[size_t(i)] = double((i * 77 + 13) % 256 - 128);
  b.setParam(lut, Param::values(tir::INT8, table));
  b.connect(q, lut);
  int64_t out = b.addBlock(tir::SI, tir::INT8, d, "lut.out");
  b.connect(lut, out);
  b.output(out, "y");
  auto g = b.finish();
  ASSERT_TRUE(bool(g)) << toString(g.takeError());
  auto n = buildNet(*g);
  ASSERT_TRUE(bool(n)) << toString(n.takeError());
  ASSERT_EQ(n->Layers.size(), 3u);
  ASSERT_EQ(n->Layers[2].Kind, OpKind::Lut);

  std::vector<double> xs(size_t(H * W * C));
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = double(int64_t(i * 7919 % 256) - 128);
  TensorMap in;
  in["x"] = valuesToNpy(xs, {H, W, C}, tir::INT8);
  auto ref = runGraph(*g, in);
  ASSERT_TRUE(bool(ref)) << toString(ref.takeError());
  auto want = npyToValues(ref->at("y"), tir::INT8, "y");
  ASSERT_TRUE(bool(want));

  auto spec = bangsim::loadDeviceSpec("mlu370");
  ASSERT_TRUE(bool(spec));
  GroupInfo gi = groupInfo(*n, 0, 2);
  std::string why;
  auto p = planGroupWith(*n, *spec, 1, gi, 1, 1, 1, 4, PlanOptions{}, &why);
  ASSERT_TRUE(p) << why;
  ASSERT_TRUE(p->global());
  NetPlan plan;
  plan.Groups.push_back(*p);
  plan.ReadBytes = p->ReadBytes, plan.WriteBytes = p->WriteBytes;
  plan.WeightReadBytes = p->WeightReadBytes;
  auto run = runPlan(*n, plan, *spec, 1, HostTensors{{0, xs}});
  ASSERT_TRUE(bool(run)) << toString(run.takeError());
  EXPECT_EQ(run->ReadBytes, p->ReadBytes);
  EXPECT_EQ(run->WriteBytes, p->WriteBytes);
  const std::vector<double> &got = run->Outputs.at(n->outputs()[0]);
  EXPECT_EQ(got, *want);
  // Not a table map of identity: the output takes many values.
  std::set<double> values(got.begin(), got.end());
  EXPECT_GT(values.size(), 30u);
}

} // namespace
