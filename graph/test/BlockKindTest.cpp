//===- BlockKindTest.cpp - BlockKinds.def against the Task IR schema ------===//
//
// The table must list every block type of taskir.proto but
// BLOCK_TYPE_UNSPECIFIED, once; its columns must give what the seed's
// tables say (checked against the sets the code spelled out before the
// table existed).
//
//===----------------------------------------------------------------------===//
#include "graph/BlockKind.h"
#include "graph/BlockInfo.h"
#include "graph/Precision.h"

#include <gtest/gtest.h>

#include <set>

using namespace bangc;
using namespace bangc::graph;

namespace {

std::vector<taskir::BlockType> protoTypes() {
  std::vector<taskir::BlockType> types;
  const google::protobuf::EnumDescriptor *d = taskir::BlockType_descriptor();
  for (int i = 0; i < d->value_count(); ++i)
    if (d->value(i)->number() != taskir::BLOCK_TYPE_UNSPECIFIED)
      types.push_back(taskir::BlockType(d->value(i)->number()));
  return types;
}

std::set<std::string> names(bool (*pred)(BlockKind)) {
  std::set<std::string> out;
  for (taskir::BlockType t : protoTypes())
    if (pred(*blockKind(t)))
      out.insert(blockTypeName(t));
  return out;
}

TEST(BlockKind, EveryProtoTypeIsARowOnce) {
  std::set<int> rows;
#define TASKIR_BLOCK_KIND(NAME, ROLE, ...)                                     \
  EXPECT_TRUE(rows.insert(int(BlockKind::NAME)).second) << #NAME;
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND
  for (taskir::BlockType t : protoTypes()) {
    EXPECT_TRUE(blockKind(t).has_value()) << blockTypeName(t);
    EXPECT_EQ(rows.count(int(t)), 1u) << blockTypeName(t) << " has no row";
  }
  EXPECT_EQ(rows.size(), protoTypes().size());
  EXPECT_FALSE(blockKind(taskir::BLOCK_TYPE_UNSPECIFIED).has_value());
  EXPECT_FALSE(blockKind(taskir::BlockType(99)).has_value());
}

TEST(BlockKind, ColumnsAreTheSeedsSets) {
  using S = std::set<std::string>;
  EXPECT_EQ(names([](BlockKind K) { return hasWindow(K); }),
            (S{"CAVG", "CC", "CC2D", "CCMPB", "CCMPS"}));
  EXPECT_EQ(names([](BlockKind K) { return takesBias(K); }),
            (S{"CADD", "CAVG", "CVVH", "CVM", "CC", "CC2D", "CAX", "CVS"}));
  EXPECT_EQ(names([](BlockKind K) { return carriesData(K); }),
            (S{"SW", "SWFC", "SB", "CLUT"}));
  EXPECT_EQ(names([](BlockKind K) { return isStorage(K); }),
            (S{"SI", "SIC", "SIC2D", "SIFC", "SW", "SWFC", "SB", "SO"}));
  EXPECT_EQ(names([](BlockKind K) { return blockRole(K) == BlockRole::Param; }),
            (S{"SW", "SWFC", "SB"}));
  EXPECT_EQ(
      names([](BlockKind K) { return blockRole(K) == BlockRole::Tensor; }),
      (S{"SI", "SIC", "SIC2D", "SIFC"}));
  // The compute columns: input layout, data source, attributes, output.
  EXPECT_EQ(names([](BlockKind K) {
              return inputLayout(K) == InputLayout::DataWeight;
            }),
            (S{"CVM", "CC", "CC2D"}));
  EXPECT_EQ(
      names([](BlockKind K) { return inputLayout(K) == InputLayout::Data; }),
      (S{"CAVG", "CVS", "CCMPB", "CCMPS", "CLUT", "CLIF"}));
  EXPECT_EQ(names([](BlockKind K) {
              return isCompute(K) && dataSource(K) != BlockKind::SI;
            }),
            (S{"CVM", "CC", "CC2D"}));
  EXPECT_EQ(names([](BlockKind K) { return attrSet(K) == AttrSet::ConstB; }),
            (S{"CADD", "CAVG", "CVVH", "CVM", "CAX"}));
  EXPECT_EQ(names([](BlockKind K) {
              return outputRule(K) == OutputRule::Accumulates;
            }),
            (S{"CVM", "CC", "CC2D"}));
  EXPECT_EQ(names([](BlockKind K) { return outputRule(K) == OutputRule::Any; }),
            (S{"CAX", "CVS", "CLIF"}));
  // The BlockType forms answer false for a type that is no row.
  EXPECT_FALSE(hasWindow(taskir::BLOCK_TYPE_UNSPECIFIED));
  EXPECT_FALSE(isComputeBlock(taskir::BlockType(99)));
  EXPECT_FALSE(isStorageBlock(taskir::BLOCK_TYPE_UNSPECIFIED));
}

} // namespace
