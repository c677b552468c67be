//===- EntryWrapper.cpp - Kernel entry wrappers and the module descriptor -===//
//
// For each kernel, `void @__bangsim_entry.N(ptr %args)` loads parameter i
// from *args[i] and calls the kernel: simrt can launch any kernel through one
// function type (BangKernelEntry). A struct by value is copied into the
// wrapper's frame and passed as Clang lowered the parameter for the host ABI
// (!bang.params, bang/KernelParamsMD.h): a pointer to the copy, or pieces
// of it loaded as the coerced IR arguments. The module descriptor
// @__bangsim_module_desc (a BangModuleDesc) lists the kernels with their
// names, parameter signatures and sizes, and the static on-chip layout that
// MemorySpacesPass recorded.
//
//===----------------------------------------------------------------------===//
#include "codegen/EntryWrapper.h"
#include "codegen/BangIR.h"

#include "bang/KernelParamsMD.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace bangc;

namespace {

/// The signature letter of a parameter type (see BangKernelDesc), or 0.
char signatureLetter(Type *t) {
  if (t->isPointerTy())
    return 'p';
  if (t->isHalfTy())
    return 'e';
  if (t->isFloatTy())
    return 'f';
  if (t->isDoubleTy())
    return 'd';
  if (auto *it = dyn_cast<IntegerType>(t)) {
    switch (it->getBitWidth()) {
    case 1:
      return 'z';
    case 8:
      return 'b';
    case 16:
      return 'h';
    case 32:
      return 'i';
    case 64:
      return 'l';
    }
  }
  return 0;
}

/// How one source-level parameter reaches the kernel (see
/// frontend/KernelParams.h, which records it as !bang.params).
struct ParamPlan {
  bool aggregate = false;
  uint64_t size = 0, align = 1;
  unsigned how = ParamDirect;
  unsigned firstIRArg = 0;
  std::vector<uint64_t> offsets; ///< one per IR argument, when direct
};

uint64_t mdInt(const MDNode *node, unsigned i) {
  return mdconst::extract<ConstantInt>(node->getOperand(i))->getZExtValue();
}

/// The plan of each parameter: from !bang.params, or (IR not from our
/// frontend) one IR argument per parameter.
std::vector<ParamPlan> paramPlans(Function &kernel) {
  std::vector<ParamPlan> plans;
  const DataLayout &dl = kernel.getParent()->getDataLayout();
  MDNode *md = kernel.getMetadata(KernelParamsMD);
  if (!md) {
    for (Argument &arg : kernel.args()) {
      ParamPlan p;
      Type *t = arg.getType();
      p.size = t->isIntegerTy(1) ? 1 : dl.getTypeAllocSize(t).getFixedValue();
      p.align = t->isIntegerTy(1) ? 1 : dl.getABITypeAlign(t).value();
      p.firstIRArg = arg.getArgNo();
      p.offsets = {0};
      plans.push_back(p);
    }
    return plans;
  }
  for (const MDOperand &op : md->operands()) {
    auto *node = cast<MDNode>(op);
    ParamPlan p;
    p.aggregate = mdInt(node, 0);
    p.size = mdInt(node, 1);
    p.align = mdInt(node, 2);
    p.how = mdInt(node, 3);
    p.firstIRArg = mdInt(node, 4);
    for (unsigned i = 5; i < node->getNumOperands(); ++i)
      p.offsets.push_back(mdInt(node, i));
    plans.push_back(p);
  }
  return plans;
}

/// Whether the IR arguments `plan` names exist and have types it can load.
bool planFits(const Function &kernel, const ParamPlan &plan) {
  unsigned n = plan.how == ParamDirect     ? plan.offsets.size()
               : plan.how == ParamIndirect ? 1
                                           : 0;
  if (plan.firstIRArg + n > kernel.arg_size())
    return false;
  for (unsigned k = 0; k < n; ++k) {
    const Argument *arg = kernel.getArg(plan.firstIRArg + k);
    if (arg->hasStructRetAttr() || arg->hasInAllocaAttr())
      return false;
    Type *t = arg->getType();
    if (plan.how == ParamIndirect ? !t->isPointerTy()
                                  : !t->isSized() || t->isStructTy())
      return false;
  }
  if (!plan.aggregate) // a scalar: one value of a signature letter's type
    return plan.how == ParamDirect && n == 1 &&
           !kernel.getArg(plan.firstIRArg)->hasByValAttr() &&
           signatureLetter(kernel.getArg(plan.firstIRArg)->getType());
  return true;
}

/// A copy of the aggregate at `slot` in the wrapper's frame, large enough
/// for every piece loaded from it, as Clang's coerced loads read it.
Value *copyAggregate(IRBuilder<> &b, Function &kernel, const ParamPlan &plan,
                     Value *slot) {
  const DataLayout &dl = kernel.getParent()->getDataLayout();
  uint64_t bytes = std::max<uint64_t>(plan.size, 1);
  uint64_t align = std::max<uint64_t>(plan.align, 1);
  if (plan.how == ParamDirect)
    for (size_t k = 0; k < plan.offsets.size(); ++k) {
      Type *t = kernel.getArg(plan.firstIRArg + k)->getType();
      bytes = std::max<uint64_t>(
          bytes, plan.offsets[k] + dl.getTypeAllocSize(t).getFixedValue());
      align = std::max<uint64_t>(align, dl.getABITypeAlign(t).value());
    }
  AllocaInst *copy = b.CreateAlloca(ArrayType::get(b.getInt8Ty(), bytes));
  copy->setAlignment(Align(align));
  if (bytes > plan.size)
    b.CreateMemSet(copy, b.getInt8(0), bytes, Align(align));
  b.CreateMemCpy(copy, Align(align), slot, Align(1), plan.size);
  return copy;
}

/// Builds the entry wrapper of `kernel`; null (with an error reported) if a
/// parameter type cannot be passed. Fills `signature` and `params`.
Function *buildEntry(Function &kernel, unsigned index, std::string &signature,
                     std::vector<std::pair<uint64_t, uint64_t>> &params) {
  Module &m = *kernel.getParent();
  LLVMContext &ctx = m.getContext();
  std::vector<ParamPlan> plans = paramPlans(kernel);
  kernel.setMetadata(KernelParamsMD, nullptr);
  for (size_t i = 0; i < plans.size(); ++i) {
    const ParamPlan &plan = plans[i];
    if (!planFits(kernel, plan)) {
      reportError(kernel, nullptr,
                  "kernel parameter " + Twine(i + 1) +
                      " has a type that cannot be passed to a kernel; use "
                      "pointers, scalars and trivially copyable structs");
      return nullptr;
    }
    signature += plan.aggregate
                     ? 's'
                     : signatureLetter(kernel.getArg(plan.firstIRArg)->getType());
    params.push_back({plan.size, plan.align});
  }
  auto *type = FunctionType::get(Type::getVoidTy(ctx),
                                 {PointerType::getUnqual(ctx)}, false);
  Function *entry = Function::Create(type, GlobalValue::ExternalLinkage,
                                     "__bangsim_entry." + Twine(index), m);
  entry->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", entry));
  std::vector<Value *> args(kernel.arg_size(), nullptr);
  for (size_t i = 0; i < plans.size(); ++i) {
    const ParamPlan &plan = plans[i];
    Value *slot = b.CreateLoad(
        b.getPtrTy(),
        b.CreateConstInBoundsGEP1_64(b.getPtrTy(), entry->getArg(0), i));
    if (!plan.aggregate) {
      Type *t = kernel.getArg(plan.firstIRArg)->getType();
      if (t->isIntegerTy(1)) // bool travels as a byte
        args[plan.firstIRArg] =
            b.CreateTrunc(b.CreateLoad(b.getInt8Ty(), slot), t);
      else
        args[plan.firstIRArg] = b.CreateLoad(t, slot);
      continue;
    }
    if (plan.how == ParamIgnored)
      continue;
    Value *copy = copyAggregate(b, kernel, plan, slot);
    if (plan.how == ParamIndirect) {
      args[plan.firstIRArg] = copy;
      continue;
    }
    for (size_t k = 0; k < plan.offsets.size(); ++k) {
      Type *t = kernel.getArg(plan.firstIRArg + k)->getType();
      args[plan.firstIRArg + k] = b.CreateLoad(
          t, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), copy, plan.offsets[k]));
    }
  }
  // IR arguments no parameter names are ABI padding: any value will do.
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i])
      args[i] = PoisonValue::get(kernel.getArg(i)->getType());
  CallInst *call = b.CreateCall(&kernel, args);
  call->setCallingConv(kernel.getCallingConv());
  // The parameters' ABI attributes (byval, signext, ...) belong on the call
  // too: a byval struct travels on the stack only if the call says so.
  AttributeList attrs = kernel.getAttributes();
  std::vector<AttributeSet> paramAttrs;
  for (unsigned i = 0; i < kernel.arg_size(); ++i)
    paramAttrs.push_back(attrs.getParamAttrs(i));
  call->setAttributes(
      AttributeList::get(ctx, AttributeSet(), AttributeSet(), paramAttrs));
  b.CreateRetVoid();
  return entry;
}

