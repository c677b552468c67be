//===- Output.h - Write modules as .ll, .bc, .s or .o ---------*- C++ -*-===//
#ifndef BANGC_OUTPUT_H
#define BANGC_OUTPUT_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace bangc {

enum class OutputKind { LLVMText, LLVMBitcode, Assembly, Object };

/// Writes `m` (already optimised) to `os` in the given form; assembly and
/// objects are for the host CPU.
llvm::Error writeModule(llvm::Module &m, OutputKind kind, int optLevel,
                        llvm::raw_pwrite_stream &os);

} // namespace bangc

#endif // BANGC_OUTPUT_H
