//===- LowerBuiltins.cpp - Builtin variables to task-context loads --------===//
//
// The prelude declares taskId, coreId and friends as `extern const int`.
// Every use becomes the address of the matching field of the task context,
// and loads of it are marked invariant: a task's ids never change.
//
//===----------------------------------------------------------------------===//
#include "codegen/LowerBuiltins.h"
#include "codegen/BangIR.h"

#include "bang/Intrinsics.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/ReplaceConstant.h"

using namespace llvm;
using namespace bangc;

static void lowerVariable(GlobalVariable &gv, int field) {
  convertUsersOfConstantsToInstructions({&gv});
  LLVMContext &ctx = gv.getContext();
  MDNode *empty = MDNode::get(ctx, {});
  for (Use &use : make_early_inc_range(gv.uses())) {
    auto *inst = dyn_cast<Instruction>(use.getUser());
    if (!inst)
      continue;
    Function &f = *inst->getFunction();
    Value *task = taskContextIn(f);
    IRBuilder<> b(inst);
    Value *addr = contextField(b, task, field);
    use.set(addr);
    if (auto *load = dyn_cast<LoadInst>(inst))
      load->setMetadata(LLVMContext::MD_invariant_load, empty);
  }
}

PreservedAnalyses LowerBuiltinsPass::run(Module &m, ModuleAnalysisManager &) {
  bool changed = false;
  for (const BuiltinVariable &var : builtinVariables()) {
    GlobalVariable *gv = m.getNamedGlobal(var.name);
    if (!gv || !gv->isDeclaration())
      continue;
    lowerVariable(*gv, var.contextField);
    if (gv->use_empty())
      gv->eraseFromParent();
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
