//===- Precision.h - Task IR precisions: ranges, sizes, rounding -*- C++ -*-===//
//
// Numeric facts about taskir::Precision and the conversions the reference
// executor applies when it stores a value in a block of that precision:
// integers saturate to the precision's range, reals are rounded to nearest
// (ties away from zero) before saturating, FLOAT32 and FLOAT16 round to
// nearest even.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_PRECISION_H
#define BANGC_GRAPH_PRECISION_H

#include "graph/proto/taskir.pb.h"
#include "support/DType.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace bangc::graph {

bool isFloatPrecision(taskir::Precision p);
bool isIntegerPrecision(taskir::Precision p);
/// Storage width in bits (TERNARY 2, INT9 9, ...).
unsigned precisionBits(taskir::Precision p);
/// Inclusive value range of an integer precision.
int64_t precisionMin(taskir::Precision p);
int64_t precisionMax(taskir::Precision p);
/// Host element type used for .npy exchange: TERNARY -> i8, INT9 -> i16.
DType precisionDType(taskir::Precision p);
/// Which Data container holds values of this precision.
enum class DataContainer { Int32, UInt32, Float };
DataContainer dataContainer(taskir::Precision p);

/// Saturates an integer to the range of an integer precision.
int64_t saturateInt(int64_t v, taskir::Precision p);
/// Converts a real number to an integer precision: round to nearest, ties
/// away from zero, then saturate. NaN becomes 0.
int64_t realToInt(double v, taskir::Precision p);
/// Rounds a real to a float precision (FLOAT32 or FLOAT16).
double roundToFloatPrecision(double v, taskir::Precision p);

std::string precisionName(taskir::Precision p);
std::string blockTypeName(taskir::BlockType t);
std::string attributeName(taskir::AttributeType a);
std::string rearrangeName(taskir::RearrangeType r);

bool isComputeBlock(taskir::BlockType t);
bool isStorageBlock(taskir::BlockType t);

} // namespace bangc::graph

#endif // BANGC_GRAPH_PRECISION_H
