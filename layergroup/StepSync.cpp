//===- StepSync.cpp - LayerGroup: which time steps run on without a sync --===//
//
// A pipelined item runs its time steps ts1..tsN, and the transfer step
// (GroupPlan::transferStep) queues DMA that crosses items: the next item's
// loads, the previous item's stores, the next weight tile's piece. A
// __sync() waits for every pipe, so one that closes a step whose successor
// touches none of those buffers stalls the compute on DMA it does not
// depend on (VGG-16's conv1 group: the ReLU after ts1 waited for the
// previous item's store). The compute pipes run in order, so a compute ->
// compute dependence needs no sync; a step boundary needs one only when a
// DMA queued before it and not yet waited for touches what the next step
// reads or writes, when the next step issues DMA of its own on data the
// compute may still write, or when scalar code reads the compute's
// results. This file decides that, in one place, for Codegen (which leaves
// the __sync() out) and plan/Cost.cpp (which charges the steps that run on
// together as one).
//
//===----------------------------------------------------------------------===//
#include "layergroup/GroupPlan.h"

#include "llvm/ADT/STLExtras.h"

namespace bangc::lg {

// The double-buffered group inputs and outputs that the transfer step's
// DMA fills and drains: two buffers, both live for the whole kernel, so no
// buffer of a step's compute shares their bytes (plan/Allocation.cpp).
static bool crossItemBuffersApart(const GroupPlan &p, int t) {
  auto it = p.Alias.find(t);
  int owner = it == p.Alias.end() ? t : it->second;
  bool copies[2] = {false, false};
  for (const LmemBuffer &b : p.Buffers) {
    if (b.K != LmemBuffer::Activation || b.Tensor != owner)
      continue;
    if (b.End != TsInf || b.Copy < 0 || b.Copy > 1)
      return false;
    copies[b.Copy] = true;
  }
  return copies[0] && copies[1];
}

// stepRunsOn, or with \p afterRows stepRunsOnAfterRows without its own
// condition: the first tile by kernel rows does not keep the __sync().
static bool runsOn(const GroupPlan &p, const Net &n, int ts, bool afterRows);

bool GroupPlan::stepRunsOn(const Net &n, int ts) const {
  return runsOn(*this, n, ts, false);
}

// The rows of a first tile (Codegen's computeConvByRows) load with a
// __sync() after each inside the first item's compute; the later items
// load whole tiles (or pieces of the next one) in the transfer step, as any
// global group does, and need the step's __sync() no more than it does.
bool GroupPlan::stepRunsOnAfterRows(const Net &n, int ts) const {
  return firstTileRows(n) && !rowsEveryItem(n) && !stepRunsOn(n, ts) &&
         runsOn(*this, n, ts, true);
}

static bool runsOn(const GroupPlan &p, const Net &n, int ts, bool afterRows) {
  int last = int(p.Steps.size()) - 2; // the item's last compute step
  // The last step's __sync() ends the item: the next item reads what the
  // transfer step loaded and stores what this item computed.
  if (!p.StepsRunOn || !p.pipelined() || ts < 1 || ts >= last)
    return false;
  // Chunked staging sends in step StageSendStep, from SRAM, what the
  // transfer step read into it (the compute touches no SRAM).
  if (p.chunkedStaging() && p.StageSendStep && ts + 1 == p.StageSendStep)
    return false;
  for (int s : {ts, ts + 1}) {
    const TimeStep &step = p.Steps[s];
    // Scalar code reads what the compute pipes write; a synchronous copy
    // waits for the DMA queued before it anyway.
    if (step.ScalarLoop || step.SyncCopy)
      return false;
    // A first tile by kernel rows loads rows inside its compute.
    if (!afterRows && p.firstTileRows(n) &&
        llvm::is_contained(step.Compute, p.Info.First))
      return false;
  }
  // Kept rows move (Move-DMA) at the start of a step, over rows the steps
  // before computed, and the step's __sync() waits for the move.
  if (p.KeepRows)
    for (int t : p.Info.Internal)
      if (p.keepsRows(n, t)) {
        int move = p.keptMoveStep(n, t);
        if (move == ts || move == ts + 1)
          return false;
      }
  // What the transfer step queues, pending from it on: its buffers must be
  // apart from every buffer of the item's compute.
  std::vector<int> crossing = p.Info.Outputs;
  if (!p.inputsResident())
    for (int t : p.Info.Inputs) {
      if (n.Tensors[t].isView() || n.Tensors[t].gathered())
        return false; // loaded through scratch buffers of their own
      crossing.push_back(t);
    }
  return llvm::all_of(crossing,
                      [&](int t) { return crossItemBuffersApart(p, t); });
}

} // namespace bangc::lg
