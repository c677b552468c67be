//===- FindKernels.h - Marks kernels, template instances included, from their annotation. ---*- C++ -*-===//
#ifndef BANGC_FINDKERNELS_H
#define BANGC_FINDKERNELS_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Marks kernels, template instances included, from their annotation.
struct FindKernelsPass : llvm::PassInfoMixin<FindKernelsPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
