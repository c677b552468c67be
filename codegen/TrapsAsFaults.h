//===- TrapsAsFaults.h - Device faults instead of host traps ----*- C++ -*-===//
#ifndef BANGC_TRAPSASFAULTS_H
#define BANGC_TRAPSASFAULTS_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Integer division by zero, INT_MIN / -1 and __builtin_trap() in kernel
/// code become device faults naming the source line (not SIGFPE/SIGILL of
/// the host process), and every function probes its stack frame page by
/// page, so that an overflowing task hits its stack's guard region.
struct TrapsAsFaultsPass : llvm::PassInfoMixin<TrapsAsFaultsPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
