//===- BlockKind.cpp - The columns of BlockKinds.def ----------------------===//
#include "graph/BlockKind.h"

#include <cassert>

using namespace bangc::taskir;

namespace bangc::graph {

namespace {
struct Row {
  BlockRole Role;
  bool Window, Bias, Data;
  InputLayout Inputs;
  BlockKind Reads;
  AttrSet Attrs;
  OutputRule Out;
  CountRule Count;
};

Row row(BlockKind k) {
  switch (k) {
#define TASKIR_BLOCK_KIND(NAME, VALUE, ROLE, WINDOW, BIAS, DATA, INPUTS,       \
                          READS, ATTRS, OUT, COUNT)                            \
  case BlockKind::NAME:                                                        \
    return Row{BlockRole::ROLE, WINDOW != 0,         BIAS != 0,                \
               DATA != 0,       InputLayout::INPUTS, BlockKind::READS,         \
               AttrSet::ATTRS,  OutputRule::OUT,     CountRule::COUNT};
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND
  }
  assert(false && "a kind of BlockKinds.def");
  return Row{BlockRole::Compute, false,         false,         false,
             InputLayout::None,  BlockKind::SI, AttrSet::None, OutputRule::Any,
             CountRule::None};
}
} // namespace

std::optional<BlockKind> blockKind(BlockType t) {
  switch (int(t)) {
#define TASKIR_BLOCK_KIND(NAME, ...)                                           \
  case taskir::NAME:                                                           \
    return BlockKind::NAME;
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND
  default:
    return std::nullopt;
  }
}

BlockKind kindOf(const TaskBlock &b) {
  std::optional<BlockKind> k = blockKind(b.type());
  assert(k && "a block of a validated graph");
  return k ? *k : BlockKind::SI;
}

BlockRole blockRole(BlockKind k) { return row(k).Role; }
bool hasWindow(BlockKind k) { return row(k).Window; }
bool takesBias(BlockKind k) { return row(k).Bias; }
bool carriesData(BlockKind k) { return row(k).Data; }
InputLayout inputLayout(BlockKind k) { return row(k).Inputs; }
BlockKind dataSource(BlockKind k) { return row(k).Reads; }
AttrSet attrSet(BlockKind k) { return row(k).Attrs; }
OutputRule outputRule(BlockKind k) { return row(k).Out; }
CountRule countRule(BlockKind k) { return row(k).Count; }

} // namespace bangc::graph
