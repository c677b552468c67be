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

std::string errorText(llvm::Error e) { return llvm::toString(std::move(e)); }

/// Parses \p bytes and expects an error that contains \p needle.
void expectParseError(const std::string &bytes, llvm::StringRef needle) {
  llvm::Expected<NpyArray> a = parseNpy(bytes, "bad.npy");
  ASSERT_FALSE(bool(a)) << "expected an error containing: " << needle.str();
  std::string msg = errorText(a.takeError());
  EXPECT_NE(msg.find("bad.npy"), std::string::npos) << msg;
  EXPECT_NE(msg.find(needle.str()), std::string::npos) << msg;
}

/// Builds a version-1.0 file with the given header dict and payload.
std::string makeNpy(const std::string &dict, const std::string &payload,
                    int major = 1) {
  std::string header = dict + "\n";
  std::string out("\x93NUMPY", 6);
  out.push_back(char(major));
  out.push_back(0);
  size_t len = header.size();
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    out.push_back(char((len >> (8 * i)) & 0xff));
  return out + header + payload;
}

NpyArray randomArray(DType ty, std::vector<int64_t> shape, unsigned seed) {
  NpyArray a(ty, std::move(shape));
  std::mt19937 rng(seed);
  for (uint8_t &b : a.data)
    b = uint8_t(rng());
  return a;
}

class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> p;
    std::error_code ec = llvm::sys::fs::createUniqueDirectory("bangc-npy", p);
    EXPECT_FALSE(ec) << ec.message();
    Path = std::string(p);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<128> p(Path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  std::string Path;
};

} // namespace

TEST(Npy, ZeroInitConstructor) {
  NpyArray a(DType::I16, {2, 3});
  EXPECT_EQ(a.numElements(), 6);
  EXPECT_EQ(a.byteSize(), 12u);
  for (uint8_t b : a.data)
    EXPECT_EQ(b, 0);
}

TEST(Npy, ScalarHasOneElement) {
  NpyArray a(DType::F64, {});
  EXPECT_EQ(a.numElements(), 1);
  EXPECT_EQ(a.byteSize(), 8u);
}

TEST(Npy, RoundTripEveryDType) {
  unsigned seed = 1;
  for (DType ty : AllDTypes) {
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{}, {0}, {7}, {3, 5}, {2, 3, 4, 1}}) {
      NpyArray a = randomArray(ty, shape, seed++);
      llvm::Expected<std::string> bytes = serializeNpy(a);
      ASSERT_TRUE(bool(bytes)) << errorText(bytes.takeError());
      // The header is padded so data starts on a 64-byte boundary.
      EXPECT_EQ((bytes->size() - a.byteSize()) % 64, 0u);
      llvm::Expected<NpyArray> b = parseNpy(*bytes, "mem");
      ASSERT_TRUE(bool(b)) << errorText(b.takeError());
      EXPECT_EQ(b->dtype, ty) << dtypeName(ty).str();
      EXPECT_EQ(b->shape, a.shape);
      EXPECT_EQ(b->data, a.data);
    }
  }
}

TEST(Npy, FileRoundTrip) {
  TempDir d;
  NpyArray a(DType::F32, {2, 2});
  float vals[] = {1.5f, -2.0f, 3.25f, 1e9f};
  std::memcpy(a.data.data(), vals, sizeof(vals));
  std::string p = d.file("a.npy");
  ASSERT_FALSE(bool(writeNpy(p, a)));
  llvm::Expected<NpyArray> b = readNpy(p);
  ASSERT_TRUE(bool(b)) << errorText(b.takeError());
  EXPECT_EQ(b->as<float>()[3], 1e9f);
  EXPECT_EQ(b->shape, (std::vector<int64_t>{2, 2}));
}

TEST(Npy, WriteRejectsInconsistentArray) {
  NpyArray a(DType::I32, {4});
  a.data.resize(3);
  llvm::Expected<std::string> bytes = serializeNpy(a);
  ASSERT_FALSE(bool(bytes));
  EXPECT_NE(errorText(bytes.takeError()).find("do not match shape (4,)"),
            std::string::npos);
}

TEST(Npy, WriteToBadPathIsError) {
  NpyArray a(DType::I8, {1});
  llvm::Error e = writeNpy("/nonexistent-dir/x.npy", a);
  ASSERT_TRUE(bool(e));
  EXPECT_NE(errorText(std::move(e)).find("/nonexistent-dir/x.npy"),
            std::string::npos);
}

