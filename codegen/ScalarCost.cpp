//===- ScalarCost.cpp - Count the scalar work of kernel code --------------===//
//
// The cost model charges vector intrinsics by element count, and plain C++
// code in a kernel by an estimate of its instruction count: each basic block
// adds its count to a per-function counter, which is flushed into the task
// context (BangTaskContext::scalarPending) before each intrinsic or runtime
// call and before each return. simrt charges the pending count on entry to
// each runtime function, so the simulated clock sees scalar work in program
// order. A flush is a load, an add and a store, not a call: it clobbers no
// registers, and a flush of nothing folds away.
//
// The estimate counts the cycles of the instructions of the unoptimised IR
// that do work: 1 each, except float add, sub, mul, div and the non-linear
// math intrinsics, which cost what the guide lists (floatCycles below); it
// skips PHIs, allocas, debug and lifetime markers, no-op casts, constant
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

bool isContextCall(const CallBase &call) {
  const Function *callee = call.getCalledFunction();
  return callee && callee->getName() == "__bangsim_ctx";
}

/// Calls that hand control to simrt: intrinsics and runtime functions (not
/// __bangsim_ctx, which only returns the task context).
bool isDeviceCall(const CallBase &call) {
  const Function *callee = call.getCalledFunction();
  if (!callee || callee->isIntrinsic() || isContextCall(call))
    return false;
  return callee->getName().starts_with("__bangsim_") ||
         lookupIntrinsic(baseFunctionName(callee->getName()));
}

// Cycles of the scalar ops mlu-ops' BANG-C-OPS-Develop-Guide.md §5.3.4
// lists for the 370's ALU: add and sub of a float16 or float32 take 2
// cycles, div 8 for float16 and 16 for float32, non-linear ops (div, log,
// recip, ...) 6-18; ordinary instructions 1-3 (counted 1). Multiplication
// is taken as add's (an assumption: the guide groups it with add and sub),
// and the non-linear math intrinsics as the top of the range.
constexpr uint64_t FloatAddCycles = 2, HalfDivCycles = 8, FloatDivCycles = 16,
                   NonLinearCycles = 18;

/// The cycles a float operation costs, or 0 if \p inst is not one.
uint64_t floatCycles(const Instruction &inst) {
  switch (inst.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
    return FloatAddCycles;
  case Instruction::FDiv:
  case Instruction::FRem:
    return inst.getType()->getScalarType()->isHalfTy() ? HalfDivCycles
                                                       : FloatDivCycles;
  default:
    break;
  }
  if (auto *intr = dyn_cast<IntrinsicInst>(&inst)) {
    switch (intr->getIntrinsicID()) {
    case Intrinsic::sqrt:
    case Intrinsic::exp:
    case Intrinsic::exp2:
    case Intrinsic::log:
    case Intrinsic::log2:
    case Intrinsic::log10:
    case Intrinsic::sin:
    case Intrinsic::cos:
    case Intrinsic::pow:
      return NonLinearCycles;
    default:
      break;
    }
  }
  return 0;
}

/// The cycles \p inst costs on the scalar pipe: 0 for what does no work.
uint64_t counts(const Instruction &inst) {
  if (isa<PHINode>(inst) || isa<AllocaInst>(inst) || isa<DbgInfoIntrinsic>(inst))
    return 0;
  if (uint64_t cycles = floatCycles(inst))
    return cycles;
  if (auto *intr = dyn_cast<IntrinsicInst>(&inst))
    return !intr->isLifetimeStartOrEnd() && !intr->isAssumeLikeIntrinsic();
  if (auto *call = dyn_cast<CallBase>(&inst))
    return !isDeviceCall(*call) && !isContextCall(*call);
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

/// ctx->scalarPending += *counter; *counter = 0.
void flush(IRBuilder<> &b, Value *ctx, AllocaInst *counter) {
  Type *i64 = b.getInt64Ty();
  Value *pending = contextField(b, ctx, BANG_CTX_SCALAR_PENDING);
  Value *before = b.CreateLoad(i64, pending);
  Value *count = b.CreateLoad(i64, counter);
  b.CreateStore(b.CreateAdd(before, count), pending);
  b.CreateStore(b.getInt64(0), counter);
}

void instrument(Function &f) {
  Value *ctx = taskContextIn(f);
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
    flush(b, ctx, counter);
  }
}

} // namespace

PreservedAnalyses ScalarCostPass::run(Module &m, ModuleAnalysisManager &) {
  for (Function &f : m)
    if (!f.isDeclaration() && !f.hasFnAttribute(DeviceLibAttr))
      instrument(f);
  return PreservedAnalyses::none();
}
