//===- NonFiniteTest.cpp - CCMPB / CCMPS on NaN, infinities and zeros -----===//
//
// The Task IR's max (CCMPB: ReLU, max pools, clamps from below) and min
// (CCMPS) are IEEE 754-2019 maximum and minimum in the reference executor
// and on the device: a NaN wins, -0 < +0 (docs/layergroup.md
// "Precisions"). Every device path computes them: the vector unit's
// __bang_maxeq_scalar (lg_relu, and lg_bias_relu after a max pool) and
// __bang_maxpool (max pools from -inf), and the scalar loops (pools with a
// finite CMP, min pools, clamps; FLOAT16 ones in the integer outputs'
// loops). Each case runs grouped and layer by layer and must equal
// the reference executor element by element, NaN for NaN and zeros with
// their signs.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Codegen.h"
#include "layergroup/Planner.h"
#include "layergroup/Runner.h"

#include "graph/Builder.h"
#include "graph/Executor.h"
#include "graph/Precision.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

using namespace bangc;
using namespace bangc::lg;

namespace {

constexpr int64_t H = 4, W = 4, C = 8;
const double Inf = std::numeric_limits<double>::infinity();
const double NaN = std::numeric_limits<double>::quiet_NaN();

/// The input: values in [-1, 1) of precision \p P, and in the first 2x2
/// window: channel 0 a NaN among finite values, channel 1 -0, +0, -0.5,
/// -0.25 (max +0), channel 2 +0, -0, 0.5, 0.25 (min -0), channel 3 +inf,
/// channel 4 -inf, channel 5 all -0, channel 6 a NaN and +inf.
std::vector<double> input(taskir::Precision P) {
  std::vector<double> X;
  uint64_t S = 5;
  for (int64_t I = 0; I < H * W * C; ++I) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    X.push_back(graph::roundToFloatPrecision(
        double(S >> 11) / double(1ull << 52) - 1.0, P));
  }
  const int64_t Px[] = {0, C, W * C, W * C + C}; // the window's pixels
  X[Px[1] + 0] = NaN;
  const double Ch1[] = {-0.0, 0.0, -0.5, -0.25}, Ch2[] = {0.0, -0.0, 0.5, 0.25};
  for (int I = 0; I < 4; ++I) {
    X[Px[I] + 1] = Ch1[I];
    X[Px[I] + 2] = Ch2[I];
    X[Px[I] + 5] = -0.0;
  }
  X[Px[2] + 3] = Inf;
  X[Px[3] + 4] = -Inf;
  X[Px[0] + 6] = NaN, X[Px[3] + 6] = Inf;
  return X;
}

/// Element \p I of the device's output equals the reference's: both NaN,
/// or equal with the same sign (within \p Tol relative for a float
/// convolution's sums).
void expectSame(double Dev, double Ref, size_t I, const char *Run, double Tol) {
  if (std::isnan(Ref)) {
    EXPECT_TRUE(std::isnan(Dev)) << Run << " element " << I << ": " << Dev;
    return;
  }
  if (Tol == 0) {
    EXPECT_EQ(Dev, Ref) << Run << " element " << I;
    EXPECT_EQ(std::signbit(Dev), std::signbit(Ref))
        << Run << " element " << I << ": " << Dev << " vs " << Ref;
    return;
  }
  if (Dev == Ref) // infinities too
    return;
  EXPECT_NEAR(Dev, Ref, Tol * std::max(1.0, std::fabs(Ref)))
      << Run << " element " << I;
}

