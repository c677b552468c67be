//===- Slicing.cpp - LayerGroup planner: groups and their slices ----------===//
//
// Which tensors a group reads, writes and keeps; backward-H and backward-W
// (the input rows and columns a window op needs for a range of output
// rows); the H and W slices of a group with the h/2 (w/2) duplication
// rule; which groups may slice their output channels; and the first pass of
// planGroupWith, which checks and records a slicing.
//
//===----------------------------------------------------------------------===//
#include "layergroup/plan/GroupPass.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace bangc::lg {

RowRange backwardH(RowRange out, int64_t stride, int64_t pad,
                   int64_t dilatedKernel, int64_t inH) {
  if (out.size() == 0)
    return {0, 0};
  int64_t lo = out.Lo * stride - pad;
  int64_t hi = (out.Hi - 1) * stride - pad + dilatedKernel;
  return {std::max<int64_t>(0, lo), std::min(inH, hi)};
}

RowRange backwardH(const Layer &l, RowRange out, int64_t inH) {
  if (!l.windowed())
    return backwardH(out, 1, 0, 1, inH);
  return backwardH(out, l.SY, l.PU, l.keffY(), inH);
}

RowRange backwardW(const Layer &l, RowRange out, int64_t inW) {
  if (!l.windowed())
    return backwardH(out, 1, 0, 1, inW);
  return backwardH(out, l.SX, l.PL, l.keffX(), inW);
}

bool duplicationOk(int64_t h, const std::vector<RowRange> &slices) {
  int64_t total = 0;
  for (const RowRange &r : slices)
    total += r.size();
  return (total - h) * 2 <= h;
}

GroupInfo groupInfo(const Net &n, int first, int last) {
  GroupInfo g;
  g.First = first, g.Last = last;
  std::set<int> seen;
  for (int l = first; l <= last; ++l) {
    g.Layers.push_back(l);
    for (int t : n.Layers[l].Inputs) {
      int producer = n.Tensors[t].Producer;
      if ((producer < first || producer > last) && !seen.count(t)) {
        seen.insert(t);
        g.Inputs.push_back(t);
      }
    }
  }
  g.Tensors = g.Inputs;
  for (int l = first; l <= last; ++l) {
    int t = n.Layers[l].Output;
    g.Tensors.push_back(t);
    bool out = n.Tensors[t].isOutput();
    for (int c : n.Tensors[t].Consumers)
      if (c > last)
        out = true;
    for (int c : n.Tensors[t].ViewReaders) // a later group loads a view of it
      if (c > last)
        out = true;
    (out ? g.Outputs : g.Internal).push_back(t);
  }
  return g;
}

