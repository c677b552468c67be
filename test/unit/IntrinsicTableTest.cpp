//===- IntrinsicTableTest.cpp - The one intrinsic table -------------------===//
#include "bang/Intrinsics.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace bangc;

TEST(IntrinsicTable, KnowsTheIntrinsicsKernelsUse) {
  for (const char *name :
       {"__memcpy", "__memcpy_async", "__sync", "__sync_cluster", "__sync_all",
        "__bang_add", "__bang_write_value", "__bang_fusion", "__bang_lut",
        "__bang_atomic_reduce_add", "__bang_float2int32_rd"})
    EXPECT_NE(lookupIntrinsic(name), nullptr) << name;
  EXPECT_EQ(lookupIntrinsic("__bang_frobnicate"), nullptr);
  EXPECT_EQ(lookupIntrinsic("memcpy"), nullptr);
}

TEST(IntrinsicTable, RowsCarryClassesAndUnits) {
  const IntrinsicOverload *move = lookupIntrinsic("__bang_move");
  ASSERT_NE(move, nullptr);
  EXPECT_EQ(move->units, CountUnits::Bytes);
  EXPECT_EQ(move->cls, IntrinsicClass::Move);
  const IntrinsicOverload *add = lookupIntrinsic("__bang_add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->units, CountUnits::Elements);
  EXPECT_EQ(lookupIntrinsic("__memcpy")->cls, IntrinsicClass::Runtime);
  EXPECT_NE(add->declaration.find("__bang_add"), llvm::StringRef::npos);
}

TEST(IntrinsicTable, BuiltinVariablesMapToContextFields) {
  llvm::StringSet<> names;
  for (const BuiltinVariable &v : builtinVariables())
    EXPECT_TRUE(names.insert(v.name).second) << v.name.str();
  EXPECT_EQ(names.size(), 12u);
  EXPECT_NE(lookupBuiltinVariable("taskId"), nullptr);
  EXPECT_EQ(lookupBuiltinVariable("taskIdW"), nullptr);
}

#ifdef BANGC_SOURCE_DIR
// docs/language.md documents every intrinsic of the table.
TEST(IntrinsicTable, EveryIntrinsicIsDocumented) {
  auto doc = llvm::MemoryBuffer::getFile(BANGC_SOURCE_DIR "/docs/language.md");
  ASSERT_TRUE(bool(doc)) << "docs/language.md is missing";
  llvm::StringSet<> seen;
  for (const IntrinsicOverload &row : intrinsicOverloads())
    if (seen.insert(row.name).second)
      EXPECT_NE((*doc)->getBuffer().find(("`" + row.name).str()),
                llvm::StringRef::npos)
          << row.name.str() << " is not documented in docs/language.md";
}
#endif
