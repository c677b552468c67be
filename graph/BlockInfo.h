//===- BlockInfo.h - Typed accessors for one TaskBlock ----------*- C++ -*-===//
//
// What a consumer needs to know about a block without poking at the proto:
// its shape, attributes with their defaults, kernel geometry, the roles of
// its input clusters and the per-type shape rules of the seed's tables.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_BLOCKINFO_H
#define BANGC_GRAPH_BLOCKINFO_H

#include "graph/BlockKind.h"
#include "graph/Dims.h"
#include "graph/proto/taskir.pb.h"

#include <optional>
#include <string>
#include <vector>

namespace bangc::graph {

/// "block 3 (CC 'conv1')": how diagnostics name a block.
std::string describeBlock(const taskir::TaskBlock &b);

inline Dims blockDims(const taskir::TaskBlock &b) {
  return Dims::fromProto(b.shape());
}

/// The attribute of type \p t, if present.
const taskir::Attribute *findAttr(const taskir::TaskBlock &b,
                                  taskir::AttributeType t);
/// Numeric value of an attribute (int or float), if present and set.
std::optional<double> attrNumber(const taskir::TaskBlock &b,
                                 taskir::AttributeType t);
/// True if the attribute is present with a float_value.
bool attrIsFloat(const taskir::TaskBlock &b, taskir::AttributeType t);

/// Window geometry of CAVG, CC, CC2D, CCMPB and CCMPS (defaults: stride 1,
/// padding 0, dilation 1). Kernel sizes come from the block shape.
struct KernelParams {
  int64_t KY = 1, KX = 1;
  int64_t SY = 1, SX = 1;
  int64_t PadUp = 0, PadDown = 0, PadLeft = 0, PadRight = 0;
  int64_t DY = 1, DX = 1;
};
KernelParams kernelParams(const taskir::TaskBlock &b);
/// Output extent of a window: (In + PadA + PadB - Dil*(K-1) - 1) / S + 1, or
/// a value <= 0 if the window does not fit.
int64_t windowOutputSize(int64_t in, int64_t padA, int64_t padB, int64_t k,
                         int64_t s, int64_t dil);

/// Which seed types use a window (kernel, stride, padding): the WINDOW
/// column of BlockKinds.def; false for a type the table does not list.
bool hasWindow(taskir::BlockType t);
/// Which seed types accept a bias (SB cluster or CONST_B): the BIAS column.
bool takesBias(taskir::BlockType t);

/// The role of each input cluster of a compute block, in order, following
/// the seed's cluster tables (e.g. CC: input, weight, bias).
enum class InputRole { Data, Weight, Alpha, Bias };
const char *roleName(InputRole r);
/// Roles for the block's input clusters as laid out. Clusters beyond what
/// the type allows get no role (the vector is shorter than the cluster
/// list); validation reports that.
std::vector<InputRole> inputRoles(const taskir::TaskBlock &b);

/// The expected dims of a cluster, computed from the block shape. Returns
/// nullopt when the block shape itself lacks what is needed.
Dims expectedInputCluster(const taskir::TaskBlock &b, InputRole r);
Dims expectedOutputCluster(const taskir::TaskBlock &b);
/// For storage blocks: the expected dims of the (single) input cluster.
Dims expectedStorageInputCluster(const taskir::TaskBlock &b);

/// Host tensor shape of a storage block's value (its used dims in order).
inline std::vector<int64_t> storageShape(const taskir::TaskBlock &b) {
  return blockDims(b).present();
}

/// Storage types a compute block's input cluster of role \p r may read.
std::vector<taskir::BlockType> allowedSources(taskir::BlockType compute,
                                              InputRole r);

} // namespace bangc::graph

#endif // BANGC_GRAPH_BLOCKINFO_H
