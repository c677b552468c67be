//===- NpyFuzzer.cpp - libFuzzer target: the .npy reader ------------------===//
//
// Each input is a .npy file's bytes (`run --arg in:X.npy`, `op --in`, `graph
// --in` read them): the reader must accept it or return an error, never
// crash or allocate beyond what the header's shape and the bytes justify.
// What it accepts must serialise again.
//
//===----------------------------------------------------------------------===//
#include "support/Npy.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto array = bangc::parseNpy(bytes, "fuzz.npy");
  if (!array) {
    llvm::consumeError(array.takeError());
    return 0;
  }
  auto again = bangc::serializeNpy(*array);
  if (!again)
    llvm::consumeError(again.takeError());
  return 0;
}
