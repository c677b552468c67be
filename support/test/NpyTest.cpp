#include "support/Half.h"
#include "support/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SwapByteOrder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>

using namespace bangc;

namespace {

std::string errorText(llvm::Error E) { return llvm::toString(std::move(E)); }

/// Parses \p Bytes and expects an error that contains \p Needle.
void expectParseError(const std::string &Bytes, llvm::StringRef Needle) {
  llvm::Expected<NpyArray> A = parseNpy(Bytes, "bad.npy");
  ASSERT_FALSE(bool(A)) << "expected an error containing: " << Needle.str();
  std::string Msg = errorText(A.takeError());
  EXPECT_NE(Msg.find("bad.npy"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find(Needle.str()), std::string::npos) << Msg;
}

/// Builds a version-1.0 file with the given header dict and payload.
std::string makeNpy(const std::string &Dict, const std::string &Payload,
                    int Major = 1) {
  std::string Header = Dict + "\n";
  std::string Out("\x93NUMPY", 6);
  Out.push_back(char(Major));
  Out.push_back(0);
  size_t Len = Header.size();
  for (int I = 0; I < (Major == 1 ? 2 : 4); ++I)
    Out.push_back(char((Len >> (8 * I)) & 0xff));
  return Out + Header + Payload;
}

NpyArray randomArray(DType Ty, std::vector<int64_t> Shape, unsigned Seed) {
  NpyArray A(Ty, std::move(Shape));
  std::mt19937 Rng(Seed);
  for (uint8_t &B : A.data)
    B = uint8_t(Rng());
  return A;
}

class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> P;
    std::error_code EC = llvm::sys::fs::createUniqueDirectory("bangc-npy", P);
    EXPECT_FALSE(EC) << EC.message();
    Path = std::string(P);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string file(llvm::StringRef Name) const {
    llvm::SmallString<128> P(Path);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  std::string Path;
};

} // namespace

TEST(Npy, ZeroInitConstructor) {
  NpyArray A(DType::I16, {2, 3});
  EXPECT_EQ(A.numElements(), 6);
  EXPECT_EQ(A.byteSize(), 12u);
  for (uint8_t B : A.data)
    EXPECT_EQ(B, 0);
}

TEST(Npy, ScalarHasOneElement) {
  NpyArray A(DType::F64, {});
  EXPECT_EQ(A.numElements(), 1);
  EXPECT_EQ(A.byteSize(), 8u);
}

TEST(Npy, RoundTripEveryDType) {
  unsigned Seed = 1;
  for (DType Ty : AllDTypes) {
    for (std::vector<int64_t> Shape :
         {std::vector<int64_t>{}, {0}, {7}, {3, 5}, {2, 3, 4, 1}}) {
      NpyArray A = randomArray(Ty, Shape, Seed++);
      llvm::Expected<std::string> Bytes = serializeNpy(A);
      ASSERT_TRUE(bool(Bytes)) << errorText(Bytes.takeError());
      // The header is padded so data starts on a 64-byte boundary.
      EXPECT_EQ((Bytes->size() - A.byteSize()) % 64, 0u);
      llvm::Expected<NpyArray> B = parseNpy(*Bytes, "mem");
      ASSERT_TRUE(bool(B)) << errorText(B.takeError());
      EXPECT_EQ(B->dtype, Ty) << dtypeName(Ty).str();
      EXPECT_EQ(B->shape, A.shape);
      EXPECT_EQ(B->data, A.data);
    }
  }
}

TEST(Npy, FileRoundTrip) {
  TempDir D;
  NpyArray A(DType::F32, {2, 2});
  float Vals[] = {1.5f, -2.0f, 3.25f, 1e9f};
  std::memcpy(A.data.data(), Vals, sizeof(Vals));
  std::string P = D.file("a.npy");
  ASSERT_FALSE(bool(writeNpy(P, A)));
  llvm::Expected<NpyArray> B = readNpy(P);
  ASSERT_TRUE(bool(B)) << errorText(B.takeError());
  EXPECT_EQ(B->as<float>()[3], 1e9f);
  EXPECT_EQ(B->shape, (std::vector<int64_t>{2, 2}));
}

TEST(Npy, WriteRejectsInconsistentArray) {
  NpyArray A(DType::I32, {4});
  A.data.resize(3);
  llvm::Expected<std::string> Bytes = serializeNpy(A);
  ASSERT_FALSE(bool(Bytes));
  EXPECT_NE(errorText(Bytes.takeError()).find("do not match shape (4,)"),
            std::string::npos);
}

TEST(Npy, WriteToBadPathIsError) {
  NpyArray A(DType::I8, {1});
  llvm::Error E = writeNpy("/nonexistent-dir/x.npy", A);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(errorText(std::move(E)).find("/nonexistent-dir/x.npy"),
            std::string::npos);
}

TEST(Npy, MissingFileIsError) {
  llvm::Expected<NpyArray> A = readNpy("/nonexistent-dir/y.npy");
  ASSERT_FALSE(bool(A));
  std::string Msg = errorText(A.takeError());
  EXPECT_NE(Msg.find("/nonexistent-dir/y.npy: cannot open"), std::string::npos)
      << Msg;
}

TEST(Npy, HandWrittenHeaders) {
  // Double quotes, no trailing comma, extra spaces, version 2.0.
  std::string P(8, '\0');
  llvm::Expected<NpyArray> A = parseNpy(
      makeNpy("{ \"descr\" : \"<i4\" , \"shape\":(2,) ,\"fortran_order\":False}",
              P, 2),
      "h.npy");
  ASSERT_TRUE(bool(A)) << errorText(A.takeError());
  EXPECT_EQ(A->dtype, DType::I32);
  EXPECT_EQ(A->shape, std::vector<int64_t>{2});
}

TEST(Npy, BigEndianIsByteSwapped) {
  std::string Payload = {0x00, 0x00, 0x01, 0x02};
  llvm::Expected<NpyArray> A = parseNpy(
      makeNpy("{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }",
              Payload),
      "be.npy");
  ASSERT_TRUE(bool(A)) << errorText(A.takeError());
  EXPECT_EQ(A->as<int32_t>()[0], 0x0102);
}

// Byte orders of every supported element type. Each row gives four values
// as hand-checked bit patterns and as the numbers they stand for; the file
// bytes are built from the bits (little-endian for '<', '|' and '=', this
// host's native order; reversed for '>'). The array always holds
// little-endian elements.
namespace {

struct OrderRow {
  DType Ty;
  const char *Code; // kind and size, e.g. "i2"
  std::vector<uint64_t> Bits;
  std::vector<int64_t> Ints; // integer types
  std::vector<double> Reals; // float types
};

const std::vector<OrderRow> &orderRows() {
  static const std::vector<OrderRow> Rows = {
      {DType::I8, "i1", {0x01, 0xfe, 0x7f, 0x80}, {1, -2, 127, -128}, {}},
      {DType::U8, "u1", {0x01, 0xfe, 0x80, 0x00}, {1, 254, 128, 0}, {}},
      {DType::I16,
       "i2",
       {0x0102, 0xfffe, 0x7f80, 0x8000},
       {258, -2, 32640, -32768},
       {}},
      {DType::U16,
       "u2",
       {0x0102, 0xfffe, 0x7f80, 0x0001},
       {258, 65534, 32640, 1},
       {}},
      {DType::I32,
       "i4",
       {0x01020304, 0xfffffffe, 0x7fffffff, 0x80000000},
       {16909060, -2, 2147483647, -2147483647 - 1},
       {}},
      {DType::U32,
       "u4",
       {0x01020304, 0xfffffffe, 0x80000000, 0x00000001},
       {16909060, 4294967294, 2147483648, 1},
       {}},
      {DType::I64,
       "i8",
       {0x0102030405060708, 0xfffffffffffffffe, 0x7fffffffffffffff,
        0x8000000000000000},
       {72623859790382856, -2, INT64_MAX, INT64_MIN},
       {}},
      {DType::F16,
       "f2",
       {0x3c00, 0xc000, 0x3555, 0x7bff},
       {},
       {1.0, -2.0, 0.333251953125, 65504.0}},
      {DType::F32,
       "f4",
       {0x3fc00000, 0xbdcccccd, 0x7f7fffff, 0x00000001},
       {},
       {1.5, double(-0.1f), double(FLT_MAX), double(FLT_TRUE_MIN)}},
      {DType::F64,
       "f8",
       {0x3ff8000000000000, 0xbfb999999999999a, 0x7fe1ccf385ebc8a0,
        0x0000000000000001},
       {},
       {1.5, -0.1, 1e308, DBL_TRUE_MIN}},
  };
  return Rows;
}

/// \p Bits as \p Width bytes each, least significant first.
std::string littleEndian(const std::vector<uint64_t> &Bits, unsigned Width) {
  std::string Out;
  for (uint64_t B : Bits)
    for (unsigned I = 0; I < Width; ++I)
      Out.push_back(char((B >> (8 * I)) & 0xff));
  return Out;
}

/// Element \p I of \p A as an integer or a double.
int64_t intAt(const NpyArray &A, size_t I) {
  switch (A.dtype) {
  case DType::I8:
    return A.as<int8_t>()[I];
  case DType::U8:
    return A.as<uint8_t>()[I];
  case DType::I16:
    return A.as<int16_t>()[I];
  case DType::U16:
    return A.as<uint16_t>()[I];
  case DType::I32:
    return A.as<int32_t>()[I];
  case DType::U32:
    return A.as<uint32_t>()[I];
  case DType::I64:
    return A.as<int64_t>()[I];
  default:
    ADD_FAILURE() << "not an integer type";
    return 0;
  }
}

double realAt(const NpyArray &A, size_t I) {
  switch (A.dtype) {
  case DType::F16:
    return halfToFloat(A.as<uint16_t>()[I]);
  case DType::F32:
    return A.as<float>()[I];
  case DType::F64:
    return A.as<double>()[I];
  default:
    ADD_FAILURE() << "not a float type";
    return 0;
  }
}

/// Parses a file of row \p R in byte order \p Order and checks every value.
void expectValues(const OrderRow &R, char Order) {
  unsigned Width = unsigned(dtypeSize(R.Ty));
  std::string Le = littleEndian(R.Bits, Width);
  std::string Payload = Le;
  if (Order == '>')
    for (size_t I = 0; I < Payload.size(); I += Width)
      std::reverse(Payload.begin() + I, Payload.begin() + I + Width);
  std::string Descr = std::string(1, Order) + R.Code;
  std::string What = "descr '" + Descr + "'";
  llvm::Expected<NpyArray> A =
      parseNpy(makeNpy("{'descr': '" + Descr +
                           "', 'fortran_order': False, "
                           "'shape': (4,), }",
                       Payload),
               "order.npy");
  ASSERT_TRUE(bool(A)) << What << ": " << errorText(A.takeError());
  EXPECT_EQ(A->dtype, R.Ty) << What;
  EXPECT_EQ(A->data, std::vector<uint8_t>(Le.begin(), Le.end()))
      << What << ": elements are not held little-endian";
  for (size_t I = 0; I < 4; ++I) {
    if (!R.Ints.empty())
      EXPECT_EQ(intAt(*A, I), R.Ints[I]) << What << " element " << I;
    else
      EXPECT_EQ(realAt(*A, I), R.Reals[I]) << What << " element " << I;
  }
}

} // namespace

TEST(Npy, EveryByteOrderOfEveryType) {
  // '=' is native order; this project runs on little-endian hosts only.
  ASSERT_TRUE(llvm::sys::IsLittleEndianHost);
  ASSERT_EQ(orderRows().size(), std::size(AllDTypes));
  for (const OrderRow &R : orderRows())
    for (char Order : {'<', '>', '='})
      expectValues(R, Order);
}

TEST(Npy, NotApplicableOrderIsNative) {
  // numpy writes one-byte types with '|', and reads '|' on a wider type as
  // native order (np.load of a '|i4' header gives int32 in host order).
  for (const OrderRow &R : orderRows())
    expectValues(R, '|');
}

TEST(Npy, BoolIsRejected) {
  // numpy's bool ('|b1') has no DType here: an error naming the descr.
  for (const char *Descr : {"|b1", "<b1", "=b1"})
    expectParseError(makeNpy(std::string("{'descr': '") + Descr +
                                 "', 'fortran_order': False, 'shape': (1,)}",
                             std::string(1, '\1')),
                     std::string("unsupported dtype descr '") + Descr + "'");
}

TEST(Npy, WriterUsesLittleEndianDescrs) {
  // numpy's own descrs for what it writes on a little-endian host.
  for (const OrderRow &R : orderRows()) {
    unsigned Width = unsigned(dtypeSize(R.Ty));
    std::string Le = littleEndian(R.Bits, Width);
    NpyArray A(R.Ty, {4});
    std::memcpy(A.data.data(), Le.data(), Le.size());
    llvm::Expected<std::string> Bytes = serializeNpy(A);
    ASSERT_TRUE(bool(Bytes)) << errorText(Bytes.takeError());
    std::string Descr = (Width == 1 ? "|" : "<") + std::string(R.Code);
    EXPECT_NE(Bytes->find("'descr': '" + Descr + "'"), std::string::npos)
        << Descr << " missing from " << Bytes->substr(0, 64);
    EXPECT_EQ(Bytes->substr(Bytes->size() - Le.size()), Le) << Descr;
  }
}

TEST(Npy, MalformedInputs) {
  std::string Good4(4, '\0');
  expectParseError("", "bad magic");
  expectParseError("NUMPY\x01\x00", "bad magic");
  expectParseError(std::string("\x93NUMPX\x01\x00\x10\x00", 10), "bad magic");
  expectParseError(std::string("\x93NUMPY\x01\x00", 8),
                   "truncated inside the header length");
  expectParseError(std::string("\x93NUMPY\x02\x00\x10\x00", 10),
                   "truncated inside the header length");
  expectParseError(std::string("\x93NUMPY\x04\x00\x10\x00", 10),
                   "unsupported .npy format version 4.0");
  // Header length that lies about the file size.
  expectParseError(std::string("\x93NUMPY\x01\x00\xff\xff{}", 12),
                   "header length 65535 exceeds the file size");
  expectParseError(
      std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14),
      "header length 4294967295 exceeds the file size");
  expectParseError(makeNpy("['descr']", ""), "header is not a dict");
  expectParseError(makeNpy("{'descr': '<i4', 'fortran_order': False", ""),
                   "expected ',' or '}'");
  expectParseError(makeNpy("{'descr' '<i4', 'shape': (1,)}", ""),
                   "expected ':' after key");
  expectParseError(makeNpy("{'descr': '<i4}", ""), "unterminated string");
  expectParseError(makeNpy("{'fortran_order': False, 'shape': (1,)}", Good4),
                   "no 'descr' key");
  expectParseError(makeNpy("{'descr': '<i4', 'shape': (1,)}", Good4),
                   "no 'fortran_order' key");
  expectParseError(makeNpy("{'descr': '<i4', 'fortran_order': False}", Good4),
                   "no 'shape' key");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': True, 'shape': (1,)}", Good4),
      "Fortran-order arrays are not supported");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': Maybe, 'shape': (1,)}", Good4),
      "'fortran_order' must be True or False");
  expectParseError(
      makeNpy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,)}", Good4),
      "unsupported dtype descr '<c8'");
  expectParseError(
      makeNpy("{'descr': '<u8', 'fortran_order': False, 'shape': (1,)}", Good4),
      "unsupported dtype descr '<u8'");
  expectParseError(
      makeNpy("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,)}",
              Good4),
      "expected a quoted string");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (-1,)}", Good4),
      "non-negative integers");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': 4}", Good4),
      "'shape' must be a tuple");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), "
              "'extra': 1}",
              Good4),
      "unexpected key 'extra'");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (1,)} x",
              Good4),
      "trailing characters");
  // A header that claims a huge array must not allocate it.
  expectParseError(makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': "
                           "(1000000000000, 1000000000000)}",
                           Good4),
                   "is too large");
  expectParseError(makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': "
                           "(100000000, 100)}",
                           Good4),
                   "needs 80000000000 bytes but the file has 4");
  // Too short and too long payloads.
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,)}", Good4),
      "needs 8 bytes but the file has 4");
  expectParseError(
      makeNpy("{'descr': '<i2', 'fortran_order': False, 'shape': (1,)}", Good4),
      "needs 2 bytes but the file has 4");
  expectParseError(makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': "
                           "(1,)}\xc3\xa9",
                           Good4),
                   "non-ASCII");
}

