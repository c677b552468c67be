//===- LowerInlineAsm.h - Turns asm("sync;") into a barrier and rejects any other inline assembly. ---*- C++ -*-===//
#ifndef BANGC_LOWERINLINEASM_H
#define BANGC_LOWERINLINEASM_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Turns asm("sync;") into a barrier and rejects any other inline assembly.
struct LowerInlineAsmPass : llvm::PassInfoMixin<LowerInlineAsmPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace bangc

#endif
