//===- LowerInlineAsm.cpp - mlu-ops' inline assembly to library calls -----===//
//
// mlu-ops kernels write `__asm__ volatile("sync;")` for __sync(), and a few
// vector and scalar instructions as inline assembly: `fuse.nram.<type>`
// chains, `div.scalar.nram.<type>`, `gather.vector.nram.nram.nram.u32`,
// `index.vvr.f32` (into a vv_float register) and `findlast1.gpr.b32`. Each
// becomes what the device does for it: a barrier, calls of the device
// library's bodies (section "Inline assembly" of intrinsics.def, checked and
// charged like every intrinsic), or for findlast1 plain IR. Anything else is
// an error at its source line rather than a host assembler failure. The pass
// runs before the device library is linked, so the bodies it calls are
// linked too.
//
//===----------------------------------------------------------------------===//
#include "codegen/LowerInlineAsm.h"
#include "codegen/BangIR.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

#include <optional>

using namespace llvm;
using namespace bangc;

namespace {

/// An operand of the assembly text: `$N` (a value) or `[$N]` (an address).
struct AsmOperand {
  unsigned index = 0;
  bool address = false;
};

/// One statement: its mnemonic and its comma-separated operands.
struct AsmStatement {
  StringRef mnemonic;
  SmallVector<StringRef, 8> operands;
};

std::optional<AsmStatement> parseStatement(StringRef text) {
  text = text.trim();
  while (text.consume_back(";"))
    text = text.trim();
  if (text.empty() || text.contains(';'))
    return std::nullopt;
  AsmStatement s;
  size_t space = text.find_first_of(" \t\n");
  s.mnemonic = text.take_front(space);
  StringRef rest = space == StringRef::npos ? "" : text.drop_front(space).trim();
  if (rest.empty())
    return s;
  SmallVector<StringRef, 8> parts;
  rest.split(parts, ',');
  for (StringRef p : parts)
    s.operands.push_back(p.trim());
  return s;
}

/// `$N`, `${N}`, `${N:x}`, optionally in brackets.
std::optional<AsmOperand> parseOperand(StringRef text) {
  AsmOperand op;
  text = text.trim();
  if (text.consume_front("[")) {
    if (!text.consume_back("]"))
      return std::nullopt;
    text = text.trim();
    op.address = true;
  }
  if (!text.consume_front("$"))
    return std::nullopt;
  if (text.consume_front("{")) {
    if (!text.consume_back("}"))
      return std::nullopt;
    text = text.split(':').first;
  }
  if (text.getAsInteger(10, op.index))
    return std::nullopt;
  return op;
}

/// The values of an asm call's operands, numbered as the text numbers them:
/// outputs first (the call's result), then inputs (its arguments).
class AsmOperands {
public:
  explicit AsmOperands(CallInst &call) : call(call) {
    auto *asmValue = cast<InlineAsm>(call.getCalledOperand());
    unsigned arg = 0;
    for (const InlineAsm::ConstraintInfo &c : asmValue->ParseConstraints()) {
      if (c.Type == InlineAsm::isOutput)
        slots.push_back(-1);
      else if (c.Type == InlineAsm::isInput)
        slots.push_back(int(arg++));
    }
  }
  /// The input value of operand `index`, or null.
  Value *input(unsigned index) const {
    if (index >= slots.size() || slots[index] < 0)
      return nullptr;
    return call.getArgOperand(slots[index]);
  }
  bool isOutput(unsigned index) const {
    return index < slots.size() && slots[index] < 0;
  }

private:
  CallInst &call;
  SmallVector<int, 8> slots;
};

/// Lowers one asm statement; returns an error message or "".
class Lowering {
public:
  Lowering(Module &m, CallInst &call, const AsmStatement &s)
      : m(m), call(call), s(s), ops(call), b(&call) {}

  std::string run() {
    StringRef mn = s.mnemonic;
    if (mn == "sync")
      return lowerSync();
    if (mn == "findlast1.gpr.b32")
      return lowerFindLast1();
    if (mn.consume_front("fuse.nram."))
      return lowerFuse(mn);
    if (mn.consume_front("div.scalar.nram."))
      return lowerDivScalar(mn);
    if (mn == "gather.vector.nram.nram.nram.u32")
      return lowerGather();
    if (mn == "index.vvr.f32")
      return lowerIndex();
    return "unsupported";
  }

private:
  Module &m;
  CallInst &call;
  const AsmStatement &s;
  AsmOperands ops;
  IRBuilder<> b;

  Type *elementType(StringRef suffix) {
    LLVMContext &ctx = m.getContext();
    return StringSwitch<Type *>(suffix)
        .Case("f16", Type::getHalfTy(ctx))
        .Case("f32", Type::getFloatTy(ctx))
        .Cases("s32", "u32", Type::getInt32Ty(ctx))
        .Default(nullptr);
  }

