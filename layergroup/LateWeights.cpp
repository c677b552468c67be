//===- LateWeights.cpp - LayerGroup: weights staged beside the first item -===//
//
// A pipelined group of tiles with resident weights staged once per chip
// (VGG-16's conv2 block: conv2_1 295 KB, conv2_2 590 KB) used to stage
// every convolution's weights in SRAM and copy all of them SRAM->WRAM
// before its first item, though that item's first compute step runs only
// the first convolution: the other weights' GDRAM reads, sends and WRAM
// copies held up the start of every core (18.7 K cycles of the group's
// 391 K, 2.8 K of them reading conv2_2's weights and 2 K copying them).
// GroupPlan::LateWeights stages those later weights beside the items: this
// file decides which plans may (lateWeightsFit), which weights are late
// (lateWeight) and the step that first reads them (lateWeightStep), for
// Codegen (prologue, phaseStart, pipelinedItem) and plan/Cost.cpp
// (prologueCycles, lateWeightsCycles), which must agree.
//
//===----------------------------------------------------------------------===//
#include "layergroup/GroupPlan.h"

#include "llvm/ADT/STLExtras.h"

namespace bangc::lg {

// Staged weights are the convolutions' (Codegen's declarations), in layer
// order, one SRAM range (weightsStagedAsOne): the early ones, which ts1
// computes, must come first so that each part is one range of it. The
// first item's transfer step is ts1 (it sends the late share beside its
// compute) and every core has items in every phase, so every core meets
// at the barrier after it; at least two, so that the first item is not
// the last, which may run its steps another way (GroupPlan::LastPieces).
bool GroupPlan::lateWeightsFit(const Net &n) const {
  if (!weightsInSram() || !sramBroadcast() || !phased() || !pipelined() ||
      !weightsResident() || items() / SramPhases < 2 * Cores ||
      !weightsStagedAsOne(n) || Steps.size() < 3 || transferStep() != 1 ||
      Clusters < 2)
    return false;
  bool early = false, late = false;
  for (int l : Info.Layers) {
    if (n.Layers[l].Kind != OpKind::Conv)
      continue;
    bool isLate = !llvm::is_contained(Steps[1].Compute, l);
    if (!isLate && late)
      return false;
    early |= !isLate;
    late |= isLate;
  }
  return early && late;
}

bool GroupPlan::lateSplitFits(const Net &n) const {
  if (!lateWeightsFit(n) || Steps[1].Compute.size() != 1 ||
      Steps[1].TileFirstCycles > 0 || ImagesPerSlice != 1)
    return false;
  const Layer &conv = n.Layers[Steps[1].Compute.front()];
  auto padded = PaddedInputs.find(conv.Inputs[0]);
  return conv.Kind == OpKind::Conv && !conv.Integer &&
         padded != PaddedInputs.end() &&
         padded->second == Steps[1].Compute.front();
}

bool GroupPlan::lateWeight(const Net &n, int l) const {
  return LateWeights && n.Layers[l].Kind == OpKind::Conv &&
         !llvm::is_contained(Steps[1].Compute, l);
}

std::vector<int> GroupPlan::lateWeightSteps(const Net &n) const {
  std::vector<int> steps;
  for (int ts = 2; ts < int(Steps.size()); ++ts)
    if (llvm::any_of(Steps[ts].Compute,
                     [&](int l) { return lateWeight(n, l); }))
      steps.push_back(ts);
  return steps;
}

int GroupPlan::lateWeightStep(const Net &n) const {
  std::vector<int> steps = lateWeightSteps(n);
  return steps.empty() ? 0 : steps.front();
}

} // namespace bangc::lg
