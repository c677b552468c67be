//===- CompileLimits.h - The limits of a compile's time, memory -*- C++ -*-===//
//
// A compile's time and memory have a bound, each with a default a user can
// raise: a program Clang accepts can still take hours or gigabytes (a
// template instantiated a million times over, in breadth, passes
// -ftemplate-depth and -fconstexpr-steps). These are the options of every
// command that compiles (compile, run, op, graph --layer-group); the
// watchdog that enforces them is tools/CompileWatchdog.h.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TOOLS_COMPILELIMITS_H
#define BANGC_TOOLS_COMPILELIMITS_H

#include "tools/Args.h"

#include <cstdint>
#include <vector>

namespace bangc::tools {

struct CompileLimits {
  /// Wall-clock seconds one compile may take; 0: no limit.
  uint64_t seconds = 300;
  /// MiB one compile may add to the process's resident memory; 0: no
  /// limit.
  uint64_t memoryMiB = 4096;

  /// Set when either limit is on the command line.
  bool given = false;

  /// The rows of --max-compile-seconds=N and --max-compile-memory=MIB, for
  /// a command's option table; `note` starts their help lines.
  std::vector<Option> options(llvm::StringRef note = "");
};

} // namespace bangc::tools

#endif // BANGC_TOOLS_COMPILELIMITS_H
