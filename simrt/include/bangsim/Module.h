//===- Module.h - Compile BANG sources into launchable modules -*- C++ -*-===//
#ifndef BANGSIM_MODULE_H
#define BANGSIM_MODULE_H

#include "bangsim/Device.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bangc {
class JITModule;
}

namespace bangsim {

struct CompileOptions {
  std::vector<std::string> includeDirs; ///< -I
  std::vector<std::string> defines;     ///< -D, "NAME" or "NAME=VALUE"
  int optLevel = 2;                     ///< -O0..3
  bool debugInfo = false;               ///< -g (full debug info in the object)
  bool checkAccesses = false;           ///< --check
  /// -f[no-]inline-intrinsics: inline every intrinsic body into its call
  /// site (specialised and vectorised there; a slower compile) instead of
  /// calling the device library precompiled for this CPU. Default: at -O3.
  std::optional<bool> inlineIntrinsics;
  /// Where diagnostics go (stderr when null).
  llvm::raw_ostream *diagnostics = nullptr;
  /// Use the on-disk compile cache (docs/cache.md): a module compiled before
  /// from the same source, headers, options, device spec and compiler is
  /// loaded without running Clang or the optimiser. False (`--no-cache`)
  /// never reads or writes it; so does BANGC_CACHE_DISABLE=1.
  bool useCache = true;
  /// The cache directory; empty means compileCacheDirectory().
  std::string cacheDir;
};

/// The compile cache directory: $BANGC_CACHE_DIR, else
/// $XDG_CACHE_HOME/bangc-sim, else ~/.cache/bangc-sim; empty if none of
/// these can be found.
std::string compileCacheDirectory();

/// What the compile cache did for one compile.
enum class CacheOutcome {
  Disabled, ///< not used (useCache false, BANGC_CACHE_DISABLE, no directory)
  Hit,      ///< loaded from the cache
  Miss,     ///< compiled, and stored
  NotStored ///< compiled; not stored (see CompileTimes::cacheNote)
};

/// Where a compile spent its time, in seconds, and what the cache did.
struct CompileTimes {
  double frontend = 0; ///< Clang: parse, check, emit IR
  double optimize = 0; ///< the BANG passes (on the whole module)
  /// LLVM's -O<n> pipeline and code generation: split by kernel over the
  /// host's cores (nvcc's -split-compile), or codegen split for one kernel
  double codegen = 0;
  double jit = 0;      ///< linking the object into the process
  double cache = 0;    ///< hashing, looking up and storing in the cache
  CacheOutcome cacheOutcome = CacheOutcome::Disabled;
  std::string cacheNote; ///< why an entry was not stored
  double total() const { return frontend + optimize + codegen + jit + cache; }
};

/// "cache hit", "cache miss (stored)", ... for --time lines.
std::string describeCache(const CompileTimes &times);

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
