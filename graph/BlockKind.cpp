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
};

Row row(BlockKind K) {
  switch (K) {
#define TASKIR_BLOCK_KIND(NAME, ROLE, WINDOW, BIAS, DATA, INPUTS, READS,       \
                          ATTRS, OUT)                                          \
  case BlockKind::NAME:                                                        \
    return Row{BlockRole::ROLE, WINDOW != 0,         BIAS != 0,                \
               DATA != 0,       InputLayout::INPUTS, BlockKind::READS,         \
               AttrSet::ATTRS,  OutputRule::OUT};
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND
  }
  assert(false && "a kind of BlockKinds.def");
  return Row{BlockRole::Compute, false,         false,         false,
             InputLayout::None,  BlockKind::SI, AttrSet::None, OutputRule::Any};
}
} // namespace

std::optional<BlockKind> blockKind(BlockType T) {
  switch (int(T)) {
#define TASKIR_BLOCK_KIND(NAME, ...)                                           \
  case taskir::NAME:                                                           \
    return BlockKind::NAME;
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND
  default:
    return std::nullopt;
  }
}

BlockKind kindOf(const TaskBlock &B) {
  std::optional<BlockKind> K = blockKind(B.type());
  assert(K && "a block of a validated graph");
  return K ? *K : BlockKind::SI;
}

BlockRole blockRole(BlockKind K) { return row(K).Role; }
bool hasWindow(BlockKind K) { return row(K).Window; }
bool takesBias(BlockKind K) { return row(K).Bias; }
bool carriesData(BlockKind K) { return row(K).Data; }
InputLayout inputLayout(BlockKind K) { return row(K).Inputs; }
BlockKind dataSource(BlockKind K) { return row(K).Reads; }
AttrSet attrSet(BlockKind K) { return row(K).Attrs; }
OutputRule outputRule(BlockKind K) { return row(K).Out; }

} // namespace bangc::graph
