//===- RunTest.cpp - LayerGroup end to end on the simulated device --------===//
#include "bangsim/CostModel.h"
#include "layergroup/Codegen.h"
#include "layergroup/Runner.h"
#include "TestNets.h"
#include "TestRun.h"

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

using namespace bangc::lg;
using bangc::lg::test::onePlan;
using bangc::lg::test::randomInputs;
using bangc::lg::test::spec;

namespace {

/// Plain reference of a Net in double (NHWC, the device layout),
/// independent of lg_ops.
std::vector<double> reference(const Net &N, int64_t Batch,
                              const HostTensors &In, int Out) {
  std::map<int, std::vector<double>> V;
  for (auto &[T, X] : In)
    V[T] = std::vector<double>(X.begin(), X.end());
  for (const Layer &L : N.Layers) {
    const Tensor &O = N.Tensors[L.Output];
    const Tensor &I = N.Tensors[L.Inputs[0]];
    std::vector<double> R(size_t(Batch * O.elements()));
    const auto &A = V[L.Inputs[0]];
    std::vector<double> State(size_t(O.elements()), L.VReset); // CLIF
    auto at = [&](const std::vector<double> &X, int64_t n, int64_t y,
                  int64_t x, int64_t c) {
      return X[((n * I.H + y) * I.W + x) * I.C + c];
    };
    for (int64_t n = 0; n < Batch; ++n)
      for (int64_t f = 0; f < O.C; ++f)
        for (int64_t y = 0; y < O.H; ++y)
          for (int64_t x = 0; x < O.W; ++x) {
            double S = 0;
            if (L.Kind == OpKind::Conv) {
              S = L.Bias.empty() ? 0 : L.Bias[f];
              for (int64_t c = 0; c < I.C; ++c)
                for (int64_t ky = 0; ky < L.KY; ++ky)
                  for (int64_t kx = 0; kx < L.KX; ++kx) {
                    int64_t iy = y * L.SY - L.PU + ky, ix = x * L.SX - L.PL + kx;
                    if (iy < 0 || iy >= I.H || ix < 0 || ix >= I.W)
                      continue;
                    S += at(A, n, iy, ix, c) *
                         L.Weight[((f * I.C + c) * L.KY + ky) * L.KX + kx];
                  }
            } else if (L.Kind == OpKind::MaxPool) {
              S = -INFINITY;
              for (int64_t ky = 0; ky < L.KY; ++ky)
                for (int64_t kx = 0; kx < L.KX; ++kx) {
                  int64_t iy = y * L.SY - L.PU + ky, ix = x * L.SX - L.PL + kx;
                  if (iy < 0 || iy >= I.H || ix < 0 || ix >= I.W)
                    continue;
                  S = std::max(S, at(A, n, iy, ix, f));
                }
            } else if (L.Kind == OpKind::Relu) {
              S = std::max(0.0, at(A, n, y, x, f));
            } else if (L.Kind == OpKind::Clamp) {
              double V = at(A, n, y, x, f);
              S = L.ClampMax ? std::max(V, L.Cmp) : std::min(V, L.Cmp);
            } else if (L.Kind == OpKind::Lif) { // images are time steps
              double &U = State[size_t((y * O.W + x) * O.C + f)];
              U = L.Decay * U + at(A, n, y, x, f) - L.VLeak;
              S = U >= L.VTh;
              if (S)
                U = L.LifSoftReset ? U - L.VTh : L.VReset;
            } else if (L.Kind == OpKind::Mul) {
              S = (L.Bias.empty() ? L.ConstB : L.Bias[f]) +
                  at(A, n, y, x, f) * at(V[L.Inputs[1]], n, y, x, f);
            } else if (L.Kind == OpKind::Add) {
              for (int In2 : L.Inputs)
                S += at(V[In2], n, y, x, f);
            }
            R[((n * O.H + y) * O.W + x) * O.C + f] = S;
          }
    V[L.Output] = std::move(R);
  }
  return V[Out];
}

void checkPlanOn(const Net &N, int64_t Batch, const HostTensors &In,
                 const NetPlan &Plan, const bangsim::DeviceSpec &Spec,
                 int64_t *Bytes = nullptr, RunResult *Result = nullptr);
void checkPlan(const Net &N, int64_t Batch, const HostTensors &In,
               const NetPlan &Plan, const char *Dev = "mlu370",
               int64_t *Bytes = nullptr, RunResult *Result = nullptr) {
  checkPlanOn(N, Batch, In, Plan, spec(Dev), Bytes, Result);
}

void checkRun(const Net &N, int64_t Batch, bool LayerByLayer = false,
              const char *Dev = "mlu370", int64_t *Bytes = nullptr) {
  HostTensors In = randomInputs(N, Batch);
  PlanOptions O;
  O.LayerByLayer = LayerByLayer;
  auto P = planNet(N, spec(Dev), Batch, O);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  checkPlan(N, Batch, In, *P, Dev, Bytes);
}

void checkPlanOn(const Net &N, int64_t Batch, const HostTensors &In,
                 const NetPlan &Plan, const bangsim::DeviceSpec &Spec,
                 int64_t *Bytes, RunResult *Result) {
  const NetPlan *P = &Plan;
  auto R = runPlan(N, *P, Spec, Batch, In);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  // The planner's GDRAM byte counts are exact: they match the simulator's
  // counters, parameters (GDRAM2WRAM) included.
  EXPECT_EQ(R->ReadBytes, P->ReadBytes);
  EXPECT_EQ(R->WriteBytes, P->WriteBytes);
  EXPECT_EQ(R->WeightReadBytes, P->WeightReadBytes);
  int Out = N.outputs()[0];
  std::vector<double> Ref = reference(N, Batch, In, Out);
  const std::vector<double> &Got = R->Outputs.at(Out);
  ASSERT_EQ(Got.size(), Ref.size());
  double MaxErr = 0, MaxRef = 0;
  for (size_t I = 0; I < Ref.size(); ++I) {
    MaxErr = std::max(MaxErr, std::fabs(Got[I] - Ref[I]));
    MaxRef = std::max(MaxRef, std::fabs(Ref[I]));
  }
  EXPECT_LE(MaxErr, 1e-4 * std::max(1.0, MaxRef))
      << "max abs err " << MaxErr << " of " << MaxRef;
  if (Bytes)
    *Bytes = R->ReadBytes + R->WriteBytes;
  if (Result)
    *Result = std::move(*R);
}

} // namespace

TEST(Run, SmallConvChain) {
  Net N;
  int X = N.addInput("x", 3, 12, 10);
  X = N.relu(N.conv(X, 4, 3, 1, 1, "c1"), "r1");
  X = N.conv(X, 5, 3, 1, 1, "c2");
  N.markOutput(X, "y");
  checkRun(N, 1);
}

// CCMPB and CCMPS with a 1x1 window: max(x, cmp) and min(x, cmp).
TEST(Run, ClampMaxAndMin) {
  Net N;
  int X = N.addInput("x", 3, 12, 10);
  X = N.clamp(N.conv(X, 4, 3, 1, 1, "c1"), 0.25, /*Max=*/false, "min");
  X = N.clamp(N.conv(X, 5, 3, 1, 1, "c2"), -0.125, /*Max=*/true, "max");
  N.markOutput(X, "y");
  checkRun(N, 1);
  checkRun(N, 1, /*LayerByLayer=*/true);
}

