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
  /// `summarized`: the "N errors generated." line is already out (Clang
  /// prints it at the end of the frontend).
  explicit CompileFailed(unsigned numErrors, bool summarized = false)
      : numErrors(numErrors), summarized(summarized) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;
  unsigned numErrors;
  bool summarized;
};

} // namespace bangc

#endif // BANG_COMPILEFAILED_H
