//===- FirstPiecesTest.cpp - LayerGroup: a first weight tile by positions -===//
//
// GroupPlan::FirstPieces (Codegen's phaseStart and computeConvByRows,
// plan/Cost.cpp's tileLoadCycles): a global group's first weight tile,
// which loads behind the core's share of the staged input before the
// phase's barrier, loads only a piece of a few kernel positions there; the
// first item convolves each piece (lg_conv_tile_pos) while the next one
// loads. The pieces the planner picks, and runs of the same slicing with
// and without them: the same outputs up to the order of the sums, the
// same GDRAM bytes, clean under the race check, fewer simulated cycles,
// and an estimate that follows the simulator.
//
//===----------------------------------------------------------------------===//
#include "TestRun.h"

#include "layergroup/Planner.h"
#include "layergroup/Runner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace bangc::lg;
using bangc::lg::test::onePlan;
using bangc::lg::test::randomInputs;
using bangc::lg::test::spec;

namespace {

PlanOptions firstPositions(bool On) {
  PlanOptions O;
  O.FirstPositions = On; // --no-first-positions when off
  O.EarlyPiece = false; // the pieces alone (early-piece.test: EarlyPiece)
  return O;
}

/// A 3x3 convolution of c channels to c over h x h, pad 1, and its ReLU:
/// VGG-16's conv3_2 at h = 56 (64x64 input: h = 16).
Net convRelu(int c, int h) {
  Net N;
  int X = N.addInput("x", c, h, h);
  N.markOutput(N.relu(N.conv(X, c, 3, 1, 1, "c"), "r"), "y");
  return N;
}

/// The pieces are runs of positions of one kernel row or whole rows, the
/// last ending at KY * KX, and not the rows alone.
void expectValidPieces(const std::vector<int> &Ends, int KX, int KK) {
  ASSERT_GE(Ends.size(), 2u);
  EXPECT_EQ(Ends.back(), KK);
  bool Rows = true;
  for (size_t J = 0; J < Ends.size(); ++J) {
    int A = J ? Ends[J - 1] : 0, B = Ends[J];
    EXPECT_LT(A, B);
    bool Whole = A % KX == 0 && B % KX == 0;
    EXPECT_TRUE(Whole || A / KX == (B - 1) / KX) << A << ".." << B;
    Rows = Rows && Whole;
  }
  EXPECT_FALSE(Rows) << "the rows are not a split by positions";
}

} // namespace

// VGG-16's conv3_2 at 64x64 (256 channels, 16 x 16) in 2 H slices of 16
// channel slices: the tile in pieces of positions takes fewer cycles than
// by kernel rows.
TEST(FirstPieces, PayOnVggConv3_2At64) {
  Net N = convRelu(256, 16);
  GroupInfo G = groupInfo(N, 0, int(N.Layers.size()) - 1);
  bangsim::DeviceSpec S = spec();
  auto P = planGroupWith(N, S, 1, G, 1, 2, 1, 16, firstPositions(true));
  auto Q = planGroupWith(N, S, 1, G, 1, 2, 1, 16, firstPositions(false));
  ASSERT_TRUE(P && Q);
  ASSERT_TRUE(P->global() && P->pipelined() && P->phased());
  ASSERT_EQ(P->firstTileRows(N), 3);
  expectValidPieces(P->FirstPieces, 3, 9);
  EXPECT_TRUE(Q->FirstPieces.empty());
  EXPECT_LT(P->Cycles, Q->Cycles);

  HostTensors In = randomInputs(N, 1, 11);
  RunOptions Checked;
  Checked.checkRaces = true;
  auto A = runPlan(N, onePlan(*P), S, 1, In, Checked);
  auto B = runPlan(N, onePlan(*Q), S, 1, In, Checked);
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  int Out = N.outputs()[0];
  const std::vector<double> &X = A->Outputs.at(Out), &Y = B->Outputs.at(Out);
  ASSERT_EQ(X.size(), Y.size());
  double Max = 0, Err = 0;
  for (size_t I = 0; I < X.size(); ++I)
    Max = std::max(Max, std::fabs(Y[I])),
    Err = std::max(Err, std::fabs(X[I] - Y[I]));
  EXPECT_GT(Max, 0.0);
  EXPECT_LE(Err, 1e-5 * Max) << "the same sums in another order";
  EXPECT_EQ(A->ReadBytes, B->ReadBytes);
  EXPECT_EQ(A->WriteBytes, B->WriteBytes);
  EXPECT_LT(A->Groups[0].Cycles, B->Groups[0].Cycles);
  EXPECT_NEAR(P->Cycles / A->Groups[0].Cycles, 1.0, 0.015);
  EXPECT_NEAR(Q->Cycles / B->Groups[0].Cycles, 1.0, 0.03);
  std::printf("by rows %.0f (estimated %.0f), by positions %.0f (%.0f)\n",
              B->Groups[0].Cycles, Q->Cycles, A->Groups[0].Cycles, P->Cycles);
}

// With 8 x 8 (VGG-16's conv3_2 at 32x32) an item convolves so little that
// a piece's own start-ups and add outweigh what the barrier gains: the
// tile stays by kernel rows.
TEST(FirstPieces, RowsWhereThePiecesDoNotPay) {
  Net N = convRelu(256, 8);
  GroupInfo G = groupInfo(N, 0, int(N.Layers.size()) - 1);
  auto P = planGroupWith(N, spec(), 1, G, 1, 2, 1, 16, firstPositions(true));
  ASSERT_TRUE(P);
  ASSERT_EQ(P->firstTileRows(N), 3);
  EXPECT_TRUE(P->FirstPieces.empty());
}