/// Builds x -> \p Layer -> y at precision \p P, runs it grouped and layer
/// by layer on mlu370 and by the reference executor, compares each with
/// the reference and returns the reference's output. The grouped kernel
/// calls \p Fn (the path under test).
std::vector<double>
runAll(taskir::Precision P, const char *Fn,
       const std::function<int64_t(graph::GraphBuilder &, int64_t)> &Layer,
       double Tol = 0) {
  graph::GraphBuilder GB;
  GB.output(Layer(GB, GB.input("x", P, H, W, C)), "y");
  auto G = GB.finish();
  EXPECT_TRUE(bool(G)) << toString(G.takeError());
  if (!G)
    return {};
  auto N = buildNet(*G);
  EXPECT_TRUE(bool(N)) << toString(N.takeError());
  if (!N)
    return {};
  auto Spec = bangsim::loadDeviceSpec("mlu370");
  EXPECT_TRUE(bool(Spec)) << toString(Spec.takeError());
  if (!Spec)
    return {};
  std::vector<double> X = input(P);
  graph::TensorMap In;
  In["x"] = graph::valuesToNpy(X, {H, W, C}, P);
  auto Ref = graph::runGraph(*G, In);
  EXPECT_TRUE(bool(Ref)) << toString(Ref.takeError());
  if (!Ref)
    return {};
  auto R = graph::npyToValues(Ref->at("y"), P, "y");
  EXPECT_TRUE(bool(R)) << toString(R.takeError());
  if (!R)
    return {};
  for (bool LayerByLayer : {false, true}) {
    PlanOptions O;
    O.LayerByLayer = LayerByLayer;
    const char *Run = LayerByLayer ? "layer by layer" : "grouped";
    auto Plan = planNet(*N, *Spec, 1, O);
    EXPECT_TRUE(bool(Plan)) << toString(Plan.takeError());
    if (!Plan)
      return {};
    if (!LayerByLayer) {
      std::string Src = emitGroupKernel(*N, Plan->Groups.back(), 0).Source;
      EXPECT_NE(Src.find(std::string(Fn) + "("), std::string::npos)
          << Fn << " not in\n"
          << Src;
    }
    auto D = runPlan(*N, *Plan, *Spec, 1, {{N->inputs()[0], X}});
    EXPECT_TRUE(bool(D)) << toString(D.takeError());
    if (!D)
      return {};
    const std::vector<double> &Dev = D->Outputs.at(N->outputs()[0]);
    EXPECT_EQ(Dev.size(), R->size()) << Run;
    for (size_t I = 0; I < std::min(Dev.size(), R->size()); ++I)
      expectSame(Dev[I], (*R)[I], I, Run, Tol);
  }
  return std::move(*R);
}

/// The compute block of the layer whose output SI is \p Out.
int64_t computeOf(int64_t Out) { return Out - 1; }

const graph::Window Pool2{2, 2, 0, 1};

} // namespace

TEST(NonFinite, ReluKeepsNaNAndGivesPlusZeroForMinusZero) {
  for (taskir::Precision P : {taskir::FLOAT32, taskir::FLOAT16}) {
    std::vector<double> Y =
        runAll(P, "lg_relu",
               [](graph::GraphBuilder &GB, int64_t X) { return GB.relu(X); });
    ASSERT_EQ(Y.size(), size_t(H * W * C));
    EXPECT_TRUE(std::isnan(Y[C + 0])); // relu(NaN)
    EXPECT_FALSE(std::signbit(Y[1]));  // relu(-0) = +0
    EXPECT_EQ(Y[W * C + 3], Inf);      // relu(+inf)
    EXPECT_EQ(Y[W * C + C + 4], 0.0);  // relu(-inf)
  }
}

TEST(NonFinite, MaxPoolsFromMinusInfinityOnTheVectorUnit) {
  for (taskir::Precision P : {taskir::FLOAT32, taskir::FLOAT16}) {
    std::vector<double> Y =
        runAll(P, "lg_pool", [](graph::GraphBuilder &GB, int64_t X) {
          return GB.maxPool(X, Pool2);
        });
    ASSERT_EQ(Y.size(), size_t(H / 2 * W / 2 * C));
    EXPECT_TRUE(std::isnan(Y[0]));
    EXPECT_EQ(Y[1], 0.0);
    EXPECT_FALSE(std::signbit(Y[1])); // max(-0, +0) = +0
    EXPECT_EQ(Y[3], Inf);
    EXPECT_TRUE(std::signbit(Y[5])); // all -0
    EXPECT_TRUE(std::isnan(Y[6]));   // NaN and +inf
  }
}

