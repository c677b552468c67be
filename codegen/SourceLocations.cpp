//===- SourceLocations.cpp - Where each intrinsic call stands -------------===//
//
// Before every intrinsic call in user code, store a pointer to a constant
// BangSrcLoc {file, line, column, intrinsic, function} into task->loc. When
// simrt faults a task, it reads task->loc to name the source line. One store
// per call, never per element.
//
//===----------------------------------------------------------------------===//
#include "codegen/SourceLocations.h"
#include "codegen/BangIR.h"

#include "bang/Intrinsics.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace bangc;


PreservedAnalyses SourceLocationsPass::run(Module &m, ModuleAnalysisManager &) {
  LocationTable table(m);
  bool changed = false;
  for (Function &f : m) {
    if (f.isDeclaration() || f.hasFnAttribute(DeviceLibAttr))
      continue;
    std::string function = prettyFunctionName(f.getName());
    for (Instruction &inst : instructions(f)) {
      auto *call = dyn_cast<CallBase>(&inst);
      Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || callee->isIntrinsic())
        continue;
      std::string name = baseFunctionName(callee->getName());
      if (!lookupIntrinsic(name))
        continue;
      Value *task = taskContextIn(f);
      IRBuilder<> b(call);
      b.CreateStore(table.get(call->getDebugLoc(), name, function),
                    contextField(b, task, BANG_CTX_LOC));
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