  /// Operand text `text` as an input: an address if `address`, else a
  /// scalar converted to `type`. Null if it is not that.
  Value *operand(StringRef text, bool address, Type *type, bool isSigned) {
    std::optional<AsmOperand> op = parseOperand(text);
    if (!op || op->address != address)
      return nullptr;
    Value *v = ops.input(op->index);
    if (!v)
      return nullptr;
    if (address)
      return v->getType()->isPointerTy() ? v : nullptr;
    Type *from = v->getType();
    if (from == type)
      return v;
    if (from->isIntegerTy() && type->isIntegerTy())
      return b.CreateIntCast(v, type, isSigned);
    if (from->isIntegerTy() && type->isFloatingPointTy())
      return isSigned ? b.CreateSIToFP(v, type) : b.CreateUIToFP(v, type);
    if (from->isFloatingPointTy() && type->isFloatingPointTy())
      return b.CreateFPCast(v, type);
    if (from->isFloatingPointTy() && type->isIntegerTy())
      return isSigned ? b.CreateFPToSI(v, type) : b.CreateFPToUI(v, type);
    return nullptr;
  }
  Value *address(StringRef text) {
    return operand(text, true, nullptr, false);
  }
  Value *count(StringRef text) {
    return operand(text, false, b.getInt32Ty(), true);
  }

  void callLibrary(StringRef mangled, ArrayRef<Value *> args) {
    SmallVector<Type *, 8> types;
    for (Value *a : args)
      types.push_back(a->getType());
    FunctionCallee f = m.getOrInsertFunction(
        mangled, FunctionType::get(b.getVoidTy(), types, false));
    b.CreateCall(f, args);
  }

  std::string lowerSync() {
    if (!s.operands.empty())
      return "'sync' takes no operands";
    FunctionCallee sync = runtimeFunction(
        m, "__bangsim_sync",
        FunctionType::get(b.getVoidTy(), {b.getInt32Ty()}, false));
    b.CreateCall(sync, {b.getInt32(0)});
    return "";
  }

  /// findlast1.gpr.b32 %dst, %src: the index of src's highest set bit, -1
  /// (all ones) when src is 0.
  std::string lowerFindLast1() {
    std::optional<AsmOperand> dst, src;
    if (s.operands.size() == 2) {
      dst = parseOperand(s.operands[0]);
      src = parseOperand(s.operands[1]);
    }
    if (!dst || !src || dst->address || src->address ||
        !ops.isOutput(dst->index) || !call.getType()->isIntegerTy(32))
      return "expected 'findlast1.gpr.b32 %dst, %src' with a 32-bit output";
    Value *x = operand(s.operands[1], false, b.getInt32Ty(), false);
    if (!x)
      return "the source of findlast1.gpr.b32 must be an integer";
    Value *lz = b.CreateIntrinsic(Intrinsic::ctlz, {b.getInt32Ty()},
                                  {x, b.getFalse()});
    call.replaceAllUsesWith(b.CreateSub(b.getInt32(31), lz));
    return "";
  }

  /// fuse.nram.T [dst], n, [src], .op(x), .op([v]), ...: each step in
  /// turn, the first from src, the others on dst.
  std::string lowerFuse(StringRef suffix) {
    static const StringRef mangled[] = {
        "_Z22__bangsim_asm_fuse_f16PDF16_PKDF16_iiDF16_S1_",
        "_Z22__bangsim_asm_fuse_f32PfPKfiifS1_",
        "_Z22__bangsim_asm_fuse_s32PiPKiiiiS1_",
        "_Z22__bangsim_asm_fuse_u32PjPKjiijS1_"};
    int which = StringSwitch<int>(suffix)
                    .Case("f16", 0)
                    .Case("f32", 1)
                    .Case("s32", 2)
                    .Case("u32", 3)
                    .Default(-1);
    if (which < 0)
      return "fuse.nram takes f16, f32, s32 or u32";
    Type *t = elementType(suffix);
    bool isSigned = suffix != "u32";
    const char *form = "expected 'fuse.nram.T [dst], n, [src], .op(x), ...'";
    if (s.operands.size() < 4)
      return form;
    Value *dst = address(s.operands[0]);
    Value *n = count(s.operands[1]);
    Value *src = address(s.operands[2]);
    if (!dst || !n || !src)
      return form;
    for (StringRef step : ArrayRef(s.operands).drop_front(3)) {
      StringRef name, arg;
      if (!step.consume_front(".") || !step.consume_back(")"))
        return form;
      std::tie(name, arg) = step.split('(');
      int op = opCode(name.trim());
      if (op < 0)
        return "unknown fuse operation '." + name.str() + "'";
      bool isVector = arg.trim().starts_with("[");
      Value *v = operand(arg, isVector, t, isSigned);
      if (!v)
        return "bad operand of '." + name.str() + "'";
      Value *scalar = isVector ? Constant::getNullValue(t) : v;
      Value *vec = isVector ? v : ConstantPointerNull::get(b.getPtrTy());
      callLibrary(mangled[which], {dst, src, n, b.getInt32(op), scalar, vec});
      src = dst;
    }
    return "";
  }

