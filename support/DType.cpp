//===- DType.cpp - Element types shared by tools and runtime -------------===//
#include "support/DType.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace bangc {

size_t dtypeSize(DType Ty) {
  switch (Ty) {
  case DType::I8:
  case DType::U8:
    return 1;
  case DType::F16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  }
  llvm_unreachable("unknown DType");
}

StringRef dtypeName(DType Ty) {
  switch (Ty) {
  case DType::F16:
    return "f16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "u8";
  case DType::U16:
    return "u16";
  case DType::U32:
    return "u32";
  }
  llvm_unreachable("unknown DType");
}

Expected<DType> parseDTypeName(StringRef Name) {
  std::optional<DType> Ty = StringSwitch<std::optional<DType>>(Name)
                                .Cases("f16", "half", "float16", DType::F16)
                                .Cases("f32", "float", "float32", DType::F32)
                                .Cases("f64", "double", "float64", DType::F64)
                                .Cases("i8", "int8", "char", DType::I8)
                                .Cases("i16", "int16", "short", DType::I16)
                                .Cases("i32", "int32", "int", DType::I32)
                                .Cases("i64", "int64", "long", DType::I64)
                                .Cases("u8", "uint8", "uchar", DType::U8)
                                .Cases("u16", "uint16", "ushort", DType::U16)
                                .Cases("u32", "uint32", "uint", DType::U32)
                                .Default(std::nullopt);
  if (!Ty)
    return createStringError(inconvertibleErrorCode(),
                             "unknown element type '%s' (expected one of f16 "
                             "f32 f64 i8 i16 i32 i64 u8 u16 u32)",
                             Name.str().c_str());
  return *Ty;
}

bool isFloatDType(DType Ty) {
  return Ty == DType::F16 || Ty == DType::F32 || Ty == DType::F64;
}

bool isSignedIntDType(DType Ty) {
  return Ty == DType::I8 || Ty == DType::I16 || Ty == DType::I32 ||
         Ty == DType::I64;
}

bool isUnsignedIntDType(DType Ty) {
  return Ty == DType::U8 || Ty == DType::U16 || Ty == DType::U32;
}

} // namespace bangc
