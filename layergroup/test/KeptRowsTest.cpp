//===- KeptRowsTest.cpp - LayerGroup: rows kept from the item above -------===//
//
// GroupPlan::KeepRows (layergroup/KeptRows.cpp): a core's consecutive items
// go down a column of tiles, and an item that follows the H slice above it
// computes only the rows of its inner tensors that the item before did not.
// The slicing (rows computed per item with and without the kept rows), the
// NRAM they hold, and runs that equal the same plan without kept rows
// exactly, through each way a convolution reads its input (a window tile
// made first, a padded input tile) and each place the rows move (beside a
// later step, or before the next item when its last layer reads them).
//
//===----------------------------------------------------------------------===//
#include "TestNets.h"
#include "TestRun.h"

#include "layergroup/Codegen.h"
#include "layergroup/Planner.h"
#include "layergroup/Runner.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>

using namespace bangc::lg;
using bangc::lg::test::onePlan;
using bangc::lg::test::randomInputs;
using bangc::lg::test::spec;

namespace {

/// conv 3x3 (c1) -> ReLU -> conv 3x3 (c2) -> max pool 2x2 on \p H x \p W,
/// \p C channels.
Net convConvPool(int64_t H, int64_t W, int64_t C = 8) {
  Net N;
  int X = N.addInput("x", C, H, W);
  X = N.relu(N.conv(X, C, 3, 1, 1, "c1"), "r1");
  X = N.maxPool(N.conv(X, C, 3, 1, 1, "c2"), 2, 2, 0, "p");
  N.markOutput(X, "y");
  return N;
}

int tensorOf(const Net &N, const char *Name) {
  for (size_t T = 0; T < N.Tensors.size(); ++T)
    if (N.Tensors[T].Name == Name)
      return int(T);
  ADD_FAILURE() << "no tensor " << Name;
  return 0;
}

PlanOptions keepRows(bool On, bool KeptTiles = true) {
  PlanOptions O;
  O.KeepRows = On;
  O.KeptTiles = KeptTiles;
  return O;
}

/// Runs \p N's one group as \p Kept (which keeps rows) and as the same
/// slicing without: the outputs are the same numbers, bit for bit (each
/// row is the same sum either way), and the GDRAM bytes too. Both run under
/// the race check (--check=race): the simulator copies eagerly, so a kept-row
/// move issued a step early or a sync wrongly dropped would still give the
/// right numbers; the check faults on it instead. With \p KeptTiles, the
/// kept rows in window tiles (GroupPlan::KeptTiles) and in their own
/// buffers give the same numbers too.
void expectSameAsWithout(const Net &N, const char *Dev, int HSecs, int WSecs,
                         int64_t Batch = 1, bool KeptTiles = false) {
  GroupInfo G = groupInfo(N, 0, int(N.Layers.size()) - 1);
  int NSecs = int(Batch);
  auto Kept = planGroupWith(N, spec(Dev), Batch, G, NSecs, HSecs, WSecs, 1,
                            keepRows(true));
  auto Plain = planGroupWith(N, spec(Dev), Batch, G, NSecs, HSecs, WSecs, 1,
                             keepRows(false));
  ASSERT_TRUE(Kept && Plain);
  ASSERT_TRUE(Kept->KeepRows);
  ASSERT_FALSE(Plain->KeepRows);
  HostTensors In = randomInputs(N, Batch, 11);
  RunOptions Checked;
  Checked.checkRaces = true;
  auto A = runPlan(N, onePlan(*Kept), spec(Dev), Batch, In, Checked);
  auto B = runPlan(N, onePlan(*Plain), spec(Dev), Batch, In, Checked);
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  int Out = N.outputs()[0];
  EXPECT_EQ(A->Outputs.at(Out), B->Outputs.at(Out));
  EXPECT_EQ(A->ReadBytes, Kept->ReadBytes);
  EXPECT_EQ(A->WriteBytes, B->WriteBytes);
  if (!KeptTiles)
    return;
  auto Own = planGroupWith(N, spec(Dev), Batch, G, NSecs, HSecs, WSecs, 1,
                           keepRows(true, false));
  ASSERT_TRUE(Own && Own->KeepRows);
  EXPECT_FALSE(Kept->KeptTiles.empty());
  EXPECT_TRUE(Own->KeptTiles.empty());
  auto C = runPlan(N, onePlan(*Own), spec(Dev), Batch, In, Checked);
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  EXPECT_EQ(A->Outputs.at(Out), C->Outputs.at(Out));
  EXPECT_EQ(A->WriteBytes, C->WriteBytes);
}

} // namespace