Constant *i32(LLVMContext &ctx, uint64_t v) {
  return ConstantInt::get(Type::getInt32Ty(ctx), v);
}

/// The static layout recorded by MemorySpacesPass: nram, wram, sram, inits.
std::array<uint64_t, 4> staticLayout(Module &m) {
  std::array<uint64_t, 4> out = {0, 0, 0, 0};
  NamedMDNode *md = m.getNamedMetadata("bang.static");
  if (!md || md->getNumOperands() == 0)
    return out;
  MDNode *node = md->getOperand(0);
  for (unsigned i = 0; i < 4 && i < node->getNumOperands(); ++i)
    if (auto *c = mdconst::dyn_extract<ConstantInt>(node->getOperand(i)))
      out[i] = c->getZExtValue();
  return out;
}

} // namespace

PreservedAnalyses EntryWrapperPass::run(Module &m, ModuleAnalysisManager &) {
  LLVMContext &ctx = m.getContext();
  Type *ptr = PointerType::getUnqual(ctx);
  StructType *kernelDesc = StructType::get(
      ctx, {ptr, ptr, ptr, ptr, ptr, Type::getInt32Ty(ctx), ptr});
  StructType *paramDesc = StructType::get(
      ctx, {Type::getInt32Ty(ctx), Type::getInt32Ty(ctx)});
  std::vector<Constant *> kernels;
  std::vector<Function *> found;
  for (Function &f : m)
    if (f.hasFnAttribute(KernelAttr) && !f.isDeclaration())
      found.push_back(&f);
  for (Function *kernel : found) {
    std::string signature;
    std::vector<std::pair<uint64_t, uint64_t>> params;
    Function *entry = buildEntry(*kernel, kernels.size(), signature, params);
    if (!entry)
      continue;
    Constant *paramArray = ConstantPointerNull::get(PointerType::getUnqual(ctx));
    if (!params.empty()) {
      std::vector<Constant *> rows;
      for (auto [size, align] : params)
        rows.push_back(ConstantStruct::get(paramDesc,
                                           {i32(ctx, size), i32(ctx, align)}));
      ArrayType *type = ArrayType::get(paramDesc, rows.size());
      paramArray = new GlobalVariable(m, type, true, GlobalValue::PrivateLinkage,
                                      ConstantArray::get(type, rows),
                                      "__bangsim_params");
    }
    std::string file;
    unsigned line = 0;
    if (DISubprogram *sp = kernel->getSubprogram()) {
      file = sp->getFilename().str();
      line = sp->getLine();
    }
    kernels.push_back(ConstantStruct::get(
        kernelDesc,
        {constantString(m, kernel->getName()),
         constantString(m, kernel->getFnAttribute(KernelAttr).getValueAsString()),
         constantString(m, signature), entry, constantString(m, file),
         i32(ctx, line), paramArray}));
  }

  Constant *kernelArray = ConstantPointerNull::get(PointerType::getUnqual(ctx));
  if (!kernels.empty()) {
    ArrayType *type = ArrayType::get(kernelDesc, kernels.size());
    kernelArray = new GlobalVariable(m, type, true, GlobalValue::PrivateLinkage,
                                     ConstantArray::get(type, kernels),
                                     "__bangsim_kernels");
  }
  std::array<uint64_t, 4> layout = staticLayout(m);
  Constant *inits = m.getNamedGlobal("__bangsim_static_inits");
  if (!inits)
    inits = ConstantPointerNull::get(PointerType::getUnqual(ctx));
  ArrayType *bytes = ArrayType::get(Type::getInt32Ty(ctx), 3);
  Constant *desc = ConstantStruct::getAnon(
      {i32(ctx, BANGSIM_ABI_VERSION), i32(ctx, kernels.size()), kernelArray,
       ConstantArray::get(bytes, {i32(ctx, layout[0]), i32(ctx, layout[1]),
                                  i32(ctx, layout[2])}),
       i32(ctx, layout[3]), inits});
  if (GlobalVariable *old = m.getNamedGlobal(BANGSIM_MODULE_DESC_SYMBOL))
    old->eraseFromParent();
  new GlobalVariable(m, desc->getType(), true, GlobalValue::ExternalLinkage,
                     desc, BANGSIM_MODULE_DESC_SYMBOL);
  return PreservedAnalyses::none();
}