TEST(Run, VggLike32GroupedAndLayerByLayer) {
  Net N;
  int X = N.addInput("x", 3, 32, 32);
  X = N.relu(N.conv(X, 16, 3, 1, 1, "c1"), "r1");
  X = N.relu(N.conv(X, 16, 3, 1, 1, "c2"), "r2");
  X = N.maxPool(X, 2, 2, 0, "p1");
  X = N.relu(N.conv(X, 32, 3, 1, 1, "c3"), "r3");
  X = N.relu(N.conv(X, 32, 3, 1, 1, "c4"), "r4");
  X = N.maxPool(X, 2, 2, 0, "p2");
  N.markOutput(X, "y");
  int64_t G = 0, L = 0;
  checkRun(N, 2, false, "mlu370", &G);
  checkRun(N, 2, true, "mlu370", &L);
  EXPECT_LT(G, L);
}

// Every group's kernel is loaded before the first launch, so one isolated
// worker process runs all of them (a module loaded between launches would
// fork a worker per group: most of an isolated network run's host time).
TEST(Run, IsolatedGroupsShareOneWorker) {
  Net N;
  int X = N.addInput("x", 3, 16, 16);
  X = N.relu(N.conv(X, 8, 3, 1, 1, "c1"), "r1");
  X = N.maxPool(X, 2, 2, 0, "p1");
  X = N.relu(N.conv(X, 8, 3, 1, 1, "c2"), "r2");
  N.markOutput(X, "y");
  PlanOptions O;
  O.LayerByLayer = true; // a group per layer
  auto P = planNet(N, spec("mlu370"), 1, O);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  ASSERT_GE(P->Groups.size(), 3u);
  RunOptions Isolated;
  Isolated.isolate = true;
  auto R = runPlan(N, *P, spec("mlu370"), 1, randomInputs(N, 1), Isolated);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  ASSERT_EQ(R->Groups.size(), P->Groups.size());
  if (R->Groups[0].WorkerPid == 0)
    GTEST_SKIP() << "isolation is not supported here (sanitizer build)";
  for (const GroupRun &G : R->Groups)
    EXPECT_EQ(G.WorkerPid, R->Groups[0].WorkerPid);
}

TEST(Run, TinyDeviceForcesHSlicesAndGlobalLayers) {
  Net N;
  int X = N.addInput("x", 3, 24, 24);
  X = N.relu(N.conv(X, 8, 3, 1, 1, "c1"), "r1");
  X = N.conv(X, 32, 3, 1, 1, "c2");
  X = N.maxPool(X, 2, 2, 0, "p1");
  N.markOutput(X, "y");
  checkRun(N, 1, false, "tiny");
}

TEST(Run, ResNetStemAndBlock) {
  Net N;
  int X = N.addInput("x", 3, 32, 32);
  X = N.relu(N.conv(X, 8, 7, 2, 3, "stem"), "stem.relu");
  X = N.maxPool(X, 3, 2, 1, "stem.pool");
  int Y = N.relu(N.conv(X, 8, 3, 1, 1, "b.c1"), "b.r1");
  Y = N.conv(Y, 8, 3, 1, 1, "b.c2");
  Y = N.relu(N.add(Y, X, "b.add"), "b.relu");
  N.markOutput(Y, "y");
  checkRun(N, 1);
  checkRun(N, 3);
}

TEST(Run, GlobalGroupKeepsWeightTilePerCore) {
  // conv + relu + pool with 4 output-channel slices x 8 H slices: 32 items
  // on 16 cores, two consecutive items per core sharing a channel slice.
  // The simulator's GDRAM2WRAM counter sees one weight tile per core.
  Net N;
  int X = N.addInput("x", 16, 32, 32);
  X = N.relu(N.conv(X, 32, 3, 1, 1, "c"), "r");
  X = N.maxPool(X, 2, 2, 0, "p");
  N.markOutput(X, "y");
  GroupInfo G = groupInfo(N, 0, 2);
  auto P = planGroupWith(N, spec(), 1, G, 1, 8, 1, 4, PlanOptions{});
  ASSERT_TRUE(P);
  ASSERT_TRUE(P->pipelined());
  NetPlan Plan = onePlan(*P);
  RunResult R;
  checkPlan(N, 1, randomInputs(N, 1), Plan, "mlu370", nullptr, &R);
  int64_t Tile = 8 * 16 * 9 * 4, Bias = 32 * 4;
  EXPECT_EQ(R.WeightReadBytes, 16 * Tile + 16 * Bias);
  // Layer by layer and grouped by the search agree with the reference too.
  checkRun(N, 1, true);
  checkRun(N, 2);
}

TEST(Run, InPlaceReluPipelined) {
  // ReLU in place on a pipelined H-sliced group (its output shares the
  // double-buffered conv buffer), and a ReLU that may not run in place.
  Net N;
  int X = N.addInput("x", 4, 64, 4);
  int C1 = N.conv(X, 4, 3, 1, 1, "c1");
  int R1 = N.relu(C1, "r1");
  int A = N.add(R1, C1, "a");
  X = N.relu(N.conv(A, 4, 3, 1, 1, "c2"), "r2");
  N.markOutput(X, "y");
  GroupInfo G = groupInfo(N, 0, 4);
  auto P = planGroupWith(N, spec("tiny"), 2, G, 2, 4, 1, 1, PlanOptions{});
  ASSERT_TRUE(P);
  ASSERT_TRUE(P->pipelined());
  EXPECT_EQ(P->Alias.size(), 1u); // r2, not r1
  NetPlan Plan = onePlan(*P);
  checkPlan(N, 2, randomInputs(N, 2), Plan, "tiny");
}

TEST(Run, GlobalGroupResidentInputs) {
  // 8 channel slices, no H slices, on the 4-core tiny device with 16 KiB
  // WRAM: each core loads the input once (from GDRAM: no SRAM staging).
  Net N;
  int X = N.addInput("x", 8, 6, 6);
  X = N.relu(N.conv(X, 64, 3, 1, 1, "c"), "r");
  N.markOutput(X, "y");
  GroupInfo G = groupInfo(N, 0, 1);
  PlanOptions O;
  O.UseSram = false;
  auto P = planGroupWith(N, spec("tiny"), 1, G, 1, 1, 1, 8, O);
  ASSERT_TRUE(P);
  EXPECT_TRUE(P->inputsResident());
  EXPECT_FALSE(P->inputsInSram());
  EXPECT_TRUE(P->pipelined());
  NetPlan Plan = onePlan(*P);
  RunResult R;
  checkPlan(N, 1, randomInputs(N, 1), Plan, "tiny", nullptr, &R);
  EXPECT_EQ(R.ReadBytes - R.WeightReadBytes, 4 * 8 * 6 * 6 * 4);
}

/// The tiny device (2 clusters of 2 cores) with \p Bytes of SRAM.
bangsim::DeviceSpec tinyWithSram(int64_t Bytes) {
  bangsim::DeviceSpec Tiny = spec("tiny");
  Tiny.sramBytes = Bytes;
  return Tiny;
}

