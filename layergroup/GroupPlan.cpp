//===- GroupPlan.cpp - LayerGroup: the plan of one group ------------------===//
//
// The derived facts of GroupInfo and GroupPlan that take more than a line:
// tensor slots, readers, the largest per-channel vector and the HWIO
// packing of convolution weights that the kernels' weight loads assume.
//
//===----------------------------------------------------------------------===//
#include "layergroup/GroupPlan.h"

#include <algorithm>

namespace bangc::lg {

int GroupInfo::slot(int T) const {
  auto It = std::find(Tensors.begin(), Tensors.end(), T);
  return It == Tensors.end() ? -1 : int(It - Tensors.begin());
}

bool GroupInfo::isOutput(int T) const {
  return std::find(Outputs.begin(), Outputs.end(), T) != Outputs.end();
}

int GroupInfo::readers(const Net &N, int T) const {
  int Count = 0;
  for (int C : N.Tensors[T].Consumers)
    Count += contains(C);
  return Count;
}

int64_t GroupPlan::maxVectorBytes(const Net &N) const {
  int64_t Max = 0;
  for (int L : Info.Layers)
    Max = std::max<int64_t>(
        Max, std::max(N.Layers[L].Bias.size(), N.Layers[L].Alpha.size()) * 4);
  return Max;
}

int64_t GroupPlan::weightsPerChannel(const Net &N, int L) {
  const Layer &Ly = N.Layers[L];
  return N.Tensors[Ly.Inputs[0]].C * Ly.KY * Ly.KX;
}

std::vector<float> GroupPlan::packWeights(const Net &N, int L) const {
  const Layer &Ly = N.Layers[L];
  if (Ly.Kind != OpKind::Conv)
    return {};
  int64_t F = N.Tensors[Ly.Output].C, C = N.Tensors[Ly.Inputs[0]].C;
  int64_t TileF = weightTileChannels(N, L);
  std::vector<float> Hwio(Ly.Weight.size());
  for (int64_t F0 = 0; F0 < F; F0 += TileF) {
    int64_t Ft = std::min(TileF, F - F0);
    float *Block = Hwio.data() + F0 * C * Ly.KY * Ly.KX;
    for (int64_t f = 0; f < Ft; ++f)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t ky = 0; ky < Ly.KY; ++ky)
          for (int64_t kx = 0; kx < Ly.KX; ++kx)
            Block[((ky * Ly.KX + kx) * C + c) * Ft + f] =
                Ly.Weight[(((F0 + f) * C + c) * Ly.KY + ky) * Ly.KX + kx];
  }
  return Hwio;
}

} // namespace bangc::lg
