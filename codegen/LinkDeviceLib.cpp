//===- LinkDeviceLib.cpp - Link the intrinsics' bodies into a module ------===//
#include "codegen/LinkDeviceLib.h"
#include "codegen/BangIR.h"

#include "bang/Embedded.h"
#include "bang/Intrinsics.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace bangc;

namespace {

/// A definition of an intrinsic that is not a RUNTIME wrapper.
bool isComputeIntrinsic(const Function &f) {
  const IntrinsicOverload *row = lookupIntrinsic(baseFunctionName(f.getName()));
  return row && row->cls != IntrinsicClass::Runtime;
}

/// Turns the linked bodies of compute intrinsics back into declarations.
void keepOnlyRuntimeWrappers(Module &m) {
  for (Function &f : m) {
    if (!f.hasFnAttribute(DeviceLibAttr) || f.isDeclaration() ||
        !isComputeIntrinsic(f))
      continue;
    f.deleteBody();
    f.removeFnAttr(DeviceLibAttr);
    f.removeFnAttr(Attribute::AlwaysInline);
  }
}

} // namespace

PreservedAnalyses LinkDeviceLibPass::run(Module &m, ModuleAnalysisManager &) {
  // Lazily: the linker materialises only the bodies the kernel needs, not
  // every intrinsic of the library.
  MemoryBufferRef buffer(deviceLibraryBitcode(), "devicelib.bc");
  Expected<std::unique_ptr<Module>> lib =
      getLazyBitcodeModule(buffer, m.getContext());
  if (!lib) {
    m.getContext().emitError("cannot read the embedded device library: " +
                             toString(lib.takeError()));
    return PreservedAnalyses::all();
  }
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  for (Function &f : **lib)
    if (!f.isDeclaration())
      f.addFnAttr(DeviceLibAttr);
  if (Linker::linkModules(m, std::move(*lib), Linker::LinkOnlyNeeded)) {
    m.getContext().emitError("cannot link the device library");
    return PreservedAnalyses::all();
  }
  if (runtimeOnly)
    keepOnlyRuntimeWrappers(m);
  for (Function &f : m)
    if (f.hasFnAttribute(DeviceLibAttr) && !f.isDeclaration())
      f.setLinkage(GlobalValue::InternalLinkage);
  return PreservedAnalyses::none();
}