namespace {

/// Rows (w false) or columns (w true) of a tensor and of a layer's window.
int64_t extent(const Tensor &t, bool w) { return w ? t.W : t.H; }
RowRange backwardAxis(const Layer &l, RowRange out, int64_t in, bool w) {
  return w ? backwardW(l, out, in) : backwardH(l, out, in);
}
const char *axisName(bool w) { return w ? "W" : "H"; }
const char *axisUnit(bool w) { return w ? "columns" : "rows"; }

/// One slice of the whole extent of every tensor.
HSlicing wholeAxis(const Net &n, const GroupInfo &g, bool w) {
  HSlicing s;
  std::vector<RowRange> all(g.Tensors.size());
  for (size_t i = 0; i < all.size(); ++i) {
    all[i] = {0, extent(n.Tensors[g.Tensors[i]], w)};
    s.RowsCap.push_back(all[i].size());
  }
  s.Rows.push_back(all);
  s.Step = g.Outputs.empty() ? 0 : extent(n.Tensors[g.Outputs.back()], w);
  return s;
}

/// The ranges of every tensor for slice \p sl of \p s: each group output's
/// own range, then backwards through the layers (a tensor read by several
/// layers, or a group output also read in the group, takes the hull).
std::optional<std::vector<RowRange>> sliceRanges(const Net &n,
                                                 const GroupInfo &g,
                                                 const HSlicing &s, int sl,
                                                 bool w, PlanError *why) {
  size_t tensors = g.Tensors.size();
  std::vector<RowRange> req(tensors, RowRange{0, 0});
  std::vector<bool> set(tensors, false);
  for (int out : g.Outputs) {
    req[g.slot(out)] = s.own(sl, extent(n.Tensors[out], w));
    set[g.slot(out)] = true;
  }
  for (int l = g.Last; l >= g.First; --l) {
    const Layer &layer = n.Layers[l];
    int outSlot = g.slot(layer.Output);
    if (!set[outSlot]) {
      if (why)
        *why = {
            PlanFailure::NotFeedingOutput,
            fmt::format("layer {} does not feed the group output", layer.Name)};
      return std::nullopt;
    }
    for (int in : layer.Inputs) {
      int inSlot = g.slot(in);
      RowRange r =
          backwardAxis(layer, req[outSlot], extent(n.Tensors[in], w), w);
      if (!set[inSlot])
        req[inSlot] = r, set[inSlot] = true;
      else
        req[inSlot] = {std::min(req[inSlot].Lo, r.Lo),
                       std::max(req[inSlot].Hi, r.Hi)};
    }
  }
  return req;
}

/// H or W slices of a group: each group output split into equal ranges of
/// its own, then backwards through the layers; the h/2 (w/2) rule on the
/// tensors the group computes.
std::optional<HSlicing> sliceAxis(const Net &n, const GroupInfo &g, int secs,
                                  bool w, PlanError *why) {
  auto fail = [&](PlanFailure k, std::string m) -> std::optional<HSlicing> {
    if (why)
      *why = {k, std::move(m)};
    return std::nullopt;
  };
  if (secs == 1)
    return wholeAxis(n, g, w);
  if (g.Outputs.empty())
    return fail(
        PlanFailure::NotFeedingOutput,
        fmt::format("{} slices of a group without outputs", axisName(w)));
  HSlicing s;
  s.HSecs = secs;
  for (int out : g.Outputs) {
    int64_t outExtent = extent(n.Tensors[out], w);
    if (secs > outExtent || s.own(secs - 1, outExtent).size() == 0)
      return fail(PlanFailure::EmptySlice,
                  fmt::format("{} {} slices of {} {} leave a slice empty", secs,
                              axisName(w), outExtent, axisUnit(w)));
  }
  s.Step = s.stepOf(extent(n.Tensors[g.Outputs[0]], w));
  s.RowsCap.assign(g.Tensors.size(), 0);
  for (int sl = 0; sl < secs; ++sl) {
    std::optional<std::vector<RowRange>> req = sliceRanges(n, g, s, sl, w, why);
    if (!req)
      return std::nullopt;
    for (size_t i = 0; i < req->size(); ++i) {
      if ((*req)[i].size() == 0)
        return fail(
            PlanFailure::EmptySlice,
            fmt::format("a slice needs no {} of some tensor", axisUnit(w)));
      s.RowsCap[i] = std::max(s.RowsCap[i], (*req)[i].size());
    }
    s.Rows.push_back(std::move(*req));
  }
  // The h/2 rule bounds recomputation inside a group: it applies to the
  // tensors the group computes. The rows of a group input are only re-read
  // (as for a single layer, which recomputes nothing), so a convolution
  // with its ReLU and pool slices as finely as the convolution alone. The
  // same rule holds along W.
  for (size_t i = g.Inputs.size(); i < g.Tensors.size(); ++i) {
    std::vector<RowRange> column;
    for (auto &r : s.Rows)
      column.push_back(r[i]);
    const Tensor &t = n.Tensors[g.Tensors[i]];
    if (!duplicationOk(extent(t, w), column))
      return fail(w ? PlanFailure::WDuplication : PlanFailure::HDuplication,
                  fmt::format("{}/2 rule: {} {} slices duplicate more than "
                              "half of the {} {} of '{}'",
                              w ? "w" : "h", secs, axisName(w), extent(t, w),
                              axisUnit(w), t.Name));
  }
  return s;
}

} // namespace

std::optional<HSlicing> sliceH(const Net &n, const GroupInfo &g, int hSecs,
                               PlanError *why) {
  return sliceAxis(n, g, hSecs, false, why);
}

std::optional<HSlicing> sliceW(const Net &n, const GroupInfo &g, int wSecs,
                               PlanError *why) {
  return sliceAxis(n, g, wSecs, true, why);
}

std::optional<HSlicing> sliceH(const Net &n, const GroupInfo &g, int hSecs,
                               std::string *why) {
  return plan::withMessage(
      why, [&](PlanError *e) { return sliceH(n, g, hSecs, e); });
}

std::optional<HSlicing> sliceW(const Net &n, const GroupInfo &g, int wSecs,
                               std::string *why) {
  return plan::withMessage(
      why, [&](PlanError *e) { return sliceW(n, g, wSecs, e); });
}

