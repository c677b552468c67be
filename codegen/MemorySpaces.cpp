//===- MemorySpaces.cpp - Storage for __nram__, __wram__, __mlu_shared__ --===//
//
// A memory space is a property of a declaration. Every static on-chip
// variable of the module, whether at file scope (a global annotated
// "bang.nram"...) or at block scope (an alloca annotated through
// llvm.var.annotation), gets a fixed offset in its space. Each use becomes
// `task->nram + offset` (or wram, or sram), so pointers to on-chip memory are
// plain pointers into simrt's per-core and per-cluster memories and the space
// of any pointer is known from its address.
//
// Initial values of file-scope variables are recorded in
// @__bangsim_static_inits for simrt to copy in before tasks start; a
// block-scope initializer is ordinary code and runs where it stands.
// The sizes per space go to !bang.static = !{nram, wram, sram, num_inits}.
//
//===----------------------------------------------------------------------===//
#include "codegen/MemorySpaces.h"
#include "codegen/BangIR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ReplaceConstant.h"

using namespace llvm;
using namespace bangc;

namespace {

const int ctxFieldOfSpace[3] = {BANG_CTX_NRAM, BANG_CTX_WRAM, BANG_CTX_SRAM};

std::optional<int> spaceOf(StringRef annotation) {
  if (annotation == "bang.nram")
    return BANG_SPACE_NRAM;
  if (annotation == "bang.wram")
    return BANG_SPACE_WRAM;
  if (annotation == "bang.sram")
    return BANG_SPACE_SRAM;
  return std::nullopt;
}

StringRef annotationText(Value *v) {
  auto *gv = dyn_cast<GlobalVariable>(v->stripPointerCasts());
  if (!gv || !gv->hasInitializer())
    return "";
  auto *data = dyn_cast<ConstantDataSequential>(gv->getInitializer());
  return data && data->isString() ? data->getAsCString() : "";
}

class Layout {
public:
  explicit Layout(Module &m) : m(m), dl(m.getDataLayout()) {}

  /// Reserves `bytes` in `space`, aligned to at least 64 bytes.
  uint64_t place(int space, uint64_t bytes, Align align) {
    Align a = std::max(align, Align(64));
    uint64_t offset = alignTo(size[space], a);
    size[space] = offset + bytes;
    return offset;
  }

  /// `task->space + offset` in `f`, computed once per function and space at
  /// the top of the entry block.
  Value *addressIn(Function &f, int space, uint64_t offset, Instruction *at) {
    Value *&base = bases[{&f, space}];
    if (!base) {
      auto *task = cast<Instruction>(taskContextIn(f));
      IRBuilder<> b(task->getNextNode());
      LoadInst *load = b.CreateLoad(b.getPtrTy(),
                                    contextField(b, task, ctxFieldOfSpace[space]),
                                    "bang.space");
      load->setMetadata(LLVMContext::MD_invariant_load,
                        MDNode::get(f.getContext(), {}));
      base = load;
    }
    IRBuilder<> b(at);
    return b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), base, offset);
  }

  uint64_t size[3] = {0, 0, 0};
  std::vector<Constant *> inits;
  Module &m;
  const DataLayout &dl;

private:
  DenseMap<std::pair<Function *, int>, Value *> bases;
};

/// An instruction to insert address computations before, for use `u`; for a
/// PHI, the end of the incoming block.
Instruction *insertionPointFor(Use &u) {
  auto *inst = cast<Instruction>(u.getUser());
  if (auto *phi = dyn_cast<PHINode>(inst))
    return phi->getIncomingBlock(u)->getTerminator();
  return inst;
}

