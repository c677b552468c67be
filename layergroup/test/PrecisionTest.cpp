//===- PrecisionTest.cpp - LayerGroup's FLOAT16 against the reference -----===//
//
// FLOAT16 networks built with graph::GraphBuilder, run grouped on the
// simulated device and by the reference executor (graph/Kernels.cpp). The
// layers LayerGroup computes as the reference rounds (the scalar loops on
// its double arithmetic; ReLU, max pools and a CADD of two inputs on the
// vector unit) equal it exactly. A convolution differs by at most one unit
// in the last place of half of its sum before the bias: the matrix unit's
// float sum is rounded to half and the bias added in half, two roundings
// where the reference rounds its double sum once (docs/layergroup.md
// "Precisions").
//
//===----------------------------------------------------------------------===//
#include "layergroup/Planner.h"
#include "layergroup/Runner.h"

#include "graph/Builder.h"
#include "graph/Executor.h"
#include "graph/Precision.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <optional>

using namespace bangc;
using namespace bangc::lg;

namespace {

struct Outputs {
  std::vector<double> Device, Reference;
};

/// Runs \p G grouped on mlu370 and by the reference executor on the input
/// "x" of shape [H][W][C] (values \p X, or uniform in [-Range, Range) in
/// half), and returns the SO "y" of both (of precision \p OutPrec, else
/// \p Prec): both empty unless both runs succeed with outputs of one size
/// (callers assert the size).
Outputs runBoth(const graph::Graph &G, int64_t H, int64_t W, int64_t C,
                double Range, std::vector<double> X = {},
                taskir::Precision Prec = taskir::FLOAT16,
                const NetPlan *Plan = nullptr,
                std::optional<taskir::Precision> OutPrec = std::nullopt) {
  Outputs O;
  auto N = buildNet(G);
  EXPECT_TRUE(bool(N)) << toString(N.takeError());
  if (!N)
    return O;
  uint64_t S = 11;
  for (size_t I = X.size(); I < size_t(H * W * C); ++I) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    X.push_back(graph::roundToFloatPrecision(
        Range * (double(S >> 11) / double(1ull << 52) - 1.0), Prec));
  }
  auto Spec = bangsim::loadDeviceSpec("mlu370");
  EXPECT_TRUE(bool(Spec)) << toString(Spec.takeError());
  if (!Spec)
    return O;
  llvm::Expected<NetPlan> P = Plan ? llvm::Expected<NetPlan>(*Plan)
                                   : planNet(*N, *Spec, 1, PlanOptions{});
  EXPECT_TRUE(bool(P)) << toString(P.takeError());
  if (!P)
    return O;
  auto R = runPlan(*N, *P, *Spec, 1, {{N->inputs()[0], X}});
  EXPECT_TRUE(bool(R)) << toString(R.takeError());
  if (!R)
    return O;
  graph::TensorMap In;
  In["x"] = graph::valuesToNpy(X, {H, W, C}, Prec);
  auto Ref = graph::runGraph(G, In);
  EXPECT_TRUE(bool(Ref)) << toString(Ref.takeError());
  if (!Ref)
    return O;
  auto V = graph::npyToValues(Ref->at("y"), OutPrec.value_or(Prec), "y");
  EXPECT_TRUE(bool(V)) << toString(V.takeError());
  if (!V)
    return O;
  const std::vector<double> &Device = R->Outputs.at(N->outputs()[0]);
  EXPECT_EQ(Device.size(), V->size());
  if (Device.size() != V->size())
    return O;
  O.Device = Device;
  O.Reference = std::move(*V);
  return O;
}

/// One unit in the last place of half at \p V (normal numbers; 2^-24
/// below them).
double halfUlp(double V) {
  double A = std::fabs(V);
  if (A < std::ldexp(1.0, -14))
    return std::ldexp(1.0, -24);
  return std::ldexp(1.0, std::ilogb(A) - 10);
}

} // namespace