TEST(Npy, MissingFileIsError) {
  llvm::Expected<NpyArray> a = readNpy("/nonexistent-dir/y.npy");
  ASSERT_FALSE(bool(a));
  std::string msg = errorText(a.takeError());
  EXPECT_NE(msg.find("/nonexistent-dir/y.npy: cannot open"), std::string::npos)
      << msg;
}

TEST(Npy, HandWrittenHeaders) {
  // Double quotes, no trailing comma, extra spaces, version 2.0.
  std::string p(8, '\0');
  llvm::Expected<NpyArray> a = parseNpy(
      makeNpy(
          "{ \"descr\" : \"<i4\" , \"shape\":(2,) ,\"fortran_order\":False}", p,
          2),
      "h.npy");
  ASSERT_TRUE(bool(a)) << errorText(a.takeError());
  EXPECT_EQ(a->dtype, DType::I32);
  EXPECT_EQ(a->shape, std::vector<int64_t>{2});
}

TEST(Npy, BigEndianIsByteSwapped) {
  std::string payload = {0x00, 0x00, 0x01, 0x02};
  llvm::Expected<NpyArray> a = parseNpy(
      makeNpy("{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }",
              payload),
      "be.npy");
  ASSERT_TRUE(bool(a)) << errorText(a.takeError());
  EXPECT_EQ(a->as<int32_t>()[0], 0x0102);
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
  static const std::vector<OrderRow> rows = {
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
  return rows;
}

/// \p bits as \p width bytes each, least significant first.
std::string littleEndian(const std::vector<uint64_t> &bits, unsigned width) {
  std::string out;
  for (uint64_t b : bits)
    for (unsigned i = 0; i < width; ++i)
      out.push_back(char((b >> (8 * i)) & 0xff));
  return out;
}

/// Element \p i of \p a as an integer or a double.
int64_t intAt(const NpyArray &a, size_t i) {
  switch (a.dtype) {
  case DType::I8:
    return a.as<int8_t>()[i];
  case DType::U8:
    return a.as<uint8_t>()[i];
  case DType::I16:
    return a.as<int16_t>()[i];
  case DType::U16:
    return a.as<uint16_t>()[i];
  case DType::I32:
    return a.as<int32_t>()[i];
  case DType::U32:
    return a.as<uint32_t>()[i];
  case DType::I64:
    return a.as<int64_t>()[i];
  default:
    ADD_FAILURE() << "not an integer type";
    return 0;
  }
}

double realAt(const NpyArray &a, size_t i) {
  switch (a.dtype) {
  case DType::F16:
    return halfToFloat(a.as<uint16_t>()[i]);
  case DType::F32:
    return a.as<float>()[i];
  case DType::F64:
    return a.as<double>()[i];
  default:
    ADD_FAILURE() << "not a float type";
    return 0;
  }
}

/// Parses a file of row \p r in byte order \p order and checks every value.
void expectValues(const OrderRow &r, char order) {
  unsigned width = unsigned(dtypeSize(r.Ty));
  std::string le = littleEndian(r.Bits, width);
  std::string payload = le;
  if (order == '>')
    for (size_t i = 0; i < payload.size(); i += width)
      std::reverse(payload.begin() + i, payload.begin() + i + width);
  std::string descr = std::string(1, order) + r.Code;
  std::string what = "descr '" + descr + "'";
  llvm::Expected<NpyArray> a =
      parseNpy(makeNpy("{'descr': '" + descr +
                           "', 'fortran_order': False, "
                           "'shape': (4,), }",
                       payload),
               "order.npy");
  ASSERT_TRUE(bool(a)) << what << ": " << errorText(a.takeError());
  EXPECT_EQ(a->dtype, r.Ty) << what;
  EXPECT_EQ(a->data, std::vector<uint8_t>(le.begin(), le.end()))
      << what << ": elements are not held little-endian";
  for (size_t i = 0; i < 4; ++i) {
    if (!r.Ints.empty())
      EXPECT_EQ(intAt(*a, i), r.Ints[i]) << what << " element " << i;
    else
      EXPECT_EQ(realAt(*a, i), r.Reals[i]) << what << " element " << i;
  }
}

} // namespace

