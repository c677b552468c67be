//===- FindKernels.cpp - Mark kernels from their annotation ---------------===//
//
// __mlu_global__ expands to __attribute__((annotate("bang.kernel"))), which
// Clang records in @llvm.global.annotations for every emitted definition,
// template instantiations included. This pass turns each such entry into a
// "bang-kernel" function attribute holding the kernel's pretty name, and
// drops the annotation.
//
//===----------------------------------------------------------------------===//
#include "codegen/FindKernels.h"
#include "codegen/BangIR.h"

using namespace llvm;
using namespace bangc;

PreservedAnalyses FindKernelsPass::run(Module &m, ModuleAnalysisManager &) {
  bool changed = false;
  for (const Annotation &a : globalAnnotations(m)) {
    auto *f = dyn_cast<Function>(a.value);
    if (a.text != "bang.kernel" || !f || f->isDeclaration())
      continue;
    f->addFnAttr(KernelAttr, prettyFunctionName(f->getName()));
    changed = true;
  }
  removeGlobalAnnotations(m, [](const Annotation &a) {
    return a.text == "bang.kernel";
  });
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
