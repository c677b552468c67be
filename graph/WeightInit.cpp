//===- WeightInit.cpp - Values of data-carrying blocks -------------------===//
#include "graph/WeightInit.h"

#include "graph/BlockInfo.h"
#include "graph/Precision.h"
#include "graph/UniformDraw.h"
#include "support/Parallel.h"

#include <fmt/format.h>

#include <cassert>
#include <type_traits>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

double initUniform01(uint32_t seed, uint64_t index) {
  return uniform01(seed, index);
}

static void drawUniformFloatsBaseline(float *out, int64_t begin, int64_t end,
                                      uint32_t seed, double scale) {
  BANGC_DRAW_UNIFORM_FLOATS
}
#undef BANGC_DRAW_UNIFORM_FLOATS

bool hostHasVectorisedDraw() {
#if defined(__x86_64__)
  static const bool has =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
  return has;
#else
  return false;
#endif
}

void drawUniformFloats(float *out, int64_t begin, int64_t end, uint32_t seed,
                       double scale, bool vectorised) {
  assert((!vectorised || hostHasVectorisedDraw()) &&
         "the vectorised draw needs an AVX-512 host");
  if (vectorised)
    drawUniformFloatsVectorised(out, begin, end, seed, scale);
  else
    drawUniformFloatsBaseline(out, begin, end, seed, scale);
}

static double storeAs(double v, Precision p) {
  return isFloatPrecision(p) ? roundToFloatPrecision(v, p)
                             : double(realToInt(v, p));
}

/// materializeInit into elements of type \p T (double, or float for a
/// precision whose values are exact in float).
template <typename T>
static std::vector<T> drawInit(const WeightInit &init, Precision p,
                               int64_t count) {
  // Element by element, on every host thread: element i depends on i only
  // (see the header), so any split gives the same values.
  std::vector<T> v = largeVector<T>(size_t(count));
  bool constant = init.kind() == WeightInit::CONSTANT;
  double scale = init.scale();
  uint32_t seed = init.seed();
  parallelFor(count, 1 << 16, [&](int64_t begin, int64_t end) {
    if constexpr (std::is_same_v<T, float>)
      if (p == FLOAT32 && !constant)
        return drawUniformFloats(v.data() + begin, begin, end, seed, scale,
                                 hostHasVectorisedDraw());
    for (int64_t i = begin; i < end; ++i) {
      double r = constant ? scale : scale * (2 * initUniform01(seed, i) - 1);
      // FLOAT32 inline (the bulk of a float network's weights).
      v[i] = p == FLOAT32 ? T(float(r)) : T(storeAs(r, p));
    }
  });
  return v;
}

std::vector<double> materializeInit(const WeightInit &init, Precision p,
                                    int64_t count) {
  return drawInit<double>(init, p, count);
}

bool precisionFitsFloat(Precision p) { return p != INT32 && p != UINT32; }

std::vector<float> materializeInitFloat(const WeightInit &init, Precision p,
                                        int64_t count) {
  assert(precisionFitsFloat(p) && "a precision with values exact in float");
  return drawInit<float>(init, p, count);
}

Expected<std::vector<double>> blockValues(const TaskBlock &b) {
  const Data &d = b.data();
  if (d.int32_data_size())
    return std::vector<double>(d.int32_data().begin(), d.int32_data().end());
  if (d.uint32_data_size())
    return std::vector<double>(d.uint32_data().begin(), d.uint32_data().end());
  if (d.float_data_size()) {
    std::vector<double> v(d.float_data().begin(), d.float_data().end());
    if (b.precision() == FLOAT16)
      for (double &x : v)
        x = roundToFloatPrecision(x, FLOAT16);
    return v;
  }
  if (b.has_init())
    return materializeInit(b.init(), b.precision(), blockDims(b).volume());
  return createStringError(
      inconvertibleErrorCode(),
      fmt::format("{}: has neither data nor init", describeBlock(b)));
}

Expected<std::vector<float>> blockValuesFloat(const TaskBlock &b) {
  if (!b.data().int32_data_size() && !b.data().uint32_data_size() &&
      !b.data().float_data_size() && b.has_init() &&
      precisionFitsFloat(b.precision()))
    return materializeInitFloat(b.init(), b.precision(), blockDims(b).volume());
  auto values = blockValues(b);
  if (!values)
    return values.takeError();
  std::vector<float> v(values->size());
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = float((*values)[i]);
    if (double(v[i]) != (*values)[i])
      return createStringError(
          inconvertibleErrorCode(),
          fmt::format("{}: value {} (element {}) is not exact in float",
                      describeBlock(b), (*values)[i], i));
  }
  return v;
}

} // namespace bangc::graph
