//===- Args.h - A small command-line reader for bangc-sim -----*- C++ -*-===//
//
// Options in the forms compilers and CNRT tools use: `--name value`,
// `--name=value`, `-Dvalue`/`-D value`, `-O2`, and positional arguments.
// An unknown option is a usage error (exit 2).
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TOOLS_ARGS_H
#define BANGC_TOOLS_ARGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace bangc::tools {

class Args {
public:
  explicit Args(llvm::ArrayRef<const char *> argv) : argv(argv) {}

  bool done() const { return pos >= argv.size(); }
  llvm::StringRef peek() const { return argv[pos]; }

  /// `--name` alone.
  bool flag(llvm::StringRef name);
  /// `--name value` or `--name=value` (for one-dash names like -o, also
  /// `-ovalue` when `joined`).
  std::optional<std::string> value(llvm::StringRef name, bool joined = false);
  /// The next argument as a positional one (anything not starting with '-',
  /// or "-" itself).
  std::optional<std::string> positional();

  /// Set when a value is missing after an option that needs one.
  std::string error;

private:
  llvm::ArrayRef<const char *> argv;
  size_t pos = 0;
};

/// Prints `message` as bangc-sim's usage error and returns 2.
int usageError(llvm::StringRef command, const llvm::Twine &message);

} // namespace bangc::tools

#endif
