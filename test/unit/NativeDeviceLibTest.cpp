//===- NativeDeviceLibTest.cpp - The precompiled device library -----------===//
#include "codegen/NativeDeviceLib.h"

#include "bang/Embedded.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

using namespace llvm;

namespace {

/// What the bitcode form defines for kernels to call.
StringSet<> bitcodeExports() {
  LLVMContext context;
  MemoryBufferRef buffer(bangc::deviceLibraryBitcode(), "devicelib.bc");
  auto m = cantFail(parseBitcodeFile(buffer, context));
  StringSet<> names;
  for (const Function &f : *m)
    if (!f.isDeclaration() && f.hasExternalLinkage())
      names.insert(f.getName());
  return names;
}

} // namespace

// The native library is the bitcode's functions, one for one: a kernel that
// links against it finds every intrinsic the bitcode would have inlined.
TEST(NativeDeviceLib, ExportsEveryFunctionOfTheBitcode) {
  const bangc::NativeDeviceLibrary &lib = bangc::nativeDeviceLibrary();
  StringSet<> expected = bitcodeExports();
  ASSERT_GT(expected.size(), 200u) << "the device library lost its intrinsics";
  StringSet<> seen;
  for (const bangc::NativeSymbol &s : lib.symbols) {
    EXPECT_NE(s.address, nullptr) << s.name;
    EXPECT_TRUE(expected.contains(s.name))
        << s.name << " is not in the bitcode";
    EXPECT_TRUE(seen.insert(s.name).second) << s.name << " twice";
  }
  EXPECT_EQ(seen.size(), expected.size());
  EXPECT_TRUE(seen.contains("_Z10__bang_addPfPKfS1_i"));
}

// Built and tested on one machine: the library is for this host, and it is
// what the compiler is given.
TEST(NativeDeviceLib, MatchesTheHostItWasBuiltOn) {
  const bangc::NativeDeviceLibrary &lib = bangc::nativeDeviceLibrary();
  EXPECT_NE(StringRef(lib.cpu), "");
  if (!lib.matchesHost())
    GTEST_SKIP() << "built for " << lib.cpu << ", run on another CPU";
  EXPECT_EQ(bangc::usableNativeDeviceLibrary(), &lib);
}
