//===- Kernels.h - Reference semantics of compute task blocks ---*- C++ -*-===//
//
// One function evaluates a compute block on host values, following the
// seed's loop nest for its type (documented in docs/taskir.md). Values are
// doubles (exact for every Task IR precision).
//
// Arithmetic: integer blocks accumulate in 64-bit two's complement (wrapping
// modulo 2^64 if a sum ever exceeds it) and saturate the result to the
// output precision; when a float attribute (CONST_A, CONST_B) meets integer
// inputs, or any input or output is float, the block computes in double and
// stores the result in the output precision (round to nearest, ties away
// from zero, then saturate, for integer outputs; IEEE rounding for FLOAT32
// and FLOAT16).
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_KERNELS_H
#define BANGC_GRAPH_KERNELS_H

#include "graph/proto/taskir.pb.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace bangc::graph {

struct KernelArgs {
  /// One flat vector per input cluster, in the cluster's shape.
  std::vector<std::vector<double>> Clusters;
  /// Precision of the data input(s) (for CLUT indexing and CCMP defaults).
  taskir::Precision DataPrecision = taskir::PRECISION_UNSPECIFIED;
  /// CLUT table (the block's data).
  const std::vector<double> *Table = nullptr;
  /// CLIF membrane potentials, carried across time steps; empty before the
  /// first step.
  std::vector<double> *State = nullptr;
};

/// Evaluates a validated compute block; returns its output cluster values.
llvm::Expected<std::vector<double>> runComputeBlock(const taskir::TaskBlock &b,
                                                    const KernelArgs &args);

} // namespace bangc::graph

#endif // BANGC_GRAPH_KERNELS_H
