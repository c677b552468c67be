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
  // The window: its mean over the H slices (windows differ much more
  // between slices than their rows do: a rotation's middle rows span more
  // of the source than its first).
  int s = group.slot(t);
  double window = 0;
  for (const auto &r : plan.H.Rows) {
    int64_t w = x.gatherWindow(r[s].Lo, r[s].Hi);
    window += w > 0 ? copy(1, w * x.elemBytes()) : 0.0;
  }
  window /= double(std::max<size_t>(1, plan.H.Rows.size()));
  int64_t n = rows * cols * x.C;
  double dma = copy(1, rows * 8) + copy(rows, cols * x.C * 4) + window;
  double offsets = 2 * this->cost.vec(BANG_OP_ALU, double(n), 4);
  double scalar = this->cost.scalar(double(n) * ScalarGatherPerElement +
                                    double(rows) * ScalarGatherPerRow +
                                    ScalarGatherPerImage);
  return double(nb) * (dma + offsets + scalar);
}

} // namespace bangc::lg::plan
