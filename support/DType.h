//===- DType.h - Element types shared by tools and runtime ------*- C++ -*-===//
//
// The element types a host tensor may hold. They are the numpy dtypes that
// the simulator exchanges through .npy files. Every fact about one (size,
// names, kind, .npy descr, BANG C name, the mlu-ops and Task IR types) is a
// row of support/DTypes.def.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_SUPPORT_DTYPE_H
#define BANGC_SUPPORT_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>

namespace bangc {

enum class DType {
#define BANGC_DTYPE(ENUM, ...) ENUM,
#include "support/DTypes.def"
};

/// All element types, in declaration order (handy for tests and tables).
inline constexpr DType AllDTypes[] = {
#define BANGC_DTYPE(ENUM, ...) DType::ENUM,
#include "support/DTypes.def"
};

/// Size of one element in bytes.
size_t dtypeSize(DType ty);

/// Short canonical name: "f16", "f32", "f64", "i8", ..., "u32".
llvm::StringRef dtypeName(DType ty);

/// The element's type name in BANG C: "half", "float", "int8_t", ...
llvm::StringRef dtypeCName(DType ty);

/// The numpy descr of a little-endian array: "<f4", "|i1", ...
llvm::StringRef dtypeNpyDescr(DType ty);

/// Parses a canonical name, or one of the C/numpy spellings ("half",
/// "float", "double", "int8".."int64", "uint8".."uint32", "float16"..).
llvm::Expected<DType> parseDTypeName(llvm::StringRef name);

bool isFloatDType(DType ty);
bool isSignedIntDType(DType ty);
bool isUnsignedIntDType(DType ty);

/// Writes \p values as values.size() elements of \p ty to \p dst
/// (dtypeSize(Ty) bytes each, host order). Integer values must be in the
/// type's range; F16 rounds to nearest even.
void storeValues(DType ty, llvm::ArrayRef<double> values, void *dst);

/// Reads values.size() elements of \p ty from \p src into \p values
/// (exactly: every element type but I64 and F64 is exact in a double).
void loadValues(DType ty, const void *src,
                llvm::MutableArrayRef<double> values);

} // namespace bangc

#endif // BANGC_SUPPORT_DTYPE_H
