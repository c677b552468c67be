//===- MemorySpaces.h - Gives __nram__, __wram__ and __mlu_shared__ variables per-core or per-cluster storage. ---*- C++ -*-===//
#ifndef BANGC_MEMORYSPACES_H
#define BANGC_MEMORYSPACES_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Gives __nram__, __wram__ and __mlu_shared__ variables per-core or per-cluster storage.
struct MemorySpacesPass : llvm::PassInfoMixin<MemorySpacesPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
