//===- Allocation.cpp - LayerGroup planner: NRAM and WRAM placement -------===//
//
// Buffers are rectangles of time steps x bytes; placing them is the seed's
// greedy first fit (weights first, then op order, longer lifetime, larger
// size), at 64-byte aligned addresses, not across a bank boundary.
//
//===----------------------------------------------------------------------===//
#include "layergroup/plan/GroupPass.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace bangc::lg {

static bool timeOverlap(const LmemBuffer &a, const LmemBuffer &b) {
  return a.Start <= b.End && b.Start <= a.End;
}

bool lmemDisjoint(const std::vector<LmemBuffer> &bufs) {
  for (size_t i = 0; i < bufs.size(); ++i)
    for (size_t j = i + 1; j < bufs.size(); ++j) {
      const LmemBuffer &a = bufs[i], &b = bufs[j];
      if (a.Bytes == 0 || b.Bytes == 0 || !timeOverlap(a, b))
        continue;
      if (a.Offset < b.Offset + b.Bytes && b.Offset < a.Offset + a.Bytes)
        return false;
    }
  return true;
}

namespace {

constexpr int64_t Align = 64;

/// The placing order: weights first (when \p weightsFirst), then op order,
/// longer lifetime first, then larger size.
std::vector<size_t> placingOrder(const std::vector<LmemBuffer> &bufs,
                                 bool weightsFirst) {
  std::vector<size_t> order(bufs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto life = [](const LmemBuffer &b) -> int64_t {
    return b.End == TsInf ? INT64_MAX / 4 : int64_t(b.End) - b.Start;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const LmemBuffer &a = bufs[x], &b = bufs[y];
    if (weightsFirst) {
      bool wa = a.K == LmemBuffer::Weight, wb = b.K == LmemBuffer::Weight;
      if (wa != wb)
        return wa;
    }
    if (a.Order != b.Order)
      return a.Order < b.Order;
    if (life(a) != life(b))
      return life(a) > life(b);
    return a.Bytes > b.Bytes;
  });
  return order;
}

/// The lowest aligned address for \p b (of \p size bytes) that overlaps no
/// placed buffer alive at the same time: 0 or the end of one of them,
/// moved past a bank boundary it would cross.
int64_t lowestFit(const std::vector<LmemBuffer> &bufs,
                  const std::vector<size_t> &placed, const LmemBuffer &b,
                  int64_t size, int64_t bankBytes) {
  std::vector<int64_t> candidates{0};
  for (size_t p : placed)
    if (timeOverlap(bufs[p], b))
      candidates.push_back((bufs[p].Offset + bufs[p].Bytes + Align - 1) /
                           Align * Align);
  std::sort(candidates.begin(), candidates.end());
  for (int64_t c : candidates) {
    if (bankBytes > 0 && size <= bankBytes &&
        c / bankBytes != (c + size - 1) / bankBytes)
      c = (c / bankBytes + 1) * bankBytes;
    bool clash = false;
    for (size_t p : placed) {
      const LmemBuffer &q = bufs[p];
      if (timeOverlap(q, b) && c < q.Offset + q.Bytes && q.Offset < c + size) {
        clash = true;
        break;
      }
    }
    if (!clash)
      return c;
  }
  return -1;
}

} // namespace

bool allocateLmem(std::vector<LmemBuffer> &bufs, int64_t capacity, int banks,
                  bool weightsFirst, int64_t *peak) {
  int64_t bankBytes = banks > 0 ? capacity / banks : 0;
  int64_t top = 0;
  std::vector<size_t> placed;
  bool ok = true;
  for (size_t i : placingOrder(bufs, weightsFirst)) {
    LmemBuffer &b = bufs[i];
    int64_t size = (b.Bytes + Align - 1) / Align * Align;
    int64_t found = lowestFit(bufs, placed, b, size, bankBytes);
    b.Offset = found;
    placed.push_back(i);
    top = std::max(top, found + size);
    if (found + size > capacity)
      ok = false;
  }
  if (peak)
    *peak = top;
  return ok;
}

namespace plan {

std::vector<LmemBuffer> tailHeldBuffers(const GroupPlan &p, int from) {
  std::vector<LmemBuffer> bufs = p.Buffers;
  int to = int(p.Steps.size()) - 1;
  std::set<int> loaded; // loaded in the step before (Codegen's plainItem)
  for (int ts = from; ts <= to; ++ts)
    loaded.insert(p.Steps[ts].LoadTensors.begin(),
                  p.Steps[ts].LoadTensors.end());
  for (LmemBuffer &b : bufs)
    if (b.Start <= to && b.End >= from) {
      bool early = b.K == LmemBuffer::Activation && loaded.count(b.Tensor);
      b.Start = std::min(b.Start, early ? from - 1 : from);
      b.End = std::max(b.End, to);
    }
  return bufs;
}

/// A plain item's tail in row pieces (GroupPlan::tailStart) runs its
/// layers piece after piece, so each buffer alive in the tail must hold
/// its data through the whole tail: placed again that way when NRAM holds
/// it, else the tail stays whole (Cost.cpp checks which).
static void holdTailBuffers(GroupPass &pass, int64_t capacity) {
  GroupPlan &p = pass.plan;
  int from = p.tailStart(pass.net);
  if (!from)
    return;
  std::vector<LmemBuffer> bufs = tailHeldBuffers(p, from);
  if (lmemDisjoint(bufs))
    return;
  int64_t peak = 0;
  if (!allocateLmem(bufs, capacity, pass.spec.nramBanks, true, &peak))
    return;
  for (size_t i = 0; i < bufs.size(); ++i)
    p.Buffers[i].Offset = bufs[i].Offset;
  p.PeakBytes = peak;
}

std::optional<PlanError> allocateMemories(GroupPass &pass) {
  GroupPlan &p = pass.plan;
  const bangsim::DeviceSpec &spec = pass.spec;
  int64_t capacity = spec.nramBytes - pass.options.ReserveBytes;
  // A tensor that keeps rows (GroupPlan::KeepRows) holds them from one item
  // to the next: no other buffer may take its NRAM between them. Or the
  // window tile that holds them (GroupPlan::KeptTiles).
  std::set<int> keptTiles;
  for (auto [t, conv] : p.KeptTiles)
    keptTiles.insert(conv);
  for (LmemBuffer &b : p.Buffers)
    if ((b.K == LmemBuffer::Activation && p.keepsRows(pass.net, b.Tensor) &&
         p.keptTileOf(b.Tensor) < 0) ||
        (b.K == LmemBuffer::Scratch && b.Part == 0 &&
         keptTiles.count(b.Layer)))
      b.Start = 0, b.End = TsInf;
  if (!allocateLmem(p.Buffers, capacity, spec.nramBanks, true, &p.PeakBytes))
    return PlanError{
        PlanFailure::NramFull,
        fmt::format("needs {} bytes of NRAM, has {}", p.PeakBytes, capacity)};
  holdTailBuffers(pass, capacity);
  if (!allocateLmem(p.WramBuffers, spec.wramBytes, 0, p.weightsResident(),
                    &p.WramPeakBytes))
    return PlanError{PlanFailure::WramFull,
                     fmt::format("needs {} bytes of WRAM, has {}",
                                 p.WramPeakBytes, spec.wramBytes)};
  return std::nullopt;
}

} // namespace plan

} // namespace bangc::lg