TEST(KeptRows, ColumnsOfTilesComputeEachRowOnce) {
  // 8 H x 4 W tiles of a 32 x 32 map of 64 channels on mlu370's 16 cores:
  // 32 items, 2 a core. p's H slices of 2 rows need c2 [4 hs, 4 hs + 4)
  // and c1 [4 hs - 1, 4 hs + 5), clamped to [0, 32).
  Net N = convConvPool(32, 32, 64);
  GroupInfo G = groupInfo(N, 0, 3);
  auto P = planGroupWith(N, spec("mlu370"), 1, G, 1, 8, 4, 1, keepRows(true));
  ASSERT_TRUE(P);
  ASSERT_TRUE(P->pipelined());
  ASSERT_TRUE(P->KeepRows);
  int C1 = tensorOf(N, "c1"), R1 = tensorOf(N, "r1"), C2 = tensorOf(N, "c2");
  // Items go down a column: item 1 is H slice 1 of column 0, item 8 the
  // top of column 1; core c takes items [2c, 2c + 2).
  EXPECT_EQ(P->itemH(1), 1);
  EXPECT_EQ(P->itemW(1), 0);
  EXPECT_EQ(P->itemH(8), 0);
  EXPECT_EQ(P->itemW(8), 1);
  EXPECT_FALSE(P->itemKeepsRows(0));
  EXPECT_TRUE(P->itemKeepsRows(1));
  EXPECT_FALSE(P->itemKeepsRows(2)); // the first of core 1
  EXPECT_TRUE(P->itemKeepsRows(3));
  // c1 keeps; r1 is computed in c1's buffer; c2's slices do not overlap.
  EXPECT_TRUE(P->keepsRows(N, C1));
  EXPECT_FALSE(P->keepsRows(N, R1));
  EXPECT_FALSE(P->keepsRows(N, C2));
  EXPECT_EQ(P->keptRows(N, C1, 1), (RowRange{3, 5}));
  EXPECT_EQ(P->keptRows(N, C1, 7), (RowRange{27, 29}));
  EXPECT_EQ(P->fewestKeptRows(N, C1), 2);
  // r1 writes c2's window tile (ReluTiles), which keeps c1's rows
  // (KeptTiles; r1 writes only the rows after them) and holds them from one
  // item to the next; c1's buffer does not. Without KeptTiles c1's buffer
  // holds them, and the ReLU runs again over them.
  int L2 = N.Tensors[C2].Producer;
  EXPECT_EQ(P->keptTileOf(C1), L2);
  auto held = [&](const GroupPlan &Q, LmemBuffer::Kind K, int Of) {
    for (const LmemBuffer &B : Q.Buffers)
      if (B.K == K && (K == LmemBuffer::Activation ? B.Tensor : B.Layer) == Of &&
          B.Part == 0)
        return B.Start == 0 && B.End == TsInf;
    return false;
  };
  EXPECT_TRUE(held(*P, LmemBuffer::Scratch, L2));
  EXPECT_FALSE(held(*P, LmemBuffer::Activation, C1));
  EXPECT_TRUE(lmemDisjoint(P->Buffers));
  auto Own = planGroupWith(N, spec("mlu370"), 1, G, 1, 8, 4, 1,
                           keepRows(true, false));
  ASSERT_TRUE(Own && Own->KeepRows);
  EXPECT_EQ(Own->keptTileOf(C1), -1);
  EXPECT_TRUE(held(*Own, LmemBuffer::Activation, C1));
  EXPECT_FALSE(held(*Own, LmemBuffer::Scratch, L2));
  // The estimate charges the ReLU only the rows after the kept ones.
  EXPECT_LT(P->Cycles, Own->Cycles);

  // Without kept rows: W slices innermost.
  auto Q = planGroupWith(N, spec("mlu370"), 1, G, 1, 8, 4, 1, keepRows(false));
  ASSERT_TRUE(Q);
  EXPECT_FALSE(Q->KeepRows);
  EXPECT_FALSE(Q->keepsRows(N, C1));
  EXPECT_EQ(Q->itemW(1), 1);
  // The estimate charges an item that keeps rows only the rows after them.
  EXPECT_LT(P->Cycles, Q->Cycles);
}

