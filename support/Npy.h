//===- Npy.h - Reading and writing numpy .npy files -------------*- C++ -*-===//
//
// Host tensors exchanged with numpy. Arrays are held in C order with
// little-endian elements. Readers accept format versions 1.0, 2.0 and 3.0;
// big-endian files are byte-swapped on load; Fortran-order files and element
// types outside DType are rejected with an error naming the file.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_SUPPORT_NPY_H
#define BANGC_SUPPORT_NPY_H

#include "support/DType.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cassert>
#include <cstdint>
#include <vector>

namespace bangc {

struct NpyArray {
  DType dtype = DType::F32;
  std::vector<int64_t> shape; ///< Empty for a 0-d (scalar) array.
  std::vector<uint8_t> data;  ///< C order, little-endian.

  NpyArray() = default;
  /// A zero-filled array of the given type and shape.
  NpyArray(DType ty, std::vector<int64_t> dims);

  int64_t numElements() const;
  size_t byteSize() const { return data.size(); }

  template <typename T> T *as() {
    assert(sizeof(T) == dtypeSize(dtype) && "element size mismatch in as<T>");
    return reinterpret_cast<T *>(data.data());
  }
  template <typename T> const T *as() const {
    assert(sizeof(T) == dtypeSize(dtype) && "element size mismatch in as<T>");
    return reinterpret_cast<const T *>(data.data());
  }
};

/// Parses the bytes of a .npy file. \p nameForErrors is used in messages.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes,
                                  llvm::StringRef nameForErrors);
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Serialises to .npy bytes (version 1.0, or 2.0 if the header needs it).
/// Fails if data.size() does not match the shape and type.
llvm::Expected<std::string> serializeNpy(const NpyArray &array);
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace bangc

#endif // BANGC_SUPPORT_NPY_H