TEST(Float16, ElementwiseLayersEqualTheReferenceExactly) {
  // x -> CVS 0.3 -> CADD with x -> max pool 2x2 -> ReLU -> CAVG 2x2 ->
  // CVS 0.25 -> y: scalar loops (CVS, CAVG: double, rounded through float
  // to half) and the vector unit (CADD, max pool, ReLU) in one group or
  // several, every value rounded as the reference rounds it.
  graph::GraphBuilder GB;
  int64_t X = GB.input("x", taskir::FLOAT16, 12, 12, 8);
  int64_t S = GB.scale(X, 0.3, taskir::FLOAT16, "s");
  int64_t A = GB.add({X, S}, taskir::FLOAT16, "a");
  int64_t P = GB.relu(GB.maxPool(A, graph::Window{2, 2, 0, 1}, "p"), "r");
  int64_t M = GB.sumPool(P, graph::Window{2, 2, 0, 1}, "m");
  GB.output(GB.scale(M, 0.25, taskir::FLOAT16, "mean"), "y");
  auto G = GB.finish();
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  Outputs O = runBoth(*G, 12, 12, 8, 3.0);
  ASSERT_EQ(O.Device.size(), size_t(3 * 3 * 8));
  for (size_t I = 0; I < O.Device.size(); ++I)
    EXPECT_EQ(O.Device[I], O.Reference[I]) << "element " << I;
}

