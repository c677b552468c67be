//===- Commands.h - The subcommands of bangc-sim --------------*- C++ -*-===//
#ifndef BANGC_TOOLS_COMMANDS_H
#define BANGC_TOOLS_COMMANDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace bangc::tools {

/// Each takes the arguments after the subcommand's name and returns the
/// process exit status: 0 success, 1 compile or input error, 2 usage error,
/// 3 device fault.
int compileMain(llvm::ArrayRef<const char *> argv);
int runMain(llvm::ArrayRef<const char *> argv);
int deviceMain(llvm::ArrayRef<const char *> argv);
/// bangc-sim op: runs an operator of the op library (kernels/).
int opMain(llvm::ArrayRef<const char *> argv);
/// bangc-sim graph: Task IR networks, and LayerGroup (--layer-group).
int graphMain(llvm::ArrayRef<const char *> argv);

/// Prints a compile error (diagnostics are already out) and returns 1.
int reportCompileError(llvm::Error e);

} // namespace bangc::tools

#endif
