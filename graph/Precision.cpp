//===- Precision.cpp - Task IR precisions --------------------------------===//
#include "graph/Precision.h"

#include "graph/BlockKind.h"

#include "support/Half.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <limits>

using namespace bangc::taskir;

namespace bangc::graph {

bool isFloatPrecision(Precision p) { return p == FLOAT16 || p == FLOAT32; }

bool isIntegerPrecision(Precision p) {
  return p != PRECISION_UNSPECIFIED && !isFloatPrecision(p) &&
         Precision_IsValid(p);
}

unsigned precisionBits(Precision p) {
  switch (p) {
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

int64_t precisionMin(Precision p) {
  switch (p) {
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

int64_t precisionMax(Precision p) {
  switch (p) {
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

DType precisionDType(Precision p) {
  switch (p) {
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

DataContainer dataContainer(Precision p) {
  if (isFloatPrecision(p))
    return DataContainer::Float;
  if (p == UINT8 || p == UINT16 || p == UINT32)
    return DataContainer::UInt32;
  return DataContainer::Int32;
}

int64_t saturateInt(int64_t v, Precision p) {
  int64_t lo = precisionMin(p), hi = precisionMax(p);
  return v < lo ? lo : (v > hi ? hi : v);
}

int64_t realToInt(double v, Precision p) {
  if (std::isnan(v))
    return 0;
  double r = std::round(v); // ties away from zero
  if (r <= double(precisionMin(p)))
    return precisionMin(p);
  if (r >= double(precisionMax(p)))
    return precisionMax(p);
  return int64_t(r);
}

double roundToFloatPrecision(double v, Precision p) {
  assert(isFloatPrecision(p) && "not a float precision");
  float f = float(v);
  if (p == FLOAT16)
    return double(roundToHalf(f));
  return double(f);
}

std::string precisionName(Precision p) {
  const std::string &n = Precision_Name(p);
  return n.empty() ? "precision(" + std::to_string(int(p)) + ")" : n;
}
std::string blockTypeName(BlockType t) {
  const std::string &n = BlockType_Name(t);
  return n.empty() ? "type(" + std::to_string(int(t)) + ")" : n;
}
std::string attributeName(AttributeType a) {
  const std::string &n = AttributeType_Name(a);
  return n.empty() ? "attribute(" + std::to_string(int(a)) + ")" : n;
}
std::string rearrangeName(RearrangeType r) {
  const std::string &n = RearrangeType_Name(r);
  return n.empty() ? "rearrange(" + std::to_string(int(r)) + ")" : n;
}

bool isComputeBlock(BlockType t) {
  std::optional<BlockKind> k = blockKind(t);
  return k && isCompute(*k);
}
bool isStorageBlock(BlockType t) {
  std::optional<BlockKind> k = blockKind(t);
  return k && isStorage(*k);
}

} // namespace bangc::graph
