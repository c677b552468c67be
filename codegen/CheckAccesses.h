//===- CheckAccesses.h - Checks every scalar load and store of kernel code (--check mode). ---*- C++ -*-===//
#ifndef BANGC_CHECKACCESSES_H
#define BANGC_CHECKACCESSES_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Checks every scalar load and store of kernel code (--check mode).
struct CheckAccessesPass : llvm::PassInfoMixin<CheckAccessesPass> {
  enum Which {
    /// Before the BANG lowering: every access except those of locals and
    /// module globals (__nram__ variables are globals then).
    Plain,
    /// After MemorySpacesPass (--check=race): the accesses of on-chip
    /// variables, now addresses in the task context's NRAM, WRAM or SRAM.
    OnChipVariables,
  };
  explicit CheckAccessesPass(Which which = Plain) : which(which) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);

private:
  Which which;
};

} // namespace bangc

#endif