TEST(KeptRows, OnlyAPipelinedColumnOfFloatLayers) {
  Net N = convConvPool(32, 32, 64);
  GroupInfo G = groupInfo(N, 0, 3);
  // One item a core: nothing follows.
  auto One = planGroupWith(N, spec("mlu370"), 1, G, 1, 4, 4, 1, keepRows(true));
  ASSERT_TRUE(One);
  EXPECT_FALSE(One->pipelined());
  EXPECT_FALSE(One->KeepRows);
  // W slices alone: no H slice to follow.
  Net Wide = convConvPool(8, 256, 64);
  auto Cols = planGroupWith(Wide, spec("mlu370"), 1, groupInfo(Wide, 0, 3), 1,
                            1, 32, 1, keepRows(true));
  ASSERT_TRUE(Cols);
  EXPECT_TRUE(Cols->pipelined());
  EXPECT_FALSE(Cols->KeepRows);
  // An integer layer computes its own way (keepRowsLayer).
  Layer L = N.Layers[0];
  EXPECT_TRUE(keepRowsLayer(L));
  L.Integer = true;
  EXPECT_FALSE(keepRowsLayer(L));
}

TEST(KeptRows, KernelComputesTheRowsAfterTheKeptOnes) {
  // The kernel of the plan above: each item counts the rows it keeps (kr)
  // at its start, computes c1 from the first row after them (from its
  // window or padded tile's rows there) into the slice after them, r1
  // writes c2's window tile from the row after them, and the rows the
  // next item keeps move to the front of that tile beside the pool, async
  // (KeptTiles).
  Net N = convConvPool(32, 32, 64);
  auto P = planGroupWith(N, spec("mlu370"), 1, groupInfo(N, 0, 3), 1, 8, 4, 1,
                         keepRows(true));
  ASSERT_TRUE(P && P->KeepRows);
  int C1 = tensorOf(N, "c1");
  int S = P->Info.slot(C1);
  std::string Src = emitGroupKernel(N, *P, 0).Source;
  std::string Kr = "kr[" + std::to_string(S) + "]";
  EXPECT_NE(Src.find("hs = item % 8"), std::string::npos);
  EXPECT_NE(Src.find(Kr + " = p_hi["), std::string::npos);
  // c1 computes its rows after the kept ones, into the slice after them.
  std::string Sl = std::to_string(S);
  EXPECT_NE(Src.find("hi[" + Sl + "] - lo[" + Sl + "] - " + Kr),
            std::string::npos);
  EXPECT_NE(Src.find(" + " + Kr + " * (chi[" + Sl + "] - clo[" + Sl + "])"),
            std::string::npos);
  std::string L2 = std::to_string(N.Tensors[tensorOf(N, "c2")].Producer);
  std::string So2 = std::to_string(P->Info.slot(tensorOf(N, "c2")));
  EXPECT_NE(Src.find("b" + std::to_string(N.Tensors[C1].Producer) + ", " + Kr +
                     "); // into c2's window tile"),
            std::string::npos);
  size_t Move = Src.find("lg_keep_rows(tile" + L2 + ", x_lo[" + Sl +
                         "] - (lo[" + So2 + "] * 1 - 1), hi[" + Sl +
                         "] - x_lo[" + Sl + "], lg_window_extent(chi[" + So2 +
                         "] - clo[" + So2 + "], 1, 3, 1) * 64, true);");
  ASSERT_NE(Move, std::string::npos);
  EXPECT_EQ(P->keptMoveStep(N, C1), 4); // the pool's step, after c2's
  EXPECT_LT(Src.find("// ts4"), Move);
  EXPECT_LT(Move, Src.find("lg_pool("));
  // Without KeptTiles: c1's rows move in its own buffer, and r1 writes all
  // of the tile's rows.
  auto Own = planGroupWith(N, spec("mlu370"), 1, groupInfo(N, 0, 3), 1, 8, 4,
                           1, keepRows(true, false));
  ASSERT_TRUE(Own && Own->KeepRows);
  std::string OwnSrc = emitGroupKernel(N, *Own, 0).Source;
  EXPECT_NE(OwnSrc.find("lg_keep_rows(t" + std::to_string(C1) + "[cur], x_lo["),
            std::string::npos);
  EXPECT_NE(OwnSrc.find(", 0); // into c2's window tile"), std::string::npos);
}