/// The CHAN_SLICE column of layergroup/OpKinds.def: a kind that may follow
/// the convolution of a channel-sliced group.
static bool channelWise(OpKind k) {
  switch (k) {
#define LG_OPKIND(KIND, NAME, VECTORS, CHAN_SLICE, ...)                        \
  case OpKind::KIND:                                                           \
    return CHAN_SLICE;
#include "layergroup/OpKinds.def"
  }
  return false;
}

/// A group of channel-wise layers only: each channel slice reads its
/// channels of the inputs of the first layer (GroupPlan::SlicedInputs:
/// one, or the several of a residual CADD), tensors (not views) that no
/// stateful layer reads, the group's only inputs.
static bool channelWiseOnly(const Net &n, const GroupInfo &g) {
  const Layer &first = n.Layers[g.First];
  // A CADD is channel-wise when every input is sliced as its output is.
  bool chanWise = channelWise(first.Kind) || first.Kind == OpKind::Add;
  if (first.Kind == OpKind::Conv || !chanWise || first.stateful() ||
      first.Kind == OpKind::Lut || g.Inputs.size() != first.Inputs.size())
    return false;
  for (int t : first.Inputs)
    if (n.Tensors[t].isView() || n.Tensors[t].C != n.Tensors[first.Output].C)
      return false;
  for (int l = g.First; l <= g.Last; ++l)
    if (n.Layers[l].stateful())
      return false;
  return true;
}

bool channelSliceable(const Net &n, const GroupInfo &g) {
  if (g.Outputs.size() != 1 || g.Outputs[0] != n.Layers[g.Last].Output)
    return false;
  if (n.Layers[g.First].Kind != OpKind::Conv && !channelWiseOnly(n, g))
    return false;
  for (int l = g.First + 1; l <= g.Last; ++l) {
    const Layer &layer = n.Layers[l];
    if (!channelWise(layer.Kind))
      return false;
    if (layer.Inputs.size() != 1 || layer.Inputs[0] != n.Layers[l - 1].Output)
      return false;
  }
  return true;
}

namespace plan {

std::optional<PlanError> chooseSlices(GroupPlan &p, const Net &n,
                                      const bangsim::DeviceSpec &spec,
                                      int64_t batch, int nSecs, int hSecs,
                                      int wSecs, int fSecs) {
  const GroupInfo &g = p.Info;
  p.NSecs = nSecs, p.HSecs = hSecs, p.WSecs = wSecs, p.FSecs = fSecs;
  p.Batch = batch;
  p.ImagesPerSlice = (batch + nSecs - 1) / nSecs;
  if (nSecs < 1 || nSecs > batch || (nSecs - 1) * p.ImagesPerSlice >= batch)
    return PlanError{PlanFailure::BadSlicing, "bad N slicing"};
  int64_t channels = n.Tensors[g.finalTensor()].C;
  int64_t sliceChannels = channels;
  if (fSecs > 1) {
    if (!channelSliceable(n, g))
      return PlanError{PlanFailure::NotChannelSliceable,
                       "output-channel slices are for a convolution followed "
                       "by channel-wise layers"};
    sliceChannels = (channels + fSecs - 1) / fSecs;
    if ((fSecs - 1) * sliceChannels >= channels)
      return PlanError{PlanFailure::BadSlicing, "bad channel slicing"};
    if (p.ImagesPerSlice != 1)
      return PlanError{PlanFailure::ChannelSlicesOneImage,
                       "output-channel slices take one image per item"};
  }
  p.Channels = channels, p.SliceChannels = sliceChannels;
  p.SlicedInputs = fSecs > 1 && n.Layers[g.First].Kind != OpKind::Conv;
  PlanError why;
  std::optional<HSlicing> h = sliceH(n, g, hSecs, &why);
  if (!h)
    return why;
  p.H = std::move(*h);
  std::optional<HSlicing> w = sliceW(n, g, wSecs, &why);
  if (!w)
    return why;
  p.W = std::move(*w);
  p.Cores = std::min(p.items(), spec.numCores());
  p.Clusters = spec.clusters;
  // A stateful layer (CLIF) carries its state from one image (time step) to
  // the next in NRAM: with the images sliced, each core takes whole chains
  // of one channel slice's time steps, in order (GroupPlan::keepsStateChains).
  if (p.NSecs > 1 && p.stateful(n)) {
    if (hSecs != 1 || wSecs != 1)
      return PlanError{PlanFailure::StateChain,
                       "a stateful layer's time steps sliced with H or W "
                       "slices"};
    p.Cores = std::min(fSecs, spec.numCores());
    while (fSecs % p.Cores != 0)
      --p.Cores;
  }
  return std::nullopt;
}

} // namespace plan

} // namespace bangc::lg
