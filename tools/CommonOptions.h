//===- CommonOptions.h - Options shared by compile, run and op -*- C++ -*-===//
#ifndef BANGC_TOOLS_COMMONOPTIONS_H
#define BANGC_TOOLS_COMMONOPTIONS_H

#include "tools/Args.h"
#include "tools/CompileLimits.h"

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

  /// Consumes one option at the front of `args` if it is one of ours.
  bool parse(Args &args);
  /// The device spec named by --device; prints the error and returns none.
  std::optional<bangsim::DeviceSpec> loadDevice() const;
};

/// Reads --timeout SECONDS (run, op) into `seconds`: positive and finite
/// (nan and inf are not timeouts), at most a year (which bounds the
/// deadline's clock arithmetic). Returns the error message, or "".
std::string parseTimeout(llvm::StringRef text, double &seconds);

/// The help text of the common options (CompileLimitsHelp follows it).
extern const char *const CommonOptionsHelp;

} // namespace bangc::tools

#endif