TEST(NonFinite, PoolsInScalarLoops) {
  // A max pool from CMP -0.75 and a min pool from +inf (the CMP default):
  // lg_pool's loop (FLOAT32), lg_int_pool's (FLOAT16).
  for (taskir::Precision P : {taskir::FLOAT32, taskir::FLOAT16}) {
    const char *Fn = P == taskir::FLOAT32 ? "lg_pool" : "lg_int_pool";
    std::vector<double> Max =
        runAll(P, Fn, [](graph::GraphBuilder &GB, int64_t X) {
          int64_t Y = GB.maxPool(X, Pool2);
          GB.setAttrFloat(computeOf(Y), taskir::CMP, -0.75);
          return Y;
        });
    ASSERT_EQ(Max.size(), size_t(H / 2 * W / 2 * C));
    EXPECT_TRUE(std::isnan(Max[0]));
    EXPECT_FALSE(std::signbit(Max[1]));
    EXPECT_TRUE(std::isnan(Max[6]));
    std::vector<double> Min =
        runAll(P, Fn, [](graph::GraphBuilder &GB, int64_t X) {
          int64_t Y = GB.maxPool(X, Pool2);
          GB.block(computeOf(Y)).set_type(taskir::CCMPS);
          return Y;
        });
    ASSERT_EQ(Min.size(), size_t(H / 2 * W / 2 * C));
    EXPECT_TRUE(std::isnan(Min[0]));
    EXPECT_EQ(Min[1], -0.5);
    EXPECT_TRUE(std::signbit(Min[2])); // min(+0, -0) = -0
    EXPECT_EQ(Min[4], -Inf);
  }
}

TEST(NonFinite, ClampsInScalarLoops) {
  // max(x, 0.25) and min(x, 0.25) with a 1x1 window: lg_clamp (FLOAT32),
  // lg_int_cmp (FLOAT16).
  for (taskir::Precision P : {taskir::FLOAT32, taskir::FLOAT16})
    for (bool Big : {true, false}) {
      const char *Fn = P == taskir::FLOAT32 ? "lg_clamp" : "lg_int_cmp";
      std::vector<double> Y =
          runAll(P, Fn, [Big](graph::GraphBuilder &GB, int64_t X) {
            int64_t O = GB.maxPool(X, graph::Window{1, 1, 0, 1});
            GB.setAttrFloat(computeOf(O), taskir::CMP, 0.25);
            if (!Big)
              GB.block(computeOf(O)).set_type(taskir::CCMPS);
            return O;
          });
      ASSERT_EQ(Y.size(), size_t(H * W * C));
      EXPECT_TRUE(std::isnan(Y[C + 0]));
      if (!Big)
        EXPECT_TRUE(std::signbit(Y[1])); // min(-0, 0.25)
    }
}

TEST(NonFinite, ConvolutionReluAfterItsMaxPool) {
  // A FLOAT32 convolution reading the NaN gives NaN where its window covers
  // it; its bias and ReLU run after the max pool that follows
  // (GroupInfo::poolFirst: lg_bias_relu), which keep them.
  std::vector<double> Y = runAll(
      taskir::FLOAT32, "lg_bias_relu",
      [](graph::GraphBuilder &GB, int64_t X) {
        int64_t Cv = GB.conv2d(
            X, 8, graph::Window{3, 1, 1, 1},
            graph::Param::uniform(taskir::FLOAT32, 3, 0.5, true),
            graph::Param::values(taskir::FLOAT32,
                                 {0.5, -0.5, 0.25, -0.25, 0, 1, -1, 0.125}),
            taskir::FLOAT32);
        return GB.maxPool(GB.relu(Cv), Pool2);
      },
      1e-5);
  ASSERT_EQ(Y.size(), size_t(H / 2 * W / 2 * C));
  for (int64_t F = 0; F < C; ++F)
    EXPECT_TRUE(std::isnan(Y[F])) << F; // the first window holds NaN inputs
}
