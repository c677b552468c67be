//===- ExamplesTest.cpp - The graphs in examples/graphs ------------------===//
#include "TestUtil.h"

#include "Examples.h"
#include "graph/GraphIO.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace bangc;
using namespace bangc::graph;
using namespace bangc::graph::test;
using namespace bangc::taskir;

namespace {

// The checked-in files are exactly what the generator produces.
TEST(Examples, CheckedInFilesMatchTheGenerator) {
  for (auto &[Name, G] : allExamples()) {
    std::string path = std::string(BANGC_EXAMPLES_DIR) + "/" + Name;
    auto buf = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(bool(buf)) << path << " is missing; run bangc-graph-examples";
    llvm::Expected<std::string> json = graphToJson(G);
    ASSERT_TRUE(bool(json));
    EXPECT_EQ((*buf)->getBuffer().str(), *json)
        << path << " is stale; regenerate with bangc-graph-examples";
    llvm::Expected<Graph> loaded = Graph::load(path);
    EXPECT_TRUE(bool(loaded))
        << (loaded ? "" : llvm::toString(loaded.takeError()));
  }
}

TEST(Examples, LeNetRunsAndIsDeterministic) {
  Graph g = mustCreate(buildLeNet());
  ASSERT_EQ(g.inputBlocks().size(), 1u);
  TensorMap in = {
      {"x", array(INT8, {28, 28, 1}, randomInts(784, -128, 127, 3))}};
  TensorMap a = mustRun(g, in), b = mustRun(g, in);
  ASSERT_EQ(a["y"].shape, (std::vector<int64_t>{10}));
  EXPECT_EQ(a["y"].data, b["y"].data);
  std::vector<double> y = values(a["y"], INT32);
  EXPECT_NE(*std::max_element(y.begin(), y.end()),
            *std::min_element(y.begin(), y.end()));
}

TEST(Examples, SnnSpikesOverTime) {
  Graph g = mustCreate(buildSmallSnn());
  const int t = 10;
  std::vector<double> spikes = randomInts(t * 32, 0, 1, 4);
  RunOptions o;
  o.TimeSteps = t;
  TensorMap out =
      mustRun(g, {{"spikes", array(UINT8, {t, 4, 4, 2}, spikes)}}, o);
  ASSERT_EQ(out["out"].shape, (std::vector<int64_t>{t, 1, 1, 10}));
  std::vector<double> s = values(out["out"], UINT8);
  double total = 0;
  for (double v : s) {
    EXPECT_TRUE(v == 0 || v == 1);
    total += v;
  }
  EXPECT_GT(total, 0) << "the example network should spike";
}

TEST(Examples, ResNetHasResidualAdds) {
  Graph g = mustCreate(buildResNet18());
  int adds = 0;
  for (int64_t id : g.topologicalOrder())
    if (g.block(id).type() == CADD) {
      ++adds;
      EXPECT_EQ(g.operands(id).Data.size(), 2u);
    }
  EXPECT_EQ(adds, 8);
  const TaskBlock *fc = g.findBlock("fc");
  ASSERT_TRUE(fc);
  EXPECT_EQ(blockDims(*fc)[DF], 1000);
}

} // namespace
