//===- UniformDrawVectorised.cpp - The FLOAT32 draw for AVX-512 hosts -----===//
//
// About 3x the baseline build's speed on an AVX-512 host: the generator's
// 64-bit multiplies and conversions vectorise only with AVX-512DQ, and
// GCC's -O2 does not vectorise unasked. graph/CMakeLists.txt compiles this
// file alone with -ftree-vectorize (and GCC's dynamic cost model); the
// AVX-512 instructions come from the target attribute on this one function,
// not from file-wide -m flags, so nothing else here (no inline function
// the linker could share with baseline code) uses them. WeightInit.cpp
// calls it only after a cpuid check (hostHasVectorisedDraw).
//
//===----------------------------------------------------------------------===//
#include "graph/UniformDraw.h"

namespace bangc::graph {

#if defined(__x86_64__)
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) void
drawUniformFloatsVectorised(float *out, int64_t begin, int64_t end,
                            uint32_t seed, double scale) {
  BANGC_DRAW_UNIFORM_FLOATS
}
#else
void drawUniformFloatsVectorised(float *out, int64_t begin, int64_t end,
                                 uint32_t seed, double scale) {
  BANGC_DRAW_UNIFORM_FLOATS
}
#endif

} // namespace bangc::graph
