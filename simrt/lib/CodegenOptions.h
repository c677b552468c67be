//===- CodegenOptions.h - Codegen options of a compile ---------*- C++ -*-===//
#ifndef BANGSIM_CODEGENOPTIONS_H
#define BANGSIM_CODEGENOPTIONS_H

#include "bangsim/Module.h"

#include "codegen/NativeDeviceLib.h"
#include "codegen/Pipeline.h"

namespace bangsim {

/// The codegen options of a compile: its own, and the device library
/// precompiled for this CPU when the host can run it.
inline bangc::CodegenOptions codegenOptions(const CompileOptions &options) {
  bangc::CodegenOptions cg;
  cg.optLevel = options.optLevel;
  cg.checkAccesses = options.checkAccesses;
  cg.nativeDeviceLib = bangc::usableNativeDeviceLibrary();
  cg.inlineIntrinsics = options.inlineIntrinsics;
  return cg;
}

} // namespace bangsim

#endif // BANGSIM_CODEGENOPTIONS_H
