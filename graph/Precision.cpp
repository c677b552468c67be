//===- Precision.cpp - Task IR precisions --------------------------------===//
#include "graph/Precision.h"

#include "graph/BlockKind.h"

#include "support/Half.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <limits>

using namespace bangc::taskir;

namespace bangc::graph {

bool isFloatPrecision(Precision P) { return P == FLOAT16 || P == FLOAT32; }

bool isIntegerPrecision(Precision P) {
  return P != PRECISION_UNSPECIFIED && !isFloatPrecision(P) &&
         Precision_IsValid(P);
}

unsigned precisionBits(Precision P) {
  switch (P) {
  case TERNARY:
    return 2;
  case INT8:
  case UINT8:
    return 8;
  case INT9:
    return 9;
  case INT16:
  case UINT16:
  case FLOAT16:
    return 16;
  case INT32:
  case UINT32:
  case FLOAT32:
    return 32;
  default:
    llvm_unreachable("precisionBits on an invalid precision");
  }
}

int64_t precisionMin(Precision P) {
  switch (P) {
  case TERNARY:
    return -1;
  case INT8:
    return -128;
  case INT9:
    return -256;
  case INT16:
    return -32768;
  case INT32:
    return std::numeric_limits<int32_t>::min();
  case UINT8:
  case UINT16:
  case UINT32:
    return 0;
  default:
    llvm_unreachable("precisionMin on a non-integer precision");
  }
}

int64_t precisionMax(Precision P) {
  switch (P) {
  case TERNARY:
    return 1;
  case INT8:
    return 127;
  case INT9:
    return 255;
  case INT16:
    return 32767;
  case INT32:
    return std::numeric_limits<int32_t>::max();
  case UINT8:
    return 255;
  case UINT16:
    return 65535;
  case UINT32:
    return std::numeric_limits<uint32_t>::max();
  default:
    llvm_unreachable("precisionMax on a non-integer precision");
  }
}

DType precisionDType(Precision P) {
  switch (P) {
  case TERNARY:
  case INT8:
    return DType::I8;
  case UINT8:
    return DType::U8;
  case INT9:
  case INT16:
    return DType::I16;
  case UINT16:
    return DType::U16;
  case INT32:
    return DType::I32;
  case UINT32:
    return DType::U32;
  case FLOAT16:
    return DType::F16;
  case FLOAT32:
    return DType::F32;
  default:
    llvm_unreachable("precisionDType on an invalid precision");
  }
}

DataContainer dataContainer(Precision P) {
  if (isFloatPrecision(P))
    return DataContainer::Float;
  if (P == UINT8 || P == UINT16 || P == UINT32)
    return DataContainer::UInt32;
  return DataContainer::Int32;
}

int64_t saturateInt(int64_t V, Precision P) {
  int64_t Lo = precisionMin(P), Hi = precisionMax(P);
  return V < Lo ? Lo : (V > Hi ? Hi : V);
}

int64_t realToInt(double V, Precision P) {
  if (std::isnan(V))
    return 0;
  double R = std::round(V); // ties away from zero
  if (R <= double(precisionMin(P)))
    return precisionMin(P);
  if (R >= double(precisionMax(P)))
    return precisionMax(P);
  return int64_t(R);
}

double roundToFloatPrecision(double V, Precision P) {
  assert(isFloatPrecision(P) && "not a float precision");
  float F = float(V);
  if (P == FLOAT16)
    return double(roundToHalf(F));
  return double(F);
}

std::string precisionName(Precision P) {
  const std::string &N = Precision_Name(P);
  return N.empty() ? "precision(" + std::to_string(int(P)) + ")" : N;
}
std::string blockTypeName(BlockType T) {
  const std::string &N = BlockType_Name(T);
  return N.empty() ? "type(" + std::to_string(int(T)) + ")" : N;
}
std::string attributeName(AttributeType A) {
  const std::string &N = AttributeType_Name(A);
  return N.empty() ? "attribute(" + std::to_string(int(A)) + ")" : N;
}
std::string rearrangeName(RearrangeType R) {
  const std::string &N = RearrangeType_Name(R);
  return N.empty() ? "rearrange(" + std::to_string(int(R)) + ")" : N;
}

bool isComputeBlock(BlockType T) {
  std::optional<BlockKind> K = blockKind(T);
  return K && isCompute(*K);
}
bool isStorageBlock(BlockType T) {
  std::optional<BlockKind> K = blockKind(T);
  return K && isStorage(*K);
}

} // namespace bangc::graph