/// The global group of the SRAM staging tests: a 3x3 convolution to \p F
/// channels and its ReLU over 8 x 6 x 10 images (1920 bytes each).
Net stagingNet(int64_t F) {
  Net N;
  int X = N.addInput("x", 8, 6, 10);
  X = N.relu(N.conv(X, F, 3, 1, 1, "c"), "r");
  N.markOutput(X, "y");
  return N;
}

TEST(Run, GlobalGroupInputsStagedInSram) {
  // 8 channel slices x 2 H slices on the tiny device (2 clusters of 2
  // cores) with 4 KiB of SRAM, two 1920-byte images: each cluster stages
  // the input in SRAM once, the items copy their rows SRAM->NRAM. Batch 2:
  // channel slices outermost, each cluster stages both images and each core
  // keeps its weight tile (image slices outermost would read half the
  // images but twice the 18 KB of weights). Batch 3: three images do not
  // fit, so image slices outermost: 48 items, cluster 0 takes items 0..23
  // (images 0 and 1), cluster 1 items 24..47 (1 and 2). (Per cluster: the
  // broadcast is GlobalGroupInputsStagedOncePerChip.)
  bangsim::DeviceSpec Tiny = tinyWithSram(4096);
  Net N = stagingNet(64);
  GroupInfo G = groupInfo(N, 0, 1);
  struct {
    int64_t Batch;
    bool NOuter;
    int Images, Staged; // most images per cluster, images read in all
  } Cases[] = {{1, false, 1, 2}, {2, false, 2, 4}, {3, true, 2, 4}};
  for (auto [Batch, NOuter, Images, Staged] : Cases) {
    PlanOptions O;
    O.SramBroadcast = false;
    auto P = planGroupWith(N, Tiny, Batch, G, int(Batch), 2, 1, 8, O);
    ASSERT_TRUE(P);
    EXPECT_TRUE(P->inputsInSram());
    EXPECT_FALSE(P->sramBroadcast());
    EXPECT_EQ(P->launchUnion(), 1);
    EXPECT_EQ(P->imagesOuter(), NOuter) << Batch;
    EXPECT_EQ(P->SramImages, Images);
    EXPECT_TRUE(P->pipelined());
    NetPlan Plan = onePlan(*P);
    RunResult R;
    checkPlanOn(N, Batch, randomInputs(N, Batch), Plan, Tiny, nullptr, &R);
    EXPECT_EQ(R.ReadBytes - R.WeightReadBytes, Staged * 8 * 6 * 10 * 4);
  }
}

TEST(Run, GlobalGroupInputsStagedOncePerChip) {
  // The group of GlobalGroupInputsStagedInSram, all 4 cores of the tiny
  // device in one UNION2: each image is read from GDRAM once, a core
  // copying a quarter into its cluster's SRAM and sending it to the other
  // cluster. Batch 2: both images fit, one phase. Batch 3: three do not,
  // so three phases of one image each; a core's share of a phase (8
  // channel slices x 2 H slices over 4 cores) has 2 channel slices, so it
  // reloads its tiles per phase, and the bytes say so.
  bangsim::DeviceSpec Tiny = tinyWithSram(4096);
  Net N = stagingNet(64);
  GroupInfo G = groupInfo(N, 0, 1);
  int64_t Image = 8 * 6 * 10 * 4, Tile = 64 * 8 * 9 * 4 / 8;
  struct {
    int64_t Batch;
    int Phases, Images;
  } Cases[] = {{1, 1, 1}, {2, 1, 2}, {3, 3, 1}};
  for (auto [Batch, Phases, Images] : Cases) {
    auto P =
        planGroupWith(N, Tiny, Batch, G, int(Batch), 2, 1, 8, PlanOptions{});
    ASSERT_TRUE(P);
    EXPECT_TRUE(P->inputsInSram());
    EXPECT_TRUE(P->sramBroadcast());
    EXPECT_EQ(P->launchUnion(), 2);
    EXPECT_EQ(P->SramPhases, Phases) << Batch;
    EXPECT_EQ(P->SramImages, Images) << Batch;
    NetPlan Plan = onePlan(*P);
    RunResult R;
    checkPlanOn(N, Batch, randomInputs(N, Batch), Plan, Tiny, nullptr, &R);
    EXPECT_EQ(R.ReadBytes - R.WeightReadBytes, Batch * Image) << Batch;
    EXPECT_EQ(R.WeightReadBytes - 4 * 64 * 4, P->WeightTileLoads * Tile);
    EXPECT_EQ(P->ReadBytes, R.ReadBytes) << Batch;
  }
}

TEST(Run, GlobalWeightTileKeptAcrossPhases) {
  // 4 channel slices x 1 H slice of 3 images on 4 cores, one image per
  // phase: each core has one channel slice in every phase, loads its tile
  // once and needs no second weight buffer.
  bangsim::DeviceSpec Tiny = tinyWithSram(2048);
  Net N = stagingNet(16);
  GroupInfo G = groupInfo(N, 0, 1);
  auto P = planGroupWith(N, Tiny, 3, G, 3, 1, 1, 4, PlanOptions{});
  ASSERT_TRUE(P);
  ASSERT_TRUE(P->sramBroadcast());
  EXPECT_EQ(P->SramPhases, 3);
  EXPECT_EQ(P->WeightTileLoads, 4);
  for (const LmemBuffer &B : P->WramBuffers)
    EXPECT_EQ(B.Copy, 0) << B.Name;
  NetPlan Plan = onePlan(*P);
  RunResult R;
  checkPlanOn(N, 3, randomInputs(N, 3), Plan, Tiny, nullptr, &R);
  EXPECT_EQ(R.WeightReadBytes, 16 * 8 * 9 * 4 + 4 * 16 * 4);
  EXPECT_EQ(R.ReadBytes - R.WeightReadBytes, 3 * 8 * 6 * 10 * 4);
}

/// The resident group of the SRAM tests: conv 3x3, ReLU, conv 3x3 (8
/// channels each) over 4 x 16 x 8 images (2048 bytes each).
Net residentNet() {
  Net N;
  int X = N.addInput("x", 4, 16, 8);
  X = N.relu(N.conv(X, 8, 3, 1, 1, "c1"), "r1");
  X = N.conv(X, 8, 3, 1, 1, "c2");
  N.markOutput(X, "y");
  return N;
}
constexpr int64_t ResidentWeights = (8 * 4 * 9 + 8 * 8 * 9) * 4;
constexpr int64_t ResidentBias = 2 * 8 * 4;

