//===- WeightInit.cpp - Values of data-carrying blocks -------------------===//
#include "graph/WeightInit.h"

#include "graph/BlockInfo.h"
#include "graph/Precision.h"

#include <fmt/format.h>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

double initUniform01(uint32_t Seed, uint64_t Index) {
  uint64_t Z = uint64_t(Seed) + (Index + 1) * 0x9E3779B97F4A7C15ull;
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
  Z = Z ^ (Z >> 31);
  return double(Z >> 11) * 0x1.0p-53;
}

static double storeAs(double V, Precision P) {
  return isFloatPrecision(P) ? roundToFloatPrecision(V, P)
                             : double(realToInt(V, P));
}

std::vector<double> materializeInit(const WeightInit &Init, Precision P,
                                    int64_t Count) {
  std::vector<double> V(Count);
  for (int64_t I = 0; I < Count; ++I) {
    double R = Init.kind() == WeightInit::CONSTANT
                   ? Init.scale()
                   : Init.scale() * (2 * initUniform01(Init.seed(), I) - 1);
    V[I] = storeAs(R, P);
  }
  return V;
}

Expected<std::vector<double>> blockValues(const TaskBlock &B) {
  const Data &D = B.data();
  if (D.int32_data_size())
    return std::vector<double>(D.int32_data().begin(), D.int32_data().end());
  if (D.uint32_data_size())
    return std::vector<double>(D.uint32_data().begin(), D.uint32_data().end());
  if (D.float_data_size()) {
    std::vector<double> V(D.float_data().begin(), D.float_data().end());
    if (B.precision() == FLOAT16)
      for (double &X : V)
        X = roundToFloatPrecision(X, FLOAT16);
    return V;
  }
  if (B.has_init())
    return materializeInit(B.init(), B.precision(), blockDims(B).volume());
  return createStringError(inconvertibleErrorCode(),
                           fmt::format("{}: has neither data nor init",
                                       describeBlock(B)));
}

} // namespace bangc::graph
