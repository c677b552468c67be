//===- PassRegistryTest.cpp - Every BANG pass by name, with its lit test ---===//
//
// codegen/Passes.def is the list of our passes that `--passes=` runs alone.
// This checks each row: the name parses into a pass that runs on a module,
// and a lit test under test/lit/ runs it by that name, so that a new pass
// cannot land without its test; and that a name not in the table is
// refused.
//
//===----------------------------------------------------------------------===//
#include "codegen/Pipeline.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> passNames() {
  std::vector<std::string> names;
#define BANG_MODULE_PASS(NAME, CREATE) names.push_back(NAME);
#define BANG_FUNCTION_PASS(NAME, CREATE) names.push_back(NAME);
#include "codegen/Passes.def"
  return names;
}

/// The text of every lit test file under test/lit/.
std::vector<std::string> litTests() {
  std::vector<std::string> texts;
  std::error_code ec;
  std::string root = std::string(BANGC_SOURCE_DIR) + "/test/lit";
  for (llvm::sys::fs::recursive_directory_iterator it(root, ec), end;
       it != end && !ec; it.increment(ec)) {
    if (it->type() != llvm::sys::fs::file_type::regular_file)
      continue;
    if (auto buffer = llvm::MemoryBuffer::getFile(it->path()))
      texts.push_back((*buffer)->getBuffer().str());
  }
  return texts;
}

TEST(PassRegistry, EveryPassParsesAndRuns) {
  std::vector<std::string> names = passNames();
  ASSERT_GE(names.size(), 12u);
  for (const std::string &name : names) {
    llvm::LLVMContext context;
    llvm::Module m("empty", context);
    bangc::CodegenOptions options;
    llvm::Error e = bangc::runPassPipeline(m, name, options);
    EXPECT_FALSE(bool(e)) << name << ": " << llvm::toString(std::move(e));
  }
}

TEST(PassRegistry, UnknownPassRefused) {
  llvm::LLVMContext context;
  llvm::Module m("empty", context);
  llvm::Error e =
      bangc::runPassPipeline(m, "bang-no-such-pass", bangc::CodegenOptions());
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("unknown pass 'bang-no-such-pass'"),
            std::string::npos);
}

TEST(PassRegistry, EveryPassHasALitTest) {
  std::vector<std::string> tests = litTests();
  ASSERT_FALSE(tests.empty()) << "no lit tests under test/lit";
  for (const std::string &name : passNames()) {
    // --passes=a,b,NAME or --passes=NAME,... on a RUN line.
    llvm::Regex run("--passes=([a-z0-9,-]*,)?" + name + "([,[:space:]]|$)");
    bool found = false;
    for (const std::string &text : tests)
      found = found || run.match(text);
    EXPECT_TRUE(found) << name << " has no lit test running it by name "
                       << "(add one under test/lit/passes/)";
  }
}

} // namespace
