//===- Graph.h - A validated Task IR graph in memory ------------*- C++ -*-===//
//
// The API consumers (the executor, statistics, LayerGroup, the CLI) use:
// a TaskGraph that passed validation, indexed by block and edge id, with
// its topological order and the operands of each compute block.
//
//   llvm::Expected<Graph> G = Graph::load("net.json");
//   for (int64_t Id : G->topologicalOrder()) {
//     const taskir::TaskBlock &B = G->block(Id);
//     if (isComputeBlock(B.type())) {
//       Graph::Operands Ops = G->operands(Id);   // input/weight/bias blocks
//       KernelParams K = kernelParams(B);        // BlockInfo.h
//     }
//   }
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_GRAPH_H
#define BANGC_GRAPH_GRAPH_H

#include "graph/BlockInfo.h"
#include "graph/Dims.h"
#include "graph/proto/taskir.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bangc::graph {

class Graph {
public:
  /// Validates \p g and builds the indexes.
  static llvm::Expected<Graph> create(taskir::TaskGraph g);
  /// Reads (binary or JSON), validates and indexes a graph file.
  static llvm::Expected<Graph> load(llvm::StringRef path);

  const taskir::TaskGraph &proto() const { return *P; }
  /// Block ids, producers before consumers (ties broken by file order).
  const std::vector<int64_t> &topologicalOrder() const { return Order; }

  bool hasBlock(int64_t id) const { return BlockIdx.count(id); }
  const taskir::TaskBlock &block(int64_t id) const;
  const taskir::Edge &edge(int64_t id) const;

  /// One end of an edge: the interface it attaches to.
  struct End {
    int64_t Block;
    int Cluster;
    int Interface;
    Dims Position; ///< absent position filled with zeros
    Dims Size;     ///< absent size filled with the cluster shape
  };
  const End &sourceEnd(int64_t edgeId) const { return Src.at(edgeId); }
  const End &destinationEnd(int64_t edgeId) const { return Dst.at(edgeId); }
  /// Edges into / out of a block, ordered by cluster then interface.
  const std::vector<int64_t> &inEdges(int64_t id) const;
  const std::vector<int64_t> &outEdges(int64_t id) const;

  /// Storage blocks whose values the host supplies (SI, SIC, SIC2D, SIFC
  /// without a producing edge), and the SO blocks, in file order.
  const std::vector<int64_t> &inputBlocks() const { return Inputs; }
  const std::vector<int64_t> &outputBlocks() const { return Outputs; }
  /// The name a block is addressed by: its name, or its id as text.
  static std::string ioName(const taskir::TaskBlock &b);
  /// Looks a block up by name, or by id written as a number.
  const taskir::TaskBlock *findBlock(llvm::StringRef nameOrId) const;

  /// The storage blocks feeding a compute block, by role. A role cluster fed
  /// by several interfaces (a concatenation) lists each source.
  struct Operands {
    std::vector<int64_t> Data; ///< in cluster order
    std::optional<int64_t> Weight, Alpha, Bias;
    std::vector<std::vector<int64_t>> ClusterSources; ///< per input cluster
  };
  Operands operands(int64_t computeId) const;

  /// Precision of the values arriving in input cluster \p c of block \p id
  /// (the precision of the blocks feeding it).
  taskir::Precision inputPrecision(int64_t id, int c) const;

private:
  std::shared_ptr<const taskir::TaskGraph> P;
  std::map<int64_t, int> BlockIdx, EdgeIdx;
  std::map<int64_t, End> Src, Dst;
  std::map<int64_t, std::vector<int64_t>> In, Out;
  std::vector<int64_t> Order, Inputs, Outputs;
  static const std::vector<int64_t> NoEdges;
};

} // namespace bangc::graph

#endif // BANGC_GRAPH_GRAPH_H
