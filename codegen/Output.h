//===- Output.h - Write modules as .ll, .bc, .s or .o ---------*- C++ -*-===//
#ifndef BANGC_OUTPUT_H
#define BANGC_OUTPUT_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace bangc {

enum class OutputKind { LLVMText, LLVMBitcode, Assembly, Object };

/// Writes `m` (already optimised) to `os` in the given form; assembly and
/// objects are for the host CPU.
llvm::Error writeModule(llvm::Module &m, OutputKind kind, int optLevel,
                        llvm::raw_pwrite_stream &os);

/// The host object of `m` in memory: what the JIT links and the compile
/// cache stores (the same bytes `compile -c` writes).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> emitObject(llvm::Module &m,
                                                               int optLevel);

} // namespace bangc

#endif // BANGC_OUTPUT_H
