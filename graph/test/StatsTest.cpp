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
  Graph g =
      mustCreate(*readGraphFile(BANGC_GRAPH_TEST_DIR "/good/small_conv.json"));
  GraphStats s = computeStats(g);
  // SW 3*2*3*3 = 54 + SB 3.
  EXPECT_EQ(s.Params, 57);
  // CC: 4*4 outputs * 3 filters * 2 channels * 3*3 window.
  EXPECT_EQ(s.MACs, 4 * 4 * 3 * 2 * 9);
  // x 32 B + SIC 32 B + SW 54 B + SB 12 B + SO 192 B.
  EXPECT_EQ(s.StorageBytes, 32 + 32 + 54 + 12 + 192);
  const BlockStats &conv = s.Blocks[4];
  EXPECT_EQ(conv.Type, CC);
  EXPECT_EQ(conv.Params, 57);
  EXPECT_NE(formatStats(s).find("57 params"), std::string::npos);
}

TEST(Stats, Vgg16MatchesPublishedFigures) {
  Graph g = mustCreate(buildVgg16Convs());
  GraphStats s = computeStats(g);
  // The 13 conv layers of VGG-16 have 14,714,688 weights and biases.
  EXPECT_EQ(s.Params, 14714688);
  int64_t macs = 0, h = 224, c = 3;
  const int stages[5][2] = {{64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}};
  for (auto &st : stages) {
    for (int l = 0; l < st[1]; ++l) {
      macs += h * h * st[0] * c * 9;
      c = st[0];
    }
    h /= 2;
  }
  EXPECT_EQ(s.MACs, macs);
  EXPECT_EQ(s.MACs, 15346630656);
}

TEST(Stats, TernaryAndInt9StorageUsesBitWidths) {
  GraphBuilder gb;
  int64_t w = gb.addBlock(SWFC, TERNARY, Dims{{DF, 3}, {DR, 5}});
  gb.setParam(w, Param::values(TERNARY, std::vector<double>(15, -1)));
  int64_t x = gb.addBlock(SIFC, INT9, Dims{{DR, 5}}, "x");
  int64_t c = gb.addBlock(CVM, INT32, Dims{{DF, 3}, {DR, 5}});
  gb.connect(x, c, {}, InputRole::Data);
  gb.connect(w, c, {}, InputRole::Weight);
  gb.output(gb.addBlock(SI, INT32, Dims{{DF, 3}}), "y");
  gb.connect(c, 3);
  Graph g = mustCreate(gb.take());
  GraphStats s = computeStats(g);
  EXPECT_EQ(s.Blocks[0].StorageBytes, (15 * 2 + 7) / 8);
  EXPECT_EQ(s.Blocks[1].StorageBytes, (5 * 9 + 7) / 8);
  EXPECT_EQ(s.MACs, 15);
}

} // namespace
