//===- KernelParams.h - How Clang passes each kernel parameter -*- C++ -*-===//
//
// A launch hands a kernel one pointer per source-level parameter (args[i]
// points at the value). Clang lowers a struct passed by value to whatever
// the host's C ABI says: a byval pointer, one or two coerced scalars, or
// nothing for an empty struct. Only Clang's CodeGen knows which, so this
// consumer, run after CodeGen, records it on each kernel's IR function as
// metadata that codegen/EntryWrapper.cpp reads to build the entry wrapper.
//
// The metadata is described in bang/KernelParamsMD.h.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_KERNELPARAMS_H
#define BANGC_KERNELPARAMS_H

#include "bang/KernelParamsMD.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

#include <memory>

namespace clang {
class CodeGenerator;
}

namespace bangc {

/// A consumer that must run after `codegen`'s HandleTranslationUnit: it
/// annotates every emitted kernel of `codegen`'s module. A parameter Clang
/// passes in a way the wrapper cannot build (expanded, coerce-and-expand)
/// is a clang-style error at the parameter.
std::unique_ptr<clang::ASTConsumer>
createKernelParamsRecorder(clang::CompilerInstance &ci,
                           clang::CodeGenerator &codegen);

} // namespace bangc

#endif // BANGC_KERNELPARAMS_H
