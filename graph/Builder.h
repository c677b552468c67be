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

  static Param values(taskir::Precision P, std::vector<double> V);
  static Param uniform(taskir::Precision P, uint32_t Seed, double Scale,
                       bool Materialize = false);
};

/// Window geometry for conv2d / pooling helpers.
struct Window {
  int64_t K = 1, Stride = 1, Pad = 0, Dilation = 1;
};

taskir::Rearrange makeRearrange(taskir::RearrangeType T,
                                std::vector<double> Params = {});

class GraphBuilder {
public:
  GraphBuilder();

  // Block level.
  int64_t addBlock(taskir::BlockType T, taskir::Precision P, const Dims &Shape,
                   llvm::StringRef Name = "");
  taskir::TaskBlock &block(int64_t Id);
  void setAttr(int64_t Id, taskir::AttributeType A, int64_t V);
  void setAttrFloat(int64_t Id, taskir::AttributeType A, double V);
  void setParam(int64_t Id, const Param &P);
  /// Joins Src's whole output cluster to a new whole input cluster of Dst
  /// (storage: its single input cluster; compute: the next cluster, with
  /// the shape of role \p Role). Returns the edge id.
  int64_t connect(int64_t Src, int64_t Dst,
                  std::vector<taskir::Rearrange> Rs = {},
                  InputRole Role = InputRole::Data);
  /// Joins a sub-box of Src's output cluster to a sub-box of Dst's input
  /// cluster \p DstCluster (created with shape \p DstClusterShape if it
  /// does not exist yet).
  int64_t connectBox(int64_t Src, const Dims &SrcPos, const Dims &SrcSize,
                     int64_t Dst, int DstCluster, const Dims &DstClusterShape,
                     const Dims &DstPos, const Dims &DstSize,
                     std::vector<taskir::Rearrange> Rs = {});

  // Layer level. Inputs and results are SI blocks (shape y x f, or f).
  int64_t input(llvm::StringRef Name, taskir::Precision P, int64_t Y, int64_t X,
                int64_t F);
  int64_t output(int64_t Src, llvm::StringRef Name);
  int64_t conv2d(int64_t Src, int64_t NF, Window W, const Param &Weight,
                 const std::optional<Param> &Bias, taskir::Precision Out,
                 llvm::StringRef Name = "");
  int64_t maxPool(int64_t Src, Window W, llvm::StringRef Name = "");
  int64_t sumPool(int64_t Src, Window W, llvm::StringRef Name = "");
  /// max(x, 0) as CCMPB with a 1x1 window and CMP = 0.
  int64_t relu(int64_t Src, llvm::StringRef Name = "");
  int64_t fullyConnected(int64_t Src, int64_t NF, const Param &Weight,
                         const std::optional<Param> &Bias,
                         taskir::Precision Out, llvm::StringRef Name = "");
  int64_t add(std::vector<int64_t> Srcs, taskir::Precision Out,
              llvm::StringRef Name = "");
  /// CVS: bias + ConstA * x, stored in precision Out.
  int64_t scale(int64_t Src, double ConstA, taskir::Precision Out,
                llvm::StringRef Name = "");
  struct LifParams {
    double Threshold = 1, Reset = 0, Leak = 0, Decay = 1;
    bool SoftReset = false;
  };
  int64_t lif(int64_t Src, const LifParams &P, taskir::Precision Out,
              llvm::StringRef Name = "");
  /// Reshapes an SI to (y, x, f) through a RESHAPE edge.
  int64_t reshape(int64_t Src, Dims To, llvm::StringRef Name = "");

  const taskir::TaskGraph &proto() const { return G; }
  taskir::TaskGraph take() { return std::move(G); }
  /// Validates and wraps the graph.
  llvm::Expected<Graph> finish() { return Graph::create(take()); }

private:
  taskir::TaskGraph G;
  int64_t NextBlock = 0, NextEdge = 0;
  std::map<int64_t, int> Index;

  taskir::EdgeCluster &outputCluster(int64_t Id);
  int64_t addSI(taskir::Precision P, const Dims &D, llvm::StringRef Name);
  int64_t addParam(taskir::BlockType T, const Dims &D, const Param &P,
                   llvm::StringRef Name);
  void setWindow(int64_t Id, const Window &W, bool Dilation);
  Dims siDims(int64_t Id) { return blockDims(block(Id)); }
};

} // namespace bangc::graph

#endif // BANGC_GRAPH_BUILDER_H
