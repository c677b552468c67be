//===- ScalarCost.cpp - Count the scalar work of kernel code --------------===//
//
// The cost model charges vector intrinsics by element count, and plain C++
// code in a kernel by an estimate of its instruction count: each basic block
// adds its count to a per-function counter, which is flushed to simrt
// (__bangsim_scalar) before each intrinsic or runtime call and before each
// return, so the simulated clock sees scalar work in program order.
//
// The estimate counts the instructions of the unoptimised IR that do work:
// it skips PHIs, allocas, debug and lifetime markers, no-op casts, constant
// GEPs, and loads and stores of local variables (registers after mem2reg).
// The counter itself lives in a local, so optimisation keeps it in a
// register and loops still vectorise.
//
//===----------------------------------------------------------------------===//
#include "codegen/ScalarCost.h"
#include "codegen/BangIR.h"

#include "bang/Intrinsics.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;
using namespace bangc;

namespace {

bool isLocal(const Value *ptr) {
  return isa<AllocaInst>(getUnderlyingObject(ptr));
}

/// Calls that hand control to simrt: intrinsics and runtime functions.
bool isDeviceCall(const CallBase &call) {
  const Function *callee = call.getCalledFunction();
  if (!callee || callee->isIntrinsic())
    return false;
  return callee->getName().starts_with("__bangsim_") ||
         lookupIntrinsic(baseFunctionName(callee->getName()));
}

bool counts(const Instruction &inst) {
  if (isa<PHINode>(inst) || isa<AllocaInst>(inst) || isa<DbgInfoIntrinsic>(inst))
    return false;
  if (auto *intr = dyn_cast<IntrinsicInst>(&inst))
    return !intr->isLifetimeStartOrEnd() && !intr->isAssumeLikeIntrinsic();
  if (auto *call = dyn_cast<CallBase>(&inst))
    return !isDeviceCall(*call);
  if (auto *load = dyn_cast<LoadInst>(&inst))
    return !isLocal(load->getPointerOperand());
  if (auto *store = dyn_cast<StoreInst>(&inst))
    return !isLocal(store->getPointerOperand());
  if (auto *gep = dyn_cast<GetElementPtrInst>(&inst))
    return !gep->hasAllConstantIndices();
  if (auto *cast = dyn_cast<CastInst>(&inst))
    return !cast->isNoopCast(inst.getModule()->getDataLayout());
  return !isa<UnreachableInst>(inst);
}

void instrument(Function &f, FunctionCallee flush) {
  IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
  AllocaInst *counter = b.CreateAlloca(b.getInt64Ty(), nullptr, "bang.scalar");
  b.CreateStore(b.getInt64(0), counter);
  std::vector<Instruction *> flushPoints;
  for (BasicBlock &bb : f) {
    uint64_t n = 0;
    for (Instruction &inst : bb) {
      n += counts(inst);
      auto *call = dyn_cast<CallBase>(&inst);
      if ((call && isDeviceCall(*call)) || isa<ReturnInst>(inst))
        flushPoints.push_back(&inst);
    }
    if (n == 0)
      continue;
    b.SetInsertPoint(&*bb.getFirstInsertionPt());
    if (&bb == &f.getEntryBlock())
      b.SetInsertPoint(counter->getNextNode()->getNextNode());
    b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt64Ty(), counter),
                              b.getInt64(n)),
                  counter);
  }
  for (Instruction *at : flushPoints) {
    b.SetInsertPoint(at);
    b.CreateCall(flush, {b.CreateLoad(b.getInt64Ty(), counter)});
    b.CreateStore(b.getInt64(0), counter);
  }
}

} // namespace

PreservedAnalyses ScalarCostPass::run(Module &m, ModuleAnalysisManager &) {
  LLVMContext &ctx = m.getContext();
  FunctionCallee flush = runtimeFunction(
      m, "__bangsim_scalar",
      FunctionType::get(Type::getVoidTy(ctx), {Type::getInt64Ty(ctx)}, false));
  for (Function &f : m)
    if (!f.isDeclaration() && !f.hasFnAttribute(DeviceLibAttr))
      instrument(f, flush);
  return PreservedAnalyses::none();
}
