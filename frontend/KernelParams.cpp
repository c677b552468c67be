//===- KernelParams.cpp - How Clang passes each kernel parameter ----------===//
//
// See KernelParams.h. Clang's CGFunctionInfo for the kernel's type says, for
// each parameter, how many IR arguments carry it and what they are; this
// consumer turns that into !bang.params on the kernel's IR function, so
// that the entry wrapper passes a struct exactly as a call compiled by
// Clang would, for the host's ABI whatever it is.
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelParams.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/CodeGen/CGFunctionInfo.h"
#include "clang/CodeGen/CodeGenABITypes.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace clang;
using namespace clang::CodeGen;
using namespace bangc;

namespace {

/// The functions @llvm.global.annotations marks "bang.kernel": every
/// emitted kernel, template instantiations included (codegen/FindKernels.cpp
/// reads the same list).
std::vector<llvm::Function *> emittedKernels(llvm::Module &m) {
  std::vector<llvm::Function *> out;
  llvm::GlobalVariable *annotations = m.getNamedGlobal("llvm.global.annotations");
  if (!annotations || !annotations->hasInitializer())
    return out;
  auto *array = llvm::dyn_cast<llvm::ConstantArray>(annotations->getInitializer());
  if (!array)
    return out;
  for (llvm::Value *op : array->operands()) {
    auto *entry = llvm::dyn_cast<llvm::ConstantStruct>(op);
    if (!entry || entry->getNumOperands() < 2)
      continue;
    auto *f = llvm::dyn_cast<llvm::Function>(
        entry->getOperand(0)->stripPointerCasts());
    auto *text = llvm::dyn_cast<llvm::GlobalVariable>(
        entry->getOperand(1)->stripPointerCasts());
    auto *data = text && text->hasInitializer()
                     ? llvm::dyn_cast<llvm::ConstantDataSequential>(
                           text->getInitializer())
                     : nullptr;
    if (f && !f->isDeclaration() && data && data->isCString() &&
        data->getAsCString() == "bang.kernel")
      out.push_back(f);
  }
  return out;
}

class KernelParamsRecorder : public ASTConsumer {
public:
  KernelParamsRecorder(CompilerInstance &ci, CodeGenerator &codegen)
      : ci(ci), codegen(codegen) {}

  void HandleTranslationUnit(ASTContext &ctx) override {
    if (ci.getDiagnostics().hasErrorOccurred() || !codegen.GetModule())
      return;
    for (llvm::Function *f : emittedKernels(*codegen.GetModule()))
      if (const auto *fd = llvm::dyn_cast_or_null<FunctionDecl>(
              codegen.GetDeclForMangledName(f->getName())))
        record(ctx, fd, *f);
  }

private:
  void error(const ParmVarDecl *param, const FunctionDecl *fd,
             const char *how) {
    DiagnosticsEngine &diags = ci.getDiagnostics();
    diags.Report(param->getLocation(),
                 diags.getCustomDiagID(
                     DiagnosticsEngine::Error,
                     "kernel parameter %0 of %1 has type %2, which the host "
                     "ABI passes %3; a kernel cannot take it"))
        << unsigned(param->getFunctionScopeIndex() + 1) << fd
        << param->getType() << how << param->getSourceRange();
  }

  void record(ASTContext &ctx, const FunctionDecl *fd, llvm::Function &f) {
    llvm::Module &m = *codegen.GetModule();
    const llvm::DataLayout &dl = m.getDataLayout();
    CanQualType type = ctx.getCanonicalType(fd->getType());
    const CGFunctionInfo &fi = CodeGen::arrangeFreeFunctionType(
        codegen.CGM(), type.castAs<FunctionProtoType>());
    if (!fi.getReturnInfo().isIgnore() || fi.usesInAlloca())
      return; // not a void kernel: BangChecks has reported it
    llvm::LLVMContext &lc = m.getContext();
    auto i64 = [&](uint64_t v) {
      return llvm::ConstantAsMetadata::get(
          llvm::ConstantInt::get(llvm::Type::getInt64Ty(lc), v));
    };
    std::vector<llvm::Metadata *> params;
    unsigned irArg = 0;
    for (unsigned i = 0; i < fd->getNumParams(); ++i) {
      const ParmVarDecl *param = fd->getParamDecl(i);
      const ABIArgInfo &ai = fi.arguments()[i].info;
      QualType t = param->getType();
      bool aggregate = t->isRecordType();
      std::vector<llvm::Metadata *> node = {
          i64(aggregate), i64(ctx.getTypeSizeInChars(t).getQuantity()),
          i64(ctx.getTypeAlignInChars(t).getQuantity()), nullptr, nullptr};
      if (ai.getKind() != ABIArgInfo::Ignore &&
          ai.getKind() != ABIArgInfo::Expand &&
          ai.getKind() != ABIArgInfo::CoerceAndExpand &&
          ai.getKind() != ABIArgInfo::InAlloca && ai.getPaddingType())
        ++irArg; // a padding argument before this one; the wrapper fills it
      unsigned first = irArg;
      switch (ai.getKind()) {
      case ABIArgInfo::Direct:
      case ABIArgInfo::Extend: {
        node[3] = i64(ParamDirect);
        uint64_t offset = ai.getDirectOffset();
        auto *st = llvm::dyn_cast<llvm::StructType>(ai.getCoerceToType());
        if (st && ai.isDirect() && ai.getCanBeFlattened()) {
          const llvm::StructLayout *layout = dl.getStructLayout(st);
          for (unsigned k = 0; k < st->getNumElements(); ++k)
            node.push_back(i64(offset + layout->getElementOffset(k)));
          irArg += st->getNumElements();
        } else {
          node.push_back(i64(offset));
          irArg += 1;
        }
        break;
      }
      case ABIArgInfo::Indirect:
      case ABIArgInfo::IndirectAliased:
        node[3] = i64(ParamIndirect);
        irArg += 1;
        break;
      case ABIArgInfo::Ignore:
        node[3] = i64(ParamIgnored);
        break;
      case ABIArgInfo::Expand:
      case ABIArgInfo::CoerceAndExpand:
        error(param, fd, "expanded into its fields");
        return;
      case ABIArgInfo::InAlloca:
        error(param, fd, "in an argument block (inalloca)");
        return;
      }
      node[4] = i64(first);
      params.push_back(llvm::MDNode::get(lc, node));
    }
    if (irArg != f.arg_size()) {
      DiagnosticsEngine &diags = ci.getDiagnostics();
      diags.Report(fd->getLocation(),
                   diags.getCustomDiagID(
                       DiagnosticsEngine::Error,
                       "kernel %0: Clang's ABI lowering gives %1 IR "
                       "arguments, its IR function has %2; it cannot be "
                       "launched"))
          << fd << irArg << unsigned(f.arg_size());
      return;
    }
    f.setMetadata(KernelParamsMD, llvm::MDNode::get(lc, params));
  }

  CompilerInstance &ci;
  CodeGenerator &codegen;
};

} // namespace

std::unique_ptr<ASTConsumer>
bangc::createKernelParamsRecorder(CompilerInstance &ci,
                                  CodeGenerator &codegen) {
  return std::make_unique<KernelParamsRecorder>(ci, codegen);
}
