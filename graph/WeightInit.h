//===- WeightInit.h - Values of data-carrying blocks ------------*- C++ -*-===//
//
// The values of an SW, SWFC or SB block (from Data or from a WeightInit) or
// of a CLUT table, as doubles (every Task IR precision is exact in double),
// or as floats for the layer-group weights (every precision but INT32 and
// UINT32 is exact in float; a float array is half the memory).
//
// WeightInit is deterministic and platform independent: element i (C order
// over the block's used dims) draws
//   z = seed + (i + 1) * 0x9E3779B97F4A7C15            (mod 2^64)
//   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//   z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//   z =  z ^ (z >> 31)                                 (splitmix64)
//   u = (z >> 11) * 2^-53                              in [0, 1)
// UNIFORM gives scale * (2u - 1); CONSTANT gives scale. The real value is
// then stored in the block precision (round/saturate as Precision.h).
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_WEIGHTINIT_H
#define BANGC_GRAPH_WEIGHTINIT_H

#include "graph/proto/taskir.pb.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace bangc::graph {

/// The unit-interval draw for element \p index (see file comment).
double initUniform01(uint32_t seed, uint64_t index);

/// out[i - begin] = float(scale * (2 * initUniform01(seed, i) - 1)) for i in
/// [begin, end): the FLOAT32 draw of a UNIFORM init, the bulk of a float
/// network's setup. Two builds of the loop: \p vectorised, the one for
/// AVX-512 hosts (64-bit multiplies and conversions in vectors; call it only
/// where hostHasVectorisedDraw), else the baseline x86-64 one. Both are
/// integer steps, exact conversions and the same double operations in the
/// same order, so they give the same bits; materializeInit picks the
/// vectorised one where the host has it.
void drawUniformFloats(float *out, int64_t begin, int64_t end, uint32_t seed,
                       double scale, bool vectorised);
/// Whether this host runs drawUniformFloats' vectorised build.
bool hostHasVectorisedDraw();

/// Materialises \p count values of precision \p p from \p init.
std::vector<double> materializeInit(const taskir::WeightInit &init,
                                    taskir::Precision p, int64_t count);

/// The values of a block that carries data (Data or WeightInit). Fails for
/// blocks without either.
llvm::Expected<std::vector<double>> blockValues(const taskir::TaskBlock &b);

/// Whether every value of precision \p p is exact in float (all but INT32
/// and UINT32).
bool precisionFitsFloat(taskir::Precision p);

/// materializeInit's values as floats, drawn straight into floats (no
/// double array: half the memory). Only for a precision
/// precisionFitsFloat, whose values it keeps bit for bit.
std::vector<float> materializeInitFloat(const taskir::WeightInit &init,
                                        taskir::Precision p, int64_t count);

/// blockValues as floats: the same values bit for bit. Fails, besides,
/// when a value is not exact in float (a large INT32 or UINT32).
llvm::Expected<std::vector<float>> blockValuesFloat(const taskir::TaskBlock &b);

} // namespace bangc::graph

#endif // BANGC_GRAPH_WEIGHTINIT_H
