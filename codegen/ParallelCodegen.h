//===- ParallelCodegen.h - Host objects from several threads --*- C++ -*-===//
#ifndef BANGC_PARALLELCODEGEN_H
#define BANGC_PARALLELCODEGEN_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <vector>

namespace bangc {

/// The host objects of `m` (already optimised), its functions split into at
/// most `partitions` modules (llvm::SplitModule; each local symbol used
/// across partitions becomes a hidden global) that are compiled on as many
/// threads, each in its own LLVMContext. Machine code is generated per
/// function, so the code is the same as one emitObject's. With one
/// partition, or a module too small to split, it is emitObject. Modifies
/// `m`.
llvm::Expected<std::vector<std::unique_ptr<llvm::MemoryBuffer>>>
emitObjects(llvm::Module &m, int optLevel, unsigned partitions);

struct CodegenOptions;

/// The second half of a compile, after the BANG passes (runBangPasses): LLVM's
/// -O<n> pipeline (runOptimizationPipeline), then code generation, on up to
/// `threads` host threads. A module with several kernels is split by kernel
/// (splitByKernel) and each part optimised and compiled on its own thread;
/// otherwise it is optimised whole and its codegen split (emitObjects).
/// Without `keepDebugInfo` line tables are dropped before codegen.
/// Diagnostics go to options.diagnostics (stderr when null), in part order.
llvm::Expected<std::vector<std::unique_ptr<llvm::MemoryBuffer>>>
optimizeAndEmitObjects(llvm::Module &m, const CodegenOptions &options,
                       bool keepDebugInfo, unsigned threads);

/// The partitions emitObjects uses by default: one per host core, at most
/// 4; BANGC_CODEGEN_THREADS=N overrides it.
unsigned defaultCodegenPartitions();

} // namespace bangc

#endif
