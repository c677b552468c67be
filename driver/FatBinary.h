//===- FatBinary.h - The device image a host object embeds ----*- C++ -*-===//
//
// The host compilation of a .mlu embeds its device code in the host object
// (Clang's -fcuda-include-gpubinary) and registers it at start-up with
// __cudaRegisterFatBinary; the CNRT runtime reads it back at the first
// launch. Clang stores only the image's address, so the image says its own
// size. docs/host-code.md gives the byte layout; this file writes and reads
// it.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_DRIVER_FATBINARY_H
#define BANGSIM_DRIVER_FATBINARY_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace bangsim {

/// A device image: views into its bytes.
struct FatBinary {
  /// The device it was compiled for, as bangsim::loadDeviceSpec takes it.
  llvm::StringRef device;
  /// An ELF relocatable object for the host CPU: the kernels, as
  /// bangsim::Module::loadObjects links them.
  llvm::StringRef object;
  /// The source file's name, for messages.
  llvm::StringRef sourceName;
};

/// "BANGFAT1".
constexpr char FatBinaryMagic[8] = {'B', 'A', 'N', 'G', 'F', 'A', 'T', '1'};
constexpr uint32_t FatBinaryVersion = 1;

/// The image of `fat`, 8-byte aligned sections, little-endian.
llvm::SmallVector<char, 0> writeFatBinary(const FatBinary &fat);

/// Reads the image at `image` (its size is in its header). Fails for bytes
/// that are not an image of this version and kernel ABI, or whose sections
/// lie outside the size it states.
llvm::Expected<FatBinary> readFatBinary(const void *image);

} // namespace bangsim

#endif // BANGSIM_DRIVER_FATBINARY_H
