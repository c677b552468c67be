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

bool GroupPlan::stepRunsOn(const Net &n, int ts) const {
  int last = int(Steps.size()) - 2; // the item's last compute step
  // The last step's __sync() ends the item: the next item reads what the
  // transfer step loaded and stores what this item computed.
  if (!StepsRunOn || !pipelined() || ts < 1 || ts >= last)
    return false;
  // Chunked staging sends in step StageSendStep, from SRAM, what the
  // transfer step read into it (the compute touches no SRAM).
  if (chunkedStaging() && StageSendStep && ts + 1 == StageSendStep)
    return false;
  for (int s : {ts, ts + 1}) {
    const TimeStep &step = Steps[s];
    // Scalar code reads what the compute pipes write; a synchronous copy
    // waits for the DMA queued before it anyway.
    if (step.ScalarLoop || step.SyncCopy)
      return false;
    // A first tile by kernel rows loads rows inside its compute.
    if (firstTileRows(n) && llvm::is_contained(step.Compute, Info.First))
      return false;
  }
  // Kept rows move (Move-DMA) at the start of a step, over rows the steps
  // before computed, and the step's __sync() waits for the move.
  if (KeepRows)
    for (int t : Info.Internal)
      if (keepsRows(n, t)) {
        int move = keptMoveStep(n, t);
        if (move == ts || move == ts + 1)
          return false;
      }
  // What the transfer step queues, pending from it on: its buffers must be
  // apart from every buffer of the item's compute.
  std::vector<int> crossing = Info.Outputs;
  if (!inputsResident())
    for (int t : Info.Inputs) {
      if (n.Tensors[t].isView() || n.Tensors[t].gathered())
        return false; // loaded through scratch buffers of their own
      crossing.push_back(t);
    }
  return llvm::all_of(crossing,
                      [&](int t) { return crossItemBuffersApart(*this, t); });
}

} // namespace bangc::lg
