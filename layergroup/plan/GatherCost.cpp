//===- GatherCost.cpp - LayerGroup planner: an NRAM gather's cycles -------===//
//
// A view that no few strided boxes express (SHUFFLE, SHEAR, AFFINE, ...) is
// gathered in NRAM by lg_gather_view (docs/layergroup.md "Rearranging
// edges"): per image of an item, its rows' bounds, the span of source
// elements they read and its index table come from GDRAM, then a scalar
// loop gathers each element. This file costs that load as the simulator
// charges it, beside the strided views' viewLoadCycles (Cost.cpp).
//
//===----------------------------------------------------------------------===//
#include "layergroup/plan/GroupPass.h"

#include <algorithm>
#include <cassert>

namespace bangc::lg::plan {

namespace {

/// Scalar instructions of lg_gather_view: per element of the gather loop
/// (load the index, compare, load the source element, store), per row of
/// the bounds loop (two loads, two compares), and per image, from the
/// simulator's counts on test/lit/layergroup/rearrange.test's cases.
constexpr double ScalarGatherPerElement = 14;
constexpr double ScalarGatherPerRow = 12;
constexpr double ScalarGatherPerImage = 60;

} // namespace

double GroupPass::gatherLoadCycles(int t) const {
  namespace cost = bangsim::cost;
  const Tensor &x = net.Tensors[t];
  assert(x.gathered() && "a gathered view");
  int64_t nb = plan.ImagesPerSlice, rows = rowsCap(t), cols = colsCap(t);
  double rate = cost::gdramBytesPerCycle(spec, std::max(1, plan.Cores));
  auto copy = [&](int64_t segs, int64_t seg) {
    double bytes = double(segs) * cost::gdramSegmentBytes(spec, 0, seg, false);
    return cost::gdramCopyCycles(spec, rate, bytes, 0, segs > 1);
  };
  // Each source's window: its mean over the H slices (windows differ much
  // more between slices than their rows do: a rotation's middle rows span
  // more of the source than its first).
  int s = group.slot(t);
  size_t k = x.View.size(), h = size_t(x.H);
  double window = 0;
  for (const auto &r : plan.H.Rows)
    for (size_t j = 0; j < k; ++j) {
      int64_t a = INT64_MAX, b = 0;
      for (int64_t y = r[s].Lo; y < r[s].Hi; ++y) {
        a = std::min<int64_t>(a, x.GatherRowLo[j * h + size_t(y)]);
        b = std::max<int64_t>(b, x.GatherRowHi[j * h + size_t(y)]);
      }
      window += b > a ? copy(1, (b - a) * x.elemBytes()) : 0.0;
    }
  window /= double(std::max<size_t>(1, plan.H.Rows.size()));
  int64_t n = rows * cols * x.C;
  double dma =
      double(k) * (copy(1, rows * 8) + copy(rows, cols * x.C * 4)) + window;
  // Per source an add and a max, then with several a sum into the first.
  double offsets =
      double(3 * k - 1) * this->cost.vec(BANG_OP_ALU, double(n), 4);
  double scalar = this->cost.scalar(double(n) * ScalarGatherPerElement +
                                    double(k * rows) * ScalarGatherPerRow +
                                    ScalarGatherPerImage);
  return double(nb) * (dma + offsets + scalar);
}

} // namespace bangc::lg::plan
