//===- HostCodeTest.cpp - Source kinds and the device image ---------------===//
//
// Which sources hold host code (frontend/SourceKind.h), the device image a
// host object embeds (driver/FatBinary.h) and the two compilations of a
// host + device source (driver/HostCode.h): the image's object is what the
// device side alone compiles, with the kernels the host side registers.
//
//===----------------------------------------------------------------------===//
#include "driver/FatBinary.h"
#include "driver/HostCode.h"
#include "frontend/SourceKind.h"

#include "bangsim/KernelABI.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace bangsim;

namespace {

TEST(SourceKind, LaunchesAndMainAreHostCode) {
  EXPECT_TRUE(bangc::isHostAndDeviceSource("void f() { k<<<d, t, q>>>(1); }"));
  EXPECT_TRUE(bangc::isHostAndDeviceSource("int main() { return 0; }"));
  EXPECT_TRUE(bangc::isHostAndDeviceSource("int main (int c, char **v) {}"));
}

TEST(SourceKind, CommentsLiteralsShiftsAndMembersAreNot) {
  EXPECT_FALSE(bangc::isHostAndDeviceSource(
      "__mlu_global__ void k(int *x) { x[0] = 1 << 3; }"));
  EXPECT_FALSE(bangc::isHostAndDeviceSource("// k<<<d, t, q>>>(1);\n"
                                            "/* int main() */"));
  EXPECT_FALSE(
      bangc::isHostAndDeviceSource("const char *s = \"k<<<1,2,3>>>() main()\";"));
  EXPECT_FALSE(bangc::isHostAndDeviceSource("void f(S s) { s.main(); }"));
  EXPECT_FALSE(bangc::isHostAndDeviceSource("void f(S *s) { s->main(); }"));
  EXPECT_FALSE(bangc::isHostAndDeviceSource("void f() { ns::main(); }"));
  EXPECT_FALSE(bangc::isHostAndDeviceSource("int mainly() { return 0; }"));
  // a << <b>: two tokens apart is no launch.
  EXPECT_FALSE(bangc::isHostAndDeviceSource("int x = a << (b < c);"));
}

TEST(FatBinary, RoundTrips) {
  std::string object = "\x7f" "ELF and more bytes";
  FatBinary fat{"mtp_372", object, "dir/app.mlu"};
  llvm::SmallVector<char, 0> image = writeFatBinary(fat);
  EXPECT_EQ(image.size() % 8, 0u);
  EXPECT_EQ(llvm::StringRef(image.data(), 8), "BANGFAT1");
  EXPECT_EQ(llvm::support::endian::read64le(image.data() + 16), image.size());
  auto back = readFatBinary(image.data());
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->device, "mtp_372");
  EXPECT_EQ(back->object, object);
  EXPECT_EQ(back->sourceName, "dir/app.mlu");
}

std::string errorOf(const llvm::SmallVector<char, 0> &image) {
  auto fat = readFatBinary(image.data());
  return fat ? "" : llvm::toString(fat.takeError());
}

TEST(FatBinary, RefusesWhatIsNotAnImage) {
  llvm::SmallVector<char, 0> good =
      writeFatBinary(FatBinary{"mlu370", "object", "a.mlu"});
  EXPECT_EQ(errorOf(good), "");
  EXPECT_FALSE(bool(readFatBinary(nullptr)));

  auto bad = good;
  bad[0] = 'X';
  EXPECT_NE(errorOf(bad).find("no BANGFAT1 magic"), std::string::npos);
  bad = good;
  llvm::support::endian::write32le(bad.data() + 8, 2);
  EXPECT_NE(errorOf(bad).find("format version 2"), std::string::npos);
  bad = good;
  llvm::support::endian::write32le(bad.data() + 12, BANGSIM_ABI_VERSION + 1);
  EXPECT_NE(errorOf(bad).find("kernel ABI"), std::string::npos);
  bad = good;
  llvm::support::endian::write64le(bad.data() + 16, 8);
  EXPECT_NE(errorOf(bad).find("smaller than its header"), std::string::npos);
  // The object's size runs past the stated total.
  bad = good;
  llvm::support::endian::write64le(bad.data() + 48, good.size());
  EXPECT_NE(errorOf(bad).find("outside"), std::string::npos);
  // An offset into the header.
  bad = good;
  llvm::support::endian::write64le(bad.data() + 40, 8);
  EXPECT_NE(errorOf(bad).find("outside"), std::string::npos);
}

/// The symbols an ELF object defines.
std::set<std::string> definedSymbols(llvm::StringRef bytes) {
  std::set<std::string> names;
  auto obj = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(bytes, "object"));
  if (!obj) {
    ADD_FAILURE() << llvm::toString(obj.takeError());
    return names;
  }
  for (const llvm::object::SymbolRef &sym : (*obj)->symbols()) {
    auto flags = sym.getFlags();
    auto name = sym.getName();
    if (flags && name && !(*flags & llvm::object::SymbolRef::SF_Undefined))
      names.insert(name->str());
  }
  return names;
}

TEST(HostCode, DeviceImageHoldsTheKernelsAndNoHostCode) {
  llvm::SmallString<128> path;
  int fd;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("hostcode", "mlu", fd, path));
  {
    llvm::raw_fd_ostream os(fd, true);
    os << "#include <cnrt.h>\n"
          "__mlu_func__ int twice(int x) { return 2 * x; }\n"
          "template <typename T> __mlu_global__ void fill(T *p, T v) {\n"
          "  p[taskId] = v + twice(taskId);\n"
          "}\n"
          "int host_only(int x) { return x + 1; }\n"
          "void launch(cnrtQueue_t q, float *p) {\n"
          "  cnrtDim3_t dim = {4, 1, 1};\n"
          "  fill<<<dim, cnrtFuncTypeBlock, q>>>(p, 1.0f);\n"
          "}\n";
  }
  CompileOptions options;
  auto spec = loadDeviceSpec("mtp_372");
  ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  auto image = compileDeviceImage(path, makeInvocation(options, *spec));
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(bool(image)) << llvm::toString(image.takeError());
  auto fat = readFatBinary(image->data());
  ASSERT_TRUE(bool(fat)) << llvm::toString(fat.takeError());
  EXPECT_EQ(fat->device, spec->name);
  std::set<std::string> symbols = definedSymbols(fat->object);
  EXPECT_TRUE(symbols.count("_Z4fillIfEvPT_S0_")) << "the launched instance";
  EXPECT_TRUE(symbols.count("__bangsim_module_desc"));
  EXPECT_FALSE(symbols.count("_Z9host_onlyi")) << "host code stays out";
  EXPECT_FALSE(symbols.count("_Z6launchP10CNqueue_stPf"));
}

} // namespace
