//===- UniformDraw.h - The UNIFORM init's generator, inlined ----*- C++ -*-===//
//
// The generator of graph/WeightInit.h (splitmix64 of seed + (i + 1) * phi,
// top 53 bits) as an always-inlined function with internal linkage, and the
// FLOAT32 draw loop shared by its two builds: the baseline one in
// WeightInit.cpp and the AVX-512 one in UniformDrawVectorised.cpp, a file
// of its own so that only it is compiled with the vectoriser on. Internal
// linkage keeps the AVX-512 file's copy of uniform01 from being the one the
// linker picks for the baseline code. Private to graph/.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_UNIFORMDRAW_H
#define BANGC_GRAPH_UNIFORMDRAW_H

#include <cstdint>

namespace bangc::graph {

/// initUniform01 (WeightInit.h), inlined into the draw loops.
static inline __attribute__((always_inline)) double uniform01(uint32_t seed,
                                                              uint64_t index) {
  uint64_t z = uint64_t(seed) + (index + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  return double(z >> 11) * 0x1.0p-53;
}

// One body, two builds. 2 * u is exact, so even a fused 2 * u - 1 rounds
// as the separate operations do.
#define BANGC_DRAW_UNIFORM_FLOATS                                              \
  for (int64_t i = begin; i < end; ++i)                                        \
    out[i - begin] = float(scale * (2 * uniform01(seed, uint64_t(i)) - 1));

/// The AVX-512 build of the draw (UniformDrawVectorised.cpp); call it only
/// where hostHasVectorisedDraw (WeightInit.h).
void drawUniformFloatsVectorised(float *out, int64_t begin, int64_t end,
                                 uint32_t seed, double scale);

} // namespace bangc::graph

#endif // BANGC_GRAPH_UNIFORMDRAW_H
