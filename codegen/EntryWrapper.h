//===- EntryWrapper.h - Builds each kernel's ABI entry wrapper and the module descriptor. ---*- C++ -*-===//
#ifndef BANGC_ENTRYWRAPPER_H
#define BANGC_ENTRYWRAPPER_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Builds each kernel's ABI entry wrapper and the module descriptor.
struct EntryWrapperPass : llvm::PassInfoMixin<EntryWrapperPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
