//===- TestUtil.h - Helpers shared by the graph tests -----------*- C++ -*-===//
#ifndef BANGC_GRAPH_TEST_TESTUTIL_H
#define BANGC_GRAPH_TEST_TESTUTIL_H

#include "graph/Executor.h"
#include "graph/Graph.h"
#include "graph/Precision.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace bangc::graph::test {

inline NpyArray array(taskir::Precision P, std::vector<int64_t> Shape,
                      const std::vector<double> &V) {
  return valuesToNpy(V, Shape, P);
}

inline std::vector<double> values(const NpyArray &A, taskir::Precision P) {
  llvm::Expected<std::vector<double>> V = npyToValues(A, P, "test");
  EXPECT_TRUE(bool(V)) << (V ? "" : llvm::toString(V.takeError()));
  return V ? *V : std::vector<double>();
}

/// Uniform integers in [Lo, Hi].
inline std::vector<double> randomInts(size_t N, int64_t Lo, int64_t Hi,
                                      unsigned Seed) {
  std::mt19937 Rng(Seed);
  std::uniform_int_distribution<int64_t> D(Lo, Hi);
  std::vector<double> V(N);
  for (double &X : V)
    X = double(D(Rng));
  return V;
}

/// Reals in [-1, 1) that are exact in FLOAT32.
inline std::vector<double> randomReals(size_t N, unsigned Seed) {
  std::mt19937 Rng(Seed);
  std::uniform_real_distribution<float> D(-1, 1);
  std::vector<double> V(N);
  for (double &X : V)
    X = double(D(Rng));
  return V;
}

inline Graph mustCreate(taskir::TaskGraph G) {
  llvm::Expected<Graph> R = Graph::create(std::move(G));
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    std::abort();
  }
  return std::move(*R);
}

inline TensorMap mustRun(const Graph &G, const TensorMap &In,
                         RunOptions O = {}) {
  llvm::Expected<TensorMap> R = runGraph(G, In, O);
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return {};
  }
  return std::move(*R);
}

} // namespace bangc::graph::test

#endif // BANGC_GRAPH_TEST_TESTUTIL_H
