//===- GroupPlan.cpp - LayerGroup: the plan of one group ------------------===//
//
// The derived facts of GroupInfo and GroupPlan that take more than a line:
// tensor slots, readers, the largest per-channel vector and the HWIO
// packing of convolution weights that the kernels' weight loads assume.
//
//===----------------------------------------------------------------------===//
#include "layergroup/GroupPlan.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <set>

namespace bangc::lg {

int GroupInfo::slot(int t) const {
  auto it = std::find(Tensors.begin(), Tensors.end(), t);
  return it == Tensors.end() ? -1 : int(it - Tensors.begin());
}

bool GroupInfo::isOutput(int t) const {
  return std::find(Outputs.begin(), Outputs.end(), t) != Outputs.end();
}

int GroupInfo::readers(const Net &n, int t) const {
  int count = 0;
  for (int c : n.Tensors[t].Consumers)
    count += contains(c);
  return count;
}

int GroupInfo::poolFirst(const Net &n, int conv) const {
  // The one reader of tensor t, in the group, of kind k, or -1.
  auto only = [&](int t, OpKind k) {
    const Tensor &x = n.Tensors[t];
    if (isOutput(t) || x.Consumers.size() != 1 || !contains(x.Consumers[0]))
      return -1;
    const Layer &l = n.Layers[x.Consumers[0]];
    bool ok = l.Kind == k && !l.Integer && l.Inputs.size() == 1 &&
              n.Tensors[l.Output].Type == x.Type;
    return ok ? x.Consumers[0] : -1;
  };
  if (!contains(conv) || n.Layers[conv].Kind != OpKind::Conv ||
      n.Layers[conv].Integer)
    return -1;
  int relu = only(n.Layers[conv].Output, OpKind::Relu);
  if (relu < 0)
    return -1;
  int pool = only(n.Layers[relu].Output, OpKind::MaxPool);
  if (pool < 0)
    return -1;
  const Layer &pl = n.Layers[pool];
  bool fromMinusInf = std::isinf(pl.Cmp) && pl.Cmp < 0;
  // Every window holds a real pixel: one of padding only is -inf, where
  // relu(-inf + b) would give 0.
  bool realPixel =
      pl.PU < pl.KY && pl.PD < pl.KY && pl.PL < pl.KX && pl.PR < pl.KX;
  if (!fromMinusInf || !realPixel || pl.HalfViaFloat || !pl.Bias.empty())
    return -1;
  return pool;
}

IntLoop intLoop(const Net &n, const Layer &l) {
  if (!l.Integer || isFloatDType(n.Tensors[l.Output].Type))
    return IntLoop::Generic;
  bool intIn = !isFloatDType(n.Tensors[l.Inputs[0]].Type);
  // An integral CMP, or (pools) an infinite one; long long holds it.
  auto integral = [](double v, bool inf) {
    if (std::isinf(v))
      return inf;
    return std::fabs(v) < 0x1p62 && v == std::floor(v);
  };
  switch (l.Kind) {
  case OpKind::Relu:
    return intIn ? IntLoop::Exact : IntLoop::Generic;
  case OpKind::Clamp:
    return intIn && integral(l.Cmp, false) ? IntLoop::Exact : IntLoop::Generic;
  case OpKind::MaxPool:
  case OpKind::MinPool:
    return intIn && integral(l.Cmp, true) ? IntLoop::Exact : IntLoop::Generic;
  case OpKind::Scale:
    return IntLoop::Exact;
  case OpKind::Add:
    return l.Inputs.size() == 1 ? IntLoop::Exact : IntLoop::Generic;
  default:
    return IntLoop::Generic;
  }
}

int GroupPlan::transferStep() const {
  int best = 1;
  for (int ts = 2; ts + 1 < int(Steps.size()); ++ts)
    if (Steps[ts].ComputeCycles > Steps[best].ComputeCycles)
      best = ts;
  return Steps.size() > 2 && Steps[best].ScalarLoop ? best : 1;
}

bool GroupPlan::weightsStagedAsOne(const Net &n) const {
  if (!weightsInSram() || !sramBroadcast())
    return false;
  int type = -1;
  for (int l : Info.Layers) {
    const Layer &layer = n.Layers[l];
    if (layer.Kind != OpKind::Conv)
      continue;
    int t = int(n.Tensors[layer.Inputs[0]].Type);
    if ((type >= 0 && t != type) ||
        int64_t(layer.Weight.size()) * n.weightElemBytes(layer) % 4 != 0)
      return false;
    type = t;
  }
  return true;
}

int GroupPlan::firstConvRows(const Net &n) const {
  if (!pipelined() || !weightTiles() || ImagesPerSlice != 1)
    return 0;
  const Layer &conv = n.Layers[Info.First];
  if (conv.Kind != OpKind::Conv || conv.KY < 2 || conv.Integer ||
      !PaddedInputs.count(conv.Inputs[0]) ||
      n.Tensors[conv.Inputs[0]].Type != DType::F32 ||
      n.Tensors[conv.Output].Type != DType::F32)
    return 0;
  return int(conv.KY);
}

int GroupPlan::firstTileRows(const Net &n) const {
  int rows = phased() ? firstConvRows(n) : 0;
  if (!rows)
    return 0;
  int out = n.Layers[Info.First].Output;
  out = Alias.count(out) ? Alias.at(out) : out;
  for (const LmemBuffer &b : Buffers)
    if ((b.K == LmemBuffer::Activation && b.Tensor == out && b.Copy == 1) ||
        (b.K == LmemBuffer::Scratch && b.Layer == Info.First && b.Part == 1))
      return rows;
  return 0;
}

std::vector<RowRange> GroupPlan::stagedFirst(const Net &n, int items,
                                             int64_t granule) const {
  if (!phased() || !pipelined() || Info.Inputs.size() != 1 ||
      inputsResident() || SlicedInputs)
    return {};
  const Tensor &x = n.Tensors[Info.Inputs[0]];
  if (x.isView())
    return {};
  int slot = Info.slot(Info.Inputs[0]);
  int64_t row = x.W * x.C, total = SramImages * x.elements();
  if (granule <= 0 || total % granule != 0)
    return {}; // the rest's shares would split GDRAM blocks
  std::vector<RowRange> ranges;
  for (int ph = 0; ph < SramPhases; ++ph)
    for (int c = 0; c < Cores; ++c) {
      int b = itemBegin(c, ph), e = itemEnd(c, ph);
      if (e - b < items)
        return {};
      for (int it = b; it < b + items; ++it) {
        int64_t n0 = int64_t(itemN(it)) * ImagesPerSlice -
                     int64_t(ph) * SramImages;
        RowRange r = H.Rows[itemH(it)][slot];
        for (int64_t i = n0; i < n0 + ImagesPerSlice; ++i)
          ranges.push_back(
              {((i * x.H + r.Lo) * row) / granule * granule,
               std::min(total, ((i * x.H + r.Hi) * row + granule - 1) /
                                   granule * granule)});
      }
    }
  std::sort(ranges.begin(), ranges.end(),
            [](const RowRange &a, const RowRange &b) { return a.Lo < b.Lo; });
  std::vector<RowRange> merged;
  int64_t covered = 0;
  for (const RowRange &r : ranges) {
    if (!merged.empty() && r.Lo <= merged.back().Hi)
      merged.back().Hi = std::max(merged.back().Hi, r.Hi);
    else
      merged.push_back(r);
  }
  for (const RowRange &r : merged)
    covered += r.size();
  return covered < total ? merged : std::vector<RowRange>{};
}

std::vector<RowRange>
GroupPlan::rangesLeft(const std::vector<RowRange> &all,
                      const std::vector<RowRange> &part) {
  std::vector<RowRange> left;
  for (RowRange a : all) {
    for (const RowRange &r : part) {
      if (r.Hi <= a.Lo || r.Lo >= a.Hi)
        continue;
      if (r.Lo > a.Lo)
        left.push_back({a.Lo, r.Lo});
      a.Lo = std::max(a.Lo, r.Hi);
    }
    if (a.Lo < a.Hi)
      left.push_back(a);
  }
  return left;
}

std::vector<RowRange> GroupPlan::stagedRest(const Net &n) const {
  const Tensor &x = n.Tensors[Info.Inputs[0]];
  std::vector<RowRange> staged = StageFirst;
  staged.insert(staged.end(), StageMid.begin(), StageMid.end());
  std::sort(staged.begin(), staged.end(),
            [](const RowRange &a, const RowRange &b) { return a.Lo < b.Lo; });
  return rangesLeft({{0, SramImages * x.elements()}}, staged);
}

bool GroupPlan::rowsEveryItemShape(const Net &n) const {
  return firstConvRows(n) && spatialSecs() == 1;
}

bool GroupPlan::rowsEveryItem(const Net &n) const {
  if (SramPhases != 1 || !rowsEveryItemShape(n) || !firstTileRows(n))
    return false;
  for (const LmemBuffer &b : Buffers)
    if (b.K == LmemBuffer::Scratch && b.Layer == Info.First && b.Part == 1)
      return true;
  return false;
}

bool GroupPlan::wramCopyInItem(const Net &n, int l) const {
  if (!weightsInSram() || !sramBroadcast() || !phased() || pipelined() ||
      Steps.size() < 3 || (TailPieces > 1 && tailStart(n) == 1))
    return false;
  const std::vector<int> &first = Steps[1].Compute;
  return std::find(first.begin(), first.end(), l) == first.end();
}

int GroupPlan::lastPiecesStart(const Net &n) const {
  if (!pipelined() || Info.Outputs.size() != 1 || Steps.size() < 3)
    return 0;
  const TimeStep &last = Steps.back();
  if (!last.Compute.empty() || last.StoreTensors != Info.Outputs)
    return 0;
  // Backwards from the output along the chain; a convolution ends it (its
  // input is computed before), and so does a step before one that copies
  // synchronously (only the tail's first step may: the store of the piece
  // before is queued after it).
  int head = Info.Outputs.front(), start = 0;
  std::set<int> made;
  for (int ts = int(Steps.size()) - 2; ts >= 1; --ts) {
    const TimeStep &s = Steps[ts];
    if (s.Compute.size() != 1 || s.ScalarLoop || !s.LoadTensors.empty() ||
        !s.LoadWeights.empty() || !s.StoreTensors.empty() ||
        (start && Steps[start].SyncCopy))
      break;
    int l = s.Compute.front();
    const Layer &layer = n.Layers[l];
    bool conv = layer.Kind == OpKind::Conv;
    if (layer.Output != head || layer.Integer || layer.RealMath ||
        layer.HalfViaFloat || keepsRows(n, layer.Output) ||
        ReluTiles.count(l) ||
        (!conv && layer.Kind != OpKind::Relu &&
         layer.Kind != OpKind::MaxPool && layer.Kind != OpKind::Add) ||
        (conv && (StridedInputs.count(layer.Inputs[0]) ||
                  (l == Info.First && rowsEveryItem(n) &&
                   ImagesPerSlice != 1))))
      break;
    made.insert(layer.Output);
    head = layer.Inputs[0];
    start = ts;
    if (conv)
      break;
  }
  // An addition's other inputs are computed before the tail.
  for (int ts = start; start && ts + 1 < int(Steps.size()); ++ts) {
    const Layer &layer = n.Layers[Steps[ts].Compute.front()];
    for (size_t i = 1; i < layer.Inputs.size(); ++i)
      if (made.count(layer.Inputs[i]))
        return 0;
  }
  return start;
}

int GroupPlan::tailStart(const Net &n) const {
  if (pipelined() || Info.Outputs.size() != 1 || Steps.size() < 3)
    return 0;
  const TimeStep &last = Steps.back();
  if (!last.Compute.empty() || !last.LoadTensors.empty() ||
      !last.LoadWeights.empty() || last.StoreTensors != Info.Outputs)
    return 0;
  std::set<int> made, windowed; // computed in the tail; a convolution reads
  int start = 0;
  for (int ts = int(Steps.size()) - 2; ts >= 1; --ts) {
    const TimeStep &s = Steps[ts];
    if (s.Compute.empty() || !s.LoadWeights.empty() ||
        !s.StoreTensors.empty())
      break;
    auto fits = [&](int l) {
      const Layer &layer = n.Layers[l];
      if (windowed.count(layer.Output) || layer.Integer || layer.RealMath ||
          layer.HalfViaFloat || Info.poolFirst(n, l) >= 0)
        return false;
      if (layer.Kind == OpKind::Conv)
        return std::none_of(
            layer.Inputs.begin(), layer.Inputs.end(), [&](int t) {
              return made.count(t) || PaddedInputs.count(t) ||
                     StridedInputs.count(t);
            });
      return layer.Kind == OpKind::Relu || layer.Kind == OpKind::Add;
    };
    if (!std::all_of(s.Compute.begin(), s.Compute.end(), fits))
      break;
    for (int l : s.Compute) {
      made.insert(n.Layers[l].Output);
      if (n.Layers[l].Kind == OpKind::Conv)
        windowed.insert(n.Layers[l].Inputs.begin(), n.Layers[l].Inputs.end());
    }
    start = ts;
  }
  if (!start || windowed.empty() || !made.count(Info.Outputs.front()))
    return 0;
  return start;
}

int64_t GroupPlan::gatherTableBytes(const Net &n, int t, int64_t rowsCap,
                                    int64_t colsCap) {
  int64_t entries =
      std::max(rowsCap * colsCap * n.Tensors[t].C, 2 * rowsCap);
  // Several sources: the sum of their offsets, and the next source's.
  int64_t tables = n.Tensors[t].View.size() > 1 ? 2 : 1;
  return tables * ((entries * 4 + 63) / 64 * 64);
}

int64_t GroupPlan::gatherScratchBytes(const Net &n, int t) const {
  const Tensor &v = n.Tensors[t];
  int s = Info.slot(t);
  int64_t window = 0;
  for (const auto &rows : H.Rows)
    window = std::max(window, v.gatherWindow(rows[s].Lo, rows[s].Hi));
  return gatherTableBytes(n, t, H.RowsCap[s], W.RowsCap[s]) +
         (window + 1) * v.elemBytes(); // win[0]: the zeros' element
}

bool GroupPlan::stateful(const Net &n) const {
  for (int l : Info.Layers)
    if (n.Layers[l].stateful())
      return true;
  return false;
}

bool GroupPlan::keepsStateChains(const Net &n) const {
  if (NSecs == 1 || !stateful(n))
    return true;
  if (HSecs != 1 || WSecs != 1 || imagesOuter() || SramPhases != 1)
    return false;
  for (int c = 0; c <= Cores; ++c)
    if (itemBegin(c) % NSecs != 0)
      return false;
  return true;
}

int64_t GroupPlan::weightsPerChannel(const Net &n, int l) {
  const Layer &layer = n.Layers[l];
  return n.Tensors[layer.Inputs[0]].C * layer.KY * layer.KX;
}

void GroupPlan::packWeights(const Net &n, int l, int64_t begin, int64_t end,
                            float *out) const {
  const Layer &layer = n.Layers[l];
  assert(layer.Kind == OpKind::Conv && "only convolutions have packed weights");
  assert(0 <= begin && begin <= end && end <= int64_t(layer.Weight.size()) &&
         "a range of the weights");
  if (begin == end)
    return;
  const int64_t channels = n.Tensors[layer.Output].C;
  const int64_t inChannels = n.Tensors[layer.Inputs[0]].C;
  const int64_t kx = layer.KX, ky = layer.KY;
  const int64_t taps = inChannels * ky * kx, tileF = weightTileChannels(n, l);
  // Where `begin` is: tile f0 (ft channels), tap (y, x, c), channel f0 + j;
  // then the position moves on one element at a time.
  int64_t f0 = begin / (tileF * taps) * tileF;
  int64_t ft = std::min(tileF, channels - f0);
  int64_t q = begin - f0 * taps;
  int64_t j = q % ft, tap = q / ft;
  int64_t c = tap % inChannels, x = tap / inChannels % kx,
          y = tap / inChannels / kx;
  const float *w = layer.Weight.data();
  for (int64_t p = begin; p < end; ++p) {
    *out++ = w[(f0 + j) * taps + (c * ky + y) * kx + x];
    if (++j < ft)
      continue;
    j = 0;
    if (++c < inChannels)
      continue;
    c = 0;
    if (++x < kx)
      continue;
    x = 0;
    if (++y < ky)
      continue;
    y = 0;
    f0 += ft;
    ft = std::min(tileF, channels - f0);
  }
}

} // namespace bangc::lg
