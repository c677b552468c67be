//===- HostTarget.cpp - Compile every function for the host CPU -----------===//
#include "codegen/HostTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;
using namespace bangc;

std::string bangc::hostCPU() { return sys::getHostCPUName().str(); }

std::string bangc::hostFeatures() {
  std::string out;
  for (const auto &feature : sys::getHostCPUFeatures()) {
    if (!out.empty())
      out += ',';
    out += (feature.second ? "+" : "-") + feature.first().str();
  }
  return out;
}

PreservedAnalyses HostTargetPass::run(Module &m, ModuleAnalysisManager &) {
  for (Function &f : m) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", cpu);
    f.addFnAttr("tune-cpu", cpu);
    if (features.empty())
      f.removeFnAttr("target-features");
    else
      f.addFnAttr("target-features", features);
  }
  return PreservedAnalyses::none();
}
