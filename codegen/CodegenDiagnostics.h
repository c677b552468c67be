//===- CodegenDiagnostics.h - Clang-style errors from passes --*- C++ -*-===//
#ifndef BANGC_CODEGENDIAGNOSTICS_H
#define BANGC_CODEGENDIAGNOSTICS_H

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace bangc {

/// While alive, prints the errors passes report through the LLVMContext as
/// `file:line:col: error: message` with the source line and a caret, as
/// Clang does, and counts them.
class ScopedCodegenDiagnostics {
public:
  ScopedCodegenDiagnostics(llvm::LLVMContext &ctx, llvm::raw_ostream *os);
  ~ScopedCodegenDiagnostics();
  unsigned errors() const { return *count; }
  /// CompileFailed with the count, or success if there was no error.
  llvm::Error takeError() const;

private:
  llvm::LLVMContext &ctx;
  std::unique_ptr<llvm::DiagnosticHandler> previous;
  std::shared_ptr<unsigned> count;
};

/// Prints `file:line:col: <kind>: message`, the source line and a caret.
void printClangStyle(llvm::raw_ostream &os, llvm::StringRef file, unsigned line,
                     unsigned col, llvm::StringRef kind,
                     llvm::StringRef message);

} // namespace bangc

#endif
