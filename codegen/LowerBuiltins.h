//===- LowerBuiltins.h - Turns taskId, coreId and the other builtin variables into task-context loads. ---*- C++ -*-===//
#ifndef BANGC_LOWERBUILTINS_H
#define BANGC_LOWERBUILTINS_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Turns taskId, coreId and the other builtin variables into task-context loads.
struct LowerBuiltinsPass : llvm::PassInfoMixin<LowerBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
