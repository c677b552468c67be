//===- LastPiecesTest.cpp - LayerGroup: a core's last item in row pieces --===//
//
// GroupPlan::LastPieces (Codegen's lastItemPieces, plan/Cost.cpp's
// lastPiecesSaving): a pipelined core's last item computes its steps from
// GroupPlan::lastPiecesStart in row pieces of the group output and stores
// each piece while the next one computes, instead of storing the whole
// item after the loop, where its store ran alone. Which steps may run in
// pieces, and runs of the same slicing with and without the pieces: the
// same numbers bit for bit and the same GDRAM bytes, clean under the race
// check, fewer simulated cycles, and an estimate that follows the
// simulator.
//
//===----------------------------------------------------------------------===//
#include "TestNets.h"
#include "TestRun.h"

#include "layergroup/Planner.h"
#include "layergroup/Runner.h"

#include <gtest/gtest.h>

using namespace bangc::lg;
using bangc::lg::test::onePlan;
using bangc::lg::test::randomInputs;
using bangc::lg::test::spec;

namespace {

PlanOptions lastPieces(bool On) {
  PlanOptions O;
  O.LastPieces = On; // --no-last-pieces when off
  return O;
}

/// Plans \p N's one group with and without the last item in pieces, and
/// checks what the pieces keep and save; \p From: the first step in pieces.
void expectPiecesPay(const Net &N, int HSecs, int WSecs, int FSecs, int From) {
  GroupInfo G = groupInfo(N, 0, int(N.Layers.size()) - 1);
  bangsim::DeviceSpec S = spec();
  auto P = planGroupWith(N, S, 1, G, 1, HSecs, WSecs, FSecs, lastPieces(true));
  auto Q = planGroupWith(N, S, 1, G, 1, HSecs, WSecs, FSecs, lastPieces(false));
  ASSERT_TRUE(P && Q);
  ASSERT_TRUE(P->pipelined());
  EXPECT_EQ(P->lastPiecesStart(N), From);
  EXPECT_GT(P->LastPieces, 1);
  EXPECT_EQ(Q->LastPieces, 1);
  EXPECT_LT(P->Cycles, Q->Cycles);
  HostTensors In = randomInputs(N, 1, 7);
  RunOptions Checked;
  Checked.checkRaces = true;
  auto A = runPlan(N, onePlan(*P), S, 1, In, Checked);
  auto B = runPlan(N, onePlan(*Q), S, 1, In, Checked);
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  int Out = N.outputs()[0];
  EXPECT_EQ(A->Outputs.at(Out), B->Outputs.at(Out));
  EXPECT_EQ(A->ReadBytes, B->ReadBytes);
  EXPECT_EQ(A->WriteBytes, B->WriteBytes);
  // The whole item's store ran alone; now a piece's (at most half the
  // rows) does: at least a third of the store is saved.
  double Store = Q->Steps.back().DmaCycles;
  EXPECT_LT(A->Groups[0].Cycles, B->Groups[0].Cycles - Store / 3)
      << "the whole item's store: " << Store;
  EXPECT_NEAR(P->Cycles / A->Groups[0].Cycles, 1.0, 0.01);
  EXPECT_NEAR(Q->Cycles / B->Groups[0].Cycles, 1.0, 0.02);
}

TEST(LastPieces, WhichStepsRunInPieces) {
  // A global group (VGG-16's conv3_2 shape: its conv, on a padded input
  // tile, and ReLU): from ts1, the transfer step. A block of tiles
  // (conv1_1 .. pool1): from c2, whose input c1 (kept rows) computed
  // before; c2, its ReLU (after the pool) and the pool in pieces.
  Net Global = test::convRelu(32, 28, 28, 64);
  auto P = planGroupWith(Global, spec(), 1, groupInfo(Global, 0, 1), 1, 7, 1, 4,
                         PlanOptions{});
  ASSERT_TRUE(P && P->pipelined());
  EXPECT_EQ(P->lastPiecesStart(Global), 1);
  Net Block = test::convBlock(3, 56, 56, 16);
  auto B = planGroupWith(Block, spec(), 1, groupInfo(Block, 0, 4), 1, 14, 2, 1,
                         PlanOptions{});
  ASSERT_TRUE(B && B->pipelined());
  EXPECT_EQ(B->lastPiecesStart(Block), 3);
  // Two outputs: none (the pieces cut one output's rows).
  Net Two;
  int X = Two.addInput("x", 8, 28, 28);
  int R = Two.relu(Two.conv(X, 8, 3, 1, 1, "c1"), "r1");
  Two.markOutput(R, "a");
  Two.markOutput(Two.relu(Two.conv(R, 8, 3, 1, 1, "c2"), "r2"), "b");
  auto T = planGroupWith(Two, spec(), 1, groupInfo(Two, 0, 3), 1, 7, 1, 1,
                         PlanOptions{});
  ASSERT_TRUE(T);
  EXPECT_EQ(T->lastPiecesStart(Two), 0);
}

TEST(LastPieces, GlobalGroupFromTheTransferStep) {
  // conv3_2 of VGG-16: 256 x 56 x 56 -> 256, 14 H slices of 4 rows x 16
  // channel slices, 14 items a core; the last one's store (1.9 K cycles)
  // ran alone.
  Net N = test::convRelu(256, 56, 56, 256);
  expectPiecesPay(N, 14, 1, 16, 1);
}

TEST(LastPieces, TileByKernelRowsItsLastRowInPieces) {
  // conv5_1 of VGG-16: 512 x 14 x 14 -> 512 in 32 channel slices, two
  // items a core, each loading its weight tile by kernel rows
  // (rowsEveryItem): the last item convolves the rows before the tile's
  // last one whole, then that row in pieces (lastRowsFirst).
  Net N = test::convRelu(512, 14, 14, 512);
  auto P = planGroupWith(N, spec(), 1, groupInfo(N, 0, 1), 1, 1, 1, 32,
                         PlanOptions{});
  ASSERT_TRUE(P);
  ASSERT_TRUE(P->rowsEveryItem(N));
  expectPiecesPay(N, 1, 1, 32, 1);
}

TEST(LastPieces, TilesFromTheLastConvolution) {
  // VGG-16's conv1 block at 112 (8 x 4 tiles with kept rows): conv1_2, its
  // pool and the pool's bias and ReLU in pieces of the pool's rows.
  Net N = test::convBlock(3, 112, 112, 64);
  expectPiecesPay(N, 8, 4, 1, 3);
}

} // namespace
