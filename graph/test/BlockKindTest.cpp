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
  std::vector<taskir::BlockType> Types;
  const google::protobuf::EnumDescriptor *D = taskir::BlockType_descriptor();
  for (int I = 0; I < D->value_count(); ++I)
    if (D->value(I)->number() != taskir::BLOCK_TYPE_UNSPECIFIED)
      Types.push_back(taskir::BlockType(D->value(I)->number()));
  return Types;
}

std::set<std::string> names(bool (*Pred)(BlockKind)) {
  std::set<std::string> Out;
  for (taskir::BlockType T : protoTypes())
    if (Pred(*blockKind(T)))
      Out.insert(blockTypeName(T));
  return Out;
}

TEST(BlockKind, EveryProtoTypeIsARowOnce) {
  std::set<int> Rows;
#define TASKIR_BLOCK_KIND(NAME, ROLE, ...)                                     \
  EXPECT_TRUE(Rows.insert(int(BlockKind::NAME)).second) << #NAME;
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND
  for (taskir::BlockType T : protoTypes()) {
    EXPECT_TRUE(blockKind(T).has_value()) << blockTypeName(T);
    EXPECT_EQ(Rows.count(int(T)), 1u) << blockTypeName(T) << " has no row";
  }
  EXPECT_EQ(Rows.size(), protoTypes().size());
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
