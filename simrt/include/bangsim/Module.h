//===- Module.h - Compile BANG sources into launchable modules -*- C++ -*-===//
#ifndef BANGSIM_MODULE_H
#define BANGSIM_MODULE_H

#include "bangsim/CompileOptions.h"
#include "bangsim/Device.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bangc {
class JITModule;
}

namespace bangsim {

/// A compiled module: its kernels, ready to launch on any Device with the
/// spec it was compiled for.
class Module {
public:
  /// Compiles a .mlu file for `spec`. A program with errors gives
  /// bangc::CompileFailed after printing clang-style diagnostics.
  static llvm::Expected<std::unique_ptr<Module>>
  compileFile(llvm::StringRef path, const DeviceSpec &spec,
              const CompileOptions &options = {});
  /// The same for source text; `name` is used in diagnostics.
  static llvm::Expected<std::unique_ptr<Module>>
  compileString(llvm::StringRef name, llvm::StringRef source,
                const DeviceSpec &spec, const CompileOptions &options = {});
  /// Links host objects a compile already produced (the device object of a
  /// .mlu's host compilation, docs/host-code.md) for `spec`, which must be
  /// the spec they were compiled for.
  static llvm::Expected<std::unique_ptr<Module>>
  loadObjects(std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
              const DeviceSpec &spec);
  ~Module();

  const std::vector<Kernel> &kernels() const { return kernelList; }
  const StaticLayout &staticLayout() const { return layout; }
  const CompileTimes &times() const { return compileTimes; }

  /// A kernel by symbol name, by pretty name ("vadd<float>"), or by base
  /// name ("vadd") when that is unique.
  llvm::Expected<const Kernel *> findKernel(llvm::StringRef name) const;

private:
  Module();
  static llvm::Expected<std::unique_ptr<Module>>
  compileSource(llvm::StringRef name, std::optional<llvm::StringRef> source,
                const DeviceSpec &spec, const CompileOptions &options);
  void collectKernels();
  std::unique_ptr<bangc::JITModule> jit;
  std::vector<Kernel> kernelList;
  StaticLayout layout;
  CompileTimes compileTimes;
};

} // namespace bangsim

#endif // BANGSIM_MODULE_H
