//===- CheckAccesses.cpp - Check scalar loads and stores (--check) --------===//
//
// DMA and vector intrinsics are always checked by simrt. Plain loads and
// stores of kernel code (`shifts[i]`, `out[i] = x`) are not, for speed. In
// --check mode this pass puts a call to __bangsim_check_access before each
// one whose address does not come from a local variable or a module global,
// naming its source line; simrt faults the task if the address is in no
// live GDRAM allocation and no on-chip memory of the task.
//
// --check=race runs it a second time, after MemorySpacesPass, on the
// accesses it skipped there: those of on-chip variables (__nram__ & co.),
// which by then are `ctx->nram + offset`, so the race check sees a scalar
// read of a buffer a __memcpy_async is still filling.
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

/// Whether `ptr` is based on the load of the task context's NRAM, WRAM or
/// SRAM field that MemorySpacesPass puts in place of an on-chip variable.
static bool isOnChipVariable(const Value *ptr) {
  const auto *load = dyn_cast<LoadInst>(getUnderlyingObject(ptr));
  if (!load)
    return false;
  const auto *field = dyn_cast<GetElementPtrInst>(load->getPointerOperand());
  if (!field || field->getNumIndices() != 2 ||
      field->getSourceElementType() != taskContextType(ptr->getContext()))
    return false;
  const auto *index = dyn_cast<ConstantInt>(field->getOperand(2));
  if (!index)
    return false;
  int64_t f = index->getSExtValue();
  return f == BANG_CTX_NRAM || f == BANG_CTX_WRAM || f == BANG_CTX_SRAM;
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
      if (!addr ||
          (which == Plain ? !needsCheck(addr) : !isOnChipVariable(addr)))
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
