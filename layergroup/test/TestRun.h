//===- TestRun.h - What the LayerGroup run tests set up the same way ------===//
//
// The LayerGroup tests that run a planned group on the simulator each need a
// device spec, the same pseudo-random inputs on every run, and a NetPlan of
// the one group they planned. Written once here so that every such test
// builds them alike.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_TEST_TESTRUN_H
#define BANGC_LAYERGROUP_TEST_TESTRUN_H

#include "layergroup/Planner.h"
#include "layergroup/Runner.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace bangc::lg::test {

/// The device spec \p Name; a test failure if it does not load.
inline bangsim::DeviceSpec spec(const char *Name = "mlu370") {
  auto S = bangsim::loadDeviceSpec(Name);
  EXPECT_TRUE(bool(S));
  return *S;
}

/// \p Batch images of every input of \p N, uniform in [-1, 1) and exact in
/// float, from a 64-bit LCG seeded with \p Seed: the same on every run.
inline HostTensors randomInputs(const Net &N, int64_t Batch,
                                uint64_t Seed = 7) {
  HostTensors In;
  uint64_t X = Seed;
  for (int T : N.inputs()) {
    std::vector<double> V(size_t(Batch * N.Tensors[T].elements()));
    for (double &F : V) {
      X = X * 6364136223846793005ull + 1442695040888963407ull;
      F = double(float(double(X >> 11) / double(1ull << 52) - 1.0));
    }
    In[T] = std::move(V);
  }
  return In;
}

/// A plan of the one group \p G, with its byte counts.
inline NetPlan onePlan(const GroupPlan &G) {
  NetPlan Plan;
  Plan.Groups.push_back(G);
  Plan.ReadBytes = G.ReadBytes;
  Plan.WriteBytes = G.WriteBytes;
  Plan.WeightReadBytes = G.WeightReadBytes;
  return Plan;
}

} // namespace bangc::lg::test

#endif // BANGC_LAYERGROUP_TEST_TESTRUN_H