TEST(Float16, ScalesOnTheVectorUnitEqualTheReferenceExactly) {
  // CVS layers whose CONST_A and CONST_B are exact in half compute in
  // float on the vector unit (Layer::HalfViaFloat): a * x exact, + b
  // rounded once, to half once more, which is the reference's double value
  // stored through float. Products far below half's range (subnormal
  // results), sums that cancel, and products beyond half's range (inf).
  graph::GraphBuilder GB;
  int64_t X = GB.input("x", taskir::FLOAT16, 8, 8, 16);
  int64_t S1 = GB.scale(X, 1.375, taskir::FLOAT16, "s1");
  GB.setAttrFloat(S1 - 1, taskir::CONST_B, 0.5 + std::ldexp(1.0, -10));
  int64_t S2 = GB.scale(S1, std::ldexp(1.0, -13) * 1.5, taskir::FLOAT16, "s2");
  GB.setAttrFloat(S2 - 1, taskir::CONST_B, -std::ldexp(1.0, -14) * 3);
  int64_t S3 = GB.scale(S2, 65504, taskir::FLOAT16, "s3");
  int64_t S5 = GB.scale(S3, 2048, taskir::FLOAT16, "s5");
  int64_t S4 = GB.scale(S5, 0.3, taskir::FLOAT16, "s4"); // 0.3: scalar
  GB.output(S4, "y");
  auto G = GB.finish();
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  auto N = buildNet(*G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  std::map<std::string, bool> ViaFloat;
  for (const Layer &L : N->Layers)
    ViaFloat[L.Name] = L.HalfViaFloat && !L.Integer;
  EXPECT_TRUE(ViaFloat["s1"] && ViaFloat["s2"] && ViaFloat["s3"] &&
              ViaFloat["s5"]);
  EXPECT_FALSE(ViaFloat["s4"]);
  Outputs O = runBoth(*G, 8, 8, 16, 6.0);
  ASSERT_EQ(O.Device.size(), size_t(8 * 8 * 16));
  int Inf = 0;
  for (size_t I = 0; I < O.Device.size(); ++I) {
    Inf += std::isinf(O.Reference[I]);
    EXPECT_EQ(O.Device[I], O.Reference[I]) << "element " << I;
  }
  EXPECT_GT(Inf, 0);
}

// A lone global average (CAVG over the whole 7x7 image, then CVS by 1/49,
// as ResNet's head) is planned in channel slices, one per core, each
// loading its channels of the input (GroupPlan::SlicedInputs): FLOAT16 in
// three exact float parts, FLOAT32 in float, both on the vector unit and
// equal to the
// reference (FLOAT16 exactly; FLOAT32 as it was on one core: the same
// per-channel sums in the same order).
void globalAverageOnEveryCore(taskir::Precision Prec) {
  graph::GraphBuilder GB;
  int64_t X = GB.input("x", Prec, 7, 7, 256);
  int64_t M = GB.sumPool(X, graph::Window{7, 1, 0, 1}, "sum");
  GB.output(GB.scale(M, 1.0 / 49, Prec, "mean"), "y");
  auto G = GB.finish();
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  auto N = buildNet(*G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  auto Spec = bangsim::loadDeviceSpec("mlu370");
  ASSERT_TRUE(bool(Spec));
  auto P = planNet(*N, *Spec, 1, PlanOptions{});
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  ASSERT_EQ(P->Groups.size(), 1u);
  const GroupPlan &GP = P->Groups[0];
  EXPECT_TRUE(GP.SlicedInputs);
  EXPECT_GE(GP.FSecs, Spec->numCores());
  EXPECT_EQ(GP.Cores, Spec->numCores());
  EXPECT_EQ(GP.sliceChannels(*N, N->inputs()[0]), GP.SliceChannels);
  Outputs O = runBoth(*G, 7, 7, 256, 4.0, {}, Prec);
  ASSERT_EQ(O.Device.size(), size_t(256));
  for (size_t I = 0; I < O.Device.size(); ++I) {
    if (Prec == taskir::FLOAT16)
      EXPECT_EQ(O.Device[I], O.Reference[I]) << "element " << I;
    else // float sums in the vector unit's order, not double
      EXPECT_NEAR(O.Device[I], O.Reference[I], 1e-5) << "element " << I;
  }
}

TEST(Float16, GlobalAverageOnEveryCore) {
  globalAverageOnEveryCore(taskir::FLOAT16);
}

TEST(Float32, GlobalAverageOnEveryCore) {
  globalAverageOnEveryCore(taskir::FLOAT32);
}

TEST(Float16, SumPoolsOnTheVectorUnitEqualTheReferenceExactly) {
  // A FLOAT16 CAVG of at most HalfSumMaxTerms terms sums in three float
  // parts on the vector unit (Layer::HalfViaFloat, lg_sum_pool_half); more
  // terms take the scalar loops. The values mix half's extremes (65504,
  // subnormals) so that a plain float sum rounds where the reference's
  // double sum does not; the first 2x2 window of channel 0 holds 1, 2^-11,
  // 2^-24, 2^-24: exactly 1 + 2^-11 + 2^-23, half 1 + 2^-10, where a float
  // sum in that order drops both 2^-24 and ties to 1.
  const double Picks[] = {65504,
                          -65504,
                          1,
                          std::ldexp(1.0, -11),
                          std::ldexp(1.0, -24),
                          -std::ldexp(1.0, -24),
                          2048,
                          1 + std::ldexp(1.0, -10),
                          -3 * std::ldexp(1.0, -24),
                          0.0999755859375,
                          std::ldexp(1.0, -14) * 1.5,
                          -1023.5};
  const int64_t H = 8, W = 8, C = 16;
  std::vector<double> X(H * W * C);
  uint64_t S = 5;
  for (double &V : X) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    V = Picks[(S >> 33) % (sizeof(Picks) / sizeof(Picks[0]))];
  }
  X[0] = 1, X[C] = std::ldexp(1.0, -11);
  X[W * C] = X[W * C + C] = std::ldexp(1.0, -24);
  // The first 2x2 window's channel 1: 2048, 1, 2^-13, 2^-24, exactly
  // 2049 + 2^-13 + 2^-24, float 2049 + 2^-12, half 2050; the float sum of
  // the hi and mid parts ties to 2049, and only TwoSum's error term (2^-13)
  // rounds it up (without it, half 2048). Channels 2..5: +inf; +inf and
  // -inf (NaN); NaN; -inf, each among finite halves.
  const double Inf = std::numeric_limits<double>::infinity();
  const int64_t Px[] = {0, C, W * C, W * C + C};
  const double Ch1[] = {2048, 1, std::ldexp(1.0, -13), std::ldexp(1.0, -24)};
  for (int I = 0; I < 4; ++I)
    X[Px[I] + 1] = Ch1[I];
  X[Px[1] + 2] = Inf;
  X[Px[0] + 3] = Inf, X[Px[3] + 3] = -Inf;
  X[Px[2] + 4] = std::numeric_limits<double>::quiet_NaN();
  X[Px[3] + 5] = -Inf;
  struct Case {
    graph::Window Win;
    double ConstB;
    bool ViaFloat;
  };
  const Case Cases[] = {
      {{2, 2, 0, 1}, 0, true},
      {{2, 2, 0, 1}, 3 * std::ldexp(1.0, -24), true}, // the bias a term
      {{3, 1, 1, 1}, -0.5, true},                     // padded: a tile
      {{8, 1, 0, 1}, 0, true},                        // 64 terms
      {{8, 1, 0, 1}, 1, false},                       // 65 terms: scalar
      {{5, 3, 2, 1}, 0, true}};
  for (const Case &K : Cases) {
    SCOPED_TRACE("window " + std::to_string(K.Win.K) + " stride " +
                 std::to_string(K.Win.Stride) + " pad " +
                 std::to_string(K.Win.Pad) + " CONST_B " +
                 std::to_string(K.ConstB));
    graph::GraphBuilder GB;
    int64_t In = GB.input("x", taskir::FLOAT16, H, W, C);
    int64_t M = GB.sumPool(In, K.Win, "m");
    if (K.ConstB != 0)
      GB.setAttrFloat(M - 1, taskir::CONST_B, K.ConstB);
    GB.output(M, "y");
    auto G = GB.finish();
    ASSERT_TRUE(bool(G)) << toString(G.takeError());
    auto N = buildNet(*G);
    ASSERT_TRUE(bool(N)) << toString(N.takeError());
    for (const Layer &L : N->Layers)
      if (L.Name == "m")
        EXPECT_EQ(L.HalfViaFloat && !L.Integer, K.ViaFloat);
    Outputs O = runBoth(*G, H, W, C, 1.0, X);
    ASSERT_FALSE(O.Device.empty());
    if (K.Win.K == 2 && K.ConstB == 0) {
      EXPECT_EQ(O.Reference[0], 1 + std::ldexp(1.0, -10));
      EXPECT_EQ(O.Reference[1], 2050);
      EXPECT_EQ(O.Reference[2], Inf);
      EXPECT_TRUE(std::isnan(O.Reference[3]));
      EXPECT_TRUE(std::isnan(O.Reference[4]));
      EXPECT_EQ(O.Reference[5], -Inf);
    }
    for (size_t I = 0; I < O.Device.size(); ++I) {
      if (std::isnan(O.Reference[I]))
        EXPECT_TRUE(std::isnan(O.Device[I])) << "element " << I;
      else
        EXPECT_EQ(O.Device[I], O.Reference[I]) << "element " << I;
    }
  }
}

TEST(Float16, ResidualAddHeadInChannelSlices) {
  // ResNet's last block end: a CADD of two group inputs, its ReLU, the
  // global average (CAVG 7x7, CVS 1/49) in one group of channel slices,
  // each item loading its channels of both inputs (GroupPlan::SlicedInputs,
  // each element read once), equal to the reference. (Here the search
  // would rather fuse the scale and the CADD; the plan is given.)
  graph::GraphBuilder GB;
  int64_t X = GB.input("x", taskir::FLOAT16, 7, 7, 256);
  int64_t S = GB.scale(X, 2.0, taskir::FLOAT16, "s");
  int64_t A = GB.relu(GB.add({X, S}, taskir::FLOAT16, "a"), "r");
  int64_t M = GB.sumPool(A, graph::Window{7, 1, 0, 1}, "sum");
  GB.output(GB.scale(M, 1.0 / 49, taskir::FLOAT16, "mean"), "y");
  auto G = GB.finish();
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  auto N = buildNet(*G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  auto Spec = bangsim::loadDeviceSpec("mlu370");
  ASSERT_TRUE(bool(Spec));
  int AddLayer = -1;
  for (size_t L = 0; L < N->Layers.size(); ++L)
    if (N->Layers[L].Name == "a")
      AddLayer = int(L);
  ASSERT_GE(AddLayer, 0);
  int Last = int(N->Layers.size()) - 1;
  GroupInfo Head = groupInfo(*N, AddLayer, Last);
  ASSERT_EQ(Head.Inputs.size(), 2u);
  EXPECT_TRUE(channelSliceable(*N, Head));
  // The scale alone, then the head as the search plans it.
  NetPlan Plan;
  for (auto [First, End] : {std::pair{0, AddLayer - 1}, {AddLayer, Last}}) {
    auto GP = planGroup(*N, *Spec, 1, First, End, PlanOptions{});
    ASSERT_TRUE(GP);
    Plan.Groups.push_back(*GP);
  }
  const GroupPlan &HP = Plan.Groups.back();
  EXPECT_TRUE(HP.SlicedInputs);
  EXPECT_GE(HP.FSecs, Spec->numCores());
  // Both inputs read once: 2 x 7 x 7 x 256 halves.
  EXPECT_EQ(HP.ReadBytes, 2 * 7 * 7 * 256 * 2);
  Outputs O = runBoth(*G, 7, 7, 256, 4.0, {}, taskir::FLOAT16, &Plan);
  ASSERT_EQ(O.Device.size(), size_t(256));
  for (size_t I = 0; I < O.Device.size(); ++I)
    EXPECT_EQ(O.Device[I], O.Reference[I]) << "element " << I;
}

TEST(Float16, StoresThroughFloatAsTheReference) {
  // The reference stores a FLOAT16 value as half(float(v)): two roundings,
  // which differ from rounding v to half once when float's rounding lands
  // on a tie of half. x * (1 + 2^-11 + 2^-40) for x = 1 is such a value:
  // float drops 2^-40, leaving the tie 1 + 2^-11, which rounds to even: 1
  // (once: 1 + 2^-10). Likewise at -1 and 2; other elements random.
  graph::GraphBuilder GB;
  int64_t X = GB.input("x", taskir::FLOAT16, 4, 4, 8);
  double A = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  GB.output(GB.scale(X, A, taskir::FLOAT16, "s"), "y");
  auto G = GB.finish();
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  Outputs O = runBoth(*G, 4, 4, 8, 2.0, {1.0, -1.0, 2.0});
  ASSERT_EQ(O.Device.size(), size_t(4 * 4 * 8));
  EXPECT_EQ(O.Reference[0], 1.0);
  EXPECT_EQ(O.Reference[1], -1.0);
  EXPECT_EQ(O.Reference[2], 2.0);
  for (size_t I = 0; I < O.Device.size(); ++I)
    EXPECT_EQ(O.Device[I], O.Reference[I]) << "element " << I;
}

TEST(Float16, ConvolutionWithinOneUlpOfTheReference) {
  // A 3x3 convolution (16 -> 16 channels, bias in [-0.5, 0.5)) on the
  // matrix unit at the fp16 rate: within one unit in the last place of
  // half of the sum before the bias (|sum| <= |y| + 0.5) from the
  // reference, and most values equal.
  graph::GraphBuilder GB;
  int64_t X = GB.input("x", taskir::FLOAT16, 10, 10, 16);
  int64_t C = GB.conv2d(X, 16, graph::Window{3, 1, 1, 1},
                        graph::Param::uniform(taskir::FLOAT16, 5, 0.2),
                        graph::Param::uniform(taskir::FLOAT16, 6, 0.5),
                        taskir::FLOAT16, "c");
  GB.output(C, "y");
  auto G = GB.finish();
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  Outputs O = runBoth(*G, 10, 10, 16, 1.0);
  ASSERT_EQ(O.Device.size(), size_t(10 * 10 * 16));
  size_t Equal = 0;
  for (size_t I = 0; I < O.Device.size(); ++I) {
    EXPECT_LE(std::fabs(O.Device[I] - O.Reference[I]),
              halfUlp(std::fabs(O.Reference[I]) + 0.5))
        << "element " << I << ": " << O.Device[I] << " vs " << O.Reference[I];
    Equal += O.Device[I] == O.Reference[I];
  }
  EXPECT_GT(Equal, O.Device.size() / 2);
}

// INT8 layers in the scalar loops in 64-bit integers (GroupPlan.h's
// intLoop, lg_ops.mlu's lg_int_*_exact): a requantizing CVS by 0.5 (ties
// away from zero), a clamp max(x, -3), a 3x3/2 max pool padded by 1 (the
// windows clipped at the edges), a CVS by 3 that saturates at both ends,
// a ReLU, and a clamp whose CMP is above INT8's range (every value 127);
// all equal to the reference executor exactly.
void integerLoopsExact(int Cmp) {
  graph::GraphBuilder GB;
  int64_t X = GB.input("x", taskir::INT8, 12, 12, 8);
  int64_t S1 = GB.scale(X, 0.5, taskir::INT8, "half");
  int64_t C1 = GB.relu(S1, "clamp");
  for (auto &A : *GB.block(C1 - 1).mutable_attributes()) // ReLU's CMP 0
    if (A.type() == taskir::CMP)
      A.set_int_value(int32_t(Cmp));
  int64_t P = GB.maxPool(C1, graph::Window{3, 2, 1, 1}, "pool");
  int64_t S2 = GB.scale(P, 3.0, taskir::INT8, "triple");
  GB.output(GB.relu(S2, "relu"), "y");
  auto G = GB.finish();
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  auto N = buildNet(*G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  for (const Layer &L : N->Layers)
    EXPECT_EQ(intLoop(*N, L), IntLoop::Exact) << L.Name;
  std::vector<double> X0;
  uint64_t S = 5;
  for (int I = 0; I < 12 * 12 * 8; ++I) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    X0.push_back(double(int64_t(S >> 56) - 128)); // [-128, 127]
  }
  Outputs O = runBoth(*G, 12, 12, 8, 0, X0, taskir::INT8);
  ASSERT_EQ(O.Device.size(), size_t(6 * 6 * 8));
  int Top = 0;
  for (size_t I = 0; I < O.Device.size(); ++I) {
    Top += O.Reference[I] == 127;
    EXPECT_EQ(O.Device[I], O.Reference[I]) << "element " << I;
  }
  EXPECT_GT(Top, 0);
  if (Cmp > 127)
    EXPECT_EQ(Top, int(O.Device.size()));
}

TEST(Integer, LoopsIn64BitIntegersEqualTheReference) {
  integerLoopsExact(-3);
}

TEST(Integer, ClampAboveTheRangeSaturates) { integerLoopsExact(200); }

// UINT32 into INT32 in the loops in 64-bit integers: a 3x3/2 min pool
// padded by 1 without a CMP (+inf: the greatest long long in
// lg_int_pool_exact), then an integer CVS by -3 (the reference's integer
// path: two's-complement products, saturated on the store). Channel 0
// holds values below 1000 (-3x exact), channel 1 values at or above 2^31
// (-3x below INT32's range: saturated), the others the whole range.
TEST(Integer, Uint32MinPoolAndIntegerScaleEqualTheReference) {
  graph::GraphBuilder GB;
  int64_t X = GB.input("x", taskir::UINT32, 12, 12, 4);
  int64_t P = GB.maxPool(X, graph::Window{3, 2, 1, 1}, "minpool");
  GB.block(P - 1).set_type(taskir::CCMPS);
  GB.output(GB.scale(P, -3.0, taskir::INT32, "neg"), "y");
  auto G = GB.finish();
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  auto N = buildNet(*G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  ASSERT_EQ(N->Layers.size(), 2u);
  EXPECT_EQ(N->Layers[0].Kind, OpKind::MinPool);
  EXPECT_EQ(N->Layers[0].Cmp, std::numeric_limits<double>::infinity());
  EXPECT_FALSE(N->Layers[1].RealMath);
  for (const Layer &L : N->Layers)
    EXPECT_EQ(intLoop(*N, L), IntLoop::Exact) << L.Name;
  std::vector<double> X0;
  uint64_t S = 7;
  for (int I = 0; I < 12 * 12 * 4; ++I) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t V = S >> 32; // [0, 2^32)
    if (I % 4 == 0)
      V %= 1000;
    else if (I % 4 == 1)
      V |= 1ull << 31;
    X0.push_back(double(V));
  }
  Outputs O =
      runBoth(*G, 12, 12, 4, 0, X0, taskir::UINT32, nullptr, taskir::INT32);
  ASSERT_EQ(O.Device.size(), size_t(6 * 6 * 4));
  int Saturated = 0, Exact = 0;
  for (size_t I = 0; I < O.Device.size(); ++I) {
    double Min = double(std::numeric_limits<int32_t>::min());
    Saturated += O.Reference[I] == Min;
    Exact += O.Reference[I] > Min && O.Reference[I] < 0;
    EXPECT_EQ(O.Device[I], O.Reference[I]) << "element " << I;
  }
  EXPECT_GE(Saturated, 6 * 6);
  EXPECT_GE(Exact, 6 * 6 - 1);
}

// 32-bit integers into INT8: a 3x3/2 min pool padded by 1 (CMP +inf, as a
// graph gives no CMP), a 3x3 max pool padded by 1 (CMP -inf: the least
// long long) and an integer CVS by 3 that saturates at INT8's ends.
// Channel 0 holds values in [-60, 60) (UINT32: [0, 60)), so some results
// are exact and some saturate; the others the whole range of \p Prec.
// All equal to the reference executor.
void wideIntegersIntoInt8(taskir::Precision Prec) {
  graph::GraphBuilder GB;
  int64_t X = GB.input("x", Prec, 8, 8, 4);
  int64_t P = GB.maxPool(X, graph::Window{3, 2, 1, 1}, "minpool");
  GB.block(P - 1).set_type(taskir::CCMPS);
  int64_t Q = GB.maxPool(P, graph::Window{3, 1, 1, 1}, "maxpool");
  GB.output(GB.scale(Q, 3.0, taskir::INT8, "triple"), "y");
  auto G = GB.finish();
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  auto N = buildNet(*G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  ASSERT_EQ(N->Layers.size(), 3u);
  EXPECT_EQ(N->Layers[0].Cmp, std::numeric_limits<double>::infinity());
  EXPECT_EQ(N->Layers[1].Cmp, -std::numeric_limits<double>::infinity());
  for (const Layer &L : N->Layers)
    EXPECT_EQ(intLoop(*N, L), IntLoop::Exact) << L.Name;
  bool Unsigned = Prec == taskir::UINT32;
  std::vector<double> X0;
  uint64_t S = 3;
  for (int I = 0; I < 8 * 8 * 4; ++I) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    int64_t V = Unsigned ? int64_t(S >> 32) : int64_t(int32_t(S >> 32));
    if (I % 4 == 0)
      V %= 60;
    X0.push_back(double(V));
  }
  Outputs O = runBoth(*G, 8, 8, 4, 0, X0, Prec, nullptr, taskir::INT8);
  ASSERT_EQ(O.Device.size(), size_t(4 * 4 * 4));
  int Top = 0, Inside = 0;
  for (size_t I = 0; I < O.Device.size(); ++I) {
    Top += O.Reference[I] == 127;
    Inside += O.Reference[I] > -128 && O.Reference[I] < 127;
    EXPECT_EQ(O.Device[I], O.Reference[I]) << "element " << I;
  }
  EXPECT_GT(Top, 0);
  EXPECT_GT(Inside, 0);
}

TEST(Integer, Uint32PoolsIntoInt8EqualTheReference) {
  wideIntegersIntoInt8(taskir::UINT32);
}

TEST(Integer, Int32PoolsIntoInt8EqualTheReference) {
  wideIntegersIntoInt8(taskir::INT32);
}