TEST(Run, ResidentWeightsStagedInSram) {
  // 4 H slices with resident weights on the tiny device (2 clusters of 2
  // cores): the weights are read from GDRAM once per chip into both
  // clusters' SRAM (or once per cluster without the broadcast), then copied
  // SRAM->WRAM by each core; without SRAM once per core.
  Net N = residentNet();
  GroupInfo G = groupInfo(N, 0, 2);
  int64_t Weights = ResidentWeights, Bias = ResidentBias;
  struct {
    bool Sram, Broadcast;
    int Copies;
  } Cases[] = {{true, true, 1}, {true, false, 2}, {false, false, 4}};
  for (auto [Sram, Broadcast, Copies] : Cases) {
    PlanOptions O;
    O.UseSram = Sram, O.SramBroadcast = Broadcast;
    auto P = planGroupWith(N, spec("tiny"), 1, G, 1, 4, 1, 1, O);
    ASSERT_TRUE(P);
    ASSERT_TRUE(P->weightsResident());
    EXPECT_EQ(P->weightsInSram(), Sram);
    EXPECT_EQ(P->sramBroadcast(), Broadcast);
    NetPlan Plan = onePlan(*P);
    RunResult R;
    checkPlan(N, 1, randomInputs(N, 1), Plan, "tiny", nullptr, &R);
    EXPECT_EQ(R.WeightReadBytes, Copies * Weights + 4 * Bias);
    EXPECT_EQ(P->WeightReadBytes, R.WeightReadBytes);
  }
}

TEST(Run, ResidentGroupInputsStagedOncePerChip) {
  // H x W tiles with resident weights re-read halo rows and columns of
  // their input: with all cores launched, the input is staged in SRAM once
  // per chip next to the weights, in phases of the image slices that fit,
  // so GDRAM reads each image once. Images of 2048 bytes, 3456 bytes of
  // weights; too little SRAM for one slice reads the halos from GDRAM. The
  // staging is kept when the objective is lower: bytes weigh heavily here
  // (TrafficWeight 1000), and with cycles alone the plan kept is never
  // slower than the one without.
  Net N = residentNet();
  GroupInfo G = groupInfo(N, 0, 2);
  int64_t Image = 4 * 16 * 8 * 4, Weights = ResidentWeights,
          Bias = ResidentBias;
  struct {
    int64_t Batch;
    int NSecs;
    int64_t Room;       // SRAM bytes beside the weights
    int Images, Phases; // 0 images: not staged
  } Cases[] = {{3, 3, 3 * Image, 3, 1},
               {3, 3, Image + 1000, 1, 3},
               {4, 4, 2 * Image + 1000, 2, 2},
               {4, 2, 2 * Image, 2, 2},
               {2, 2, 1000, 0, 1}};
  for (auto [Batch, NSecs, Room, Images, Phases] : Cases) {
    bangsim::DeviceSpec Tiny = tinyWithSram(Weights + Room);
    PlanOptions O, CyclesOnly, Without;
    O.TrafficWeight = 1000, CyclesOnly.TrafficWeight = 0;
    Without.StageResidentInputs = false;
    auto P = planGroupWith(N, Tiny, Batch, G, NSecs, 2, 2, 1, O);
    ASSERT_TRUE(P);
    auto Fast = planGroupWith(N, Tiny, Batch, G, NSecs, 2, 2, 1, CyclesOnly);
    auto Plain = planGroupWith(N, Tiny, Batch, G, NSecs, 2, 2, 1, Without);
    ASSERT_TRUE(Fast && Plain);
    EXPECT_FALSE(Plain->inputsInSram());
    EXPECT_LE(Fast->Cycles, Plain->Cycles);
    ASSERT_TRUE(P->weightsResident());
    EXPECT_TRUE(P->weightsInSram());
    EXPECT_TRUE(P->sramBroadcast());
    EXPECT_EQ(P->inputsInSram(), Images > 0) << Batch << " " << Room;
    EXPECT_EQ(P->SramImages, Images);
    EXPECT_EQ(P->SramPhases, Phases);
    NetPlan Plan = onePlan(*P);
    RunResult R;
    checkPlanOn(N, Batch, randomInputs(N, Batch), Plan, Tiny, nullptr, &R);
    EXPECT_EQ(R.WeightReadBytes, Weights + 4 * Bias);
    EXPECT_EQ(P->ReadBytes, R.ReadBytes);
    if (Images > 0)
      EXPECT_EQ(R.ReadBytes - R.WeightReadBytes, Batch * Image);
    else
      EXPECT_GT(R.ReadBytes - R.WeightReadBytes, Batch * Image);
  }
}

TEST(Run, InputsLoadedIntoPaddedTiles) {
  // A group input read by one padding convolution alone is loaded straight
  // into its window tile (no scratch tile): 6 H slices on the 4 cores of
  // the tiny device, pipelined (a core runs at most 2 items, one per
  // buffer); with 8 channel slices a core's 12 items run fi 0 hs 0..5 then
  // fi 1 hs 0..5, so a buffer that held an interior slice holds an edge
  // slice next, whose padding rows must be zero again; and with a 5x5
  // kernel (2 padding rows).
  for (auto [K, FS] : {std::pair{3, 1}, {3, 8}, {5, 1}}) {
    Net N;
    int X = N.addInput("x", 8, 12, 10);
    X = N.relu(N.conv(X, 8, K, 1, (K - 1) / 2, "c"), "r");
    N.markOutput(X, "y");
    auto P = planGroupWith(N, spec("tiny"), 1, groupInfo(N, 0, 1), 1, 6, 1, FS,
                           PlanOptions{});
    ASSERT_TRUE(P) << K;
    ASSERT_TRUE(P->pipelined());
    EXPECT_EQ(P->PaddedInputs.size(), 1u);
    for (const LmemBuffer &B : P->Buffers) // no window tile (part 0)
      EXPECT_FALSE(B.K == LmemBuffer::Scratch && B.Part == 0) << B.Name;
    checkPlan(N, 1, randomInputs(N, 1), onePlan(*P), "tiny");
  }
}

TEST(Run, PaddedInputsKeepTheirPaddingColumns) {
  // The padding columns of a padded input are zeroed once, in the
  // prologue, so no other buffer may share its NRAM before or after its
  // load. One item: y (8 channels) is first read at step 2, after x (4
  // channels) and the first convolution's output have lived and died.
  // Two phases of one item per core (not pipelined): the second phase's
  // load finds the padding columns as the first phase left them.
  {
    Net N;
    int X = N.addInput("x", 4, 6, 5), Y = N.addInput("y", 8, 6, 5);
    int A = N.relu(N.conv(X, 8, 3, 1, 1, "a"), "ar");
    N.markOutput(N.add(A, N.conv(Y, 8, 3, 1, 1, "b"), "s"), "out");
    auto P = planGroupWith(N, spec("tiny"), 1, groupInfo(N, 0, 3), 1, 1, 1, 1,
                           PlanOptions{});
    ASSERT_TRUE(P);
    EXPECT_FALSE(P->pipelined());
    EXPECT_EQ(P->PaddedInputs.size(), 2u);
    checkPlan(N, 1, randomInputs(N, 1), onePlan(*P), "tiny");
  }
  {
    Net N;
    int X = N.addInput("x", 8, 16, 4);
    X = N.relu(N.conv(X, 8, 3, 1, 1, "c1"), "r1");
    N.markOutput(N.conv(X, 8, 3, 1, 1, "c2"), "y");
    int64_t Weights = (8 * 8 * 9 + 8 * 8 * 9) * 4;
    bangsim::DeviceSpec Tiny = tinyWithSram(Weights + 8 * 16 * 4 * 4 + 1000);
    PlanOptions O;
    O.TrafficWeight = 1000;
    std::string Why;
    auto P = planGroupWith(N, Tiny, 2, groupInfo(N, 0, 2), 2, 2, 1, 1, O, &Why);
    ASSERT_TRUE(P) << Why;
    EXPECT_FALSE(P->pipelined());
    EXPECT_EQ(P->SramPhases, 2);
    EXPECT_EQ(P->PaddedInputs.size(), 1u);
    checkPlanOn(N, 2, randomInputs(N, 2), onePlan(*P), Tiny);
  }
}

