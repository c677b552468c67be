//===- CheckAccesses.cpp - Check scalar loads and stores (--check) --------===//
//
// DMA and vector intrinsics are always checked by simrt. Plain loads and
// stores of kernel code (`shifts[i]`, `out[i] = x`) are not, for speed. In
// --check mode this pass puts a call to __bangsim_check_access before each
// one whose address does not come from a local variable or a module global,
// naming its source line; simrt faults the task if the address is in no
// live GDRAM allocation and no on-chip memory of the task.
//
//===----------------------------------------------------------------------===//
#include "codegen/CheckAccesses.h"
#include "codegen/BangIR.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace bangc;

static bool needsCheck(const Value *ptr) {
  const Value *base = getUnderlyingObject(ptr);
  return !isa<AllocaInst>(base) && !isa<GlobalVariable>(base);
}

PreservedAnalyses CheckAccessesPass::run(Module &m, ModuleAnalysisManager &) {
  LLVMContext &ctx = m.getContext();
  Type *ptr = PointerType::getUnqual(ctx);
  FunctionCallee check = runtimeFunction(
      m, "__bangsim_check_access",
      FunctionType::get(Type::getVoidTy(ctx),
                        {ptr, Type::getInt64Ty(ctx), Type::getInt32Ty(ctx), ptr},
                        false));
  const DataLayout &dl = m.getDataLayout();
  LocationTable locations(m);
  bool changed = false;
  for (Function &f : m) {
    if (f.isDeclaration() || f.hasFnAttribute(DeviceLibAttr))
      continue;
    std::string function = prettyFunctionName(f.getName());
    for (Instruction &inst : make_early_inc_range(instructions(f))) {
      Value *addr = getLoadStorePointerOperand(&inst);
      if (!addr || !needsCheck(addr))
        continue;
      bool isStore = isa<StoreInst>(inst);
      Type *type = isStore ? cast<StoreInst>(inst).getValueOperand()->getType()
                           : inst.getType();
      IRBuilder<> b(&inst);
      b.CreateCall(check, {addr, b.getInt64(dl.getTypeStoreSize(type)),
                           b.getInt32(isStore),
                           locations.get(inst.getDebugLoc(),
                                         isStore ? "store" : "load", function)});
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
