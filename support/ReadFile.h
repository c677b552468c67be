//===- ReadFile.h - Reading an input file with a bound ----------*- C++ -*-===//
//
// Every file the tools read on a user's behalf (.npy tensors, Task IR graphs)
// goes through readInputFile: only a regular file is read, and only up to a
// size limit, so a FIFO, a terminal or /dev/zero named as an input is a clear
// error instead of a block or unbounded memory. The file is opened without
// blocking (a FIFO with no writer would block an ordinary open).
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_SUPPORT_READFILE_H
#define BANGC_SUPPORT_READFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace bangc {

/// The default limit of readInputFile: 16 GiB, twice the largest GDRAM of
/// the built-in devices (any larger tensor cannot be placed on a device).
constexpr uint64_t DefaultInputFileLimit = uint64_t(16) << 30;

/// Reads the regular file \p path whole. Errors (prefixed with the path):
/// cannot open, not a regular file, larger than \p maxBytes.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path, uint64_t maxBytes = DefaultInputFileLimit);

} // namespace bangc

#endif // BANGC_SUPPORT_READFILE_H
