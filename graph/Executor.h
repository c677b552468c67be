//===- Executor.h - The reference engine ("Task Rabbit") --------*- C++ -*-===//
//
// Runs a validated graph on host tensors. Each time step evaluates every
// block in topological order: a storage block takes its value from the host
// (graph inputs), from its data or init (SW, SWFC, SB), or from the edges
// into its input cluster; a compute block gathers its input clusters and
// runs its kernel (Kernels.h). An edge copies its source interface's
// sub-box, applies its rearrangements and writes the destination
// interface's sub-box.
//
// Time: with RunOptions::TimeSteps = T > 1 every input may carry a leading
// time axis of length T (one frame per step) or not (the same frame every
// step); every output gets a leading axis of length T. CLIF membrane state
// persists across the steps of one run.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_EXECUTOR_H
#define BANGC_GRAPH_EXECUTOR_H

#include "graph/Graph.h"
#include "support/Npy.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace bangc::graph {

/// The most time steps of one run, and the most output values (all steps,
/// all outputs; 8 bytes each while collected) it may produce: a mistaken
/// `--steps 2147483647` is an error, not hours of work and unbounded memory.
constexpr int MaxTimeSteps = 1 << 20;
constexpr uint64_t MaxCollectedValues = uint64_t(1) << 29;

struct RunOptions {
  int TimeSteps = 1;
};

/// Tensors keyed by block name (Graph::ioName).
using TensorMap = std::map<std::string, NpyArray>;

/// Runs \p g. Inputs must cover Graph::inputBlocks() exactly, each with the
/// block's numpy dtype (precisionDType) and shape (storageShape, optionally
/// with a leading time axis). Returns one tensor per SO block.
llvm::Expected<TensorMap> runGraph(const Graph &g, const TensorMap &inputs,
                                   const RunOptions &opts = {});

/// Host tensor <-> Task IR values, with dtype and range checks.
llvm::Expected<std::vector<double>>
npyToValues(const NpyArray &a, taskir::Precision p, llvm::StringRef what);
NpyArray valuesToNpy(const std::vector<double> &v,
                     const std::vector<int64_t> &shape, taskir::Precision p);

} // namespace bangc::graph

#endif // BANGC_GRAPH_EXECUTOR_H
