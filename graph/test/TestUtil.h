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

inline NpyArray array(taskir::Precision p, std::vector<int64_t> shape,
                      const std::vector<double> &v) {
  return valuesToNpy(v, shape, p);
}

inline std::vector<double> values(const NpyArray &a, taskir::Precision p) {
  llvm::Expected<std::vector<double>> v = npyToValues(a, p, "test");
  EXPECT_TRUE(bool(v)) << (v ? "" : llvm::toString(v.takeError()));
  return v ? *v : std::vector<double>();
}

/// Uniform integers in [Lo, Hi].
inline std::vector<double> randomInts(size_t n, int64_t lo, int64_t hi,
                                      unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<double> v(n);
  for (double &x : v)
    x = double(d(rng));
  return v;
}

/// Reals in [-1, 1) that are exact in FLOAT32.
inline std::vector<double> randomReals(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<double> v(n);
  for (double &x : v)
    x = double(d(rng));
  return v;
}

inline Graph mustCreate(taskir::TaskGraph g) {
  llvm::Expected<Graph> r = Graph::create(std::move(g));
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    std::abort();
  }
  return std::move(*r);
}

inline TensorMap mustRun(const Graph &g, const TensorMap &in,
                         RunOptions o = {}) {
  llvm::Expected<TensorMap> r = runGraph(g, in, o);
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    return {};
  }
  return std::move(*r);
}

} // namespace bangc::graph::test

#endif // BANGC_GRAPH_TEST_TESTUTIL_H
