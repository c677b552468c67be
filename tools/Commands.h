//===- Commands.h - The subcommands of bangc-sim --------------*- C++ -*-===//
#ifndef BANGC_TOOLS_COMMANDS_H
#define BANGC_TOOLS_COMMANDS_H

#include "tools/Args.h" // parseOnly, parseAndRun

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace bangc::tools {

/// For each subcommand of Commands.def (compile, run, op, graph, device):
///  - NAMEMain takes the arguments after the subcommand's name and returns
///    the process exit status: 0 success, 1 compile or input error, 2 usage
///    error, 3 device fault;
///  - NAMEParse only reads those arguments (it reads no file and compiles
///    nothing): the exit status the command stops with there (0 after
///    --help, 2 for a usage error), or -1 when the command would go on.
///    Bad arguments are errors, never a crash (fuzz/ArgsFuzzer.cpp).
#define BANGC_COMMAND(NAME, SUMMARY)                                           \
  int NAME##Main(llvm::ArrayRef<const char *> argv);                           \
  int NAME##Parse(llvm::ArrayRef<const char *> argv);
#include "tools/Commands.def"

/// Prints a compile error (diagnostics are already out) and returns 1.
int reportCompileError(llvm::Error e);

} // namespace bangc::tools

#endif
