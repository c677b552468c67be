//===- Pipeline.h - From Clang's IR to optimised host code ----*- C++ -*-===//
#ifndef BANGC_PIPELINE_H
#define BANGC_PIPELINE_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <optional>
#include <string>

namespace bangc {

struct NativeDeviceLibrary;

struct CodegenOptions {
  int optLevel = 2;           ///< -O0..-O3
  bool checkAccesses = false; ///< --check: instrument scalar loads/stores
  /// --check=race: instrument those of on-chip variables too
  bool checkOnChipAccesses = false;
  llvm::raw_ostream *diagnostics = nullptr; ///< stderr when null
  /// The precompiled device library kernels may call (NativeDeviceLib.h), or
  /// null: then every intrinsic body is linked from the bitcode.
  const NativeDeviceLibrary *nativeDeviceLib = nullptr;
  /// -f[no-]inline-intrinsics: link and inline the intrinsics' bodies into
  /// each call site rather than call the native library. Default: at -O3.
  std::optional<bool> inlineIntrinsics;
};

/// True if `options` link the device library's bitcode into the module
/// (inlined intrinsics), false if its calls go to the native library.
bool inlinesIntrinsics(const CodegenOptions &options);

/// Registers the host target with LLVM (once; later calls return at once).
void initializeHostTarget();

/// A TargetMachine for the host CPU (the one the JIT runs on).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(int optLevel);

/// Runs the BANG passes, then LLVM's -O<n> pipeline tuned for the host, on
/// `m`. Errors are printed clang-style and returned as CompileFailed.
llvm::Error optimizeModule(llvm::Module &m, const CodegenOptions &options);

/// optimizeModule in two halves: the BANG passes, which see the whole module
/// (kernels, entry wrappers, the module descriptor); then LLVM's -O<n>
/// pipeline and what follows it, which may run on parts of the module
/// (SplitKernels.h) in parallel.
llvm::Error runBangPasses(llvm::Module &m, const CodegenOptions &options);
llvm::Error runOptimizationPipeline(llvm::Module &m,
                                    const CodegenOptions &options);

/// Compiles the device library itself (`m`, its bitcode) for the host at
/// -O<optLevel>, with the passes a kernel's intrinsic bodies get (host
/// target, the -O<n> pipeline, widened half compares): what
/// bangc-devicelib-gen runs once at build time.
llvm::Error optimizeDeviceLibrary(llvm::Module &m, int optLevel);

/// Runs only `pipeline`, a comma-separated list of pass names (ours are
/// listed in codegen/Passes.def; LLVM's pass names work too). For testing
/// passes alone.
llvm::Error runPassPipeline(llvm::Module &m, llvm::StringRef pipeline,
                            const CodegenOptions &options);

} // namespace bangc

#endif // BANGC_PIPELINE_H