TEST(Run, WidePaddedWindowTiles) {
  // 256 channels: 3x3 window tiles with padding filled with -inf (the max
  // pool) and 0 (the convolution), whole, in H slices (top and bottom
  // edges) and in H x W tiles (left and right edges).
  Net N;
  int X = N.addInput("x", 256, 8, 24);
  X = N.maxPool(X, 3, 1, 1, "p");
  X = N.conv(X, 8, 3, 1, 1, "c");
  N.markOutput(X, "y");
  GroupInfo G = groupInfo(N, 0, 1);
  for (auto [HS, WS] : {std::pair{1, 1}, {2, 1}, {2, 2}}) {
    auto P = planGroupWith(N, spec(), 1, G, 1, HS, WS, 1, PlanOptions{});
    ASSERT_TRUE(P) << HS << " x " << WS;
    checkPlan(N, 1, randomInputs(N, 1), onePlan(*P));
  }
}

TEST(Run, ForcedWSlicesWithAColumnHull) {
  // 3 H x 3 W tiles, pipelined on the tiny device: c1 is read by the conv
  // c2 (which needs a halo column on each side) and by the residual add
  // (which does not), so c1's tile is the hull and the add reads it row by
  // row; the pool reads its input in place.
  Net N;
  int X = N.addInput("x", 3, 12, 18);
  int C1 = N.relu(N.conv(X, 4, 3, 1, 1, "c1"), "r1");
  int C2 = N.conv(C1, 4, 3, 1, 1, "c2");
  int A = N.add(C2, C1, "a");
  X = N.maxPool(N.relu(A, "r2"), 2, 2, 0, "p");
  N.markOutput(X, "y");
  GroupInfo G = groupInfo(N, 0, int(N.Layers.size()) - 1);
  auto P = planGroupWith(N, spec("tiny"), 1, G, 1, 3, 3, 1, PlanOptions{});
  ASSERT_TRUE(P);
  ASSERT_TRUE(P->pipelined());
  EXPECT_TRUE(lmemDisjoint(P->Buffers));
  NetPlan Plan = onePlan(*P);
  checkPlan(N, 1, randomInputs(N, 1), Plan, "tiny");
  // The same tiles over a batch of 2 (N sliced to one image per item).
  auto Q = planGroupWith(N, spec("tiny"), 2, G, 2, 3, 3, 1, PlanOptions{});
  ASSERT_TRUE(Q);
  NetPlan Plan2 = onePlan(*Q);
  checkPlan(N, 2, randomInputs(N, 2), Plan2, "tiny");
}

/// A ResNet stem on a 30 x 38 image: conv 7x7/2 pad 3 to 8 channels, ReLU,
/// max pool 3x3/2 pad 1.
Net smallStem() {
  Net N;
  int X = N.addInput("x", 3, 30, 38);
  X = N.relu(N.conv(X, 8, 7, 2, 3, "stem"), "stem.relu");
  X = N.maxPool(X, 3, 2, 1, "stem.pool");
  N.markOutput(X, "y");
  return N;
}

TEST(Run, ForcedWSlicesStridedAndPadded) {
  // A stem: conv 7x7/2 pad 3, ReLU, max pool 3x3/2 pad 1 on 30 x 38, as
  // 2 H x 3 W tiles: the first tile's window starts left of column 0, the
  // last one ends right of the input, the middle one needs neither.
  Net N = smallStem();
  GroupInfo G = groupInfo(N, 0, 2);
  auto P = planGroupWith(N, spec(), 1, G, 1, 2, 3, 1, PlanOptions{});
  ASSERT_TRUE(P);
  // conv out 15 x 19, pool out 8 x 10; W step 4: pool [0,4) [4,8) [8,10)
  // <- relu (in 2c - 1, (c - 1) 2 - 1 + 3) [-1,8) [7,16) [15,20) clamped
  // [0,8) [7,16) [15,19) <- x (in 2c - 3, (c - 1) 2 - 3 + 7) [-3,18)
  // [11,34) [27,40) clamped [0,18) [11,34) [27,38).
  EXPECT_EQ(P->W.Rows[0][2], (RowRange{0, 8}));
  EXPECT_EQ(P->W.Rows[2][2], (RowRange{15, 19}));
  EXPECT_EQ(P->W.Rows[0][0], (RowRange{0, 18}));
  EXPECT_EQ(P->W.Rows[1][0], (RowRange{11, 34}));
  EXPECT_EQ(P->W.Rows[2][0], (RowRange{27, 38}));
  NetPlan Plan = onePlan(*P);
  checkPlan(N, 1, randomInputs(N, 1), Plan);
}

TEST(Run, WindowTileMadeBeforeTheQueuedDma) {
  // A padded convolution, its ReLU and a residual add of its input as 4 H x
  // 3 W tiles on the tiny device's 4 cores: pipelined, so ts1 queues the
  // stores of item i-1 and the loads of item i+1; the input has two
  // readers (not loaded into the window tile), so the convolution's window
  // tile (a synchronous NRAM2NRAM copy) is made before them
  // (lg_conv_window), and the results stay right.
  Net N;
  int X = N.addInput("x", 4, 20, 24);
  N.markOutput(N.add(N.relu(N.conv(X, 4, 3, 1, 1, "c"), "r"), X, "a"), "y");
  std::string Why;
  auto P = planGroupWith(N, spec("tiny"), 1, groupInfo(N, 0, 2), 1, 4, 3, 1,
                         PlanOptions{}, &Why);
  ASSERT_TRUE(P) << Why;
  ASSERT_TRUE(P->pipelined());
  EXPECT_GT(P->Steps[1].TileFirstCycles, 0);
  EXPECT_TRUE(P->Steps[1].SyncCopy);
  GroupKernel K = emitGroupKernel(N, *P, 0);
  EXPECT_NE(K.Source.find("const float *win0 = lg_conv_window("),
            std::string::npos);
  EXPECT_LT(K.Source.find("lg_conv_window("), K.Source.find("// load i+1"));
  checkPlan(N, 1, randomInputs(N, 1), onePlan(*P), "tiny");
}