void lowerGlobal(Layout &layout, GlobalVariable &gv, int space) {
  Module &m = layout.m;
  Type *type = gv.getValueType();
  uint64_t bytes = layout.dl.getTypeAllocSize(type);
  uint64_t offset = layout.place(space, bytes, gv.getAlign().valueOrOne());
  if (gv.hasInitializer() && !gv.getInitializer()->isNullValue() &&
      !isa<UndefValue>(gv.getInitializer())) {
    auto *copy = new GlobalVariable(m, type, true, GlobalValue::PrivateLinkage,
                                    gv.getInitializer(), gv.getName() + ".init");
    IRBuilder<> b(m.getContext());
    layout.inits.push_back(ConstantStruct::get(
        StructType::get(m.getContext(), {b.getInt32Ty(), b.getInt32Ty(),
                                         b.getInt32Ty(), b.getPtrTy()}),
        {b.getInt32(space), b.getInt32(offset), b.getInt32(bytes), copy}));
  }
  convertUsersOfConstantsToInstructions({&gv});
  for (Use &use : make_early_inc_range(gv.uses())) {
    auto *inst = dyn_cast<Instruction>(use.getUser());
    if (!inst)
      continue; // reported below: the global stays referenced
    use.set(layout.addressIn(*inst->getFunction(), space, offset,
                             insertionPointFor(use)));
  }
}

/// The annotated allocas of `f`: block-scope on-chip variables.
std::vector<std::pair<AllocaInst *, int>> annotatedAllocas(Function &f,
                                                           std::vector<Instruction *> &markers) {
  std::vector<std::pair<AllocaInst *, int>> out;
  for (Instruction &inst : instructions(f)) {
    auto *call = dyn_cast<IntrinsicInst>(&inst);
    if (!call || call->getIntrinsicID() != Intrinsic::var_annotation)
      continue;
    auto *alloca = dyn_cast<AllocaInst>(call->getArgOperand(0)->stripPointerCasts());
    std::optional<int> space = spaceOf(annotationText(call->getArgOperand(1)));
    if (!alloca || !space)
      continue;
    out.push_back({alloca, *space});
    markers.push_back(call);
  }
  return out;
}

void lowerAlloca(Layout &layout, AllocaInst &alloca, int space) {
  std::optional<TypeSize> size = alloca.getAllocationSize(layout.dl);
  Function &f = *alloca.getFunction();
  if (!size || size->isScalable()) {
    reportError(f, &alloca, "an on-chip variable must have a constant size");
    return;
  }
  uint64_t offset = layout.place(space, size->getFixedValue(), alloca.getAlign());
  for (User *user : make_early_inc_range(alloca.users()))
    if (auto *marker = dyn_cast<IntrinsicInst>(user))
      if (marker->isLifetimeStartOrEnd())
        marker->eraseFromParent();
  Value *addr = layout.addressIn(f, space, offset, &alloca);
  addr->takeName(&alloca);
  alloca.replaceAllUsesWith(addr);
  alloca.eraseFromParent();
}

/// Whether `c` mentions one of `globals`.
bool mentions(const Constant *c, const SmallPtrSetImpl<GlobalVariable *> &globals) {
  if (auto *gv = dyn_cast<GlobalVariable>(c))
    return globals.count(const_cast<GlobalVariable *>(gv));
  for (const Use &op : c->operands())
    if (mentions(cast<Constant>(op.get()), globals))
      return true;
  return false;
}

/// Stores constant `c` of type `type` to `ptr`, element by element where it
/// is an aggregate, so that each on-chip address becomes an instruction.
void storeConstant(IRBuilder<> &b, Value *ptr, Type *type, Constant *c) {
  bool aggregate = isa<ConstantArray>(c) || isa<ConstantStruct>(c);
  if (!aggregate) {
    b.CreateStore(c, ptr);
    return;
  }
  for (unsigned i = 0; i < c->getNumOperands(); ++i) {
    auto *element = cast<Constant>(c->getOperand(i));
    storeConstant(b, b.CreateConstInBoundsGEP2_32(type, ptr, 0, i),
                  element->getType(), element);
  }
}

