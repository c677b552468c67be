//===- Staging.cpp - LayerGroup planner: GDRAM traffic and SRAM staging ---===//
//
// The exact GDRAM bytes a group's kernel moves, and the choice of staging
// its inputs or its resident weights in SRAM (once per cluster or once per
// chip) when that reads fewer GDRAM bytes.
//
//===----------------------------------------------------------------------===//
#include "layergroup/plan/GroupPass.h"

#include <llvm/Support/MathExtras.h>

namespace bangc::lg::plan {

namespace {

/// The sum over the slices of \p s of tensor \p t's rows (columns).
int64_t sumOf(const GroupInfo &g, const HSlicing &s, int t) {
  int64_t sum = 0;
  for (const auto &slice : s.Rows)
    sum += slice[g.slot(t)].size();
  return sum;
}

/// The sum over the slices of \p s of the rows (columns) a group output of
/// \p extent rows owns: what its stores write, its whole extent once.
int64_t sumOwn(const HSlicing &s, int64_t extent) {
  int64_t sum = 0;
  for (int sl = 0; sl < s.HSecs; ++sl)
    sum += s.own(sl, extent).size();
  return sum;
}

/// Feature-map traffic over all items, exact: what the emitted kernel
/// copies. Inputs: each item reads its rows, all channels; resident inputs
/// (a global group without N or H slices) once per core. A tile holds rows
/// x columns, so over all tiles the pixels are the sum of the rows of the H
/// slices times the sum of the W slices' columns. Outputs: each item stores
/// the rows and columns it owns, so each output is written once.
void countFeatureMaps(const GroupPass &pass, Traffic &traffic) {
  const GroupPlan &p = pass.plan;
  const GroupInfo &g = pass.group;
  int64_t inputReads = p.inputsResident() ? p.Cores
                       : p.SlicedInputs   ? 1 // a channel slice each
                                          : p.FSecs;
  for (int t : g.Inputs) {
    const Tensor &in = pass.net.Tensors[t];
    int64_t elems = in.C * sumOf(g, p.H, t) * sumOf(g, p.W, t);
    if (auto s = p.StridedInputs.find(t); s != p.StridedInputs.end()) {
      // A pixel per output pixel of its reader (lg_load_strided).
      int out = pass.net.Layers[s->second].Output;
      elems = in.C * sumOf(g, p.H, out) * sumOf(g, p.W, out);
    }
    if (in.isView()) { // its zero boxes are not read
      int s = g.slot(t);
      elems = 0;
      for (const auto &rows : p.H.Rows)
        for (const auto &cols : p.W.Rows)
          elems += in.loadedElements(rows[s].Lo, rows[s].Hi, cols[s].Lo,
                                     cols[s].Hi);
    }
    traffic.read += elems * in.elemBytes() * inputReads;
  }
  for (int t : g.Outputs)
    traffic.write +=
        pass.net.Tensors[t].C * sumOwn(p.H, pass.net.Tensors[t].H) *
        sumOwn(p.W, pass.net.Tensors[t].W) * pass.net.Tensors[t].elemBytes();
  traffic.read *= p.Batch;
  traffic.write *= p.Batch;
  for (int l : g.Layers) {
    const Layer &layer = pass.net.Layers[l];
    traffic.vectorBytes += vecElems(layer) * pass.net.vectorElemBytes(layer);
    traffic.weightBytes +=
        weightElems(pass.net, layer, pass.net.Tensors[layer.Output].C) *
        pass.net.weightElemBytes(layer);
  }
}

/// Bytes of the weight tiles all cores load (a core keeps its tile while
/// its channel slice does not change); \p loads gets their number.
int64_t tileBytes(const GroupPass &pass, const Traffic &traffic,
                  int64_t &loads) {
  const GroupPlan &p = pass.plan;
  int64_t perChannel = traffic.weightBytes / p.Channels, bytes = 0;
  loads = 0;
  for (int c = 0; c < p.Cores; ++c)
    p.forEachTileLoad(c, [&](bool, int fi) {
      ++loads;
      bytes += perChannel *
               std::min(p.SliceChannels, p.Channels - fi * p.SliceChannels);
    });
  return bytes;
}

/// The launched cores fill whole clusters (all of the chip's, or fewer)
/// that can form one union (GroupPlan::Clusters of them).
bool canBroadcast(const GroupPass &pass) {
  const PlanOptions &o = pass.options;
  int perCluster = pass.spec.coresPerCluster;
  int clusters = pass.plan.Cores / perCluster;
  return o.UseSram && o.SramBroadcast && pass.plan.Cores % perCluster == 0 &&
         clusters > 1 && clusters <= 8 &&
         llvm::isPowerOf2_32(unsigned(clusters)) &&
         clusters == pass.plan.Clusters;
}

// SRAM staging of a global group's inputs, when the images fit and inputs
// plus weight tiles read fewer GDRAM bytes than re-reading the inputs once
// per channel slice. Per cluster (UNION1): each cluster stages the images
// its items need; channel slices outermost, a cluster needs every image but
// a core keeps its tile; image slices outermost (batched), a cluster needs
// about Batch / clusters images but a core reloads its tiles per image.
// Broadcast (the launched cores fill clusters that form one union): every
// image is read from GDRAM once, in phases of the images that fit; a core
// keeps its tile across phases when its share of each phase's items has one
// channel slice.
void stageGlobalInputs(GroupPass &pass, Traffic &traffic) {
  GroupPlan &p = pass.plan;
  int coresPerCluster = pass.spec.coresPerCluster;
  int64_t loads = 0, imageBytes = pass.inputBytes / p.Batch;
  int64_t best = traffic.read + tileBytes(pass, traffic, loads); // direct
  struct Mode {
    bool imagesOuter, broadcast;
    int images, phases;
  } bestMode{false, false, 0, 1};
  auto order = [](bool imagesOuter) {
    return imagesOuter ? ItemOrder::ImagesOuter : ItemOrder::ChannelsOuter;
  };
  auto consider = [&](Mode mode, int64_t reads) {
    p.Order = order(mode.imagesOuter);
    p.SramPhases = mode.phases;
    int64_t total = reads + tileBytes(pass, traffic, loads);
    if (mode.images * imageBytes > pass.spec.sramBytes || total >= best)
      return;
    best = total, bestMode = mode, traffic.read = reads;
  };
  for (bool imagesOuter : {false, true}) {
    if (imagesOuter && p.NSecs == 1)
      continue;
    p.Order = order(imagesOuter);
    p.SramPhases = 1;
    int64_t reads = 0;
    int maxImages = 0;
    for (int k = 0; k < p.Cores / coresPerCluster; ++k) {
      auto [n0, n1] = p.clusterImages(k, coresPerCluster);
      maxImages = std::max(maxImages, n1 - n0 + 1);
      reads += (n1 - n0 + 1) * imageBytes;
    }
    consider({imagesOuter, false, maxImages, 1}, reads);
  }
  if (canBroadcast(pass)) {
    consider({false, true, int(p.Batch), 1}, pass.inputBytes);
    for (int images = 1; images < p.NSecs; ++images)
      if (p.NSecs % images == 0)
        consider({true, true, images, p.NSecs / images}, pass.inputBytes);
  }
  p.Order = order(bestMode.imagesOuter);
  p.SramPhases = bestMode.phases;
  p.InputStaging = bestMode.images == 0 ? Staging::Direct
                   : bestMode.broadcast ? Staging::SramPerChip
                                        : Staging::SramPerCluster;
  p.SramImages = bestMode.images;
}

/// Parameters: per-channel vectors once per core that has items; weights once per core
/// when resident (or once per cluster or chip staged in SRAM), else once
/// per change of channel slice along each core's item range (one tile for
/// an unsliced group of one item).
void countParameters(GroupPass &pass, Traffic &traffic) {
  GroupPlan &p = pass.plan;
  int coresPerCluster = pass.spec.coresPerCluster;
  traffic.params = 0; // the vectors are added once the phases are known
  if (p.global()) {
    traffic.params += tileBytes(pass, traffic, traffic.tileLoads);
    return;
  }
  if (traffic.weightBytes == 0)
    return;
  traffic.tileLoads = p.Cores;
  bool inSram = pass.options.UseSram && p.weightsResident() &&
                p.Cores % coresPerCluster == 0 &&
                traffic.weightBytes <= pass.spec.sramBytes;
  p.WeightStaging = !inSram              ? Staging::Direct
                    : canBroadcast(pass) ? Staging::SramPerChip
                                         : Staging::SramPerCluster;
  traffic.params +=
      traffic.weightBytes * (p.sramBroadcast()   ? 1
                             : p.weightsInSram() ? p.Cores / coresPerCluster
                                                 : p.Cores);
}

// A resident group's tiles re-read the halo rows and columns of their
// inputs: staged in SRAM once per chip too (next to its weights), in phases
// of the image slices that fit, each image is read from GDRAM once and the
// halos come from SRAM.
void stageResidentInputs(GroupPass &pass, Traffic &traffic) {
  GroupPlan &p = pass.plan;
  if (p.global() || !p.weightsResident() || !canBroadcast(pass) ||
      !pass.options.StageResidentInputs ||
      !(p.sramBroadcast() || traffic.weightBytes == 0) ||
      traffic.read <= pass.inputBytes || p.NSecs * p.ImagesPerSlice != p.Batch)
    return;
  int64_t room =
      pass.spec.sramBytes - (p.weightsInSram() ? traffic.weightBytes : 0);
  int64_t sliceBytes = p.ImagesPerSlice * (pass.inputBytes / p.Batch);
  for (int slices = p.NSecs; slices >= 1 && !p.inputsInSram(); --slices) {
    if (p.NSecs % slices != 0 || slices * sliceBytes > room)
      continue;
    p.InputStaging = Staging::SramPerChip;
    p.Order = ItemOrder::ImagesOuter;
    p.SramImages = int(slices * p.ImagesPerSlice);
    p.SramPhases = p.NSecs / slices;
    traffic.read = pass.inputBytes;
  }
}

} // namespace

Traffic chooseStaging(GroupPass &pass) {
  GroupPlan &p = pass.plan;
  // A union spans the clusters the launched cores fill (a broadcast sends
  // to each of them).
  if (p.Cores % pass.spec.coresPerCluster == 0)
    p.Clusters = std::min(pass.spec.clusters,
                          p.Cores / pass.spec.coresPerCluster);
  Traffic traffic;
  countFeatureMaps(pass, traffic);
  // A view's boxes are loaded from its sources: never staged.
  bool views = false;
  for (int t : pass.group.Inputs)
    views |= pass.net.Tensors[t].isView();
  // Nor is a group's with strided loads (its plan without them, which
  // planGroupWith compares, may stage them).
  bool direct = views || !p.StridedInputs.empty();
  if (pass.options.UseSram && p.global() && !direct && !p.SlicedInputs &&
      p.Cores % pass.spec.coresPerCluster == 0)
    stageGlobalInputs(pass, traffic);
  countParameters(pass, traffic);
  if (!direct)
    stageResidentInputs(pass, traffic);
  // The per-channel vectors: once per core that has items (Codegen's
  // vectorLoads), min(items of a phase, cores).
  traffic.params +=
      traffic.vectorBytes * std::min<int64_t>(p.Cores, p.items() / p.SramPhases);
  // A core whose items all share one channel slice loads one tile and
  // never prefetches another: no second weight buffer.
  std::vector<LmemBuffer> &wram = p.WramBuffers;
  if (p.global() && traffic.tileLoads == p.Cores)
    wram.erase(std::remove_if(wram.begin(), wram.end(),
                              [](const LmemBuffer &b) { return b.Copy == 1; }),
               wram.end());
  p.WeightTileLoads = traffic.tileLoads;
  p.WeightReadBytes = traffic.params;
  p.ReadBytes = traffic.read + traffic.params, p.WriteBytes = traffic.write;
  return traffic;
}

} // namespace bangc::lg::plan
