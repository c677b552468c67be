//===- ScalarCost.h - Counts the scalar instructions of kernel code for the cost model. ---*- C++ -*-===//
#ifndef BANGC_SCALARCOST_H
#define BANGC_SCALARCOST_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Counts the scalar instructions of kernel code for the cost model.
struct ScalarCostPass : llvm::PassInfoMixin<ScalarCostPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
