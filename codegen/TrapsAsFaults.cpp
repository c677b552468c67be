//===- TrapsAsFaults.cpp - Device faults instead of host traps ------------===//
//
// On the host CPU, integer division by zero and INT_MIN / -1 raise SIGFPE
// and __builtin_trap() raises SIGILL: the whole simulator would die. A real
// device reports them as faults of the task. This pass puts a check before
// each integer division or remainder whose divisor is not a constant that
// rules the fault out, and replaces each trap intrinsic; the fault path
// stores the operation's BangSrcLoc in task->loc and calls __bangsim_fault,
// so simrt names the kernel, the task and the source line. (simrt also turns
// a SIGFPE/SIGILL/SIGTRAP in kernel code into a fault, without the line, for
// whatever this pass cannot see.)
//
// Stack overflow: each task runs on a fixed stack with a guard region below
// it. A frame larger than the guard (a VLA, a big local array) could step
// over it into another task's stack; "probe-stack"="inline-asm" makes the
// backend touch every page of a large frame and of each dynamic alloca in
// order, so the first touch past the stack lands in the guard and faults.
//
//===----------------------------------------------------------------------===//
#include "codegen/TrapsAsFaults.h"
#include "codegen/BangIR.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace bangc;

namespace {

struct Faults {
  Module &m;
  LocationTable locations;
  FunctionCallee fault;
  std::string function;

  explicit Faults(Module &m)
      : m(m), locations(m),
        fault(runtimeFunction(
            m, "__bangsim_fault",
            FunctionType::get(Type::getVoidTy(m.getContext()),
                              {PointerType::getUnqual(m.getContext())},
                              false))) {
    if (auto *f = dyn_cast<Function>(fault.getCallee()))
      f->setDoesNotReturn();
  }

  /// At `b`'s insertion point: name `what` at `dl` in task->loc, then fault
  /// with `message`.
  void emit(IRBuilder<> &b, Function &f, const DebugLoc &dl, StringRef what,
            StringRef message) {
    Value *task = taskContextIn(f);
    b.CreateStore(locations.get(dl, what, function),
                  contextField(b, task, BANG_CTX_LOC));
    CallInst *call = b.CreateCall(fault, {constantString(m, message)});
    call->setDoesNotReturn();
  }

  /// if (cond) fault; before `at`.
  void guard(Instruction *at, Value *cond, StringRef what, StringRef message) {
    Instruction *then =
        SplitBlockAndInsertIfThen(cond, at->getIterator(), /*Unreachable=*/true);
    then->getParent()->setName("bang.fault");
    IRBuilder<> b(then);
    emit(b, *at->getFunction(), at->getDebugLoc(), what, message);
  }
};

bool isDivision(const Instruction &i) {
  switch (i.getOpcode()) {
  case Instruction::SDiv:
  case Instruction::UDiv:
  case Instruction::SRem:
  case Instruction::URem:
    return true;
  default:
    return false;
  }
}

} // namespace

PreservedAnalyses TrapsAsFaultsPass::run(Module &m, ModuleAnalysisManager &) {
  Faults faults(m);
  bool changed = false;
  for (Function &f : m) {
    if (f.isDeclaration())
      continue;
    // Every function, device library included: a frame is probed page by
    // page wherever it is inlined.
    if (!f.hasFnAttribute("probe-stack")) {
      f.addFnAttr("probe-stack", "inline-asm");
      changed = true;
    }
    if (f.hasFnAttribute(DeviceLibAttr))
      continue; // the device library checks its own operands
    faults.function = prettyFunctionName(f.getName());
    SmallVector<Instruction *, 8> divisions, traps;
    for (Instruction &i : instructions(f)) {
      if (isDivision(i) && i.getType()->isIntegerTy())
        divisions.push_back(&i);
      if (auto *ii = dyn_cast<IntrinsicInst>(&i))
        if (ii->getIntrinsicID() == Intrinsic::trap ||
            ii->getIntrinsicID() == Intrinsic::ubsantrap ||
            ii->getIntrinsicID() == Intrinsic::debugtrap)
          traps.push_back(&i);
    }
    for (Instruction *i : divisions) {
      bool isSigned = i->getOpcode() == Instruction::SDiv ||
                      i->getOpcode() == Instruction::SRem;
      const char *what = i->getOpcode() == Instruction::SDiv ||
                                 i->getOpcode() == Instruction::UDiv
                             ? "operator /"
                             : "operator %";
      Value *n = i->getOperand(0), *d = i->getOperand(1);
      auto *dc = dyn_cast<ConstantInt>(d);
      auto *nc = dyn_cast<ConstantInt>(n);
      IRBuilder<> b(i);
      if (!dc || dc->isZero())
        faults.guard(i, b.CreateICmpEQ(d, ConstantInt::get(d->getType(), 0)),
                     what, "integer division by zero");
      bool mayOverflow = isSigned && (!dc || dc->isMinusOne()) &&
                         (!nc || nc->isMinValue(/*IsSigned=*/true));
      if (mayOverflow) {
        IRBuilder<> b2(i);
        unsigned bits = d->getType()->getIntegerBitWidth();
        Value *cond = b2.CreateAnd(
            b2.CreateICmpEQ(d, ConstantInt::getAllOnesValue(d->getType())),
            b2.CreateICmpEQ(n, ConstantInt::get(d->getContext(),
                                                APInt::getSignedMinValue(bits))));
        faults.guard(i, cond, what,
                     "integer overflow: the most negative " +
                         std::to_string(bits) + "-bit integer divided by -1");
      }
      changed = true;
    }
    for (Instruction *i : traps) {
      auto id = cast<IntrinsicInst>(i)->getIntrinsicID();
      IRBuilder<> b(i);
      faults.emit(b, f, i->getDebugLoc(),
                  id == Intrinsic::debugtrap ? "__builtin_debugtrap"
                                             : "__builtin_trap",
                  "trap: __builtin_trap() reached");
      // What followed the trap (unreachable, usually) is never reached.
      BasicBlock *bb = i->getParent();
      Instruction *next = i->getNextNode();
      i->eraseFromParent();
      if (next && !isa<UnreachableInst>(next)) {
        SplitBlock(bb, next);
        bb->getTerminator()->eraseFromParent();
        new UnreachableInst(m.getContext(), bb);
      }
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
