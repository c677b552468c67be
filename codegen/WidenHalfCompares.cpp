//===- WidenHalfCompares.cpp - Compare half vectors as float --------------===//
#include "codegen/WidenHalfCompares.h"

#include "llvm/CodeGen/TargetLowering.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/CodeGen/ValueTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace bangc;

PreservedAnalyses WidenHalfComparesPass::run(Function &f,
                                             FunctionAnalysisManager &) {
  const TargetLowering *tli = tm->getSubtargetImpl(f)->getTargetLowering();
  SmallVector<FCmpInst *, 16> work;
  for (Instruction &i : instructions(f)) {
    auto *cmp = dyn_cast<FCmpInst>(&i);
    if (!cmp)
      continue;
    auto *type = dyn_cast<FixedVectorType>(cmp->getOperand(0)->getType());
    if (!type || !type->getElementType()->isHalfTy())
      continue;
    EVT vt = EVT::getEVT(type);
    if (tli->isOperationLegalOrCustom(ISD::SETCC, vt))
      continue;
    work.push_back(cmp);
  }
  for (FCmpInst *cmp : work) {
    IRBuilder<> b(cmp);
    auto *half = cast<FixedVectorType>(cmp->getOperand(0)->getType());
    auto *wide = FixedVectorType::get(b.getFloatTy(), half->getNumElements());
    Value *lhs = b.CreateFPExt(cmp->getOperand(0), wide);
    Value *rhs = b.CreateFPExt(cmp->getOperand(1), wide);
    auto *widened = new FCmpInst(cmp, cmp->getPredicate(), lhs, rhs);
    widened->copyFastMathFlags(cmp);
    widened->setDebugLoc(cmp->getDebugLoc());
    widened->takeName(cmp);
    cmp->replaceAllUsesWith(widened);
    cmp->eraseFromParent();
  }
  if (work.empty())
    return PreservedAnalyses::all();
  PreservedAnalyses pa;
  pa.preserveSet<CFGAnalyses>();
  return pa;
}