TEST(Npy, EveryByteOrderOfEveryType) {
  // '=' is native order; this project runs on little-endian hosts only.
  ASSERT_TRUE(llvm::sys::IsLittleEndianHost);
  ASSERT_EQ(orderRows().size(), std::size(AllDTypes));
  for (const OrderRow &r : orderRows())
    for (char order : {'<', '>', '='})
      expectValues(r, order);
}

TEST(Npy, NotApplicableOrderIsNative) {
  // numpy writes one-byte types with '|', and reads '|' on a wider type as
  // native order (np.load of a '|i4' header gives int32 in host order).
  for (const OrderRow &r : orderRows())
    expectValues(r, '|');
}

TEST(Npy, BoolIsRejected) {
  // numpy's bool ('|b1') has no DType here: an error naming the descr.
  for (const char *descr : {"|b1", "<b1", "=b1"})
    expectParseError(makeNpy(std::string("{'descr': '") + descr +
                                 "', 'fortran_order': False, 'shape': (1,)}",
                             std::string(1, '\1')),
                     std::string("unsupported dtype descr '") + descr + "'");
}

TEST(Npy, WriterUsesLittleEndianDescrs) {
  // numpy's own descrs for what it writes on a little-endian host.
  for (const OrderRow &r : orderRows()) {
    unsigned width = unsigned(dtypeSize(r.Ty));
    std::string le = littleEndian(r.Bits, width);
    NpyArray a(r.Ty, {4});
    std::memcpy(a.data.data(), le.data(), le.size());
    llvm::Expected<std::string> bytes = serializeNpy(a);
    ASSERT_TRUE(bool(bytes)) << errorText(bytes.takeError());
    std::string descr = (width == 1 ? "|" : "<") + std::string(r.Code);
    EXPECT_NE(bytes->find("'descr': '" + descr + "'"), std::string::npos)
        << descr << " missing from " << bytes->substr(0, 64);
    EXPECT_EQ(bytes->substr(bytes->size() - le.size()), le) << descr;
  }
}

TEST(Npy, MalformedInputs) {
  std::string good4(4, '\0');
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
  expectParseError(makeNpy("{'fortran_order': False, 'shape': (1,)}", good4),
                   "no 'descr' key");
  expectParseError(makeNpy("{'descr': '<i4', 'shape': (1,)}", good4),
                   "no 'fortran_order' key");
  expectParseError(makeNpy("{'descr': '<i4', 'fortran_order': False}", good4),
                   "no 'shape' key");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': True, 'shape': (1,)}", good4),
      "Fortran-order arrays are not supported");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': Maybe, 'shape': (1,)}", good4),
      "'fortran_order' must be True or False");
  expectParseError(
      makeNpy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,)}", good4),
      "unsupported dtype descr '<c8'");
  expectParseError(
      makeNpy("{'descr': '<u8', 'fortran_order': False, 'shape': (1,)}", good4),
      "unsupported dtype descr '<u8'");
  expectParseError(
      makeNpy(
          "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,)}",
          good4),
      "expected a quoted string");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (-1,)}",
              good4),
      "non-negative integers");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': 4}", good4),
      "'shape' must be a tuple");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), "
              "'extra': 1}",
              good4),
      "unexpected key 'extra'");
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (1,)} x",
              good4),
      "trailing characters");
  // A header that claims a huge array must not allocate it.
  expectParseError(makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': "
                           "(1000000000000, 1000000000000)}",
                           good4),
                   "is too large");
  expectParseError(makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': "
                           "(100000000, 100)}",
                           good4),
                   "needs 80000000000 bytes but the file has 4");
  // Too short and too long payloads.
  expectParseError(
      makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,)}", good4),
      "needs 8 bytes but the file has 4");
  expectParseError(
      makeNpy("{'descr': '<i2', 'fortran_order': False, 'shape': (1,)}", good4),
      "needs 2 bytes but the file has 4");
  expectParseError(makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': "
                           "(1,)}\xc3\xa9",
                           good4),
                   "non-ASCII");
}

TEST(Npy, TruncatedFilesNeverCrash) {
  NpyArray a = randomArray(DType::F32, {3, 4}, 42);
  std::string bytes = *serializeNpy(a);
  for (size_t n = 0; n < bytes.size(); ++n) {
    llvm::Expected<NpyArray> b = parseNpy(bytes.substr(0, n), "t.npy");
    ASSERT_FALSE(bool(b)) << "prefix of " << n << " bytes parsed";
    llvm::consumeError(b.takeError());
  }
}

