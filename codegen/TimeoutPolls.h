//===- TimeoutPolls.h - Loops look at the launch's stop flag ----*- C++ -*-===//
#ifndef BANGC_TIMEOUTPOLLS_H
#define BANGC_TIMEOUTPOLLS_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// At every loop header and at the entry of each directly recursive function
/// of kernel code, reads task->stop and leaves the task once it is set, so
/// that --timeout (and a fault of another task) stops a loop that calls
/// nothing. Runs after LLVM's -O<n> pipeline: the loops are already
/// vectorised and unrolled, and the poll costs one load and one predictable
/// branch per iteration of what remains.
struct TimeoutPollsPass : llvm::PassInfoMixin<TimeoutPollsPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
