//===- SourceLocations.h - Records the source location of each intrinsic call in the task context. ---*- C++ -*-===//
#ifndef BANGC_SOURCELOCATIONS_H
#define BANGC_SOURCELOCATIONS_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Records the source location of each intrinsic call in the task context.
struct SourceLocationsPass : llvm::PassInfoMixin<SourceLocationsPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
