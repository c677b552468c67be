//===- SourceKind.h - Device-only or host + device source -----*- C++ -*-===//
//
// A .mlu source is compiled one of two ways (docs/host-code.md): a
// device-only source as plain C++ in which every function is device code
// (the language before host code), a host + device source twice in Clang's
// CUDA mode, as cncc and nvcc compile one. What decides is the text: a
// source that launches a kernel or defines `main` holds host code.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_FRONTEND_SOURCEKIND_H
#define BANGC_FRONTEND_SOURCEKIND_H

#include "llvm/ADT/StringRef.h"

namespace bangc {

/// Whether `text` (a main source file, not preprocessed) holds host code:
/// a `<<<` token outside comments and literals, or a definition of `main`
/// at file scope (`main` followed by `(`, not after `.`, `->` or `::`).
bool isHostAndDeviceSource(llvm::StringRef text);

} // namespace bangc

#endif // BANGC_FRONTEND_SOURCEKIND_H
