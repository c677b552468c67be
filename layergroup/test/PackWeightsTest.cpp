//===- PackWeightsTest.cpp - GroupPlan::packWeights over any range --------===//
//
// The runner packs convolution weights a chunk at a time as it copies them
// to GDRAM (Runner.cpp), never the whole array, so GroupPlan::packWeights
// must give any range [begin, end) of the one packing the kernels read:
// [KY][KX][C][F] per tile of the group's slice channels, each tile one
// block at f0 * KY * KX * C, the last tile shorter.
//
//===----------------------------------------------------------------------===//
#include "layergroup/GroupPlan.h"

#include <gtest/gtest.h>

#include <vector>

using namespace bangc::lg;

namespace {

/// The packing written out from its definition, whole.
std::vector<float> packedByDefinition(const Net &N, int L, int64_t TileF) {
  const Layer &Conv = N.Layers[L];
  int64_t F = N.Tensors[Conv.Output].C, C = N.Tensors[Conv.Inputs[0]].C;
  int64_t Taps = C * Conv.KY * Conv.KX;
  std::vector<float> Out(Conv.Weight.size());
  for (int64_t f = 0; f < F; ++f) {
    int64_t F0 = f / TileF * TileF, Ft = std::min(TileF, F - F0);
    for (int64_t c = 0; c < C; ++c)
      for (int64_t y = 0; y < Conv.KY; ++y)
        for (int64_t x = 0; x < Conv.KX; ++x)
          Out[F0 * Taps + ((y * Conv.KX + x) * C + c) * Ft + (f - F0)] =
              Conv.Weight[((f * C + c) * Conv.KY + y) * Conv.KX + x];
  }
  return Out;
}

TEST(PackWeights, AnyRangeIsThatRangeOfTheWholePacking) {
  Net N;
  int X = N.addInput("x", 3, 6, 5);
  X = N.conv(X, 20, 3, 1, 1, "c", /*seed=*/7);
  N.markOutput(X, "y");
  const Layer &Conv = N.Layers[0];
  int64_t Count = int64_t(Conv.Weight.size());
  ASSERT_EQ(Count, 20 * 3 * 3 * 3);
  // Unsliced (one tile of 20 channels), and global groups of 8-channel
  // tiles (8, 8, 4) and of 1-channel tiles.
  for (int64_t TileF : {20, 8, 1}) {
    GroupPlan P;
    P.Info.First = P.Info.Last = 0;
    P.FSecs = TileF == 20 ? 1 : int((20 + TileF - 1) / TileF);
    P.SliceChannels = TileF;
    ASSERT_EQ(P.weightTileChannels(N, 0), TileF);
    std::vector<float> Want = packedByDefinition(N, 0, TileF);
    // Whole, in chunks of every length up to 41 (chunk boundaries inside
    // and across taps and tiles), and every single element.
    for (int64_t Chunk = 1; Chunk <= 41; ++Chunk) {
      std::vector<float> Got(size_t(Count), -1.0f);
      for (int64_t B = 0; B < Count; B += Chunk)
        P.packWeights(N, 0, B, std::min(Count, B + Chunk), Got.data() + B);
      ASSERT_EQ(Got, Want) << "tiles of " << TileF << ", chunks of " << Chunk;
    }
    std::vector<float> Whole(static_cast<size_t>(Count));
    P.packWeights(N, 0, 0, Count, Whole.data());
    EXPECT_EQ(Whole, Want) << "tiles of " << TileF;
  }
}

} // namespace
