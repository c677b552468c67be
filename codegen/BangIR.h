//===- BangIR.h - IR helpers shared by the BANG passes --------*- C++ -*-===//
#ifndef BANGC_BANGIR_H
#define BANGC_BANGIR_H

#include "bangsim/KernelABI.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Module.h"

#include <vector>

namespace bangc {

/// Function attribute marking kernels; its value is the kernel's pretty name.
inline constexpr const char *KernelAttr = "bang-kernel";
/// Function attribute marking functions that came from the device library.
inline constexpr const char *DeviceLibAttr = "bang-devicelib";

/// The IR type of BangTaskContext (see bangsim/KernelABI.h).
llvm::StructType *taskContextType(llvm::LLVMContext &ctx);

/// The IR type of BangSrcLoc.
llvm::StructType *srcLocType(llvm::LLVMContext &ctx);

/// Declares (or finds) a runtime function of the ABI.
llvm::FunctionCallee runtimeFunction(llvm::Module &m, llvm::StringRef name,
                                     llvm::FunctionType *type);

/// A call to __bangsim_ctx() at the start of `f`'s entry block, made once
/// per function.
llvm::Value *taskContextIn(llvm::Function &f);

/// Address of field `field` (a BangTaskContextField) of the task context.
llvm::Value *contextField(llvm::IRBuilder<> &b, llvm::Value *ctx, int field);

/// An entry of @llvm.global.annotations: the annotated value and its text.
struct Annotation {
  llvm::GlobalValue *value;
  llvm::StringRef text;
};
std::vector<Annotation> globalAnnotations(llvm::Module &m);

/// Removes the entries of @llvm.global.annotations for which `drop` holds.
void removeGlobalAnnotations(llvm::Module &m,
                             llvm::function_ref<bool(const Annotation &)> drop);

/// The demangled name of a function without its parameters, e.g.
/// "vadd<float>" for _Z4vaddIfEvPT_i.
std::string prettyFunctionName(llvm::StringRef mangled);

/// The unqualified base name of a (possibly mangled) function name, e.g.
/// "__bang_add" for _Z10__bang_addPfPKfS1_i.
std::string baseFunctionName(llvm::StringRef mangled);

/// Reports an error at `inst`'s debug location (or `f`'s) through the
/// LLVMContext's diagnostic handler; codegen fails after the pass.
void reportError(const llvm::Function &f, const llvm::Instruction *inst,
                 const llvm::Twine &message);

/// A private constant C string.
llvm::Constant *constantString(llvm::Module &m, llvm::StringRef text);

/// Constant BangSrcLoc records of a module, one per distinct location.
class LocationTable {
public:
  explicit LocationTable(llvm::Module &m) : m(m) {}
  /// The BangSrcLoc for `dl` naming `what` (an intrinsic, "load"...) inside
  /// `function`.
  llvm::Constant *get(const llvm::DebugLoc &dl, llvm::StringRef what,
                      llvm::StringRef function);

private:
  llvm::Constant *string(llvm::StringRef text);
  llvm::Module &m;
  llvm::StringMap<llvm::Constant *> cache, strings;
};

} // namespace bangc

#endif // BANGC_BANGIR_H
