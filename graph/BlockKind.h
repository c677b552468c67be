//===- BlockKind.h - The block kinds of BlockKinds.def ----------*- C++ -*-===//
//
// The Task IR block types as a closed C++ enum (the proto's enum also has
// BLOCK_TYPE_UNSPECIFIED, sentinels and any other int a file may hold), and
// the columns of graph/BlockKinds.def. Code that acts per kind switches on
// BlockKind without a default, so the compiler names every switch a new
// kind must be added to.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_BLOCKKIND_H
#define BANGC_GRAPH_BLOCKKIND_H

#include "graph/proto/taskir.pb.h"

#include <optional>

namespace bangc::graph {

/// taskir::NAME has the value VALUE: the schema's enum is generated from the
/// table (graph/proto/ConfigureProto.cmake).
enum class BlockKind : int {
#define TASKIR_BLOCK_KIND(NAME, VALUE, ...) NAME = taskir::NAME,
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND
};
#define TASKIR_BLOCK_KIND(NAME, VALUE, ...)                                    \
  static_assert(int(BlockKind::NAME) == VALUE, "generated from the table");
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND

/// The ROLE column.
enum class BlockRole { Compute, Tensor, Param, Output };

/// The kind of block type \p t, or nullopt for BLOCK_TYPE_UNSPECIFIED and
/// values the table does not list.
std::optional<BlockKind> blockKind(taskir::BlockType t);
/// The kind of a block whose type is a row (a validated graph's blocks).
BlockKind kindOf(const taskir::TaskBlock &b);

BlockRole blockRole(BlockKind k);
inline bool isCompute(BlockKind k) {
  return blockRole(k) == BlockRole::Compute;
}
inline bool isStorage(BlockKind k) {
  return blockRole(k) != BlockRole::Compute;
}
/// The WINDOW, BIAS and DATA columns.
bool hasWindow(BlockKind k);
bool takesBias(BlockKind k);
bool carriesData(BlockKind k);

/// The INPUTS column: the input clusters before the bias.
enum class InputLayout {
  None,
  Data,
  DataData,
  DataWeight,
  DataAlpha,
  Variadic
};
InputLayout inputLayout(BlockKind k);
/// The READS column: the storage kind a compute kind's data comes from.
BlockKind dataSource(BlockKind k);
/// The ATTRS column: the attributes besides the window's.
enum class AttrSet { None, Dilation, Cmp, ConstB, ConstAB, Neuron };
AttrSet attrSet(BlockKind k);
/// The OUT column: the rule of the output precision.
enum class OutputRule { SameClass, Accumulates, Keeps, Table, Any, Stored };
OutputRule outputRule(BlockKind k);
/// The COUNT column: what the statistics count for a block (graph/Stats.h).
enum class CountRule {
  None,
  ConvMacs,
  MatVecMacs,
  OutputMacs,
  SumOps,
  WindowOps,
  OutputOps
};
CountRule countRule(BlockKind k);

} // namespace bangc::graph

#endif // BANGC_GRAPH_BLOCKKIND_H