  static int opCode(StringRef name) {
    int code = 0;
#define BANG_ASM_FUSE_OP(NAME)                                                 \
  if (name == #NAME)                                                           \
    return code;                                                               \
  ++code;
#include "bang/AsmFuseOps.def"
    return -1;
  }

  /// div.scalar.nram.T [dst], [src], value, n.
  std::string lowerDivScalar(StringRef suffix) {
    StringRef mangled = StringSwitch<StringRef>(suffix)
                            .Case("f16", "_Z28__bangsim_asm_div_scalar_f16"
                                         "PDF16_PKDF16_DF16_i")
                            .Case("f32", "_Z28__bangsim_asm_div_scalar_f32"
                                         "PfPKffi")
                            .Default("");
    if (mangled.empty())
      return "div.scalar.nram takes f16 or f32";
    if (s.operands.size() != 4)
      return "expected 'div.scalar.nram.T [dst], [src], value, n'";
    Value *dst = address(s.operands[0]);
    Value *src = address(s.operands[1]);
    Value *value = operand(s.operands[2], false, elementType(suffix), true);
    Value *n = count(s.operands[3]);
    if (!dst || !src || !value || !n)
      return "expected 'div.scalar.nram.T [dst], [src], value, n'";
    callLibrary(mangled, {dst, src, value, n});
    return "";
  }

  /// gather.vector.nram.nram.nram.u32 [dst], [src], [offset], size, n,
  /// stride.
  std::string lowerGather() {
    const char *form = "expected 'gather.vector.nram.nram.nram.u32 [dst], "
                       "[src], [offset], size, n, stride'";
    if (s.operands.size() != 6)
      return form;
    Value *dst = address(s.operands[0]);
    Value *src = address(s.operands[1]);
    Value *offset = address(s.operands[2]);
    Value *size = count(s.operands[3]);
    Value *n = count(s.operands[4]);
    Value *stride = count(s.operands[5]);
    if (!dst || !src || !offset || !size || !n || !stride)
      return form;
    callLibrary("_Z20__bangsim_asm_gatherPvPKvPKjiii",
                {dst, src, offset, size, n, stride});
    return "";
  }

  /// index.vvr.f32 %dst, %start, step: the vv_float output dst (a
  /// <64 x float> value; "+r" ties its old value, which is unused) gets
  /// start + i * step. step is an operand or a numeric immediate. The body
  /// fills a stack slot that then replaces the asm's result.
  std::string lowerIndex() {
    const char *form = "expected 'index.vvr.f32 %dst, %start, step' with a "
                       "vv_float output";
    if (s.operands.size() != 3)
      return form;
    std::optional<AsmOperand> dst = parseOperand(s.operands[0]);
    auto *registerType = dyn_cast<FixedVectorType>(call.getType());
    if (!dst || dst->address || !ops.isOutput(dst->index) || !registerType ||
        !registerType->getElementType()->isFloatTy())
      return form;
    Type *f32 = b.getFloatTy();
    Value *start = operand(s.operands[1], false, f32, true);
    Value *step = operand(s.operands[2], false, f32, true);
    double immediate;
    if (!step && !s.operands[2].getAsDouble(immediate))
      step = ConstantFP::get(f32, immediate);
    if (!start || !step)
      return form;
    Function &f = *call.getFunction();
    IRBuilder<> entry(&f.getEntryBlock(), f.getEntryBlock().begin());
    AllocaInst *slot = entry.CreateAlloca(registerType, nullptr, "vvr");
    slot->setAlignment(m.getDataLayout().getPrefTypeAlign(registerType));
    callLibrary("_Z23__bangsim_asm_index_f32RDv64_fff", {slot, start, step});
    call.replaceAllUsesWith(b.CreateLoad(registerType, slot));
    return "";
  }
};

} // namespace

PreservedAnalyses LowerInlineAsmPass::run(Module &m, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &f : m) {
    for (Instruction &inst : make_early_inc_range(instructions(f))) {
      auto *call = dyn_cast<CallInst>(&inst);
      if (!call || !call->isInlineAsm())
        continue;
      auto *asmValue = cast<InlineAsm>(call->getCalledOperand());
      StringRef text = StringRef(asmValue->getAsmString()).trim();
      std::optional<AsmStatement> s = parseStatement(text);
      std::string problem = s ? Lowering(m, *call, *s).run() : "unsupported";
      if (problem == "unsupported") {
        reportError(f, call,
                    "unsupported inline assembly '" + text +
                        "'; the simulated device accepts \"sync;\" and the "
                        "mlu-ops instructions of docs/language.md (fuse.nram, "
                        "div.scalar.nram, gather.vector, index.vvr.f32, "
                        "findlast1.gpr.b32)");
        continue;
      }
      if (!problem.empty()) {
        reportError(f, call,
                    "inline assembly '" + text + "': " + problem);
        continue;
      }
      call->eraseFromParent();
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
