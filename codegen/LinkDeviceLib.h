//===- LinkDeviceLib.h - Link the intrinsics' bodies into a module -*- C++ -*-===//
#ifndef BANGC_LINKDEVICELIB_H
#define BANGC_LINKDEVICELIB_H

#include "llvm/IR/PassManager.h"

namespace bangc {

/// Links the device library's definitions of the intrinsics the module uses
/// (and nothing else), marked "bang-devicelib" and internal, so that they
/// inline and vectorise in the kernel's own pipeline. With `runtimeOnly`,
/// only the thin RUNTIME-class wrappers (__memcpy, __sync, ...): the other
/// intrinsics stay calls into the native device library (NativeDeviceLib.h).
struct LinkDeviceLibPass : llvm::PassInfoMixin<LinkDeviceLibPass> {
  explicit LinkDeviceLibPass(bool runtimeOnly = false)
      : runtimeOnly(runtimeOnly) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
  bool runtimeOnly;
};

} // namespace bangc

#endif
