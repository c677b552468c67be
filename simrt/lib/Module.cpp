//===- Module.cpp - Compile BANG sources into launchable modules ----------===//
#include "bangsim/Module.h"

#include "codegen/JIT.h"
#include "codegen/Output.h"
#include "codegen/Pipeline.h"
#include "frontend/Frontend.h"

#include "llvm/IR/DebugInfo.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <optional>

using namespace bangsim;
using llvm::Expected;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

Module::Module() = default;
Module::~Module() = default;

/// Frontend, optimisation and codegen of one source to a host object;
/// records where the time went.
static Expected<std::unique_ptr<llvm::MemoryBuffer>>
compileToObject(llvm::StringRef name, std::optional<llvm::StringRef> source,
                const DeviceSpec &spec, const CompileOptions &options,
                CompileTimes &times) {
  auto start = Clock::now();
  llvm::LLVMContext context;
  bangc::FrontendOptions fe;
  fe.includeDirs = options.includeDirs;
  fe.defines = options.defines;
  fe.optLevel = options.optLevel;
  fe.debugInfo = options.debugInfo;
  fe.device = spec;
  fe.diagnostics = options.diagnostics;
  auto ir = bangc::compileToIR(name, source, fe, context);
  if (!ir)
    return ir.takeError();
  times.frontend = secondsSince(start);

  start = Clock::now();
  bangc::CodegenOptions cg;
  cg.optLevel = options.optLevel;
  cg.checkAccesses = options.checkAccesses;
  cg.diagnostics = options.diagnostics;
  if (llvm::Error e = bangc::optimizeModule(**ir, cg))
    return std::move(e);
  times.optimize = secondsSince(start);

  start = Clock::now();
  // Nothing reads line tables of JIT-run code (faults name source lines
  // from the tables SourceLocations built); without -g, codegen skips them.
  if (!options.debugInfo)
    llvm::StripDebugInfo(**ir);
  auto object = bangc::emitObject(**ir, options.optLevel);
  times.codegen = secondsSince(start);
  return object;
}

Expected<std::unique_ptr<Module>>
Module::compileSource(llvm::StringRef name,
                      std::optional<llvm::StringRef> source,
                      const DeviceSpec &spec, const CompileOptions &options) {
  std::unique_ptr<Module> m(new Module());
  auto object = compileToObject(name, source, spec, options, m->compileTimes);
  if (!object)
    return object.takeError();
  auto start = Clock::now();
  auto jit = bangc::JITModule::createFromObject(std::move(*object),
                                                runtimeSymbols());
  if (!jit)
    return jit.takeError();
  m->compileTimes.jit = secondsSince(start);
  m->jit = std::move(*jit);
  m->collectKernels();
  return std::move(m);
}

Expected<std::unique_ptr<Module>>
Module::compileFile(llvm::StringRef path, const DeviceSpec &spec,
                    const CompileOptions &options) {
  return compileSource(path, std::nullopt, spec, options);
}

Expected<std::unique_ptr<Module>>
Module::compileString(llvm::StringRef name, llvm::StringRef source,
                      const DeviceSpec &spec, const CompileOptions &options) {
  return compileSource(name, source, spec, options);
}

void Module::collectKernels() {
  const BangModuleDesc &desc = jit->descriptor();
  for (int i = 0; i < desc.numKernels; ++i) {
    const BangKernelDesc &k = desc.kernels[i];
    kernelList.push_back(Kernel{k.name, k.pretty, k.signature, k.entry,
                                k.file ? k.file : "", k.line});
  }
  for (int s = 0; s < 3; ++s)
    layout.bytes[s] = desc.staticBytes[s];
  layout.inits.assign(desc.inits, desc.inits + desc.numInits);
}

Expected<const Kernel *> Module::findKernel(llvm::StringRef name) const {
  for (const Kernel &k : kernelList)
    if (k.name == name || k.pretty == name)
      return &k;
  const Kernel *found = nullptr;
  std::string candidates;
  for (const Kernel &k : kernelList) {
    llvm::StringRef base = llvm::StringRef(k.pretty).split('<').first;
    candidates += (candidates.empty() ? "" : ", ") + k.pretty;
    if (base != name)
      continue;
    if (found)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "kernel name '%s' is ambiguous; name one of: %s", name.str().c_str(),
          candidates.c_str());
    found = &k;
  }
  if (found)
    return found;
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(), "no kernel '%s' in the module%s%s",
      name.str().c_str(), candidates.empty() ? " (it has no kernels)" : "; it has: ",
      candidates.c_str());
}
