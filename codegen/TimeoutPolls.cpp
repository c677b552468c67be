//===- TimeoutPolls.cpp - Loops look at the launch's stop flag ------------===//
//
// simrt's watchdog thread ends a launch at its --timeout by setting the flag
// that every task's context points to (BangTaskContext::stop). Runtime
// functions look at it on entry; this pass makes kernel code look at it
// too, where it could otherwise run forever without calling anything:
// `for (;;) x = x + 1;`. Each loop header gets
//
//   if (atomic load (monotonic) *task->stop) __bangsim_fault("stopped");
//
// and so does the entry of a function that calls itself. __bangsim_fault
// of a stopped launch records nothing and leaves the task, as a runtime call
// would. Kernel code holds no host locks, so leaving it there is safe.
//
//===----------------------------------------------------------------------===//
#include "codegen/TimeoutPolls.h"
#include "codegen/BangIR.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace bangc;

namespace {

bool callsItself(Function &f) {
  for (Instruction &i : instructions(f))
    if (auto *call = dyn_cast<CallBase>(&i))
      if (call->getCalledFunction() == &f)
        return true;
  return false;
}

} // namespace

PreservedAnalyses TimeoutPollsPass::run(Module &m, ModuleAnalysisManager &mam) {
  FunctionAnalysisManager &fam =
      mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
  LLVMContext &ctx = m.getContext();
  Type *ptr = PointerType::getUnqual(ctx);
  FunctionCallee fault = runtimeFunction(
      m, "__bangsim_fault",
      FunctionType::get(Type::getVoidTy(ctx), {ptr}, false));
  if (auto *f = dyn_cast<Function>(fault.getCallee()))
    f->setDoesNotReturn();
  Constant *message = nullptr;
  bool changed = false;
  for (Function &f : m) {
    if (f.isDeclaration() || f.hasFnAttribute(DeviceLibAttr) ||
        f.getName().starts_with("__bangsim"))
      continue;
    SmallVector<BasicBlock *, 8> polls;
    for (Loop *loop : fam.getResult<LoopAnalysis>(f).getLoopsInPreorder())
      polls.push_back(loop->getHeader());
    if (callsItself(f))
      polls.push_back(&f.getEntryBlock());
    if (polls.empty())
      continue;
    if (!message)
      message = constantString(m, "stopped");
    // The flag's address, once per call, in the entry block after its
    // allocas (split off from the entry, they would become dynamic).
    Value *task = taskContextIn(f);
    Instruction *afterAllocas = cast<Instruction>(task)->getNextNode();
    while (isa<AllocaInst>(afterAllocas))
      afterAllocas = afterAllocas->getNextNode();
    IRBuilder<> entry(afterAllocas);
    Value *flag = entry.CreateLoad(
        ptr, contextField(entry, task, BANG_CTX_STOP), "bang.stop.flag");
    for (BasicBlock *bb : polls) {
      Instruction *at = &*bb->getFirstInsertionPt();
      if (bb == &f.getEntryBlock())
        at = cast<Instruction>(flag)->getNextNode();
      IRBuilder<> b(at);
      LoadInst *stop = b.CreateLoad(b.getInt8Ty(), flag, "bang.stop");
      stop->setAtomic(AtomicOrdering::Monotonic);
      stop->setAlignment(Align(1));
      Instruction *then = SplitBlockAndInsertIfThen(
          b.CreateICmpNE(stop, b.getInt8(0)), at->getIterator(),
          /*Unreachable=*/true, MDBuilder(ctx).createUnlikelyBranchWeights());
      then->getParent()->setName("bang.stopped");
      IRBuilder<> tb(then);
      tb.CreateCall(fault, {message})->setDoesNotReturn();
    }
    changed = true;
    fam.invalidate(f, PreservedAnalyses::none());
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
