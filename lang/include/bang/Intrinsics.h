//===- Intrinsics.h - The compiler's view of intrinsics.def ---*- C++ -*-===//
#ifndef BANG_INTRINSICS_H
#define BANG_INTRINSICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace bangc {

enum class IntrinsicClass {
  Runtime,
  Move,
  Alu,
  Mul,
  Div,
  Cvt,
  Act,
  Reduce,
  Mac,
  Atomic
};
enum class CountUnits { Elements, Bytes, None };

/// One row of the table: one overload of an intrinsic.
struct IntrinsicOverload {
  llvm::StringRef name;        ///< e.g. "__bang_add"
  llvm::StringRef declaration; ///< e.g. "void __bang_add(half *dst, ...)"
  IntrinsicClass cls;
  CountUnits units;
};

/// Every row of intrinsics.def, in table order.
llvm::ArrayRef<IntrinsicOverload> intrinsicOverloads();

/// The first overload named `name`, or null if `name` is not an intrinsic.
const IntrinsicOverload *lookupIntrinsic(llvm::StringRef name);

llvm::StringRef className(IntrinsicClass cls);
llvm::StringRef unitsName(CountUnits units);

/// A builtin variable (taskId, ...) and its field in BangTaskContext.
struct BuiltinVariable {
  llvm::StringRef name;
  int contextField;
};
llvm::ArrayRef<BuiltinVariable> builtinVariables();
const BuiltinVariable *lookupBuiltinVariable(llvm::StringRef name);

} // namespace bangc

#endif // BANG_INTRINSICS_H