TEST(KeptRows, RunsEqualTheSameTilesWithout) {
  // The window tile made first (c1 over a W-sliced input).
  expectSameAsWithout(convConvPool(32, 32, 64), "mlu370", 8, 4, 1, true);
  expectSameAsWithout(convConvPool(64, 32, 64), "mlu370", 16, 2);
  // Two images, one an item (image slices outside the columns): 3 items a
  // core, so some cores' ranges go on from one column (or image) to the
  // next, whose top tile computes its whole slice.
  expectSameAsWithout(convConvPool(48, 32, 64), "mlu370", 12, 2, 2, true);
}

TEST(KeptRows, PaddedInputTileAndMovesBeforeTheNextItem) {
  // H slices only: c1 reads its input straight from the padded tile it is
  // loaded into (GroupPlan::PaddedInputs), from the window rows of its
  // first row computed.
  {
    Net N = convConvPool(128, 16, 64);
    auto P = planGroupWith(N, spec("mlu370"), 1, groupInfo(N, 0, 3), 1, 32, 1,
                           1, keepRows(true));
    ASSERT_TRUE(P && P->KeepRows);
    EXPECT_EQ(P->PaddedInputs.size(), 1u);
    expectSameAsWithout(N, "mlu370", 32, 1, 1, true);
  }
  // The last layer reads the kept tensor: the next item moves the rows
  // itself, before its first step (synchronously).
  Net N;
  int X = N.addInput("x", 64, 32, 32);
  X = N.conv(N.relu(N.conv(X, 64, 3, 1, 1, "c1"), "r1"), 64, 3, 1, 1, "c2");
  N.markOutput(X, "y");
  auto P = planGroupWith(N, spec("mlu370"), 1, groupInfo(N, 0, 2), 1, 8, 4, 1,
                         keepRows(true));
  ASSERT_TRUE(P && P->KeepRows);
  int C1 = tensorOf(N, "c1");
  EXPECT_EQ(P->keptMoveStep(N, C1), 0);
  std::string Src = emitGroupKernel(N, *P, 0).Source;
  EXPECT_NE(Src.find("false); // the item before's last layer read them"),
            std::string::npos);
  expectSameAsWithout(N, "mlu370", 8, 4, 1, true);
}

