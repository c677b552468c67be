//===- CompilerInvocation.h - Everything one compile runs with -*- C++ -*-===//
//
// The frontend's options, codegen's options and the device spec of one
// compile, built in one place from the public bangsim::CompileOptions. The
// host API (Module.cpp) and the CLI (tools/CompileCommand.cpp) both get
// their options here, so a new option is translated once; whether the
// compile cache keys it is decided in bangsim/CompileOptions.def
// (CompileKey.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_DRIVER_COMPILERINVOCATION_H
#define BANGSIM_DRIVER_COMPILERINVOCATION_H

#include "bangsim/CompileOptions.h"
#include "bangsim/DeviceSpec.h"

#include "codegen/Pipeline.h"
#include "frontend/Frontend.h"

namespace bangsim {

/// One compile's options for each stage.
struct CompilerInvocation {
  bangc::FrontendOptions frontend; ///< includes the device spec
  bangc::CodegenOptions codegen;

  const DeviceSpec &device() const { return frontend.device; }
  /// -g: full debug info kept in the emitted objects.
  bool keepDebugInfo() const { return frontend.debugInfo; }
};

/// The frontend's options of a compile for `spec`.
bangc::FrontendOptions frontendOptions(const CompileOptions &options,
                                       const DeviceSpec &spec);

/// The codegen options of a compile: its own, and the device library
/// precompiled for this CPU when the host can run it.
bangc::CodegenOptions codegenOptions(const CompileOptions &options);

/// Both, for a compile of `options` for `spec`.
CompilerInvocation makeInvocation(const CompileOptions &options,
                                  const DeviceSpec &spec);

} // namespace bangsim

#endif // BANGSIM_DRIVER_COMPILERINVOCATION_H
