//===- BangIR.cpp - IR helpers shared by the BANG passes ------------------===//
#include "codegen/BangIR.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace bangc;

StructType *bangc::taskContextType(LLVMContext &ctx) {
  if (StructType *t = StructType::getTypeByName(ctx, "struct.BangTaskContext"))
    return t;
  Type *i32 = Type::getInt32Ty(ctx);
  Type *ptr = PointerType::getUnqual(ctx);
  std::vector<Type *> fields(12, i32);
  fields.insert(fields.end(), 5, ptr); // nram wram sram loc core
  fields.push_back(Type::getInt64Ty(ctx)); // scalarPending
  fields.push_back(Type::getInt64Ty(ctx)); // nramBytes
  fields.push_back(ptr);                   // stop
  static_assert(BANG_CTX_STOP == 19, "BangTaskContext changed: update here");
  return StructType::create(ctx, fields, "struct.BangTaskContext");
}

StructType *bangc::srcLocType(LLVMContext &ctx) {
  if (StructType *t = StructType::getTypeByName(ctx, "struct.BangSrcLoc"))
    return t;
  Type *i32 = Type::getInt32Ty(ctx);
  Type *ptr = PointerType::getUnqual(ctx);
  return StructType::create(ctx, {ptr, i32, i32, ptr, ptr}, "struct.BangSrcLoc");
}

FunctionCallee bangc::runtimeFunction(Module &m, StringRef name,
                                      FunctionType *type) {
  FunctionCallee callee = m.getOrInsertFunction(name, type);
  if (auto *f = dyn_cast<Function>(callee.getCallee()))
    f->addFnAttr(Attribute::NoUnwind);
  return callee;
}

Value *bangc::taskContextIn(Function &f) {
  BasicBlock &entry = f.getEntryBlock();
  for (Instruction &inst : entry)
    if (auto *call = dyn_cast<CallInst>(&inst))
      if (Function *callee = call->getCalledFunction())
        if (callee->getName() == "__bangsim_ctx")
          return call;
  Module &m = *f.getParent();
  LLVMContext &ctx = m.getContext();
  FunctionCallee get = runtimeFunction(
      m, "__bangsim_ctx", FunctionType::get(PointerType::getUnqual(ctx), false));
  auto *fn = cast<Function>(get.getCallee());
  // The context is constant for the life of a task: let LLVM CSE and hoist.
  fn->setDoesNotAccessMemory();
  fn->setWillReturn();
  IRBuilder<> b(&*entry.getFirstInsertionPt());
  return b.CreateCall(get, {}, "bang.ctx");
}

Value *bangc::contextField(IRBuilder<> &b, Value *ctx, int field) {
  return b.CreateStructGEP(taskContextType(b.getContext()), ctx, field);
}

std::vector<Annotation> bangc::globalAnnotations(Module &m) {
  std::vector<Annotation> out;
  GlobalVariable *gv = m.getNamedGlobal("llvm.global.annotations");
  if (!gv || !gv->hasInitializer())
    return out;
  auto *array = dyn_cast<ConstantArray>(gv->getInitializer());
  if (!array)
    return out;
  for (Value *op : array->operands()) {
    auto *entry = dyn_cast<ConstantStruct>(op);
    if (!entry || entry->getNumOperands() < 2)
      continue;
    auto *value = dyn_cast<GlobalValue>(entry->getOperand(0)->stripPointerCasts());
    auto *str = dyn_cast<GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    if (!value || !str || !str->hasInitializer())
      continue;
    auto *data = dyn_cast<ConstantDataSequential>(str->getInitializer());
    if (!data || !data->isString())
      continue;
    out.push_back({value, data->getAsCString()});
  }
  return out;
}

void bangc::removeGlobalAnnotations(
    Module &m, function_ref<bool(const Annotation &)> drop) {
  GlobalVariable *gv = m.getNamedGlobal("llvm.global.annotations");
  if (!gv || !gv->hasInitializer())
    return;
  auto *array = dyn_cast<ConstantArray>(gv->getInitializer());
  if (!array)
    return;
  std::vector<Constant *> keep;
  for (Value *op : array->operands()) {
    auto *entry = cast<Constant>(op);
    auto *value = dyn_cast<GlobalValue>(entry->getOperand(0)->stripPointerCasts());
    auto *str = dyn_cast<GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    StringRef text;
    if (str && str->hasInitializer())
      if (auto *data = dyn_cast<ConstantDataSequential>(str->getInitializer()))
        if (data->isString())
          text = data->getAsCString();
    if (!value || !drop({value, text}))
      keep.push_back(entry);
  }
  if (keep.size() == array->getNumOperands())
    return;
  gv->eraseFromParent();
  if (keep.empty())
    return;
  ArrayType *type = ArrayType::get(keep.front()->getType(), keep.size());
  auto *fresh = new GlobalVariable(m, type, false, GlobalValue::AppendingLinkage,
                                   ConstantArray::get(type, keep),
                                   "llvm.global.annotations");
  fresh->setSection("llvm.metadata");
}

std::string bangc::prettyFunctionName(StringRef mangled) {
  // The demangler points into its input: keep it alive.
  std::string input = mangled.str();
  ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(input.c_str()))
    return mangled.str();
  char *name = demangler.getFunctionName(nullptr, nullptr);
  std::string out = name ? name : mangled.str();
  std::free(name);
  // Users write `half`, the prelude's name for _Float16.
  for (size_t at; (at = out.find("_Float16")) != std::string::npos;)
    out.replace(at, 8, "half");
  return out;
}

std::string bangc::baseFunctionName(StringRef mangled) {
  std::string input = mangled.str();
  ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(input.c_str()))
    return mangled.str();
  char *name = demangler.getFunctionBaseName(nullptr, nullptr);
  std::string out = name ? name : mangled.str();
  std::free(name);
  return out;
}

void bangc::reportError(const Function &f, const Instruction *inst,
                        const Twine &message) {
  DebugLoc loc = inst ? inst->getDebugLoc() : DebugLoc();
  f.getContext().diagnose(
      DiagnosticInfoUnsupported(f, message, loc, DS_Error));
}

Constant *bangc::constantString(Module &m, StringRef text) {
  IRBuilder<> b(m.getContext());
  auto *gv = new GlobalVariable(m, ArrayType::get(b.getInt8Ty(), text.size() + 1),
                                true, GlobalValue::PrivateLinkage,
                                ConstantDataArray::getString(m.getContext(), text),
                                ".bang.str");
  gv->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return gv;
}

Constant *LocationTable::get(const DebugLoc &dl, StringRef what,
                             StringRef function) {
  std::string file = "<unknown>";
  unsigned line = 0, col = 0;
  if (dl) {
    auto *scope = cast<DIScope>(dl.getScope());
    file = scope->getFilename().str();
    line = dl.getLine();
    col = dl.getCol();
  }
  std::string key = file + ":" + std::to_string(line) + ":" +
                    std::to_string(col) + ":" + what.str() + ":" +
                    function.str();
  Constant *&loc = cache[key];
  if (loc)
    return loc;
  IRBuilder<> b(m.getContext());
  Constant *init = ConstantStruct::get(
      srcLocType(m.getContext()),
      {string(file), b.getInt32(line), b.getInt32(col), string(what),
       string(function)});
  loc = new GlobalVariable(m, init->getType(), true,
                           GlobalValue::PrivateLinkage, init, ".bang.loc");
  return loc;
}

Constant *LocationTable::string(StringRef text) {
  Constant *&s = strings[text];
  if (!s)
    s = constantString(m, text);
  return s;
}
