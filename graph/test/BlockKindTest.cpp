//===- BlockKindTest.cpp - BlockKinds.def against the Task IR schema ------===//
//
// The schema's BlockType enum is generated from the table: it must hold the
// rows (and BLOCK_TYPE_UNSPECIFIED) with the wire values of the seed, and
// docs/taskir.md must list each row with its value. The columns must give
// what the seed's tables say (checked against the sets the code spelled out
// before the table existed).
//
//===----------------------------------------------------------------------===//
#include "graph/BlockKind.h"
#include "graph/BlockInfo.h"
#include "graph/Precision.h"

#include <gtest/gtest.h>

#include <llvm/Support/MemoryBuffer.h>

#include <map>
#include <regex>
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

/// The block types of the seed and their wire values (as taskir.proto
/// spelled them before BlockKinds.def generated its enum).
const std::map<std::string, int> &seedValues() {
  static const std::map<std::string, int> values = {
      {"CADD", 1},  {"CAVG", 2},  {"CVVH", 3},  {"CVM", 4},   {"CC", 5},
      {"CC2D", 6},  {"CAX", 7},   {"CVS", 8},   {"CCMPB", 9}, {"CCMPS", 10},
      {"CLUT", 11}, {"CLIF", 12}, {"SI", 20},   {"SIC", 21},  {"SIC2D", 22},
      {"SIFC", 23}, {"SW", 24},   {"SWFC", 25}, {"SB", 26},   {"SO", 27}};
  return values;
}