// Reads files written by numpy itself, with values that the test recomputes.
TEST(Npy, ReadsFilesWrittenByNumpy) {
  TempDir d;
  std::string script =
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
  std::string scriptPath = d.file("gen.py");
  std::ofstream(scriptPath) << script;
  std::string cmd =
      std::string(BANGC_SYSTEM_PYTHON) + " " + scriptPath + " " + d.Path;
  ASSERT_EQ(std::system(cmd.c_str()), 0) << "numpy generator failed: " << cmd;

  llvm::Expected<NpyArray> f32 = readNpy(d.file("f32.npy"));
  ASSERT_TRUE(bool(f32)) << errorText(f32.takeError());
  EXPECT_EQ(f32->dtype, DType::F32);
  EXPECT_EQ(f32->shape, (std::vector<int64_t>{2, 3, 4}));
  for (int i = 0; i < 24; ++i)
    EXPECT_EQ(f32->as<float>()[i], float(i) * 0.5f - 3) << i;

  llvm::Expected<NpyArray> f16 = readNpy(d.file("f16.npy"));
  ASSERT_TRUE(bool(f16)) << errorText(f16.takeError());
  EXPECT_EQ(f16->dtype, DType::F16);
  const float f16Expect[] = {1.0f, -0.333333f, 65504.0f, 1e-7f};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(f16->as<uint16_t>()[i], floatToHalf(f16Expect[i])) << i;

  llvm::Expected<NpyArray> i8 = readNpy(d.file("i8.npy"));
  ASSERT_TRUE(bool(i8)) << errorText(i8.takeError());
  EXPECT_EQ(i8->dtype, DType::I8);
  EXPECT_EQ(i8->as<int8_t>()[0], -128);
  EXPECT_EQ(i8->as<int8_t>()[3], 127);

  llvm::Expected<NpyArray> u16 = readNpy(d.file("u16.npy"));
  ASSERT_TRUE(bool(u16)) << errorText(u16.takeError());
  EXPECT_EQ(u16->as<uint16_t>()[1], 65535);
  EXPECT_EQ(u16->as<uint16_t>()[3], 2);

  llvm::Expected<NpyArray> i64 = readNpy(d.file("i64.npy"));
  ASSERT_TRUE(bool(i64)) << errorText(i64.takeError());
  EXPECT_TRUE(i64->shape.empty());
  EXPECT_EQ(i64->as<int64_t>()[0], -(int64_t(1) << 40));

  llvm::Expected<NpyArray> be = readNpy(d.file("be.npy"));
  ASSERT_TRUE(bool(be)) << errorText(be.takeError());
  EXPECT_EQ(be->as<int32_t>()[2], 2);

  llvm::Expected<NpyArray> v2 = readNpy(d.file("v2.npy"));
  ASSERT_TRUE(bool(v2)) << errorText(v2.takeError());
  EXPECT_EQ(v2->as<uint32_t>()[4], 4u);

  llvm::Expected<NpyArray> v3 = readNpy(d.file("v3.npy"));
  ASSERT_TRUE(bool(v3)) << errorText(v3.takeError());
  EXPECT_EQ(v3->as<double>()[4], 4.0);

  llvm::Expected<NpyArray> fort = readNpy(d.file("fort.npy"));
  ASSERT_FALSE(bool(fort));
  EXPECT_NE(errorText(fort.takeError()).find("Fortran-order"),
            std::string::npos);
}

// Files this library writes are read back by numpy with the same values.
TEST(Npy, NumpyReadsOurFiles) {
  TempDir d;
  NpyArray a(DType::I16, {2, 3});
  for (int i = 0; i < 6; ++i)
    a.as<int16_t>()[i] = int16_t(i * 1000 - 2500);
  ASSERT_FALSE(bool(writeNpy(d.file("ours.npy"), a)));
  std::string check =
      std::string(BANGC_SYSTEM_PYTHON) +
      " -c \"import numpy as np, sys; a = np.load(sys.argv[1]); "
      "sys.exit(0 if a.dtype == np.int16 and a.shape == (2, 3) and "
      "(a.ravel() == np.arange(6) * 1000 - 2500).all() else 1)\" " +
      d.file("ours.npy");
  EXPECT_EQ(std::system(check.c_str()), 0);
}
