//===- EntryWrapper.cpp - Kernel entry wrappers and the module descriptor -===//
//
// For each kernel, `void @__bangsim_entry.N(ptr %args)` loads parameter i
// from *args[i] and calls the kernel: simrt can launch any kernel through one
// function type (BangKernelEntry). The module descriptor
// @__bangsim_module_desc (a BangModuleDesc) lists the kernels with their
// names and parameter signatures, and the static on-chip layout that
// MemorySpacesPass recorded.
//
//===----------------------------------------------------------------------===//
#include "codegen/EntryWrapper.h"
#include "codegen/BangIR.h"

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

/// Builds the entry wrapper of `kernel`; null (with an error reported) if a
/// parameter type cannot be passed.
Function *buildEntry(Function &kernel, unsigned index, std::string &signature) {
  Module &m = *kernel.getParent();
  LLVMContext &ctx = m.getContext();
  for (Argument &arg : kernel.args()) {
    char letter = signatureLetter(arg.getType());
    if (!letter || arg.hasByValAttr() || arg.hasStructRetAttr()) {
      reportError(kernel, nullptr,
                  "kernel parameter " + Twine(arg.getArgNo() + 1) +
                      " has a type that cannot be passed to a kernel; use "
                      "pointers and scalars");
      return nullptr;
    }
    signature += letter;
  }
  auto *type = FunctionType::get(Type::getVoidTy(ctx),
                                 {PointerType::getUnqual(ctx)}, false);
  Function *entry = Function::Create(type, GlobalValue::ExternalLinkage,
                                     "__bangsim_entry." + Twine(index), m);
  entry->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", entry));
  std::vector<Value *> args;
  for (Argument &arg : kernel.args()) {
    Value *slot = b.CreateLoad(
        b.getPtrTy(),
        b.CreateConstInBoundsGEP1_64(b.getPtrTy(), entry->getArg(0),
                                     arg.getArgNo()));
    Type *t = arg.getType();
    if (t->isIntegerTy(1)) // bool travels as a byte
      args.push_back(b.CreateTrunc(b.CreateLoad(b.getInt8Ty(), slot), t));
    else
      args.push_back(b.CreateLoad(t, slot));
  }
  CallInst *call = b.CreateCall(&kernel, args);
  call->setCallingConv(kernel.getCallingConv());
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
      ctx, {ptr, ptr, ptr, ptr, ptr, Type::getInt32Ty(ctx)});
  std::vector<Constant *> kernels;
  std::vector<Function *> found;
  for (Function &f : m)
    if (f.hasFnAttribute(KernelAttr) && !f.isDeclaration())
      found.push_back(&f);
  for (Function *kernel : found) {
    std::string signature;
    Function *entry = buildEntry(*kernel, kernels.size(), signature);
    if (!entry)
      continue;
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
         i32(ctx, line)}));
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
