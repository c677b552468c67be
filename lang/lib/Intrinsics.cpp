//===- Intrinsics.cpp - The compiler's view of intrinsics.def -------------===//
#include "bang/Intrinsics.h"
#include "bangsim/KernelABI.h"

#include "llvm/ADT/StringMap.h"

using namespace bangc;

llvm::ArrayRef<IntrinsicOverload> bangc::intrinsicOverloads() {
  static const IntrinsicOverload rows[] = {
#define BANG_INTRINSIC(NAME, RET, PARAMS, CLASS, UNITS)                        \
  {#NAME, #RET " " #NAME #PARAMS, IntrinsicClass::CLASS, CountUnits::UNITS},
#define RUNTIME Runtime
#define MOVE Move
#define ALU Alu
#define MUL Mul
#define DIV Div
#define CVT Cvt
#define ACT Act
#define REDUCE Reduce
#define MAC Mac
#define ATOMIC Atomic
#define ELEMENTS Elements
#define BYTES Bytes
#define NONE None
#include "bang/intrinsics.def"
  };
  return rows;
}

const IntrinsicOverload *bangc::lookupIntrinsic(llvm::StringRef name) {
  static const llvm::StringMap<const IntrinsicOverload *> index = [] {
    llvm::StringMap<const IntrinsicOverload *> map;
    for (const IntrinsicOverload &row : intrinsicOverloads())
      map.try_emplace(row.name, &row);
    return map;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

llvm::StringRef bangc::className(IntrinsicClass cls) {
  static const char *names[] = {"runtime", "move",   "alu", "mul",   "div",
                                "cvt",     "act", "reduce", "mac", "atomic"};
  return names[static_cast<int>(cls)];
}

llvm::StringRef bangc::unitsName(CountUnits units) {
  switch (units) {
  case CountUnits::Elements:
    return "elements";
  case CountUnits::Bytes:
    return "bytes";
  case CountUnits::None:
    return "none";
  }
  return "none";
}

llvm::ArrayRef<BuiltinVariable> bangc::builtinVariables() {
  static const BuiltinVariable vars[] = {
      {"taskId", BANG_CTX_TASK_ID},       {"taskIdX", BANG_CTX_TASK_ID_X},
      {"taskIdY", BANG_CTX_TASK_ID_Y},    {"taskIdZ", BANG_CTX_TASK_ID_Z},
      {"taskDim", BANG_CTX_TASK_DIM},     {"taskDimX", BANG_CTX_TASK_DIM_X},
      {"taskDimY", BANG_CTX_TASK_DIM_Y},  {"taskDimZ", BANG_CTX_TASK_DIM_Z},
      {"coreId", BANG_CTX_CORE_ID},       {"coreDim", BANG_CTX_CORE_DIM},
      {"clusterId", BANG_CTX_CLUSTER_ID}, {"clusterDim", BANG_CTX_CLUSTER_DIM},
  };
  return vars;
}

const BuiltinVariable *bangc::lookupBuiltinVariable(llvm::StringRef name) {
  for (const BuiltinVariable &var : builtinVariables())
    if (var.name == name)
      return &var;
  return nullptr;
}
