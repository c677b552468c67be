//===- Module.cpp - Compile BANG sources into launchable modules ----------===//
//
// The host API's modules: the driver (driver/Compile.h) compiles the source,
// through the compile cache, to host objects; this file links them into the
// process with the JIT and collects the kernels they define.
//
//===----------------------------------------------------------------------===//
#include "bangsim/Module.h"
#include "Sim.h"

#include "driver/Compile.h"

#include "codegen/JIT.h"
#include "codegen/NativeDeviceLib.h"

using namespace bangsim;
using llvm::Expected;

namespace {

/// What the JIT links kernels against: simrt's runtime functions and, when
/// this host can run it, the precompiled device library.
const bangc::RuntimeSymbols &jitSymbols() {
  static const bangc::RuntimeSymbols symbols = [] {
    bangc::RuntimeSymbols all = runtimeSymbols();
    if (const bangc::NativeDeviceLibrary *lib =
            bangc::usableNativeDeviceLibrary())
      for (const bangc::NativeSymbol &s : lib->symbols)
        all.emplace_back(s.name, s.address);
    return all;
  }();
  return symbols;
}

} // namespace

Module::Module() = default;
// An isolated launch's worker forked before a module came or went cannot
// run its kernels (or would run stale code at a reused address).
Module::~Module() {
  if (jit)
    noteModulesChanged();
}

Expected<std::unique_ptr<Module>>
Module::compileSource(llvm::StringRef name,
                      std::optional<llvm::StringRef> source,
                      const DeviceSpec &spec, const CompileOptions &options) {
  std::unique_ptr<Module> m(new Module());
  auto link = [&m](Objects objects) -> llvm::Error {
    auto jit =
        bangc::JITModule::createFromObjects(std::move(objects), jitSymbols());
    if (!jit)
      return jit.takeError();
    m->jit = std::move(*jit);
    noteModulesChanged();
    m->collectKernels();
    return llvm::Error::success();
  };
  if (llvm::Error e =
          compileCached(name, source, spec, options, m->compileTimes, link))
    return std::move(e);
  return std::move(m);
}

Expected<std::unique_ptr<Module>>
Module::loadObjects(Objects objects, const DeviceSpec &spec) {
  (void)spec; // the objects carry what the spec decided at compile time
  std::unique_ptr<Module> m(new Module());
  auto jit =
      bangc::JITModule::createFromObjects(std::move(objects), jitSymbols());
  if (!jit)
    return jit.takeError();
  m->jit = std::move(*jit);
  noteModulesChanged();
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
    Kernel kernel{k.name, k.pretty, k.signature, k.entry,
                  k.file ? k.file : "", k.line};
    if (k.params)
      kernel.params.assign(k.params, k.params + kernel.signature.size());
    kernelList.push_back(std::move(kernel));
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