/// Clang turns a local aggregate with a constant initializer, such as
/// `float *const t[2] = {nram_buf, nram_buf + 64};`, into a copy from a
/// private constant global. When the initializer holds addresses of on-chip
/// variables, which differ per task, rebuild the aggregate in each function
/// that uses it instead.
void localizeConstants(Module &m, const SmallPtrSetImpl<GlobalVariable *> &onChip) {
  for (GlobalVariable &gv : make_early_inc_range(m.globals())) {
    if (!gv.hasInitializer() || !gv.isConstant() || !gv.hasLocalLinkage() ||
        !mentions(gv.getInitializer(), onChip))
      continue;
    convertUsersOfConstantsToInstructions({&gv});
    DenseMap<Function *, AllocaInst *> copies;
    for (Use &use : make_early_inc_range(gv.uses())) {
      auto *inst = dyn_cast<Instruction>(use.getUser());
      if (!inst)
        continue;
      Function &f = *inst->getFunction();
      AllocaInst *&copy = copies[&f];
      if (!copy) {
        // After the task context: the on-chip bases are loaded right there.
        auto *task = cast<Instruction>(taskContextIn(f));
        IRBuilder<> b(task->getNextNode());
        copy = b.CreateAlloca(gv.getValueType(), nullptr, gv.getName() + ".local");
        copy->setAlignment(gv.getAlign().valueOrOne());
        b.SetInsertPoint(copy->getNextNode());
        storeConstant(b, copy, gv.getValueType(), gv.getInitializer());
      }
      use.set(copy);
    }
    if (gv.use_empty())
      gv.eraseFromParent();
  }
}

void recordLayout(Layout &layout) {
  Module &m = layout.m;
  LLVMContext &ctx = m.getContext();
  IRBuilder<> b(ctx);
  if (!layout.inits.empty()) {
    ArrayType *type = ArrayType::get(layout.inits.front()->getType(),
                                     layout.inits.size());
    new GlobalVariable(m, type, true, GlobalValue::PrivateLinkage,
                       ConstantArray::get(type, layout.inits),
                       "__bangsim_static_inits");
  }
  NamedMDNode *md = m.getOrInsertNamedMetadata("bang.static");
  md->clearOperands();
  auto num = [&](uint64_t v) {
    return ConstantAsMetadata::get(b.getInt32(v));
  };
  md->addOperand(MDNode::get(ctx, {num(layout.size[0]), num(layout.size[1]),
                                   num(layout.size[2]),
                                   num(layout.inits.size())}));
}

} // namespace

PreservedAnalyses MemorySpacesPass::run(Module &m, ModuleAnalysisManager &) {
  Layout layout(m);
  SmallPtrSet<GlobalVariable *, 16> onChip;
  for (const Annotation &a : globalAnnotations(m))
    if (auto *gv = dyn_cast<GlobalVariable>(a.value))
      if (spaceOf(a.text))
        onChip.insert(gv);
  localizeConstants(m, onChip);
  std::vector<GlobalVariable *> lowered;
  for (const Annotation &a : globalAnnotations(m)) {
    auto *gv = dyn_cast<GlobalVariable>(a.value);
    std::optional<int> space = spaceOf(a.text);
    if (!gv || !space)
      continue;
    lowerGlobal(layout, *gv, *space);
    lowered.push_back(gv);
  }
  removeGlobalAnnotations(m, [](const Annotation &a) {
    return spaceOf(a.text).has_value();
  });
  for (GlobalVariable *gv : lowered) {
    gv->removeDeadConstantUsers();
    if (!gv->use_empty()) {
      for (Function &f : m)
        if (!f.isDeclaration()) {
          reportError(f, nullptr,
                      "the address of on-chip variable '" + gv->getName() +
                          "' is used in a global initializer; take it in "
                          "device code instead");
          break;
        }
      continue;
    }
    gv->eraseFromParent();
  }
  for (Function &f : m) {
    std::vector<Instruction *> markers;
    for (auto [alloca, space] : annotatedAllocas(f, markers))
      lowerAlloca(layout, *alloca, space);
    for (Instruction *marker : markers)
      marker->eraseFromParent();
  }
  recordLayout(layout);
  return PreservedAnalyses::none();
}
