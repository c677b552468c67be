//===- Builder.h - Building Task IR graphs from C++ -------------*- C++ -*-===//
//
// Two levels:
//  * block level: addBlock, connect (whole clusters) and connectBox (sub-box
//    interfaces: concatenation, splitting), attributes, data, init;
//  * layer level: conv2d, maxPool, relu, fullyConnected, add, scale, lif...
//    which create the storage/compute plumbing the seed prescribes (SIC
//    before CC, SIFC before CVM, SW/SWFC/SB for parameters) and return the
//    id of the SI block holding the result.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_BUILDER_H
#define BANGC_GRAPH_BUILDER_H

#include "graph/BlockInfo.h"
#include "graph/Dims.h"
#include "graph/Graph.h"
#include "graph/proto/taskir.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace bangc::graph {

/// Values of a weight or bias block: explicit values, or a WeightInit.
struct Param {
  taskir::Precision Prec = taskir::FLOAT32;
  std::vector<double> Values;         ///< used when Init is not set
  std::optional<taskir::WeightInit> Init;
  /// Materialise Init into Data when building (small graphs, tests).
  bool Materialize = false;

  static Param values(taskir::Precision p, std::vector<double> v);
  static Param uniform(taskir::Precision p, uint32_t seed, double scale,
                       bool materialize = false);
};

/// Window geometry for conv2d / pooling helpers.
struct Window {
  int64_t K = 1, Stride = 1, Pad = 0, Dilation = 1;
};

taskir::Rearrange makeRearrange(taskir::RearrangeType t,
                                std::vector<double> params = {});

class GraphBuilder {
public:
  GraphBuilder();

  // Block level.
  int64_t addBlock(taskir::BlockType t, taskir::Precision p, const Dims &shape,
                   llvm::StringRef name = "");
  taskir::TaskBlock &block(int64_t id);
  void setAttr(int64_t id, taskir::AttributeType a, int64_t v);
  void setAttrFloat(int64_t id, taskir::AttributeType a, double v);
  void setParam(int64_t id, const Param &p);
  /// Joins Src's whole output cluster to a new whole input cluster of Dst
  /// (storage: its single input cluster; compute: the next cluster, with
  /// the shape of role \p role). Returns the edge id.
  int64_t connect(int64_t src, int64_t dst,
                  std::vector<taskir::Rearrange> rs = {},
                  InputRole role = InputRole::Data);
  /// Joins a sub-box of Src's output cluster to a sub-box of Dst's input
  /// cluster \p dstCluster (created with shape \p dstClusterShape if it
  /// does not exist yet).
  int64_t connectBox(int64_t src, const Dims &srcPos, const Dims &srcSize,
                     int64_t dst, int dstCluster, const Dims &dstClusterShape,
                     const Dims &dstPos, const Dims &dstSize,
                     std::vector<taskir::Rearrange> rs = {});

  // Layer level. Inputs and results are SI blocks (shape y x f, or f).
  int64_t input(llvm::StringRef name, taskir::Precision p, int64_t y, int64_t x,
                int64_t f);
  int64_t output(int64_t src, llvm::StringRef name);
  int64_t conv2d(int64_t src, int64_t nf, Window w, const Param &weight,
                 const std::optional<Param> &bias, taskir::Precision out,
                 llvm::StringRef name = "");
  int64_t maxPool(int64_t src, Window w, llvm::StringRef name = "");
  int64_t sumPool(int64_t src, Window w, llvm::StringRef name = "");
  /// max(x, 0) as CCMPB with a 1x1 window and CMP = 0.
  int64_t relu(int64_t src, llvm::StringRef name = "");
  int64_t fullyConnected(int64_t src, int64_t nf, const Param &weight,
                         const std::optional<Param> &bias,
                         taskir::Precision out, llvm::StringRef name = "");
  int64_t add(std::vector<int64_t> srcs, taskir::Precision out,
              llvm::StringRef name = "");
  /// CVS: bias + ConstA * x, stored in precision Out.
  int64_t scale(int64_t src, double constA, taskir::Precision out,
                llvm::StringRef name = "");
  struct LifParams {
    double Threshold = 1, Reset = 0, Leak = 0, Decay = 1;
    bool SoftReset = false;
  };
  int64_t lif(int64_t src, const LifParams &p, taskir::Precision out,
              llvm::StringRef name = "");
  /// Reshapes an SI to (y, x, f) through a RESHAPE edge.
  int64_t reshape(int64_t src, Dims to, llvm::StringRef name = "");

  const taskir::TaskGraph &proto() const { return G; }
  taskir::TaskGraph take() { return std::move(G); }
  /// Validates and wraps the graph.
  llvm::Expected<Graph> finish() { return Graph::create(take()); }

private:
  taskir::TaskGraph G;
  int64_t NextBlock = 0, NextEdge = 0;
  std::map<int64_t, int> Index;

  taskir::EdgeCluster &outputCluster(int64_t id);
  int64_t addSI(taskir::Precision p, const Dims &d, llvm::StringRef name);
  int64_t addParam(taskir::BlockType t, const Dims &d, const Param &p,
                   llvm::StringRef name);
  void setWindow(int64_t id, const Window &w, bool dilation);
  Dims siDims(int64_t id) { return blockDims(block(id)); }
};

} // namespace bangc::graph

#endif // BANGC_GRAPH_BUILDER_H
