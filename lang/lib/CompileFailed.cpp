//===- CompileFailed.cpp - The error of a program with errors -------------===//
#include "bang/CompileFailed.h"

using namespace bangc;

char CompileFailed::ID = 0;

void CompileFailed::log(llvm::raw_ostream &os) const {
  os << numErrors << (numErrors == 1 ? " error" : " errors") << " generated";
}

std::error_code CompileFailed::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}