/// The seed's block types for which \p pred holds (a kind added later is
/// checked by its own test).
std::set<std::string> names(bool (*pred)(BlockKind)) {
  std::set<std::string> out;
  for (taskir::BlockType t : protoTypes())
    if (seedValues().count(blockTypeName(t)) && pred(*blockKind(t)))
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

/// NAME -> VALUE of the rows (\p compute: the compute or the storage rows).
std::map<std::string, int> tableValues(bool compute) {
  std::map<std::string, int> out;
#define TASKIR_BLOCK_KIND(NAME, VALUE, ROLE, ...)                              \
  if ((BlockRole::ROLE == BlockRole::Compute) == compute)                      \
    out[#NAME] = VALUE;
#include "graph/BlockKinds.def"
#undef TASKIR_BLOCK_KIND
  return out;
}

// The wire values: a changed or reused VALUE would misread every stored
// binary graph. The seed's kinds keep theirs; the generated enum has the
// table's.
TEST(BlockKind, ValuesAreTheSeeds) {
  std::map<std::string, int> rows = tableValues(true);
  rows.merge(tableValues(false));
  for (const auto &[name, value] : seedValues()) {
    ASSERT_EQ(rows.count(name), 1u) << name << " has no row";
    EXPECT_EQ(rows[name], value) << name;
  }
  const google::protobuf::EnumDescriptor *d = taskir::BlockType_descriptor();
  EXPECT_EQ(d->FindValueByName("BLOCK_TYPE_UNSPECIFIED")->number(), 0);
  for (bool compute : {true, false})
    for (const auto &[name, value] : tableValues(compute)) {
      const google::protobuf::EnumValueDescriptor *v = d->FindValueByName(name);
      ASSERT_NE(v, nullptr) << name;
      EXPECT_EQ(v->number(), value) << name;
    }
}

/// The "NAME VALUE" pairs of the docs/taskir.md item that starts with
/// \p item ("* compute blocks"), which may wrap onto indented lines.
std::map<std::string, int> documentedValues(llvm::StringRef doc,
                                            llvm::StringRef item) {
  std::map<std::string, int> out;
  size_t at = doc.find(item);
  if (at == llvm::StringRef::npos)
    return out;
  size_t end = doc.find("\n* ", at + 1);
  std::string text = doc.slice(at + item.size(), end).str();
  std::regex pair("([A-Z][A-Z0-9_]*) ([0-9]+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pair);
       it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = std::stoi((*it)[2]);
  return out;
}

// A new row is documented: docs/taskir.md's lists of block types name each
// row with its value, and no other.
TEST(BlockKind, EveryRowIsDocumentedWithItsValue) {
  std::string path =
      std::string(BANGC_GRAPH_TEST_DIR) + "/../../docs/taskir.md";
  auto buf = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buf)) << path;
  llvm::StringRef doc = (*buf)->getBuffer();
  EXPECT_EQ(documentedValues(doc, "* compute blocks (name and value):"),
            tableValues(true));
  EXPECT_EQ(documentedValues(doc, "* storage blocks (name and value):"),
            tableValues(false));
}

TEST(BlockKind, ColumnsAreTheSeedsSets) {
  using S = std::set<std::string>;
  EXPECT_EQ(names([](BlockKind k) { return hasWindow(k); }),
            (S{"CAVG", "CC", "CC2D", "CCMPB", "CCMPS"}));
  EXPECT_EQ(names([](BlockKind k) { return takesBias(k); }),
            (S{"CADD", "CAVG", "CVVH", "CVM", "CC", "CC2D", "CAX", "CVS"}));
  EXPECT_EQ(names([](BlockKind k) { return carriesData(k); }),
            (S{"SW", "SWFC", "SB", "CLUT"}));
  EXPECT_EQ(names([](BlockKind k) { return isStorage(k); }),
            (S{"SI", "SIC", "SIC2D", "SIFC", "SW", "SWFC", "SB", "SO"}));
  EXPECT_EQ(names([](BlockKind k) { return blockRole(k) == BlockRole::Param; }),
            (S{"SW", "SWFC", "SB"}));
  EXPECT_EQ(
      names([](BlockKind k) { return blockRole(k) == BlockRole::Tensor; }),
      (S{"SI", "SIC", "SIC2D", "SIFC"}));
  // The compute columns: input layout, data source, attributes, output.
  EXPECT_EQ(names([](BlockKind k) {
              return inputLayout(k) == InputLayout::DataWeight;
            }),
            (S{"CVM", "CC", "CC2D"}));
  EXPECT_EQ(
      names([](BlockKind k) { return inputLayout(k) == InputLayout::Data; }),
      (S{"CAVG", "CVS", "CCMPB", "CCMPS", "CLUT", "CLIF"}));
  EXPECT_EQ(names([](BlockKind k) {
              return isCompute(k) && dataSource(k) != BlockKind::SI;
            }),
            (S{"CVM", "CC", "CC2D"}));
  EXPECT_EQ(names([](BlockKind k) { return attrSet(k) == AttrSet::ConstB; }),
            (S{"CADD", "CAVG", "CVVH", "CVM", "CAX"}));
  EXPECT_EQ(names([](BlockKind k) {
              return outputRule(k) == OutputRule::Accumulates;
            }),
            (S{"CVM", "CC", "CC2D"}));
  EXPECT_EQ(names([](BlockKind k) { return outputRule(k) == OutputRule::Any; }),
            (S{"CAX", "CVS", "CLIF"}));
  // The statistics: MACs of the matrix kinds and the products, other
  // operations of the rest, nothing for storage.
  EXPECT_EQ(
      names([](BlockKind k) { return countRule(k) == CountRule::ConvMacs; }),
      (S{"CC", "CC2D"}));
  EXPECT_EQ(
      names([](BlockKind k) { return countRule(k) == CountRule::MatVecMacs; }),
      (S{"CVM"}));
  EXPECT_EQ(
      names([](BlockKind k) { return countRule(k) == CountRule::OutputMacs; }),
      (S{"CVVH", "CAX", "CVS"}));
  EXPECT_EQ(
      names([](BlockKind k) { return countRule(k) == CountRule::SumOps; }),
      (S{"CADD"}));
  EXPECT_EQ(
      names([](BlockKind k) { return countRule(k) == CountRule::WindowOps; }),
      (S{"CAVG", "CCMPB", "CCMPS"}));
  EXPECT_EQ(
      names([](BlockKind k) { return countRule(k) == CountRule::OutputOps; }),
      (S{"CLUT", "CLIF"}));
  EXPECT_EQ(names([](BlockKind k) { return countRule(k) == CountRule::None; }),
            names(isStorage));
  // The BlockType forms answer false for a type that is no row.
  EXPECT_FALSE(hasWindow(taskir::BLOCK_TYPE_UNSPECIFIED));
  EXPECT_FALSE(isComputeBlock(taskir::BlockType(99)));
  EXPECT_FALSE(isStorageBlock(taskir::BLOCK_TYPE_UNSPECIFIED));
}

} // namespace
