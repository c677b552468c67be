//===- CompileActivity.h - The compiles running in this process -*- C++ -*-===//
//
// Each compile marks itself while it runs (a CompileScope): every compile of
// the host API goes through compileCached, which does, and the CLI's compile
// command marks its own steps. Whoever wants to bound compiles (the
// bangc-sim watchdog of --max-compile-seconds and --max-compile-memory,
// tools/CompileWatchdog.h) asks which compile has been running longest,
// whatever code started it (run, an operator's kernels, LayerGroup's group
// kernels), and leaves launches, which are not compiles, alone.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_DRIVER_COMPILEACTIVITY_H
#define BANGSIM_DRIVER_COMPILEACTIVITY_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace bangsim {

/// Marks a compile of `name` (its source's name) as running for the
/// lifetime of the object. Scopes may nest and overlap across threads.
class CompileScope {
public:
  explicit CompileScope(llvm::StringRef name);
  ~CompileScope();
  CompileScope(const CompileScope &) = delete;
  CompileScope &operator=(const CompileScope &) = delete;

private:
  uint64_t id;
};

/// A running compile.
struct RunningCompile {
  uint64_t id; ///< unique in the process, increasing with the start
  std::string name;
  std::chrono::steady_clock::time_point start;
};

/// The running compile that started first; none when no compile runs.
std::optional<RunningCompile> oldestRunningCompile();

} // namespace bangsim

#endif // BANGSIM_DRIVER_COMPILEACTIVITY_H
