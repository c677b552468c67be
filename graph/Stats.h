//===- Stats.h - Parameters, operations and storage of a graph --*- C++ -*-===//
//
// The seed's "evaluation separated from expression": counts derived from
// the IR alone, without any device model.
//   params:  elements of SW, SWFC and SB blocks and CLUT tables (for a
//            compute block: those of the blocks feeding it);
//   MACs:    multiply-accumulates (CC/CC2D ny*nx*nf*nr*nky*nkx, CVM nf*nr,
//            CVVH/CAX/CVS ny*nx*nf);
//   ops:     other element operations (CADD additions, CAVG window sums,
//            CCMPB/CCMPS comparisons, CLUT lookups, CLIF neuron updates);
//   storage: bytes of every storage block, ceil(elements * bits / 8) with
//            the precision's width (TERNARY 2 bits, INT9 9 bits).
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_STATS_H
#define BANGC_GRAPH_STATS_H

#include "graph/Graph.h"

#include <string>
#include <vector>

namespace bangc::graph {

struct BlockStats {
  int64_t Id = 0;
  std::string Name;
  taskir::BlockType Type = taskir::BLOCK_TYPE_UNSPECIFIED;
  int64_t Params = 0, MACs = 0, Ops = 0, StorageBytes = 0;
};

struct GraphStats {
  std::vector<BlockStats> Blocks; ///< in topological order
  int64_t Params = 0, MACs = 0, Ops = 0, StorageBytes = 0;
};

GraphStats computeStats(const Graph &g);
/// A table, one line per block, then the totals.
std::string formatStats(const GraphStats &s);

} // namespace bangc::graph

#endif // BANGC_GRAPH_STATS_H
