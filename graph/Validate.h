//===- Validate.h - Task IR graph validation --------------------*- C++ -*-===//
//
// Checks a TaskGraph against the rules of the seed (shapes per block type,
// clusters, interfaces, edges, data, attributes, precisions, acyclicity).
// Every message names the block or edge and the field, e.g.
//   block 3 (CC 'conv1'): input_clusters[1].shape: expected [f=6, r=1, ky=5,
//   kx=5] (weight), got [f=6, r=1]
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_VALIDATE_H
#define BANGC_GRAPH_VALIDATE_H

#include "graph/proto/taskir.pb.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace bangc::graph {

/// All problems found, in a stable order; empty if the graph is valid.
std::vector<std::string> collectGraphErrors(const taskir::TaskGraph &g);

/// Success, or one error listing every problem (one per line).
llvm::Error validateGraph(const taskir::TaskGraph &g);

} // namespace bangc::graph

#endif // BANGC_GRAPH_VALIDATE_H
