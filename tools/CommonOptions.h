//===- CommonOptions.h - Options shared by compile, run and op -*- C++ -*-===//
//
// The option rows (tools/Args.h) that several commands share: the compile
// options of compile, run and op, and the launch options of run and op.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TOOLS_COMMONOPTIONS_H
#define BANGC_TOOLS_COMMONOPTIONS_H

#include "tools/Args.h"
#include "tools/CompileLimits.h"

#include "bangsim/Device.h"
#include "bangsim/DeviceSpec.h"
#include "bangsim/Module.h"

namespace bangc::tools {

/// -I, -D, -O<n>, -g, --check[=race], --device SPEC and the compile limits.
struct CommonOptions {
  bangsim::CompileOptions compile;
  CompileLimits limits;
  std::string device = "mlu370";
  /// --check=race: set LaunchOptions::checkRaces on the launches too.
  bool checkRaces = false;

  /// Their rows, the compile limits' last.
  std::vector<Option> options();
  /// The device spec named by --device; prints the error and returns none.
  std::optional<bangsim::DeviceSpec> loadDevice() const;
};

/// --trace, --profile, --stats-json, --threads, --timeout and --no-isolate:
/// how run and op launch kernels and what they report.
struct LaunchArgs {
  bangsim::LaunchOptions launch;
  std::string tracePath, statsPath;
  bool profile = false, noIsolate = false;

  /// Their rows; `what` names the launches in the help ("the launch").
  std::vector<Option> options(llvm::StringRef what);
  /// Writes what --profile, --trace and --stats-json ask for; prints the
  /// error and returns false if a file cannot be written.
  bool report(const bangsim::LaunchStats &stats) const;
};

} // namespace bangc::tools

#endif
