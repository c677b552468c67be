//===- ParallelCodegen.cpp - Host objects from several threads ------------===//
#include "codegen/ParallelCodegen.h"
#include "codegen/Output.h"
#include "codegen/Pipeline.h"
#include "codegen/SplitKernels.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/Support/Threading.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <cstdlib>
#include <string>
#include <thread>

using namespace llvm;
using namespace bangc;

unsigned bangc::defaultCodegenPartitions() {
  if (const char *env = std::getenv("BANGC_CODEGEN_THREADS")) {
    unsigned n = 0;
    if (!StringRef(env).getAsInteger(10, n) && n > 0)
      return n;
  }
  unsigned cores = heavyweight_hardware_concurrency().compute_thread_count();
  return std::max(1u, std::min(cores, 4u));
}

namespace {

using Objects = std::vector<std::unique_ptr<MemoryBuffer>>;
using PartWork = function_ref<Expected<std::unique_ptr<MemoryBuffer>>(
    Module &, raw_ostream &diagnostics)>;

SmallVector<char, 0> bitcodeOf(const Module &m) {
  SmallVector<char, 0> bytes;
  raw_svector_ostream os(bytes);
  WriteBitcodeToFile(m, os);
  return bytes;
}

/// Runs `work` on each part on its own thread. Each part crosses to its
/// thread as bitcode (an LLVMContext is not shared between threads); its
/// diagnostics are gathered and written to `diagnostics` in part order.
Expected<Objects> compileParts(std::vector<SmallVector<char, 0>> &bitcode,
                               StringRef identifier, PartWork work,
                               raw_ostream &diagnostics) {
  size_t n = bitcode.size();
  Objects objects(n);
  std::vector<std::string> errors(n), diags(n);
  auto compile = [&](size_t i) {
    LLVMContext context;
    MemoryBufferRef buffer(StringRef(bitcode[i].data(), bitcode[i].size()),
                           identifier);
    Expected<std::unique_ptr<Module>> part = parseBitcodeFile(buffer, context);
    if (!part) {
      errors[i] = toString(part.takeError());
      return;
    }
    raw_string_ostream os(diags[i]);
    auto object = work(**part, os);
    if (!object) {
      errors[i] = toString(object.takeError());
      return;
    }
    objects[i] = std::move(*object);
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < n; ++i)
    threads.emplace_back(compile, i);
  compile(0);
  for (std::thread &t : threads)
    t.join();
  for (const std::string &d : diags)
    diagnostics << d;
  for (const std::string &e : errors)
    if (!e.empty())
      return createStringError(inconvertibleErrorCode(), e);
  return std::move(objects);
}

/// LLVM's pipeline on `part`; then, unless kept, its line tables dropped:
/// nothing reads them in JIT-run code (faults name source lines from the
/// tables SourceLocations built).
Error optimizePart(Module &part, const CodegenOptions &options,
                   bool keepDebugInfo) {
  if (Error e = runOptimizationPipeline(part, options))
    return e;
  if (!keepDebugInfo)
    StripDebugInfo(part);
  return Error::success();
}

} // namespace

Expected<Objects> bangc::emitObjects(Module &m, int optLevel,
                                     unsigned partitions) {
  unsigned functions = 0;
  for (const Function &f : m)
    functions += !f.isDeclaration();
  if (partitions > 1 && functions < 2)
    partitions = 1;
  if (partitions <= 1) {
    auto object = emitObject(m, optLevel);
    if (!object)
      return object.takeError();
    Objects objects;
    objects.push_back(std::move(*object));
    return std::move(objects);
  }
  std::vector<SmallVector<char, 0>> bitcode;
  // Keep internal functions internal (each goes with its callers): once
  // externalized, an -O0 module's local copy of an intrinsic wrapper
  // (__memcpy) collides in the JIT with the native device library's.
  SplitModule(
      m, partitions,
      [&](std::unique_ptr<Module> part) {
        bitcode.push_back(bitcodeOf(*part));
      },
      /*PreserveLocals=*/true);
  return compileParts(
      bitcode, m.getModuleIdentifier(),
      [&](Module &part, raw_ostream &) { return emitObject(part, optLevel); },
      errs());
}

Expected<Objects> bangc::optimizeAndEmitObjects(Module &m,
                                                const CodegenOptions &options,
                                                bool keepDebugInfo,
                                                unsigned threads) {
  std::vector<std::unique_ptr<Module>> parts = splitByKernel(m, threads);
  if (parts.empty()) {
    if (Error e = optimizePart(m, options, keepDebugInfo))
      return std::move(e);
    return emitObjects(m, options.optLevel, threads);
  }
  std::vector<SmallVector<char, 0>> bitcode;
  for (const std::unique_ptr<Module> &part : parts)
    bitcode.push_back(bitcodeOf(*part));
  parts.clear();
  raw_ostream &diagnostics =
      options.diagnostics ? *options.diagnostics : errs();
  return compileParts(
      bitcode, m.getModuleIdentifier(),
      [&](Module &part,
          raw_ostream &os) -> Expected<std::unique_ptr<MemoryBuffer>> {
        CodegenOptions partOptions = options;
        partOptions.diagnostics = &os;
        if (Error e = optimizePart(part, partOptions, keepDebugInfo))
          return std::move(e);
        return emitObject(part, options.optLevel);
      },
      diagnostics);
}