TEST(Run, PaddedInputUnderWSlicesLoadsItsWindowTile) {
  // The stem as 4 H x 3 W tiles on the tiny device's 4 cores: its input,
  // read by the convolution alone, is loaded straight into the window tile
  // of each item's columns (lg_load_window zeroes the padding around the
  // real pixels), so no window tile is copied, and the results stay right.
  Net N = smallStem();
  std::string Why;
  auto P = planGroupWith(N, spec("tiny"), 1, groupInfo(N, 0, 2), 1, 4, 3, 1,
                         PlanOptions{}, &Why);
  ASSERT_TRUE(P) << Why;
  ASSERT_TRUE(P->pipelined());
  EXPECT_EQ(P->PaddedInputs.count(0), 1u);
  EXPECT_EQ(P->Steps[1].TileFirstCycles, 0);
  EXPECT_FALSE(P->Steps[1].SyncCopy);
  GroupKernel K = emitGroupKernel(N, *P, 0);
  EXPECT_NE(K.Source.find("lg_load_window("), std::string::npos);
  EXPECT_EQ(K.Source.find("lg_conv_window("), std::string::npos);
  EXPECT_EQ(K.Source.find("lg_zero_pad_columns("), std::string::npos);
  checkPlan(N, 1, randomInputs(N, 1), onePlan(*P), "tiny");
}

TEST(Run, ReluWritesTheNextConvolutionsWindowTile) {
  // conv, ReLU, conv (3x3, padding 1), ReLU, pool as 3 H x 3 W tiles on
  // the tiny device: the first ReLU's output, read by the second
  // convolution alone, is written into that convolution's padded window
  // tile (GroupPlan::ReluTiles, lg_relu_window), which then copies nothing
  // (its step is no synchronous copy); the results stay right, pipelined
  // or not.
  Net N;
  int X = N.addInput("x", 2, 16, 24);
  X = N.relu(N.conv(X, 4, 3, 1, 1, "c1"), "r1");
  X = N.relu(N.conv(X, 4, 3, 1, 1, "c2"), "r2");
  N.markOutput(N.maxPool(X, 2, 2, 0, "p"), "y");
  for (int hsecs : {3, 1}) {
    std::string Why;
    auto P = planGroupWith(N, spec("tiny"), 1, groupInfo(N, 0, 4), 1, hsecs,
                           3, 1, PlanOptions{}, &Why);
    ASSERT_TRUE(P) << Why;
    ASSERT_EQ(P->ReluTiles.size(), 1u);
    EXPECT_EQ(P->ReluTiles.begin()->first, 1);
    EXPECT_EQ(P->ReluTiles.begin()->second, 2);
    EXPECT_FALSE(P->Steps[3].SyncCopy);
    GroupKernel K = emitGroupKernel(N, *P, 0);
    EXPECT_NE(K.Source.find("lg_relu_window(tile2,"), std::string::npos);
    EXPECT_NE(K.Source.find("lg_conv_tile_at("), std::string::npos);
    checkPlan(N, 1, randomInputs(N, 1), onePlan(*P), "tiny");
  }
}

TEST(Run, ReluFloorsCarryTheBiasIntoTheReader) {
  // The same conv, ReLU, conv, ReLU, pool with biases of either sign: the
  // first ReLU takes c1's bias as its floor (max(y, -b), the tile's
  // padding -b) and c2's bias takes conv(b) (GroupPlan::ReluFloors): c1
  // adds no bias; the results equal the reference's with it on or off.
  Net N;
  int X = N.addInput("x", 2, 16, 24);
  X = N.relu(N.conv(X, 4, 3, 1, 1, "c1"), "r1");
  X = N.relu(N.conv(X, 4, 3, 1, 1, "c2"), "r2");
  N.markOutput(N.maxPool(X, 2, 2, 0, "p"), "y");
  for (int l : {0, 2})
    for (size_t i = 0; i < N.Layers[l].Bias.size(); ++i)
      N.Layers[l].Bias[i] = 0.25f * float(int(i % 3) - 1) + 0.1f * float(l);
  for (bool on : {true, false}) {
    PlanOptions O;
    O.ReluFloors = on; // --no-relu-floors when off
    std::string Why;
    auto P = planGroupWith(N, spec("tiny"), 1, groupInfo(N, 0, 4), 1, 3, 3,
                           1, O, &Why);
    ASSERT_TRUE(P) << Why;
    ASSERT_EQ(P->ReluTiles.size(), 1u);
    EXPECT_EQ(P->ReluFloors.size(), on ? 1u : 0u);
    EXPECT_EQ(P->biasInFloor(0), on);
    GroupKernel K = emitGroupKernel(N, *P, 0);
    EXPECT_EQ(K.Source.find("lg_fold_floor(b2, b0, w2[0], 4, 4, 3, 3,") !=
                  std::string::npos,
              on);
    EXPECT_EQ(K.Source.find("lg_floor_of_bias(b0, 4);") != std::string::npos,
              on);
    checkPlan(N, 1, randomInputs(N, 1), onePlan(*P), "tiny");
  }
}

TEST(Run, SearchChoosesWSlicesForWideRows) {
  // Rows of 96 pixels x 16 channels (6 KiB) on the tiny device's 16 KiB
  // NRAM: the conv block groups only as 2-D tiles, which the search picks;
  // the run matches the reference and the planner's byte counts.
  Net N = test::convBlock(2, 8, 96, 16);
  auto P = planNet(N, spec("tiny"), 1);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  bool AnyW = false;
  for (const GroupPlan &G : P->Groups)
    AnyW |= G.WSecs > 1 && G.Info.Layers.size() > 1;
  EXPECT_TRUE(AnyW);
  checkPlan(N, 1, randomInputs(N, 1), *P, "tiny");
}

TEST(Run, LifCarriesStateAcrossTimeSteps) {
  // x -> conv 3x3 -> CLIF (decay 0.75, leak 0.05, soft reset) over 6 time
  // steps: all steps in each item (H slices), and one step per item with
  // the chains of 4 channel slices on 4 cores.
  Net N;
  int X = N.addInput("x", 8, 6, 6);
  X = N.conv(X, 8, 3, 1, 1, "c");
  Layer L;
  L.Kind = OpKind::Lif;
  L.Name = "lif";
  L.VTh = 0.05, L.VLeak = 0.01, L.Decay = 0.75, L.LifSoftReset = true;
  N.markOutput(N.Layers[N.addLayer(L, {X}, 8, 6, 6)].Output, "y");
  HostTensors In = randomInputs(N, 6);
  GroupInfo G = groupInfo(N, 0, 1);
  for (auto [NSecs, HSecs, FSecs] :
       {std::tuple{1, 2, 1}, std::tuple{6, 1, 4}, std::tuple{6, 1, 1}}) {
    auto P = planGroupWith(N, spec(), 6, G, NSecs, HSecs, 1, FSecs,
                           PlanOptions{});
    ASSERT_TRUE(P) << NSecs << " " << HSecs << " " << FSecs;
    RunResult R;
    checkPlan(N, 6, In, onePlan(*P), "mlu370", nullptr, &R);
    const std::vector<double> &Y = R.Outputs.at(N.outputs()[0]);
    double Spikes = 0;
    for (double V : Y)
      Spikes += V;
    EXPECT_GT(Spikes, 0);
    EXPECT_LT(Spikes, double(Y.size()));
  }
  // The search plans it too, layer by layer and grouped.
  checkRun(N, 6);
  checkRun(N, 6, true);
}