TEST(KeptRows, ReluTileAndSynchronousMoveUnderRaceCheck) {
  // conv -> ReLU -> conv -> ReLU -> conv: r1 writes c2's window tile
  // (GroupPlan::ReluTiles) from c1's row kr on, and c3, the last layer,
  // reads c2 (kept): the next item moves c2's kept rows itself, synchronously,
  // before its first step. Run under the race check against the plain order.
  // 64 x 32 x 64 in 8 H x 4 W tiles on mlu370: 2 items a core.
  Net N;
  int X = N.addInput("x", 64, 64, 32);
  X = N.relu(N.conv(X, 64, 3, 1, 1, "c1"), "r1");
  X = N.relu(N.conv(X, 64, 3, 1, 1, "c2"), "r2");
  X = N.conv(X, 64, 3, 1, 1, "c3");
  N.markOutput(X, "y");
  auto P = planGroupWith(N, spec("mlu370"), 1, groupInfo(N, 0, 4), 1, 8, 4, 1,
                         keepRows(true));
  ASSERT_TRUE(P && P->KeepRows);
  EXPECT_FALSE(P->ReluTiles.empty());
  int C2 = tensorOf(N, "c2");
  EXPECT_TRUE(P->keepsRows(N, C2));
  EXPECT_EQ(P->keptMoveStep(N, C2), 0);
  std::string Src = emitGroupKernel(N, *P, 0).Source;
  EXPECT_NE(Src.find("false); // the item before's last layer read them"),
            std::string::npos);
  // c2 reads r1's window tile from row kr on.
  std::string S2 = std::to_string(P->Info.slot(C2));
  EXPECT_NE(Src.find("lg_conv_tile_at(t" + std::to_string(C2) + "[cur]"),
            std::string::npos);
  EXPECT_NE(Src.find(", kr[" + S2 + "], "), std::string::npos);
  expectSameAsWithout(N, "mlu370", 8, 4, 1, true);
}

TEST(KeptRows, EstimateIsTheSlowestCoresColumn) {
  // VGG-16's conv1 block (224 x 224 x 3, two convolutions of 64 channels,
  // the first one's ReLU writing the second one's window tile: GroupPlan::
  // ReluTiles) on mlu370's 16 cores. An item at the left or right edge
  // computes fewer halo columns but zeroes its tiles' padding columns a
  // run per row, and the ReLU writes its rows one at a time. 7 x 16 tiles
  // with kept rows put core c on column c: cores 0 and 15 run every edge
  // tile and finish ~4 K cycles after the others (279,469 simulated
  // against 276,590 in the plain order, 7 items a core across a row). The
  // estimate is the slowest core's items (plan/Cost.cpp phaseItemCycles,
  // edgeItemCycles), not a core's at the plan's slice: it keeps the plain
  // order there (the average core's estimate, 275,152, took kept rows),
  // and follows the simulator within 1% wherever kept rows stay.
  Net N = test::convBlock(3, 224, 224, 64);
  GroupInfo G = groupInfo(N, 0, 4);
  struct {
    int HSecs, WSecs;
    bool Kept;
  } Cases[] = {{56, 2, true}, {28, 4, true}, {7, 16, false}};
  for (auto [HSecs, WSecs, Kept] : Cases) {
    auto P = planGroupWith(N, spec("mlu370"), 1, G, 1, HSecs, WSecs, 1,
                           keepRows(true));
    ASSERT_TRUE(P);
    ASSERT_FALSE(P->ReluTiles.empty());
    EXPECT_EQ(P->KeepRows, Kept) << HSecs << " x " << WSecs;
    EXPECT_EQ(P->KeptTiles.empty(), !Kept) << HSecs << " x " << WSecs;
    auto R = runPlan(N, onePlan(*P), spec("mlu370"), 1, randomInputs(N, 1, 11));
    ASSERT_TRUE(bool(R)) << toString(R.takeError());
    std::printf("%d x %d%s: estimated %.0f, simulated %.0f\n", HSecs, WSecs,
                Kept ? " (kept rows)" : "", P->Cycles, R->Groups[0].Cycles);
    EXPECT_NEAR(P->Cycles / R->Groups[0].Cycles, 1.0, 0.01)
        << HSecs << " x " << WSecs << ": " << P->Cycles << " estimated, "
        << R->Groups[0].Cycles << " simulated";
  }
}
