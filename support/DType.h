//===- DType.h - Element types shared by tools and runtime ------*- C++ -*-===//
//
// The element types a host tensor may hold. They are the numpy dtypes that
// the simulator exchanges through .npy files.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_SUPPORT_DTYPE_H
#define BANGC_SUPPORT_DTYPE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>

namespace bangc {

enum class DType { F16, F32, F64, I8, I16, I32, I64, U8, U16, U32 };

/// All element types, in declaration order (handy for tests and tables).
inline constexpr DType AllDTypes[] = {DType::F16, DType::F32, DType::F64,
                                      DType::I8,  DType::I16, DType::I32,
                                      DType::I64, DType::U8,  DType::U16,
                                      DType::U32};

/// Size of one element in bytes.
size_t dtypeSize(DType Ty);

/// Short canonical name: "f16", "f32", "f64", "i8", ..., "u32".
llvm::StringRef dtypeName(DType Ty);

/// Parses a canonical name, or one of the C/numpy spellings ("half",
/// "float", "double", "int8".."int64", "uint8".."uint32", "float16"..).
llvm::Expected<DType> parseDTypeName(llvm::StringRef Name);

bool isFloatDType(DType Ty);
bool isSignedIntDType(DType Ty);
bool isUnsignedIntDType(DType Ty);

} // namespace bangc

#endif // BANGC_SUPPORT_DTYPE_H