TEST(Run, SeveralOutputsHSliced) {
  // A residual block with a strided main branch: x (24 x 20) -> c1 3x3/1
  // -> r1 -> c2 3x3/2 -> r2; c3 3x3/1 over r2, the downsample ds 1x1/2 over
  // r1, add, ReLU. Layers [0, 3] are a group with two outputs (r1, read by
  // ds, and r2) sliced along H (and W): each item computes r1's hull of
  // its own rows and the rows c2 reads, and stores only its own.
  Net N = test::downsampleBlock();
  int Last = int(N.Layers.size()) - 1;
  for (auto [Dev, HS, WS] :
       {std::tuple{"mlu370", 3, 1}, std::tuple{"mlu370", 2, 2},
        std::tuple{"tiny", 12, 1}, std::tuple{"tiny", 6, 2}}) {
    std::string Why;
    auto A = planGroupWith(N, spec(Dev), 1, groupInfo(N, 0, 3), 1, HS, WS, 1,
                           PlanOptions{}, &Why);
    ASSERT_TRUE(A) << Dev << " " << HS << " x " << WS << ": " << Why;
    ASSERT_EQ(A->Info.Outputs.size(), 2u);
    auto B = planGroup(N, spec(Dev), 1, 4, Last, PlanOptions{});
    ASSERT_TRUE(B);
    NetPlan Plan;
    for (const GroupPlan *G : {&*A, &*B}) {
      Plan.Groups.push_back(*G);
      Plan.ReadBytes += G->ReadBytes;
      Plan.WriteBytes += G->WriteBytes;
      Plan.WeightReadBytes += G->WeightReadBytes;
    }
    RunResult R;
    checkPlan(N, 1, randomInputs(N, 1), Plan, Dev, nullptr, &R);
    // Each output of the first group is written once: r1 and r2.
    EXPECT_EQ(R.Groups[0].WriteBytes, (8 * 24 * 20 + 8 * 12 * 10) * 4);
  }
  // The search plans it on the tiny device, one image and two.
  checkRun(N, 1, false, "tiny");
  checkRun(N, 2, false, "tiny");
}

TEST(Run, MulOfTwoInputsGroupedAndSliced) {
  // CVVH(a, conv(b)) + bias: grouped (with H slices and W tiles forced)
  // and layer by layer.
  Net N;
  int A = N.addInput("a", 16, 12, 12);
  int B = N.conv(N.addInput("b", 16, 12, 12), 16, 3, 1, 1, "c");
  Layer L;
  L.Kind = OpKind::Mul;
  L.Name = "mul";
  for (int F = 0; F < 16; ++F)
    L.Bias.push_back(0.25 * (F % 3));
  N.markOutput(N.Layers[N.addLayer(L, {A, B}, 16, 12, 12)].Output, "y");
  checkRun(N, 2);
  checkRun(N, 2, true);
  HostTensors In = randomInputs(N, 1);
  GroupInfo G = groupInfo(N, 0, 1);
  for (auto [HSecs, WSecs] : {std::pair{3, 1}, std::pair{2, 2}}) {
    auto P = planGroupWith(N, spec(), 1, G, 1, HSecs, WSecs, 1, PlanOptions{});
    ASSERT_TRUE(P);
    checkPlan(N, 1, In, onePlan(*P));
  }
}

TEST(Run, ChunkedStagingStartsBeforeTheWholeInputIsStaged) {
  // Global groups like VGG-16's conv3_2 (16 channel slices x 14 H slices
  // on mlu370's 16 cores, 14 items each) and conv4_3 with its pool (64 x 7,
  // 28 items each: a core goes through 4 channel slices, loading the next
  // tile in pieces) stage their input once per chip, but before the first
  // barrier only chunk 0, the rows the first StageItem + 3 items of every
  // core read; the rest is read beside item StageItem's compute, sent
  // beside the next one's (or a later step of the same item), and a second
  // __sync_all() precedes the item after (GroupPlan::StageFirst). The same
  // plan staging the whole input first is the baseline: the chunked one
  // must save at least half the rest's read, with exact bytes (each input
  // byte read from GDRAM once) and the reference's values in both, and
  // the estimate must follow.
  struct {
    int64_t C, H, F;
    int HSecs, FSecs;
    bool Pool;
  } Cases[] = {{128, 56, 256, 14, 16, false}, {256, 28, 512, 7, 64, true}};
  for (auto [C, H, F, HSecs, FSecs, Pool] : Cases) {
    Net N;
    int X = N.addInput("x", C, H, H);
    X = N.relu(N.conv(X, F, 3, 1, 1, "c"), "r");
    if (Pool)
      X = N.maxPool(X, 2, 2, 0, "p");
    N.markOutput(X, "y");
    GroupInfo G = groupInfo(N, 0, Pool ? 2 : 1);
    bangsim::DeviceSpec S = spec();
    auto P = planGroupWith(N, S, 1, G, 1, HSecs, 1, FSecs, PlanOptions{});
    ASSERT_TRUE(P);
    ASSERT_TRUE(P->phased() && P->pipelined() && P->weightTiles());
    ASSERT_TRUE(P->chunkedStaging()) << H;
    PlanOptions Off;
    Off.ChunkedStaging = false; // --no-chunked-staging
    auto Q = planGroupWith(N, S, 1, G, 1, HSecs, 1, FSecs, Off);
    ASSERT_TRUE(Q);
    EXPECT_FALSE(Q->chunkedStaging());
    int64_t Row = H * C, All = H * Row, Step = (Pool ? H / 2 : H) / HSecs;
    // Item k of a core is H slice k of Step output rows (Pool: 2 Step
    // convolution rows), so chunk 0 holds those of stageBarrierItem() + 1
    // items (StageMidBarrier + 1 with chunk 1) and a halo row below,
    // rounded up to whole 64 B blocks of every core's share: one range
    // from the start.
    int Items = P->StageMid.empty() ? P->stageBarrierItem() + 1
                                    : GroupPlan::StageMidBarrier + 1;
    int64_t Rows = (Pool ? 2 : 1) * Step * Items + 1;
    int64_t Granule = 16 * 16;
    ASSERT_EQ(P->StageFirst.size(), 1u) << H;
    EXPECT_EQ(P->StageFirst[0].Lo, 0) << H;
    EXPECT_EQ(P->StageFirst[0].Hi,
              (Rows * Row + Granule - 1) / Granule * Granule)
        << H;
    HostTensors In = randomInputs(N, 1);
    RunResult Chunked, Whole;
    checkPlan(N, 1, In, onePlan(*P), "mlu370", nullptr, &Chunked);
    GroupPlan W = *P;
    W.StageFirst.clear(), W.StageMid.clear();
    W.StageItem = 0, W.StageSendStep = 0;
    checkPlan(N, 1, In, onePlan(W), "mlu370", nullptr, &Whole);
    EXPECT_EQ(Chunked.ReadBytes, Whole.ReadBytes);
    double Rest = bangsim::cost::gdramCopyCycles(
        S, bangsim::cost::gdramBytesPerCycle(S, 16),
        double((All - P->StageFirst[0].Hi) * 4) / 16, /*write=*/false);
    EXPECT_LT(Chunked.Groups[0].Cycles, Whole.Groups[0].Cycles - Rest / 2)
        << H << ": the rest's read alone takes " << Rest;
    EXPECT_NEAR(P->Cycles / Chunked.Groups[0].Cycles, 1.0, 0.05) << H;
  }
}

