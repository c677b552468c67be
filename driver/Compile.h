//===- Compile.h - The compile driver: source to host objects --*- C++ -*-===//
//
// The steps of a compile (frontend, BANG passes, -O<n> and codegen, output)
// run from a CompilerInvocation, and the whole compile of one source through
// the on-disk compile cache. The host API (simrt's Module.cpp) calls
// compileCached and links the objects it gets into the process; the CLI
// (tools/CompileCommand.cpp) runs the steps one by one to write IR,
// assembly or objects.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_DRIVER_COMPILE_H
#define BANGSIM_DRIVER_COMPILE_H

#include "driver/CompilerInvocation.h"

#include "codegen/Output.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <vector>

namespace bangsim {

using Objects = std::vector<std::unique_ptr<llvm::MemoryBuffer>>;
using bangc::OutputKind;

// --- Steps --------------------------------------------------------------===//

/// The frontend: `name` (or `source`, under that name) to LLVM IR.
llvm::Expected<std::unique_ptr<llvm::Module>>
runFrontend(llvm::StringRef name, std::optional<llvm::StringRef> source,
            const CompilerInvocation &inv, llvm::LLVMContext &context);

/// The BANG passes and LLVM's -O<n> pipeline on the whole module; with a
/// non-empty `passes` (a comma-separated list, for testing passes) only
/// those.
llvm::Error optimize(llvm::Module &m, const CompilerInvocation &inv,
                     llvm::StringRef passes = "");

/// Writes the optimised `m` to `os` as IR, assembly or an object.
llvm::Error writeOutput(llvm::Module &m, OutputKind kind,
                        const CompilerInvocation &inv,
                        llvm::raw_pwrite_stream &os);

/// Frontend, BANG passes, -O<n> and codegen (split over the host's cores) of
/// one source to host objects; records in `times` where the time went.
llvm::Expected<Objects> compileToObjects(llvm::StringRef name,
                                         std::optional<llvm::StringRef> source,
                                         const CompilerInvocation &inv,
                                         CompileTimes &times);

// --- A compile through the cache ----------------------------------------===//

/// Takes a compile's objects (the host API links them into the process).
/// An error for objects from the cache makes the compile run anew.
using ObjectLoader = llvm::function_ref<llvm::Error(Objects)>;

/// Compiles one source for `spec` and hands the objects to `load`, through
/// the compile cache when `options` and the environment allow it
/// (docs/cache.md): a hit loads the stored objects and prints the stored
/// diagnostics; a miss compiles and stores. `times` says what happened.
llvm::Error compileCached(llvm::StringRef name,
                          std::optional<llvm::StringRef> source,
                          const DeviceSpec &spec, const CompileOptions &options,
                          CompileTimes &times, ObjectLoader load);

} // namespace bangsim

#endif // BANGSIM_DRIVER_COMPILE_H
