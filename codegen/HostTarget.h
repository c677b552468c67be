//===- HostTarget.h - Compile every function for the host CPU -*- C++ -*-===//
#ifndef BANGC_HOSTTARGET_H
#define BANGC_HOSTTARGET_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace bangc {

/// Sets "target-cpu", "tune-cpu" and "target-features" of every function to
/// the host's, so that the optimiser and the JIT use its vector units: these
/// attributes, set by Clang for a generic x86-64, override the TargetMachine.
struct HostTargetPass : llvm::PassInfoMixin<HostTargetPass> {
  HostTargetPass(std::string cpu, std::string features)
      : cpu(std::move(cpu)), features(std::move(features)) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
  std::string cpu, features;
};

/// The host CPU's name and its features in "+avx2,..." form.
std::string hostCPU();
std::string hostFeatures();

} // namespace bangc

#endif
