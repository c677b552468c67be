//===- LowerInlineAsm.cpp - asm("sync;") to a barrier ---------------------===//
//
// mlu-ops kernels write `__asm__ volatile("sync;")` for __sync(). That is the
// only inline assembly the simulated device understands; anything else is an
// error at its source line rather than a host assembler failure.
//
//===----------------------------------------------------------------------===//
#include "codegen/LowerInlineAsm.h"
#include "codegen/BangIR.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace bangc;

static bool isSync(const InlineAsm &asmText) {
  StringRef text = StringRef(asmText.getAsmString()).trim();
  return text == "sync;" || text == "sync";
}

PreservedAnalyses LowerInlineAsmPass::run(Module &m, ModuleAnalysisManager &) {
  LLVMContext &ctx = m.getContext();
  FunctionCallee sync = runtimeFunction(
      m, "__bangsim_sync",
      FunctionType::get(Type::getVoidTy(ctx), {Type::getInt32Ty(ctx)}, false));
  bool changed = false;
  for (Function &f : m) {
    for (Instruction &inst : make_early_inc_range(instructions(f))) {
      auto *call = dyn_cast<CallInst>(&inst);
      if (!call || !call->isInlineAsm())
        continue;
      auto *asmText = cast<InlineAsm>(call->getCalledOperand());
      if (!isSync(*asmText)) {
        reportError(f, call,
                    "unsupported inline assembly '" +
                        StringRef(asmText->getAsmString()).trim() +
                        "'; the simulated device accepts only \"sync;\"");
        continue;
      }
      IRBuilder<> b(call);
      CallInst *barrier = b.CreateCall(sync, {b.getInt32(0)});
      barrier->setDebugLoc(call->getDebugLoc());
      call->eraseFromParent();
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
