//===- CompileFuzzer.cpp - libFuzzer target: source text to host code -----===//
//
// Compiles each input as a .mlu source through the whole compiler: Clang with
// the BANG prelude and checks, our passes, the O2 pipeline and host object
// emission. A bad program must end in diagnostics, never a crash, a hang or a
// sanitizer report. Odd-sized inputs also get --check instrumentation, so the
// access-check pass sees the same programs.
//
//===----------------------------------------------------------------------===//
#include "codegen/Output.h"
#include "codegen/Pipeline.h"
#include "frontend/Frontend.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef source(reinterpret_cast<const char *>(data), size);
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  bangc::FrontendOptions fe;
  fe.diagnostics = &diagStream;
  llvm::LLVMContext context;
  auto module = bangc::compileToIR("fuzz.mlu", source, fe, context);
  if (!module) {
    llvm::consumeError(module.takeError());
    return 0;
  }
  bangc::CodegenOptions cg;
  cg.checkAccesses = size % 2 == 1;
  cg.diagnostics = &diagStream;
  if (llvm::Error e = bangc::optimizeModule(**module, cg)) {
    llvm::consumeError(std::move(e));
    return 0;
  }
  llvm::SmallString<0> object;
  llvm::raw_svector_ostream out(object);
  if (llvm::Error e = bangc::writeModule(**module, bangc::OutputKind::Object,
                                         cg.optLevel, out))
    llvm::consumeError(std::move(e));
  return 0;
}
