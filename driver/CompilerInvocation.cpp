//===- CompilerInvocation.cpp - CompileOptions to each stage's options ----===//
//
// The one place where the public compile options become the frontend's and
// codegen's: no other file copies them field by field.
//
//===----------------------------------------------------------------------===//
#include "driver/CompilerInvocation.h"

#include "codegen/NativeDeviceLib.h"

using namespace bangsim;

bangc::FrontendOptions bangsim::frontendOptions(const CompileOptions &options,
                                                const DeviceSpec &spec) {
  bangc::FrontendOptions fe;
  fe.includeDirs = options.includeDirs;
  fe.defines = options.defines;
  fe.optLevel = options.optLevel;
  fe.debugInfo = options.debugInfo;
  fe.languageStandard = options.languageStandard;
  fe.device = spec;
  fe.diagnostics = options.diagnostics;
  return fe;
}

bangc::CodegenOptions bangsim::codegenOptions(const CompileOptions &options) {
  bangc::CodegenOptions cg;
  cg.optLevel = options.optLevel;
  cg.checkAccesses = options.checkAccesses;
  cg.checkOnChipAccesses = options.checkRaces;
  cg.diagnostics = options.diagnostics;
  cg.nativeDeviceLib = bangc::usableNativeDeviceLibrary();
  cg.inlineIntrinsics = options.inlineIntrinsics;
  return cg;
}

CompilerInvocation bangsim::makeInvocation(const CompileOptions &options,
                                           const DeviceSpec &spec) {
  CompilerInvocation inv;
  inv.frontend = frontendOptions(options, spec);
  inv.codegen = codegenOptions(options);
  return inv;
}
