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
    std::string Path = std::string(BANGC_EXAMPLES_DIR) + "/" + Name;
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    ASSERT_TRUE(bool(Buf)) << Path << " is missing; run bangc-graph-examples";
    llvm::Expected<std::string> Json = graphToJson(G);
    ASSERT_TRUE(bool(Json));
    EXPECT_EQ((*Buf)->getBuffer().str(), *Json)
        << Path << " is stale; regenerate with bangc-graph-examples";
    llvm::Expected<Graph> Loaded = Graph::load(Path);
    EXPECT_TRUE(bool(Loaded)) << (Loaded ? "" : llvm::toString(Loaded.takeError()));
  }
}

TEST(Examples, LeNetRunsAndIsDeterministic) {
  Graph G = mustCreate(buildLeNet());
  ASSERT_EQ(G.inputBlocks().size(), 1u);
  TensorMap In = {{"x", array(INT8, {28, 28, 1},
                              randomInts(784, -128, 127, 3))}};
  TensorMap A = mustRun(G, In), B = mustRun(G, In);
  ASSERT_EQ(A["y"].shape, (std::vector<int64_t>{10}));
  EXPECT_EQ(A["y"].data, B["y"].data);
  std::vector<double> Y = values(A["y"], INT32);
  EXPECT_NE(*std::max_element(Y.begin(), Y.end()),
            *std::min_element(Y.begin(), Y.end()));
}

TEST(Examples, SnnSpikesOverTime) {
  Graph G = mustCreate(buildSmallSnn());
  const int T = 10;
  std::vector<double> Spikes = randomInts(T * 32, 0, 1, 4);
  RunOptions O;
  O.TimeSteps = T;
  TensorMap Out =
      mustRun(G, {{"spikes", array(UINT8, {T, 4, 4, 2}, Spikes)}}, O);
  ASSERT_EQ(Out["out"].shape, (std::vector<int64_t>{T, 1, 1, 10}));
  std::vector<double> S = values(Out["out"], UINT8);
  double Total = 0;
  for (double V : S) {
    EXPECT_TRUE(V == 0 || V == 1);
    Total += V;
  }
  EXPECT_GT(Total, 0) << "the example network should spike";
}

TEST(Examples, ResNetHasResidualAdds) {
  Graph G = mustCreate(buildResNet18());
  int Adds = 0;
  for (int64_t Id : G.topologicalOrder())
    if (G.block(Id).type() == CADD) {
      ++Adds;
      EXPECT_EQ(G.operands(Id).Data.size(), 2u);
    }
  EXPECT_EQ(Adds, 8);
  const TaskBlock *Fc = G.findBlock("fc");
  ASSERT_TRUE(Fc);
  EXPECT_EQ(blockDims(*Fc)[DF], 1000);
}

} // namespace
