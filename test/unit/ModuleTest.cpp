//===- ModuleTest.cpp - Compiling through the host API -------------------===//
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace bangsim;

namespace {

// Every line of a failed compile, the summary included, goes to the stream
// the caller gave: a host program (or a fuzzer) owns its stderr.
TEST(Module, DiagnosticsGoWhereTheCallerSays) {
  std::string diags;
  llvm::raw_string_ostream os(diags);
  CompileOptions options;
  options.diagnostics = &os;
  testing::internal::CaptureStderr();
  auto m = Module::compileString("bad.mlu",
                                 "__mlu_global__ void k(int *a) { a[0] = ; }",
                                 defaultDeviceSpec(), options);
  std::string stderrText = testing::internal::GetCapturedStderr();
  ASSERT_FALSE(bool(m));
  llvm::consumeError(m.takeError());
  EXPECT_NE(diags.find("bad.mlu:1:40: error: expected expression"),
            std::string::npos)
      << diags;
  EXPECT_NE(diags.find("1 error generated."), std::string::npos) << diags;
  EXPECT_EQ(stderrText, "");
}

} // namespace
