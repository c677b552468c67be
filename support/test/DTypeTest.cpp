#include "support/DType.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

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
  for (DType ty : AllDTypes) {
    llvm::Expected<DType> p = parseDTypeName(dtypeName(ty));
    ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
    EXPECT_EQ(*p, ty);
  }
}

TEST(DType, Aliases) {
  EXPECT_EQ(*parseDTypeName("half"), DType::F16);
  EXPECT_EQ(*parseDTypeName("float"), DType::F32);
  EXPECT_EQ(*parseDTypeName("int32"), DType::I32);
  EXPECT_EQ(*parseDTypeName("uint8"), DType::U8);
}

TEST(DType, UnknownNameIsError) {
  llvm::Expected<DType> p = parseDTypeName("f128");
  ASSERT_FALSE(bool(p));
  std::string msg = llvm::toString(p.takeError());
  EXPECT_NE(msg.find("unknown element type 'f128'"), std::string::npos) << msg;
}

TEST(DType, TableColumns) {
  EXPECT_EQ(dtypeCName(DType::F16), "half");
  EXPECT_EQ(dtypeCName(DType::F32), "float");
  EXPECT_EQ(dtypeCName(DType::I8), "int8_t");
  EXPECT_EQ(dtypeCName(DType::U32), "uint32_t");
  EXPECT_EQ(dtypeNpyDescr(DType::F16), "<f2");
  EXPECT_EQ(dtypeNpyDescr(DType::I8), "|i1");
  EXPECT_EQ(dtypeNpyDescr(DType::U16), "<u2");
  EXPECT_EQ(dtypeNpyDescr(DType::I64), "<i8");
  EXPECT_TRUE(isFloatDType(DType::F64));
  EXPECT_FALSE(isFloatDType(DType::I32));
  EXPECT_TRUE(isSignedIntDType(DType::I16));
  EXPECT_FALSE(isSignedIntDType(DType::U16));
  EXPECT_TRUE(isUnsignedIntDType(DType::U8));
  EXPECT_FALSE(isUnsignedIntDType(DType::F32));
  // The descr's size is the element size; its kind is the DType's kind.
  for (DType ty : AllDTypes) {
    llvm::StringRef d = dtypeNpyDescr(ty);
    EXPECT_EQ(d.drop_front(2), std::to_string(dtypeSize(ty))) << d.str();
    char kind = isFloatDType(ty) ? 'f' : isSignedIntDType(ty) ? 'i' : 'u';
    EXPECT_EQ(d[1], kind) << d.str();
  }
}

template <typename T> std::vector<uint8_t> bytesOf(std::vector<T> v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

TEST(DType, StoreAndLoadValues) {
  const std::vector<double> v = {0, 1, -3, 100};
  auto stored = [&](DType ty, const std::vector<double> &values) {
    std::vector<uint8_t> b(values.size() * dtypeSize(ty));
    storeValues(ty, values, b.data());
    return b;
  };
  EXPECT_EQ(stored(DType::I8, v), bytesOf<int8_t>({0, 1, -3, 100}));
  EXPECT_EQ(stored(DType::I16, v), bytesOf<int16_t>({0, 1, -3, 100}));
  EXPECT_EQ(stored(DType::I32, v), bytesOf<int32_t>({0, 1, -3, 100}));
  EXPECT_EQ(stored(DType::I64, v), bytesOf<int64_t>({0, 1, -3, 100}));
  EXPECT_EQ(stored(DType::F32, v), bytesOf<float>({0, 1, -3, 100}));
  EXPECT_EQ(stored(DType::F64, v), bytesOf<double>({0, 1, -3, 100}));
  EXPECT_EQ(stored(DType::U8, {0, 1, 255}), bytesOf<uint8_t>({0, 1, 255}));
  EXPECT_EQ(stored(DType::U16, {65535}), bytesOf<uint16_t>({65535}));
  EXPECT_EQ(stored(DType::U32, {4e9}), bytesOf<uint32_t>({4000000000u}));
  // binary16: 1.0 is 0x3c00, -2.0 0xc000; 1 + 2^-11 is a tie, to even.
  EXPECT_EQ(stored(DType::F16, {1.0, -2.0, 1.0 + 1.0 / 2048}),
            bytesOf<uint16_t>({0x3c00, 0xc000, 0x3c00}));
  for (DType ty : AllDTypes) {
    std::vector<double> in =
        isUnsignedIntDType(ty) ? std::vector<double>{0, 1, 3, 100} : v;
    std::vector<uint8_t> b = stored(ty, in);
    std::vector<double> out(in.size());
    loadValues(ty, b.data(), out);
    EXPECT_EQ(out, in) << dtypeName(ty).str();
  }
}
