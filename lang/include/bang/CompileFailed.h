//===- CompileFailed.h - The error of a program with errors ---*- C++ -*-===//
#ifndef BANG_COMPILEFAILED_H
#define BANG_COMPILEFAILED_H

#include "llvm/Support/Error.h"

namespace bangc {

/// Returned when the program has errors. The diagnostics themselves have
/// already been printed, clang-style; tools exit 1 on it.
class CompileFailed : public llvm::ErrorInfo<CompileFailed> {
public:
  static char ID;
  explicit CompileFailed(unsigned numErrors) : numErrors(numErrors) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;
  unsigned numErrors;
};

} // namespace bangc

#endif // BANG_COMPILEFAILED_H