TEST(Run, ChunkOneStagesBesideTheFirstItem) {
  // VGG-16's conv3_2 (56 x 56 x 256 -> 256, 14 H slices of 4 rows x 16
  // channel slices, 14 items a core): its first weight tile loads in
  // pieces beside the first item, whose IO-DMA is then idle beside the
  // last piece's convolution. Chunk 1 (GroupPlan::StageMid), the rows item
  // 3 reads after those of items 0-2, is read there, sent beside item 1's
  // compute and waited for at a __sync_all() before item 2, so chunk 0
  // holds the rows of 3 items, not 4. Against `--no-stage-mid`: the
  // reference's values, the same GDRAM bytes, fewer simulated cycles, and
  // the estimate within 1% of the simulation.
  Net N = test::convRelu(256, 56, 56, 256);
  GroupInfo G = groupInfo(N, 0, 1);
  bangsim::DeviceSpec S = spec();
  auto P = planGroupWith(N, S, 1, G, 1, 14, 1, 16, PlanOptions{});
  ASSERT_TRUE(P);
  ASSERT_TRUE(P->chunkedStaging());
  ASSERT_FALSE(P->StageMid.empty()) << P->Cycles;
  PlanOptions Off;
  Off.StageMid = false; // --no-stage-mid
  auto Q = planGroupWith(N, S, 1, G, 1, 14, 1, 16, Off);
  ASSERT_TRUE(Q);
  ASSERT_TRUE(Q->chunkedStaging());
  EXPECT_TRUE(Q->StageMid.empty());
  EXPECT_EQ(Q->stageBarrierItem(), 3);
  // Rows [0, 13) first, [13, 17) in chunk 1 (a row is 56 x 256 floats,
  // every range whole 64 B blocks of each core's share), the rest as
  // before: [17, 56).
  int64_t Row = 56 * 256, Granule = 16 * 16;
  auto up = [&](int64_t E) { return (E + Granule - 1) / Granule * Granule; };
  ASSERT_EQ(P->StageFirst.size(), 1u);
  EXPECT_EQ(P->StageFirst[0].Hi, up(13 * Row));
  ASSERT_EQ(P->StageMid.size(), 1u);
  EXPECT_EQ(P->StageMid[0].Lo, up(13 * Row));
  EXPECT_EQ(P->StageMid[0].Hi, up(17 * Row));
  EXPECT_EQ(P->stagedRest(N), Q->stagedRest(N));
  HostTensors In = randomInputs(N, 1);
  RunResult Mid, Without;
  checkPlan(N, 1, In, onePlan(*P), "mlu370", nullptr, &Mid);
  checkPlan(N, 1, In, onePlan(*Q), "mlu370", nullptr, &Without);
  EXPECT_EQ(Mid.ReadBytes, Without.ReadBytes);
  EXPECT_LT(Mid.Groups[0].Cycles, Without.Groups[0].Cycles - 500);
  EXPECT_NEAR(P->Cycles / Mid.Groups[0].Cycles, 1.0, 0.01);
  EXPECT_LT(P->Cycles, Q->Cycles);
}

TEST(Run, ChunkedStagingOnlyWhereItPaysClearly) {
  // FLOAT16 VGG-16's conv3_1 (56 x 56 x 128 -> 256) in 56 x 2 tiles, its
  // input staged once per chip: chunk 0 (the rows of every core's first
  // items) saves an estimated 67 cycles of 42,945, and the run took 295
  // more (42,331 -> 42,626 simulated). Chunked staging is kept only where
  // it saves at least MinChunkedGain of the group's estimate.
  Net N;
  int X = N.addInput("x", 128, 56, 56);
  X = N.relu(N.conv(X, 256, 3, 1, 1, "c"), "r");
  N.markOutput(X, "y");
  for (Tensor &T : N.Tensors)
    T.Type = bangc::DType::F16;
  GroupInfo G = groupInfo(N, 0, 1);
  auto P = planGroupWith(N, spec(), 1, G, 1, 56, 2, 1, PlanOptions{});
  ASSERT_TRUE(P);
  ASSERT_TRUE(P->phased() && P->pipelined());
  EXPECT_FALSE(P->chunkedStaging()) << P->Cycles;
}

TEST(Run, LateWeightsStageBesideTheFirstItem) {
  // VGG-16's conv2 block (64 x 112 x 112 -> 128, 28 x 4 tiles, weights
  // resident and staged once per chip): ts1 of an item computes conv2_1
  // alone, so conv2_2's weights (590 KB) stay out of the prologue
  // (GroupPlan::LateWeights): each core reads its share and sends it
  // beside its first item's ts1 and copies them to WRAM after a barrier
  // there, before ts3. Against
  // the same plan staging them all first (`--no-late-weights`, whose
  // values other tests check): the reference's values, the same GDRAM
  // bytes, fewer simulated cycles, and an estimate within 1% of the
  // simulation for both.
  Net N = test::convBlock(64, 112, 112, 128);
  GroupInfo G = groupInfo(N, 0, 4);
  bangsim::DeviceSpec S = spec();
  auto P = planGroupWith(N, S, 1, G, 1, 28, 4, 1, PlanOptions{});
  ASSERT_TRUE(P);
  ASSERT_TRUE(P->lateWeightsFit(N));
  ASSERT_TRUE(P->LateWeights) << P->Cycles;
  EXPECT_FALSE(P->lateWeight(N, 0)); // c1
  EXPECT_TRUE(P->lateWeight(N, 2));  // c2
  EXPECT_EQ(P->lateWeightStep(N), 3);
  // ts1 (conv2_1, 26.7 K cycles) hides the read: the first item reads
  // the share beside the first half of its rows (LateSplit).
  ASSERT_TRUE(P->lateSplitFits(N));
  EXPECT_TRUE(P->LateSplit);
  PlanOptions Off;
  Off.LateWeights = false; // --no-late-weights
  auto Q = planGroupWith(N, S, 1, G, 1, 28, 4, 1, Off);
  ASSERT_TRUE(Q);
  EXPECT_FALSE(Q->LateWeights);
  EXPECT_FALSE(Q->lateWeight(N, 2));
  EXPECT_LT(P->Cycles, Q->Cycles);
  HostTensors In = randomInputs(N, 1);
  RunResult Late;
  checkPlan(N, 1, In, onePlan(*P), "mlu370", nullptr, &Late);
  auto AllRun = runPlan(N, onePlan(*Q), S, 1, In);
  ASSERT_TRUE(bool(AllRun)) << toString(AllRun.takeError());
  const RunResult &All = *AllRun;
  EXPECT_EQ(Late.ReadBytes, All.ReadBytes);
  // conv2_2's share read alone is 36,864 bytes, about 2.8 K cycles.
  EXPECT_LT(Late.Groups[0].Cycles, All.Groups[0].Cycles - 1000);
  EXPECT_NEAR(P->Cycles / Late.Groups[0].Cycles, 1.0, 0.01);
  EXPECT_NEAR(Q->Cycles / All.Groups[0].Cycles, 1.0, 0.01);
}
