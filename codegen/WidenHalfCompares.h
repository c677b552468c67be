//===- WidenHalfCompares.h - Compare half vectors as float ----*- C++ -*-===//
#ifndef BANGC_WIDENHALFCOMPARES_H
#define BANGC_WIDENHALFCOMPARES_H

#include "llvm/IR/PassManager.h"
#include "llvm/Target/TargetMachine.h"

namespace bangc {

/// Rewrites `fcmp <N x half> a, b` as `fcmp <N x float> fpext a, fpext b`
/// when the host has no vector compare for half (x86 without AVX512-FP16):
/// the backend would otherwise scalarise it into one ucomiss and a mask
/// shuffle per element, slow to compile and to run. fpext is exact, so
/// every predicate, NaNs and signed zeros included, gives the same answer.
/// Runs after the optimisation pipeline (InstCombine folds the extends back).
struct WidenHalfComparesPass : llvm::PassInfoMixin<WidenHalfComparesPass> {
  explicit WidenHalfComparesPass(const llvm::TargetMachine &tm) : tm(&tm) {}
  llvm::PreservedAnalyses run(llvm::Function &f,
                              llvm::FunctionAnalysisManager &);
  const llvm::TargetMachine *tm;
};

} // namespace bangc

#endif
