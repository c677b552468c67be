//===- RunTest.cpp - LayerGroup end to end on the simulated device --------===//
#include "graph/layergroup/Runner.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace bangc::lg;

namespace {

bangsim::DeviceSpec spec(const char *Name = "mlu370") {
  auto S = bangsim::loadDeviceSpec(Name);
  EXPECT_TRUE(bool(S));
  return *S;
}

/// Plain reference of a Net in double (NCHW), independent of lg_ops.
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
                    S += A[((n * I.C + c) * I.H + iy) * I.W + ix] *
                         L.Weight[((f * I.C + c) * L.KY + ky) * L.KX + kx];
                  }
            } else if (L.Kind == OpKind::MaxPool) {
              S = -INFINITY;
              for (int64_t ky = 0; ky < L.KY; ++ky)
                for (int64_t kx = 0; kx < L.KX; ++kx) {
                  int64_t iy = y * L.SY - L.PU + ky, ix = x * L.SX - L.PL + kx;
                  if (iy < 0 || iy >= I.H || ix < 0 || ix >= I.W)
                    continue;
                  S = std::max(S, A[((n * I.C + f) * I.H + iy) * I.W + ix]);
                }
            } else if (L.Kind == OpKind::Relu) {
              S = std::max(0.0, A[((n * I.C + f) * I.H + y) * I.W + x]);
            } else if (L.Kind == OpKind::Add) {
              for (int In2 : L.Inputs)
                S += V[In2][((n * I.C + f) * I.H + y) * I.W + x];
            }
            R[((n * O.C + f) * O.H + y) * O.W + x] = S;
          }
    V[L.Output] = std::move(R);
  }
  return V[Out];
}

void checkRun(const Net &N, int64_t Batch, bool LayerByLayer = false,
              const char *Dev = "mlu370", int64_t *Bytes = nullptr) {
  HostTensors In;
  uint64_t X = 7;
  for (int T : N.inputs()) {
    std::vector<float> V(size_t(Batch * N.Tensors[T].elements()));
    for (float &F : V) {
      X = X * 6364136223846793005ull + 1442695040888963407ull;
      F = float(double(X >> 11) / double(1ull << 52) - 1.0);
    }
    In[T] = std::move(V);
  }
  PlanOptions O;
  O.LayerByLayer = LayerByLayer;
  auto P = planNet(N, spec(Dev), Batch, O);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  auto R = runPlan(N, *P, spec(Dev), Batch, In);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  int Out = N.outputs()[0];
  std::vector<double> Ref = reference(N, Batch, In, Out);
  const std::vector<float> &Got = R->Outputs.at(Out);
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
