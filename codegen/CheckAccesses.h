//===- CheckAccesses.h - Checks every scalar load and store of kernel code (--check mode). ---*- C++ -*-===//
#ifndef BANGC_CHECKACCESSES_H
#define BANGC_CHECKACCESSES_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Checks every scalar load and store of kernel code (--check mode).
struct CheckAccessesPass : llvm::PassInfoMixin<CheckAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
