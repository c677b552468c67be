//===- KeptRows.cpp - LayerGroup: rows kept from the item before ----------===//
//
// H slices of a group overlap in the tensors it computes: a 3x3 convolution
// reads one row above and below its output rows, so the item of H slice hs
// needs rows of its input that the item of slice hs - 1 computed too (the
// halo). With GroupPlan::KeepRows a core's consecutive items go down one
// column of tiles, and an item that follows the slice above it keeps those
// rows in NRAM instead of computing them again: which tensors keep rows
// (those with an NRAM buffer of their own; a ReLU or clamp computed in
// place over one runs again over all its rows; a ReLU that writes its
// reader's window tile, GroupPlan::ReluTiles, has the kept rows kept in
// that tile instead, GroupPlan::KeptTiles, and writes only the rows after
// them), how many, which items keep them and where the item before moves
// them. The planner (Allocation.cpp holds a kept tensor's buffer, or the
// tile, for the whole kernel, Cost.cpp charges a kept tensor's rows, and
// its ReLU's in a tile, less fewestKeptRows to an item that keeps rows,
// and the move) and the codegen (kr, the rows kept, counted at run time;
// the move of the kept rows to the front of the slice or tile) ask these.
//
//===----------------------------------------------------------------------===//
#include "layergroup/GroupPlan.h"

#include <algorithm>

