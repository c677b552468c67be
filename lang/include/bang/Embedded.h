//===- Embedded.h - Language files compiled into the binary ---*- C++ -*-===//
#ifndef BANG_EMBEDDED_H
#define BANG_EMBEDDED_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace bangc {

/// A header served to the frontend from memory.
struct EmbeddedFile {
  llvm::StringRef path; ///< Relative to the virtual include directory.
  llvm::StringRef contents;
};

/// The prelude and the headers it includes.
llvm::ArrayRef<EmbeddedFile> embeddedHeaders();

/// The virtual directory the embedded headers live in.
llvm::StringRef embeddedIncludeDir();

/// The device library's bitcode.
llvm::StringRef deviceLibraryBitcode();

} // namespace bangc

#endif // BANG_EMBEDDED_H
