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

enum class BlockKind : int {
#define TASKIR_BLOCK_KIND(NAME, ...) NAME = taskir::NAME,
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND
};

/// The ROLE column.
enum class BlockRole { Compute, Tensor, Param, Output };

/// The kind of block type \p T, or nullopt for BLOCK_TYPE_UNSPECIFIED and
/// values the table does not list.
std::optional<BlockKind> blockKind(taskir::BlockType T);
/// The kind of a block whose type is a row (a validated graph's blocks).
BlockKind kindOf(const taskir::TaskBlock &B);

BlockRole blockRole(BlockKind K);
inline bool isCompute(BlockKind K) {
  return blockRole(K) == BlockRole::Compute;
}
inline bool isStorage(BlockKind K) {
  return blockRole(K) != BlockRole::Compute;
}
/// The WINDOW, BIAS and DATA columns.
bool hasWindow(BlockKind K);
bool takesBias(BlockKind K);
bool carriesData(BlockKind K);

/// The INPUTS column: the input clusters before the bias.
enum class InputLayout {
  None,
  Data,
  DataData,
  DataWeight,
  DataAlpha,
  Variadic
};
InputLayout inputLayout(BlockKind K);
/// The READS column: the storage kind a compute kind's data comes from.
BlockKind dataSource(BlockKind K);
/// The ATTRS column: the attributes besides the window's.
enum class AttrSet { None, Dilation, Cmp, ConstB, ConstAB, Neuron };
AttrSet attrSet(BlockKind K);
/// The OUT column: the rule of the output precision.
enum class OutputRule { SameClass, Accumulates, Keeps, Table, Any, Stored };
OutputRule outputRule(BlockKind K);

} // namespace bangc::graph

#endif // BANGC_GRAPH_BLOCKKIND_H