TEST(Npy, TruncatedFilesNeverCrash) {
  NpyArray A = randomArray(DType::F32, {3, 4}, 42);
  std::string Bytes = *serializeNpy(A);
  for (size_t N = 0; N < Bytes.size(); ++N) {
    llvm::Expected<NpyArray> B = parseNpy(Bytes.substr(0, N), "t.npy");
    ASSERT_FALSE(bool(B)) << "prefix of " << N << " bytes parsed";
    llvm::consumeError(B.takeError());
  }
}

// Reads files written by numpy itself, with values that the test recomputes.
TEST(Npy, ReadsFilesWrittenByNumpy) {
  TempDir D;
  std::string Script =
      "import numpy as np, sys\n"
      "d = sys.argv[1]\n"
      "np.save(d + '/f32.npy', (np.arange(24, dtype=np.float32) * 0.5 - 3)"
      ".reshape(2, 3, 4))\n"
      "np.save(d + '/f16.npy', np.array([1.0, -0.333333, 65504, 1e-7], "
      "dtype=np.float16))\n"
      "np.save(d + '/i8.npy', np.array([-128, -1, 0, 127], dtype=np.int8))\n"
      "np.save(d + '/u16.npy', np.array([[0, 65535], [1, 2]], "
      "dtype=np.uint16))\n"
      "np.save(d + '/i64.npy', np.array(-(2**40), dtype=np.int64))\n"
      "np.save(d + '/be.npy', np.arange(3, dtype='>i4'))\n"
      "np.save(d + '/fort.npy', np.asfortranarray(np.ones((2, 3))))\n"
      "from numpy.lib import format as F\n"
      "with open(d + '/v2.npy', 'wb') as fh:\n"
      "    F.write_array(fh, np.arange(5, dtype=np.uint32), version=(2, 0))\n"
      "with open(d + '/v3.npy', 'wb') as fh:\n"
      "    F.write_array(fh, np.arange(5, dtype=np.float64), version=(3, 0))\n";
  std::string ScriptPath = D.file("gen.py");
  std::ofstream(ScriptPath) << Script;
  std::string Cmd =
      std::string(BANGC_SYSTEM_PYTHON) + " " + ScriptPath + " " + D.Path;
  ASSERT_EQ(std::system(Cmd.c_str()), 0) << "numpy generator failed: " << Cmd;

  llvm::Expected<NpyArray> F32 = readNpy(D.file("f32.npy"));
  ASSERT_TRUE(bool(F32)) << errorText(F32.takeError());
  EXPECT_EQ(F32->dtype, DType::F32);
  EXPECT_EQ(F32->shape, (std::vector<int64_t>{2, 3, 4}));
  for (int I = 0; I < 24; ++I)
    EXPECT_EQ(F32->as<float>()[I], float(I) * 0.5f - 3) << I;

  llvm::Expected<NpyArray> F16 = readNpy(D.file("f16.npy"));
  ASSERT_TRUE(bool(F16)) << errorText(F16.takeError());
  EXPECT_EQ(F16->dtype, DType::F16);
  const float F16Expect[] = {1.0f, -0.333333f, 65504.0f, 1e-7f};
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(F16->as<uint16_t>()[I], floatToHalf(F16Expect[I])) << I;

  llvm::Expected<NpyArray> I8 = readNpy(D.file("i8.npy"));
  ASSERT_TRUE(bool(I8)) << errorText(I8.takeError());
  EXPECT_EQ(I8->dtype, DType::I8);
  EXPECT_EQ(I8->as<int8_t>()[0], -128);
  EXPECT_EQ(I8->as<int8_t>()[3], 127);

  llvm::Expected<NpyArray> U16 = readNpy(D.file("u16.npy"));
  ASSERT_TRUE(bool(U16)) << errorText(U16.takeError());
  EXPECT_EQ(U16->as<uint16_t>()[1], 65535);
  EXPECT_EQ(U16->as<uint16_t>()[3], 2);

  llvm::Expected<NpyArray> I64 = readNpy(D.file("i64.npy"));
  ASSERT_TRUE(bool(I64)) << errorText(I64.takeError());
  EXPECT_TRUE(I64->shape.empty());
  EXPECT_EQ(I64->as<int64_t>()[0], -(int64_t(1) << 40));

  llvm::Expected<NpyArray> BE = readNpy(D.file("be.npy"));
  ASSERT_TRUE(bool(BE)) << errorText(BE.takeError());
  EXPECT_EQ(BE->as<int32_t>()[2], 2);

  llvm::Expected<NpyArray> V2 = readNpy(D.file("v2.npy"));
  ASSERT_TRUE(bool(V2)) << errorText(V2.takeError());
  EXPECT_EQ(V2->as<uint32_t>()[4], 4u);

  llvm::Expected<NpyArray> V3 = readNpy(D.file("v3.npy"));
  ASSERT_TRUE(bool(V3)) << errorText(V3.takeError());
  EXPECT_EQ(V3->as<double>()[4], 4.0);

  llvm::Expected<NpyArray> Fort = readNpy(D.file("fort.npy"));
  ASSERT_FALSE(bool(Fort));
  EXPECT_NE(errorText(Fort.takeError()).find("Fortran-order"),
            std::string::npos);
}

// Files this library writes are read back by numpy with the same values.
TEST(Npy, NumpyReadsOurFiles) {
  TempDir D;
  NpyArray A(DType::I16, {2, 3});
  for (int I = 0; I < 6; ++I)
    A.as<int16_t>()[I] = int16_t(I * 1000 - 2500);
  ASSERT_FALSE(bool(writeNpy(D.file("ours.npy"), A)));
  std::string Check =
      std::string(BANGC_SYSTEM_PYTHON) +
      " -c \"import numpy as np, sys; a = np.load(sys.argv[1]); "
      "sys.exit(0 if a.dtype == np.int16 and a.shape == (2, 3) and "
      "(a.ravel() == np.arange(6) * 1000 - 2500).all() else 1)\" " +
      D.file("ours.npy");
  EXPECT_EQ(std::system(Check.c_str()), 0);
}
