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
  for (DType Ty : AllDTypes) {
    llvm::StringRef D = dtypeNpyDescr(Ty);
    EXPECT_EQ(D.drop_front(2), std::to_string(dtypeSize(Ty))) << D.str();
    char Kind = isFloatDType(Ty) ? 'f' : isSignedIntDType(Ty) ? 'i' : 'u';
    EXPECT_EQ(D[1], Kind) << D.str();
  }
}

template <typename T> std::vector<uint8_t> bytesOf(std::vector<T> V) {
  std::vector<uint8_t> B(V.size() * sizeof(T));
  std::memcpy(B.data(), V.data(), B.size());
  return B;
}

TEST(DType, StoreAndLoadValues) {
  const std::vector<double> V = {0, 1, -3, 100};
  auto Stored = [&](DType Ty, const std::vector<double> &Values) {
    std::vector<uint8_t> B(Values.size() * dtypeSize(Ty));
    storeValues(Ty, Values, B.data());
    return B;
  };
  EXPECT_EQ(Stored(DType::I8, V), bytesOf<int8_t>({0, 1, -3, 100}));
  EXPECT_EQ(Stored(DType::I16, V), bytesOf<int16_t>({0, 1, -3, 100}));
  EXPECT_EQ(Stored(DType::I32, V), bytesOf<int32_t>({0, 1, -3, 100}));
  EXPECT_EQ(Stored(DType::I64, V), bytesOf<int64_t>({0, 1, -3, 100}));
  EXPECT_EQ(Stored(DType::F32, V), bytesOf<float>({0, 1, -3, 100}));
  EXPECT_EQ(Stored(DType::F64, V), bytesOf<double>({0, 1, -3, 100}));
  EXPECT_EQ(Stored(DType::U8, {0, 1, 255}), bytesOf<uint8_t>({0, 1, 255}));
  EXPECT_EQ(Stored(DType::U16, {65535}), bytesOf<uint16_t>({65535}));
  EXPECT_EQ(Stored(DType::U32, {4e9}), bytesOf<uint32_t>({4000000000u}));
  // binary16: 1.0 is 0x3c00, -2.0 0xc000; 1 + 2^-11 is a tie, to even.
  EXPECT_EQ(Stored(DType::F16, {1.0, -2.0, 1.0 + 1.0 / 2048}),
            bytesOf<uint16_t>({0x3c00, 0xc000, 0x3c00}));
  for (DType Ty : AllDTypes) {
    std::vector<double> In =
        isUnsignedIntDType(Ty) ? std::vector<double>{0, 1, 3, 100} : V;
    std::vector<uint8_t> B = Stored(Ty, In);
    std::vector<double> Out(In.size());
    loadValues(Ty, B.data(), Out);
    EXPECT_EQ(Out, In) << dtypeName(Ty).str();
  }
}
