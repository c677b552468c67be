#include "support/DType.h"

#include <gtest/gtest.h>

using namespace bangc;

TEST(DType, SizesAndNames) {
  EXPECT_EQ(dtypeSize(DType::F16), 2u);
  EXPECT_EQ(dtypeSize(DType::F32), 4u);
  EXPECT_EQ(dtypeSize(DType::F64), 8u);
  EXPECT_EQ(dtypeSize(DType::I8), 1u);
  EXPECT_EQ(dtypeSize(DType::I16), 2u);
  EXPECT_EQ(dtypeSize(DType::I32), 4u);
  EXPECT_EQ(dtypeSize(DType::I64), 8u);
  EXPECT_EQ(dtypeSize(DType::U8), 1u);
  EXPECT_EQ(dtypeSize(DType::U16), 2u);
  EXPECT_EQ(dtypeSize(DType::U32), 4u);
  EXPECT_EQ(dtypeName(DType::F16), "f16");
  EXPECT_EQ(dtypeName(DType::U32), "u32");
  EXPECT_EQ(dtypeName(DType::I64), "i64");
}

TEST(DType, NamesRoundTrip) {
  for (DType Ty : AllDTypes) {
    llvm::Expected<DType> P = parseDTypeName(dtypeName(Ty));
    ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
    EXPECT_EQ(*P, Ty);
  }
}

TEST(DType, Aliases) {
  EXPECT_EQ(*parseDTypeName("half"), DType::F16);
  EXPECT_EQ(*parseDTypeName("float"), DType::F32);
  EXPECT_EQ(*parseDTypeName("int32"), DType::I32);
  EXPECT_EQ(*parseDTypeName("uint8"), DType::U8);
}

TEST(DType, UnknownNameIsError) {
  llvm::Expected<DType> P = parseDTypeName("f128");
  ASSERT_FALSE(bool(P));
  std::string Msg = llvm::toString(P.takeError());
  EXPECT_NE(Msg.find("unknown element type 'f128'"), std::string::npos) << Msg;
}
