//===- CompileOptions.h - The options of one compile ----------*- C++ -*-===//
//
// The public options of a compile (the host API's Module::compileFile and
// the CLI both start from them) and what a compile reports: its times and
// what the compile cache did. They belong to the driver (driver/), which
// turns them into the frontend's and codegen's options in one place
// (driver/CompilerInvocation.h); bangsim/Module.h includes this header, so
// users include that one as before. Every field is listed in
// bangsim/CompileOptions.def, keyed in the compile cache or not, and why.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_COMPILEOPTIONS_H
#define BANGSIM_COMPILEOPTIONS_H

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace bangsim {

struct CompileOptions {
  std::vector<std::string> includeDirs; ///< -I
  std::vector<std::string> defines;     ///< -D, "NAME" or "NAME=VALUE"
  int optLevel = 2;                     ///< -O0..3
  bool debugInfo = false;               ///< -g (full debug info in the object)
  /// -std=: the C++ standard of the source (c++17, gnu++20, ...); both
  /// compilations of a host + device source and host .cpp files use it.
  std::string languageStandard = "c++17";
  bool checkAccesses = false;           ///< --check
  /// --check=race: also check the scalar loads and stores of on-chip
  /// variables (__nram__, __wram__, __mlu_shared__), so that the race check
  /// (LaunchOptions::checkRaces) sees them; with checkAccesses, every scalar
  /// access of kernel code is seen.
  bool checkRaces = false;
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

} // namespace bangsim

#endif // BANGSIM_COMPILEOPTIONS_H