namespace bangc::lg {

bool keepRowsLayer(const Layer &l) {
  if (l.Integer || l.HalfViaFloat || l.stateful())
    return false;
  switch (l.Kind) {
  case OpKind::Conv:
  case OpKind::Relu:
  case OpKind::Clamp:
  case OpKind::Scale:
  case OpKind::Add:
  case OpKind::Mul:
  case OpKind::MaxPool:
  case OpKind::MinPool:
  case OpKind::SumPool:
    return true;
  default:
    return false;
  }
}

namespace {

/// Layer \p l may compute in place (plan/Buffers.cpp's inPlace): an
/// element-wise ReLU, clamp or scale.
bool inPlaceKind(const Layer &l) {
  return (l.Kind == OpKind::Relu || l.Kind == OpKind::Clamp ||
          l.Kind == OpKind::Scale) &&
         l.Inputs.size() == 1;
}

/// The layers that may compute in \p t's NRAM buffer after its producer
/// (in-place element-wise layers, each its input's only reader) recompute
/// every row of it, the kept ones too: they must give the same value again
/// (a ReLU or clamp: max or min with a constant, idempotent; not a scale),
/// and none may be a group output, whose buffer is double-buffered (the item
/// before's rows are in the other one).
bool inPlaceChainKeeps(const Net &n, const GroupInfo &g, int t) {
  for (int u = t;;) {
    if (g.isOutput(u))
      return false;
    const Tensor &x = n.Tensors[u];
    if (x.Consumers.size() != 1 || !g.contains(x.Consumers[0]))
      return true;
    const Layer &l = n.Layers[x.Consumers[0]];
    if (!inPlaceKind(l))
      return true;
    if (l.Kind == OpKind::Scale)
      return false;
    u = l.Output;
  }
}

/// Tensor \p t may share its input's buffer (its producer an in-place kind
/// over a tensor of the group read by it alone): its rows are that
/// buffer's, which keeps them if any.
bool mayShareItsInput(const Net &n, const GroupInfo &g, int t) {
  int l = n.Tensors[t].Producer;
  if (l < 0 || !inPlaceKind(n.Layers[l]))
    return false;
  int in = n.Layers[l].Inputs[0];
  return g.computes(n, in) && n.Tensors[in].Consumers.size() == 1 &&
         !g.isOutput(in);
}

} // namespace

/// Tensor \p t of plan \p p's group could keep rows (GroupPlan::keepsRows
/// but for KeepRows itself): the group computes it and does not store it,
/// its buffer is its own, and some H slice of it overlaps the one above.
static bool keepable(const GroupPlan &p, const Net &n, int t) {
  const GroupInfo &g = p.Info;
  if (!g.computes(n, t) || g.isOutput(t) || mayShareItsInput(n, g, t) ||
      !inPlaceChainKeeps(n, g, t))
    return false;
  int s = g.slot(t);
  for (int hs = 1; hs < p.HSecs; ++hs)
    if (p.H.Rows[hs - 1][s].Hi > p.H.Rows[hs][s].Lo)
      return true;
  return false;
}

bool GroupPlan::canKeepRows(const Net &n) const {
  if (HSecs < 2 || !pipelined() || ImagesPerSlice != 1 || global() ||
      stateful(n))
    return false;
  for (int l : Info.Layers)
    if (!keepRowsLayer(n.Layers[l]))
      return false;
  for (int t : Info.Internal)
    if (keepable(*this, n, t))
      return true;
  return false;
}

bool GroupPlan::keepsRows(const Net &n, int t) const {
  return KeepRows && keepable(*this, n, t);
}

RowRange GroupPlan::keptRows(const Net &n, int t, int hs) const {
  if (hs <= 0 || hs >= HSecs || !keepsRows(n, t))
    return {};
  int s = Info.slot(t);
  const RowRange &prev = H.Rows[hs - 1][s], &cur = H.Rows[hs][s];
  return {cur.Lo, std::max(cur.Lo, std::min(prev.Hi, cur.Hi))};
}

int64_t GroupPlan::fewestKeptRows(const Net &n, int t) const {
  int64_t fewest = -1;
  for (int hs = 1; hs < HSecs; ++hs) {
    int64_t k = keptRows(n, t, hs).size();
    fewest = fewest < 0 ? k : std::min(fewest, k);
  }
  return std::max<int64_t>(0, fewest);
}

bool GroupPlan::itemKeepsRows(int item) const {
  if (!KeepRows || itemH(item) == 0)
    return false;
  for (int ph = 0; ph < SramPhases; ++ph)
    for (int c = 0; c < Cores; ++c)
      if (itemBegin(c, ph) == item)
        return false;
  return true;
}

int GroupPlan::keptMoveStep(const Net &n, int t) const {
  int last = 0;
  if (int conv = keptTileOf(t); conv >= 0) // the tile's reader
    last = conv - Info.First + 1;
  for (int u = t;;) {
    for (int c : n.Tensors[u].Consumers)
      if (Info.contains(c))
        last = std::max(last, c - Info.First + 1);
    const Tensor &x = n.Tensors[u];
    if (x.Consumers.size() != 1 || !Info.contains(x.Consumers[0]) ||
        !inPlaceKind(n.Layers[x.Consumers[0]]))
      break;
    u = n.Layers[x.Consumers[0]].Output;
  }
  int best = 0;
  int layers = int(Info.Layers.size());
  for (int ts = std::max(last, transferStep()) + 1; ts <= layers; ++ts)
    if (!best || Steps[ts].ComputeCycles > Steps[best].ComputeCycles)
      best = ts;
  return best;
}

/// The window tile of convolution \p conv (its ReLU writes it) starts at
/// the ReLU's input \p t's first row on every H slice after the first,
/// and is no taller than the one above.
static bool tileKeepsAlong(const GroupPlan &p, const Net &n, int t,
                           int conv) {
  const Layer &c = n.Layers[conv];
  int so = p.Info.slot(c.Output), st = p.Info.slot(t);
  auto tileRows = [&](int hs) {
    int64_t oh = p.H.Rows[hs][so].size();
    return oh <= 0 ? 0 : (oh - 1) * c.SY + (c.KY - 1) * c.DY + 1;
  };
  for (int hs = 1; hs < p.HSecs; ++hs)
    if (p.H.Rows[hs][so].Lo * c.SY - c.PU != p.H.Rows[hs][st].Lo ||
        tileRows(hs) > tileRows(hs - 1))
      return false;
  return true;
}

void GroupPlan::chooseKeptTiles(const Net &n, bool allowed) {
  KeptTiles.clear();
  if (!allowed || !KeepRows)
    return;
  for (int t : Info.Internal) {
    const Tensor &x = n.Tensors[t];
    if (!keepsRows(n, t) || x.Consumers.size() != 1)
      continue;
    auto relu = ReluTiles.find(x.Consumers[0]);
    if (relu != ReluTiles.end() && tileKeepsAlong(*this, n, t, relu->second))
      KeptTiles[t] = relu->second;
  }
}

} // namespace bangc::lg
