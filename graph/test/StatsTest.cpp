//===- StatsTest.cpp - Parameter, MAC and storage counts -----------------===//
#include "TestUtil.h"

#include "Examples.h"
#include "graph/Builder.h"
#include "graph/GraphIO.h"
#include "graph/Stats.h"

using namespace bangc::graph;
using namespace bangc::graph::test;
using namespace bangc::taskir;

namespace {

TEST(Stats, SmallConvCountedByHand) {
  Graph G = mustCreate(
      *readGraphFile(BANGC_GRAPH_TEST_DIR "/good/small_conv.json"));
  GraphStats S = computeStats(G);
  // SW 3*2*3*3 = 54 + SB 3.
  EXPECT_EQ(S.Params, 57);
  // CC: 4*4 outputs * 3 filters * 2 channels * 3*3 window.
  EXPECT_EQ(S.MACs, 4 * 4 * 3 * 2 * 9);
  // x 32 B + SIC 32 B + SW 54 B + SB 12 B + SO 192 B.
  EXPECT_EQ(S.StorageBytes, 32 + 32 + 54 + 12 + 192);
  const BlockStats &Conv = S.Blocks[4];
  EXPECT_EQ(Conv.Type, CC);
  EXPECT_EQ(Conv.Params, 57);
  EXPECT_NE(formatStats(S).find("57 params"), std::string::npos);
}

TEST(Stats, Vgg16MatchesPublishedFigures) {
  Graph G = mustCreate(buildVgg16Convs());
  GraphStats S = computeStats(G);
  // The 13 conv layers of VGG-16 have 14,714,688 weights and biases.
  EXPECT_EQ(S.Params, 14714688);
  int64_t Macs = 0, H = 224, C = 3;
  const int Stages[5][2] = {{64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}};
  for (auto &St : Stages) {
    for (int L = 0; L < St[1]; ++L) {
      Macs += H * H * St[0] * C * 9;
      C = St[0];
    }
    H /= 2;
  }
  EXPECT_EQ(S.MACs, Macs);
  EXPECT_EQ(S.MACs, 15346630656);
}

TEST(Stats, TernaryAndInt9StorageUsesBitWidths) {
  GraphBuilder GB;
  int64_t W = GB.addBlock(SWFC, TERNARY, Dims{{DF, 3}, {DR, 5}});
  GB.setParam(W, Param::values(TERNARY, std::vector<double>(15, -1)));
  int64_t X = GB.addBlock(SIFC, INT9, Dims{{DR, 5}}, "x");
  int64_t C = GB.addBlock(CVM, INT32, Dims{{DF, 3}, {DR, 5}});
  GB.connect(X, C, {}, InputRole::Data);
  GB.connect(W, C, {}, InputRole::Weight);
  GB.output(GB.addBlock(SI, INT32, Dims{{DF, 3}}), "y");
  GB.connect(C, 3);
  Graph G = mustCreate(GB.take());
  GraphStats S = computeStats(G);
  EXPECT_EQ(S.Blocks[0].StorageBytes, (15 * 2 + 7) / 8);
  EXPECT_EQ(S.Blocks[1].StorageBytes, (5 * 9 + 7) / 8);
  EXPECT_EQ(S.MACs, 15);
}

} // namespace
