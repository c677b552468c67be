//===- GroupPlan.h - LayerGroup: the plan of one group ----------*- C++ -*-===//
//
// What the planner decides for a group, and the facts that follow from it,
// in one place: the choices are fields and enums (slice counts, how the
// inputs and the resident weights reach NRAM and WRAM, the item order);
// everything derived from them (whether the weights are resident, whether
// the item loop is pipelined, the channels of a tensor's slice, the item
// decomposition, the HWIO packing of the weights) is a method that the
// planner, the codegen and the runner all call, so none of them restates
// another's rules.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_GROUPPLAN_H
#define BANGC_LAYERGROUP_GROUPPLAN_H

#include "layergroup/Net.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace bangc::lg {

/// Rows [Lo, Hi).
struct RowRange {
  int64_t Lo = 0, Hi = 0;
  int64_t size() const { return Hi > Lo ? Hi - Lo : 0; }
  bool operator==(const RowRange &o) const { return Lo == o.Lo && Hi == o.Hi; }
};

/// A candidate group: layers [First, Last] in topological order.
struct GroupInfo {
  int First = 0, Last = 0;
  std::vector<int> Layers;
  std::vector<int> Inputs;   ///< tensors read from GDRAM
  std::vector<int> Outputs;  ///< tensors written to GDRAM
  std::vector<int> Internal; ///< tensors produced and consumed inside only
  std::vector<int> Tensors;  ///< all tensors touched, inputs first

  /// The index of tensor \p T in Tensors (its slot in the per-tensor
  /// arrays of slicings and kernels), -1 if the group does not touch it.
  int slot(int t) const;
  /// True if layer \p l belongs to the group.
  bool contains(int l) const { return l >= First && l <= Last; }
  /// True if the group computes tensor \p t (its producer is in the group).
  bool computes(const Net &n, int t) const {
    return contains(n.Tensors[t].Producer);
  }
  /// The group's final tensor: its (first) output, else its last tensor.
  int finalTensor() const {
    return Outputs.empty() ? Tensors.back() : Outputs[0];
  }
  bool isOutput(int t) const;
  /// Layers of the group that read tensor \p t.
  int readers(const Net &n, int t) const;
  /// The max pool (from -inf) behind which convolution \p conv's bias and
  /// the ReLU after it move, or -1: a float convolution read only by a
  /// ReLU read only by that pool, all in the group, neither intermediate
  /// stored, the pool's padding below its kernel on every side (PU, PD <
  /// KY and PL, PR < KX: every window holds a real pixel; one of padding
  /// only is -inf, where the moved ReLU would give 0). The pool then runs
  /// on the convolution's output and the bias and ReLU on the pool's,
  /// which is exact: rounding is monotone, so the largest of fl(x + b) is
  /// fl(max x + b), and max(max x, 0) is the largest of max(x, 0).
  int poolFirst(const Net &n, int conv) const;
};
GroupInfo groupInfo(const Net &n, int first, int last);

/// Rows of every tensor of the group for each H slice (indexed [slice][t]
/// with t a slot of GroupInfo::Tensors).
///
/// The same structure describes W slices (sliceW): Rows then holds column
/// ranges, Step columns and RowsCap the most columns of a slice. Backward-H
/// and backward-W are separable, so a 2-D tile (hs, ws) holds rows
/// H.Rows[hs][t] x columns W.Rows[ws][t] of tensor t.
///
/// Each group output owns HSecs equal row ranges of its own height (the
/// last one shorter): slice sl computes at least, and stores exactly, rows
/// own(sl, H) of it; other rows of its slice (a halo a layer of the group
/// reads) are computed but not stored. With one output this is the seed's
/// split of the group output.
struct HSlicing {
  int HSecs = 1;
  int64_t Step = 0; ///< output rows per slice of the first group output
  std::vector<std::vector<RowRange>> Rows;
  std::vector<int64_t> RowsCap; ///< per tensor, the most rows of a slice
  /// Rows per slice of a group output of \p extent rows.
  int64_t stepOf(int64_t extent) const { return (extent + HSecs - 1) / HSecs; }
  /// The rows slice \p sl of a group output of \p extent rows owns.
  RowRange own(int sl, int64_t extent) const {
    int64_t step = stepOf(extent);
    return {std::min(extent, sl * step), std::min(extent, (sl + 1) * step)};
  }
};

/// One NRAM buffer: a rectangle [Start, End] (time steps, End may be
/// TsInf) x [Offset, Offset + Bytes).
inline constexpr int TsInf = INT_MAX;
struct LmemBuffer {
  enum Kind { Activation, Weight, Scratch } K = Activation;
  std::string Name;
  int Tensor = -1; ///< Activation: tensor index
  int Layer = -1;  ///< Weight/Scratch: layer index
  int Copy = 0;    ///< 0 or 1 for double-buffered group inputs/outputs
  int Part = 0;    ///< Weight: 0 weights (WRAM), 1 bias, 2 alpha (NRAM);
                   ///< Scratch: 0 padded window tile, 1 the partial
                   ///< sums of a first tile by kernel rows
                   ///< (GroupPlan::firstTileRows),
                   ///< 2 state (CLIF's membrane potential, doubles),
                   ///< 3 float chunk (Layer::HalfViaFloat), 4 a gathered
                   ///< view's table and window (Layer and Tensor: the
                   ///< view)
  int64_t Bytes = 0;
  int Start = 0, End = 0;
  int Order = 0; ///< op order (id in breadth-first order)
  int64_t Offset = -1;
};

/// How an integer layer's scalar loop computes (lg_ops.mlu): Exact in
/// 64-bit integers, where the generic loops' doubles hold integers (a ReLU,
/// clamp, max or min pool over an integer input into an integer output,
/// its CMP integral or infinite: lg_int_cmp_exact, lg_int_pool_exact), or
/// a scale (CVS, CAX, one-input CADD) into an integer output with its
/// rounding and saturation inline (lg_int_scale_exact); Generic otherwise
/// (and for every layer that is not Layer::Integer). Codegen emits the
/// loop it names and plan/Cost.cpp costs that one.
enum class IntLoop { Generic, Exact };
IntLoop intLoop(const Net &n, const Layer &l);

/// Layer \p l computes any range of its output rows given, over the whole
/// slices of its inputs (Codegen's region), so its outputs may keep rows
/// (GroupPlan::KeepRows): a float convolution, ReLU, clamp, scale,
/// addition, product or pool, not HalfViaFloat, not stateful.
bool keepRowsLayer(const Layer &l);

/// What happens in one time step of one slice.
struct TimeStep {
  std::vector<int> Compute;      ///< layers
  std::vector<int> LoadTensors;  ///< group inputs loaded from GDRAM
  std::vector<int> LoadWeights;  ///< layers whose weights are loaded
  std::vector<int> StoreTensors; ///< group outputs stored to GDRAM
  double ComputeCycles = 0, DmaCycles = 0;
  /// A layer of the step copies its window tile: a synchronous on-chip
  /// DMA, which waits for the loads and stores queued before it.
  bool SyncCopy = false;
  /// Of ComputeCycles: a window tile made before the step queues its DMA
  /// (the first convolution of a pipelined item of one image), so its copy
  /// waits for nothing.
  double TileFirstCycles = 0;
  /// A layer of the step computes in a scalar loop (CLIF, CLUT, clamp,
  /// integer and real-math layers, pools off the vector unit): the core
  /// itself runs it, so DMA issued after it waits for the whole loop.
  bool ScalarLoop = false;
};

/// The roofline floor of a group (plan/Floor.cpp): the fewest cycles the
/// whole device needs for its work, with the cost model's own rates and
/// every core busy. Matrix: its convolutions' multiply-accumulates at the
/// matrix unit's rate; vector: its element-wise, pooling and per-channel
/// work, each output element once at its op class's rate; GDRAM: its
/// group-boundary bytes (inputs read once, outputs written once, each
/// parameter read once) at the card's bandwidth. The floor is the largest:
/// the pipes overlap, so no schedule of the group can beat it.
struct Roofline {
  double Matrix = 0, Vector = 0, Gdram = 0; ///< cycles
  int64_t Macs = 0;                         ///< all images
  int64_t ReadBytes = 0, WriteBytes = 0;    ///< group-boundary GDRAM bytes
  /// Of ReadBytes: the feature-map elements the group's layers need (each
  /// once; a strided window skips rows and columns) and the parameters.
  int64_t InputBytes = 0, ParamBytes = 0;
  /// Feature-map bytes at the group-boundary minimum: inputs and outputs.
  int64_t featureMapBytes() const { return InputBytes + WriteBytes; }
  double cycles() const { return std::max({Matrix, Vector, Gdram}); }
  /// "matrix", "vector" or "GDRAM": the resource that sets the floor.
  const char *bound() const {
    return Matrix >= Vector && Matrix >= Gdram ? "matrix"
           : Vector >= Gdram                   ? "vector"
                                               : "GDRAM";
  }
};

/// How data reaches a core's NRAM (inputs) or WRAM (resident weights):
/// straight from GDRAM, or staged in SRAM first, once per cluster (a
/// UNION1 launch, the cores of a cluster copy a share each) or once per
/// chip (one union of all clusters whose cores each copy a share GDRAM->SRAM
/// and send it to the other clusters with SRAM2SRAM, then meet at
/// __sync_all()).
enum class Staging { Direct, SramPerCluster, SramPerChip };

/// How a group's convolution weights are held, which follows from its
/// slicing: loaded at their layer's step of every item (one item), loaded
/// once per core and held for all its items (several N/H/W slices), or a
/// tile of output channels per channel slice (a global group), reloaded
/// when a core's channel slice changes.
enum class WeightPolicy { PerItem, Resident, ChannelTiles };

/// The order of the work items (see GroupPlan).
enum class ItemOrder { ChannelsOuter, ImagesOuter };

/// One axis of the item decomposition: index = (item / Stride) % Count,
/// where the outermost axis needs no modulo (Stride * Count == items).
struct ItemAxis {
  int Stride = 1, Count = 1;
  int of(int item) const { return (item / Stride) % Count; }
};

/// The plan of one group.
///
/// Work items are numbered channel slice outermost, then image slice, then
/// H slice, then W slice: item = ((fi * NSecs + ni) * HSecs + hs) * WSecs +
/// ws; with KeepRows the W slice comes before the H slice (item = ((fi *
/// NSecs + ni) * WSecs + ws) * HSecs + hs), so that a core's consecutive
/// items go down one column of tiles; a batched group that stages its
/// inputs in SRAM may number image slices outermost (ItemOrder::ImagesOuter:
/// item = ((ni * FSecs + fi) * HSecs + hs) * WSecs + ws), so that a
/// cluster's items (or a phase's) need few images. Core c of Cores takes the
/// contiguous range [c * Items / Cores, (c + 1) * Items / Cores) (of each
/// phase's items when SramPhases > 1), so a core of a global group keeps its
/// weight tile while consecutive items share a channel slice.
///
/// Legal combinations: InputStaging is SramPerCluster only for a global
/// group (channel slices), WeightStaging is not Direct only for resident
/// weights; when both stage in SRAM, both are SramPerChip (the inputs take
/// the first SramImages images' worth of SRAM, the weights the rest).
struct GroupPlan {
  GroupInfo Info;
  int NSecs = 1, HSecs = 1, WSecs = 1, FSecs = 1;
  int64_t ImagesPerSlice = 1; ///< images per N slice
  int64_t Batch = 1;          ///< images of the whole run
  /// Output channels of the group (of its final tensor), and per channel
  /// slice (all of them unless global).
  int64_t Channels = 1, SliceChannels = 1;
  /// A global group of channel-wise layers only (a lone CAVG): each item
  /// loads its channel slice of the input, not all of its channels
  /// (sliceChannels; never staged in SRAM nor resident).
  bool SlicedInputs = false;
  HSlicing H;
  HSlicing W;       ///< columns (one slice of the whole width if WSecs 1)
  int Cores = 1;    ///< cores launched
  int Clusters = 1; ///< clusters a union launch spans (the cores fill them)
  /// The group inputs: staged in SRAM when that reads fewer GDRAM bytes
  /// than re-reading them once per channel slice (global group), or, for a
  /// resident group with all cores launched whose tiles would re-read halo
  /// rows or columns, once per chip.
  Staging InputStaging = Staging::Direct;
  /// Resident weights: staged in SRAM and copied SRAM->WRAM by each core,
  /// instead of GDRAM->WRAM by each core.
  Staging WeightStaging = Staging::Direct;
  ItemOrder Order = ItemOrder::ChannelsOuter;
  /// H slices innermost, and an item that follows the H slice above it on
  /// its core keeps the rows of the inner tensors that the item before
  /// computed (keepsRows, keptRows): they stay in NRAM, moved to the front
  /// of the slice by the item before once it is done with them, and the
  /// item computes only its new rows (no halo recompute along H). Set by
  /// chooseSlices (PlanOptions::KeepRows) for a pipelined item loop of one
  /// image per item, H slices, no channel slices, whose layers all compute
  /// any range of rows given (keepRowsLayer).
  bool KeepRows = false;
  /// stepRunsOn may leave out a step's __sync() (PlanOptions::StepsRunOn).
  bool StepsRunOn = true;
  /// A pipelined item's loads of padded inputs (PaddedInputs, no W
  /// slices: lg_load_padded) zero the tile's padding rows, the top H
  /// slice's and the bottom one's, with an NRAM fill on the Move-DMA pipe
  /// beside the compute instead of on the vector unit after it. Set by
  /// plan/Cost.cpp's estimateCycles where the fill costs less
  /// (PlanOptions::PadRowsByDma).
  bool PadRowsByDma = false;
  /// A phase staged once per chip before its items, whose inputs are
  /// resident (loaded once per core), sends the cluster's shares with one
  /// copy a cluster after a __sync_cluster() (lg_stage_sram_cluster_send_async)
  /// and loads the first weight tile (or its first row or piece) after the
  /// barrier, beside the resident inputs' copy, not before it, which would
  /// wait for it (PlanOptions::ClusterSends; clusterSends).
  bool ClusterSends = false;
  bool clusterSends() const { return ClusterSends && !chunkedStaging(); }
  int SramImages = 0; ///< inputs in SRAM: most images a cluster stages
  /// Inputs staged once per chip: the items run in SramPhases phases of
  /// SramImages images each (image slices outermost); a phase stages its
  /// images and spreads its items over all cores.
  int SramPhases = 1;
  /// Weights staged once per chip in the prologue beside phased inputs:
  /// the first ReadAhead / ReadAheadDen of each core's share of phase 0's
  /// first input is read while the core sends its weight share to the
  /// other clusters, before the barrier (the IO-DMA pipe is idle there);
  /// the rest with the phase. Set by plan/Cost.cpp's estimateCycles.
  int ReadAhead = 0;
  static constexpr int ReadAheadDen = 1024;
  /// A plain item (one per core) computes its tail (tailStart) in this
  /// many row pieces of the group output, storing each while the next
  /// computes, instead of storing the whole output after the last layer.
  /// Set by plan/Cost.cpp's estimateCycles; 1: no pieces.
  int TailPieces = 1;
  /// A pipelined core computes its last item's steps from lastPiecesStart
  /// in this many row pieces of the group output, storing each piece
  /// while the next computes, instead of storing the whole item after the
  /// loop. Set by plan/Cost.cpp's estimateCycles; 1: no pieces.
  int LastPieces = 1;
  /// Inputs staged once per chip by a pipelined group with one input (a
  /// global group, or a resident one of tiles; chunkedStaging): before
  /// the phase's barrier only chunk 0 goes to every cluster's SRAM, the
  /// element ranges StageFirst of its staged images (the rows the first
  /// stageBarrierItem() + 1 items of every core read: stagedFirst), and
  /// the rest (stagedRest) beside the items' compute: each core reads its
  /// share of each range (IO-DMA, async) in the transfer step of its item
  /// StageItem and sends it (Move-DMA, async) in step StageSendStep of
  /// that item or, StageSendStep 0, in the transfer step of the next; all
  /// meet at a second __sync_all() before item stageBarrierItem(), whose
  /// transfer step loads the first item that may read the rest. Set by
  /// plan/Cost.cpp's estimateCycles; empty: the whole phase is staged
  /// before its items.
  std::vector<RowRange> StageFirst;
  int StageItem = 0;
  int StageSendStep = 0;
  /// Chunked staging in three parts: chunk 0 (StageFirst) holds only the
  /// rows the first StageMidBarrier + 1 items of every core read, and
  /// chunk 1, StageMid (the element ranges the items after read, up to
  /// stageBarrierItem()), is read by each core in the transfer step of
  /// its first item (IO-DMA, after the first weight tile's last piece and
  /// the step's own loads), sent in the transfer step of the next item
  /// (Move-DMA), and all meet at a __sync_all() before item
  /// StageMidBarrier. The rest, if any, as above. Set by plan/Cost.cpp's
  /// estimateCycles where the first item's IO-DMA has room for it
  /// (PlanOptions::StageMid); empty: chunk 0 up to stageBarrierItem().
  std::vector<RowRange> StageMid;
  static constexpr int StageMidBarrier = 2;
  bool chunkedStaging() const { return !StageFirst.empty(); }
  /// Weights staged once per chip by a pipelined group of tiles with
  /// resident weights (lateWeightsFit, LateWeights.cpp): the weights of
  /// the layers that the first compute step does not run (lateWeight)
  /// stay out of the prologue, which stages and copies to WRAM only what
  /// ts1 of the first item needs. Phase 0 reads each core's share of them
  /// beside the last sends of its chunk 0, the core's first item sends
  /// the share to the other clusters beside its transfer step's compute,
  /// then every core meets at a __sync_all() after that step and copies
  /// those of lateWeightStep SRAM->WRAM (async) beside the steps up to it,
  /// whose __sync() waits for them; the others (of later steps) beside
  /// that step and the next ones, up to the first that reads them. Set by
  /// plan/Cost.cpp's estimateCycles when its estimate is lower
  /// (PlanOptions::LateWeights).
  bool LateWeights = false;
  bool lateWeightsFit(const Net &n) const;
  /// With LateWeights, the first item reads the late share itself: its
  /// ts1 convolution runs in two halves of its rows, the read beside the
  /// first, a __sync(), the sends beside the second (not in phase 0's
  /// staging). Only for a ts1 of one float convolution over its padded
  /// input tile (lateSplitFits). Set by plan/Cost.cpp's estimateCycles.
  bool LateSplit = false;
  bool lateSplitFits(const Net &n) const;
  /// With LateWeights, layer \p l's staged weights are late.
  bool lateWeight(const Net &n, int l) const;
  /// The steps of a pipelined item that compute layers with late weights,
  /// in order; lateWeightStep the first (0: none).
  std::vector<int> lateWeightSteps(const Net &n) const;
  int lateWeightStep(const Net &n) const;
  int stageBarrierItem() const {
    return StageItem + (StageSendStep ? 1 : 2);
  }
  /// Chunk 0 for the first \p items items of every core in every phase:
  /// the element ranges of a phase's staged group input (its SramImages
  /// images, NHWC) that hold the rows they read, widened to whole
  /// multiples of \p granule elements (cores x a GDRAM block: every
  /// core's share of a range is whole blocks, so each byte is read once),
  /// sorted and merged; empty when that is the whole phase, some core has
  /// fewer items in a phase, or the group does not stage so.
  std::vector<RowRange> stagedFirst(const Net &n, int items,
                                    int64_t granule) const;
  /// The element ranges of a phase's staged input that StageFirst and
  /// StageMid leave.
  std::vector<RowRange> stagedRest(const Net &n) const;
  /// The element ranges of \p all that \p part leaves (both sorted).
  static std::vector<RowRange> rangesLeft(const std::vector<RowRange> &all,
                                          const std::vector<RowRange> &part);
  /// Weights staged once per chip beside phased inputs, a plain item:
  /// layer \p l's SRAM->WRAM copy is issued (async) after the compute of
  /// the core's first item's first compute step, which does not need it,
  /// instead of before the items (Codegen's plainItem, plan/Cost.cpp's
  /// prologueCycles); not when that step starts the tail in pieces.
  bool wramCopyInItem(const Net &n, int l) const;
  std::vector<TimeStep> Steps;
  /// Tensors computed in place: tensor -> the tensor whose buffers it
  /// shares (an element-wise layer over an input read by it alone).
  std::map<int, int> Alias;
  /// Group inputs loaded straight into a padded window tile: tensor -> the
  /// convolution, its only reader, which reads the tile in place.
  std::map<int, int> PaddedInputs;
  /// Group inputs read by one 1x1 convolution of stride SY x SX > 1
  /// alone: tensor -> the convolution. The load copies every SY-th row and
  /// SX-th column of the item's range into a dense tile (lg_load_strided),
  /// on which the convolution runs at stride 1; the skipped pixels are
  /// neither read from GDRAM nor held.
  std::map<int, int> StridedInputs;
  /// ReLUs that write straight into the padded window tile of the
  /// convolution that alone reads their output: ReLU layer -> the
  /// convolution. The ReLU zeroes the tile's padding and writes its rows
  /// at their place in the tile (lg_relu_window), and the convolution
  /// reads the tile in place: no window copy (plan/Buffers.cpp).
  std::map<int, int> ReluTiles;
  /// The ReLU of ReluTiles that writes convolution \p conv's window tile,
  /// or -1.
  int reluTileOf(int conv) const {
    for (auto [relu, c] : ReluTiles)
      if (c == conv)
        return relu;
    return -1;
  }
  /// ReLUs of ReluTiles whose float input a convolution of the group
  /// computes with a bias, read by it alone, and whose reader has a bias:
  /// ReLU layer -> that convolution. The convolution adds no bias; the
  /// ReLU writes max(y, -b) (-b per channel, the tile's padding too), and
  /// the reader's bias carries the rest, conv(b), computed once per core
  /// (lg_floor_of_bias, lg_fold_floor): one vector pass fewer over the
  /// convolution's output (plan/Buffers.cpp chooseReluFloors).
  std::map<int, int> ReluFloors;
  /// Whether convolution \p conv's bias is a ReLU's floor (ReluFloors).
  bool biasInFloor(int conv) const {
    for (auto [relu, c] : ReluFloors)
      if (c == conv)
        return true;
    return false;
  }
  std::vector<LmemBuffer> Buffers;     ///< NRAM
  std::vector<LmemBuffer> WramBuffers; ///< WRAM: convolution weights
  int64_t PeakBytes = 0;               ///< NRAM
  int64_t WramPeakBytes = 0;
  double Cycles = 0; ///< estimated
  int64_t ReadBytes = 0, WriteBytes = 0; ///< GDRAM traffic (exact)
  int64_t WeightReadBytes = 0; ///< of ReadBytes: parameters (GDRAM2WRAM,
                               ///< GDRAM2SRAM when the weights are staged)
  int64_t WeightTileLoads = 0; ///< weight tiles loaded, over all cores
  Roofline Floor;              ///< what the device allows the group at best

  // --- Derived facts ------------------------------------------------------

  /// Spatial (N x H x W) slices: more than one holds the weights resident.
  int spatialSecs() const { return NSecs * HSecs * WSecs; }
  /// NSecs * HSecs * WSecs * FSecs work items.
  int items() const { return spatialSecs() * FSecs; }
  /// Output channels are sliced (a "global" group).
  bool global() const { return FSecs > 1; }
  /// A global group's convolution loads a weight tile per channel slice
  /// (not SlicedInputs: no convolution).
  bool weightTiles() const { return global() && !SlicedInputs; }
  WeightPolicy weightPolicy() const {
    return global()            ? WeightPolicy::ChannelTiles
           : spatialSecs() > 1 ? WeightPolicy::Resident
                               : WeightPolicy::PerItem;
  }
  /// Weights loaded once, held for all slices.
  bool weightsResident() const {
    return weightPolicy() == WeightPolicy::Resident;
  }
  /// A global group without N/H/W slices: the inputs are the same for every
  /// item and loaded once per core.
  bool inputsResident() const {
    return global() && spatialSecs() == 1 && !SlicedInputs;
  }
  /// More than one item per core: load i+1, compute i, store i-1; inputs
  /// and outputs double-buffered.
  bool pipelined() const { return items() > Cores; }
  /// The time step in which a pipelined item issues the next item's loads
  /// and the previous item's stores: ts1, or the step of the largest
  /// compute when that is a scalar loop (the core runs it, the DMA runs
  /// beside it; issued before it).
  int transferStep() const;
  /// The __sync() that closes step \p ts of a pipelined item can go: the
  /// next step touches no buffer of a DMA queued before it and not yet
  /// waited for, issues no DMA over the compute before it, and neither
  /// step runs scalar code over the compute's results (StepSync.cpp;
  /// Codegen's pipelinedItem leaves it out, plan/Cost.cpp charges the
  /// steps that run on as one).
  bool stepRunsOn(const Net &n, int ts) const;
  /// stepRunsOn but for the phase's first item, whose weight tile loads by
  /// kernel rows (firstTileRows, not rowsEveryItem) in step \p ts or the
  /// next: only that item keeps the __sync() closing \p ts (Codegen's
  /// `if (k == 0) __sync();`; plan/Cost.cpp charges the steps as one).
  bool stepRunsOnAfterRows(const Net &n, int ts) const;
  bool inputsInSram() const { return InputStaging != Staging::Direct; }
  bool weightsInSram() const { return WeightStaging != Staging::Direct; }
  bool usesSram() const { return inputsInSram() || weightsInSram(); }
  /// Staged once per chip (one union of the clusters the cores fill).
  bool sramBroadcast() const {
    return InputStaging == Staging::SramPerChip ||
           WeightStaging == Staging::SramPerChip;
  }
  /// Weights staged once per chip as one SRAM range (each core reads its
  /// share, a part of each weight array it overlaps, and sends it in one
  /// copy per other cluster): the convolutions' weights share a type and
  /// each fills whole floats of lg_sram, so they lie back to back.
  bool weightsStagedAsOne(const Net &n) const;
  /// Inputs staged once per chip: the item loop runs per phase.
  bool phased() const { return InputStaging == Staging::SramPerChip; }
  /// Weights staged in SRAM once per chip beside inputs staged per phase:
  /// their SRAM->WRAM copies run during phase 0's first input read
  /// (Codegen's laterWramCopies; plan/Cost.cpp charges them there). Only
  /// such a plan has a ReadAhead.
  bool deferWramCopies() const {
    return weightsInSram() && sramBroadcast() && phased() &&
           !(pipelined() && weightTiles());
  }
  /// A phase's first weight tile loads a kernel row at a time, and the
  /// first item's convolution starts on row 0 while the next row loads
  /// (Codegen's pipelinedItem, plan/Cost.cpp's tileLoadCycles): a
  /// pipelined global group staged once per chip whose first layer is a
  /// FLOAT32 convolution of several kernel rows over its padded input tile,
  /// one image per item (firstConvRows); each row's partial sums go to the
  /// output's other buffer when it is double-buffered, else to a scratch
  /// of the output slice (LmemBuffer Scratch Part 1, plan/Buffers.cpp).
  /// The kernel rows, or 0.
  int firstTileRows(const Net &n) const;
  /// With firstTileRows, the phase's first weight tile in pieces of kernel
  /// positions (position ky * KX + kx) instead: the ends of the pieces,
  /// each a run of positions of one kernel row or whole kernel rows, the
  /// last KY * KX. Only the first piece loads before the phase's barrier;
  /// the first item convolves each piece (lg_conv_tile_pos) while the next
  /// one loads. Set by plan/Cost.cpp's estimateCycles where its estimate
  /// is lower than by kernel rows (PlanOptions::FirstPositions); empty: by
  /// kernel rows.
  std::vector<int> FirstPieces;
  /// With FirstPieces, in a phase staged once per chip (not ClusterSends):
  /// the per-channel vectors load before the barrier, after the phase's
  /// share of the inputs, and the first item queues the tile's second
  /// piece right after the barrier, before its input's copy, which it
  /// makes synchronous instead of a __sync() (PlanOptions::EarlyPiece).
  bool EarlyPiece = false;
  /// With firstTileRows (3 kernel rows, by rows, one phase), the core's
  /// first item also convolves kernel row 0 of the next item, of the same
  /// channel slice, whose input it loads at once: the tile's other kernel
  /// positions load in three pieces, each beside a row's convolution
  /// (the first item's row 0, the next item's, the first item's row 1),
  /// the partial sums in the scratch of LmemBuffer Scratch Part 1; the
  /// next item convolves rows 1 and 2 only, and the next tile's piece of
  /// its step goes to the item after. Set by plan/Cost.cpp's
  /// tileLoadCycles where its estimate is lower (PlanOptions::NextItemRow0).
  bool NextItemRow0 = false;
  /// firstTileRows but for the staging and the partial sums' buffer, which
  /// plan/Buffers.cpp places before the staging is chosen.
  int firstConvRows(const Net &n) const;
  /// firstConvRows, and every item of a core is a channel slice of its own
  /// (one N, H and W slice; Buffers.cpp then gives the row sums a scratch,
  /// since the output's other buffer holds the previous item's output
  /// until it is stored).
  bool rowsEveryItemShape(const Net &n) const;
  /// Every item of a phase loads its weight tile a kernel row at a time,
  /// not only the first (Codegen's tilePiece and computeConvByRows,
  /// plan/Cost.cpp's tileLoadCycles): an item loads kernel row 0 of the
  /// next item's tile in its last row's convolution, and the next item
  /// loads each further row of its own while the matrix unit convolves
  /// the row before it. Where a core's every item needs a new tile, a whole
  /// next tile beside the first item's further rows keeps the IO-DMA pipe
  /// busier than that item's convolution (conv5 of VGG-16: 147 KB tiles);
  /// by rows, every item carries a tile's worth. firstTileRows, one phase,
  /// rowsEveryItemShape and the scratch.
  bool rowsEveryItem(const Net &n) const;
  /// The first step of a plain item's tail that can run in row pieces of
  /// the group's one output (TailPieces), or 0: the steps from it up to the
  /// last, which stores the output and computes nothing, compute (their
  /// loads go with the step before: Codegen's plainItem) and load no
  /// weights; their layers are float convolutions over tensors computed
  /// before the tail (in NRAM, not a padded or strided input tile), each
  /// output row from any rows of them, and ReLUs and additions, each row
  /// from the same rows; at least one convolution, and the output computed
  /// there.
  int tailStart(const Net &n) const;
  /// The first step from which a pipelined core's last item may compute
  /// in row pieces of the group's one output (LastPieces), or 0: the steps
  /// from it up to the last, which stores the output and computes nothing,
  /// load and store nothing and run no scalar loop; their layers are a
  /// chain (each reads the one before; the first any tensor computed
  /// before) of float convolutions over tensors computed before (not a
  /// strided input; a weight tile loaded by rows in every item only for
  /// items of one image: its last kernel row runs in the pieces), max
  /// pools, ReLUs (not into a window tile) and additions of tensors
  /// computed before, none keeping rows; no synchronous copy after the
  /// first convolution (the store of the piece before is in flight).
  int lastPiecesStart(const Net &n) const;
  bool imagesOuter() const { return Order == ItemOrder::ImagesOuter; }
  /// Clusters per union of the launch: 0 a BLOCK launch, 1 UNION1 (each
  /// cluster stages for itself), else Clusters (staged once per chip).
  int launchUnion() const {
    return sramBroadcast() ? Clusters : usesSram() ? 1 : 0;
  }

  /// Channels of tensor \p t's slice in an item: a global group's computed
  /// tensors (and its inputs, SlicedInputs) hold one channel slice.
  int64_t sliceChannels(const Net &n, int t) const {
    return global() && (SlicedInputs || Info.computes(n, t)) ? SliceChannels
                                                             : n.Tensors[t].C;
  }
  /// Bytes of tensor \p t's buffer for one item: images x channels x rows
  /// x columns of its largest slice.
  int64_t sliceBytes(const Net &n, int t) const {
    int s = Info.slot(t);
    return ImagesPerSlice * sliceChannels(n, t) * H.RowsCap[s] * W.RowsCap[s] *
           n.Tensors[t].elemBytes();
  }
  /// Elements of one image of tensor \p t's slice buffer.
  int64_t sliceImageFloats(const Net &n, int t) const {
    int s = Info.slot(t);
    return sliceChannels(n, t) * H.RowsCap[s] * W.RowsCap[s];
  }
  /// Pixels per chunk of a HalfViaFloat layer (Layer::HalfViaFloat) with
  /// \p channels channels a pixel: its float scratch (LmemBuffer Part 3)
  /// holds that many pixels, then the alpha and bias vectors, in float.
  static int64_t halfViaFloatPixels(int64_t channels) {
    return channels >= 2048 ? 1 : 2048 / channels;
  }
  /// Floats of a HalfViaFloat CAVG's scratch (lg_sum_pool_half): two of
  /// its window tile (\p tileElems elements), five of its output slice
  /// (\p outElems) and three of its \p channels (the bias' parts).
  static int64_t halfSumPoolFloats(int64_t tileElems, int64_t outElems,
                                   int64_t channels) {
    return 2 * tileElems + 5 * outElems + 3 * channels;
  }
  /// A gathered view \p t's NRAM scratch (LmemBuffer Scratch Part 4,
  /// lg_gather_view): the index table of a slice of \p rowsCap x
  /// \p colsCap (int32, at least each row's two bounds; 64 B aligned; two
  /// with several sources), then (gatherScratchBytes) a zero and the
  /// widest sum of the spans of source elements the rows of an item read.
  static int64_t gatherTableBytes(const Net &n, int t, int64_t rowsCap,
                                  int64_t colsCap);
  int64_t gatherScratchBytes(const Net &n, int t) const;

  /// The item decomposition (see above).
  ItemAxis channelAxis() const {
    return imagesOuter() ? ItemAxis{HSecs * WSecs, FSecs}
                         : ItemAxis{spatialSecs(), FSecs};
  }
  ItemAxis imageAxis() const {
    return imagesOuter() ? ItemAxis{FSecs * HSecs * WSecs, NSecs}
                         : ItemAxis{HSecs * WSecs, NSecs};
  }
  ItemAxis rowAxis() const {
    return KeepRows ? ItemAxis{1, HSecs} : ItemAxis{WSecs, HSecs};
  }
  ItemAxis columnAxis() const {
    return KeepRows ? ItemAxis{HSecs, WSecs} : ItemAxis{1, WSecs};
  }
  int itemF(int item) const { return channelAxis().of(item); }
  int itemN(int item) const { return imageAxis().of(item); }
  int itemH(int item) const { return rowAxis().of(item); }
  int itemW(int item) const { return columnAxis().of(item); }
  /// Items [Begin, End) of core \p core in phase \p ph (items
  /// [ph * Items / SramPhases, (ph + 1) * Items / SramPhases)).
  int itemBegin(int core, int ph = 0) const {
    int perPhase = items() / SramPhases;
    return ph * perPhase + int(int64_t(core) * perPhase / Cores);
  }
  int itemEnd(int core, int ph = 0) const { return itemBegin(core + 1, ph); }
  /// Calls \p load(whether the item starts its phase, channel slice) for
  /// each weight tile core \p core loads: at each change of channel slice
  /// along its items (a core keeps its tile from one phase to the next).
  template <typename Fn> void forEachTileLoad(int core, Fn &&load) const {
    int prev = -1;
    for (int ph = 0; ph < SramPhases; ++ph)
      for (int it = itemBegin(core, ph); it < itemEnd(core, ph); ++it) {
        int fi = itemF(it);
        if (fi == prev)
          continue;
        prev = fi;
        load(it == itemBegin(core, ph), fi);
      }
  }
  /// Images [first, last] that cluster \p k's items need.
  std::pair<int, int> clusterImages(int k, int coresPerCluster) const {
    int b = itemBegin(k * coresPerCluster);
    int e = itemBegin((k + 1) * coresPerCluster);
    return {itemN(b) * int(ImagesPerSlice),
            itemN(e - 1) * int(ImagesPerSlice) + int(ImagesPerSlice) - 1};
  }

  /// Kept rows (KeepRows, layergroup/KeptRows.cpp): tensor \p t is one
  /// whose rows an item takes from the item before: a tensor the group
  /// computes and does not store, some H slice of it overlapping the one
  /// above.
  bool keepsRows(const Net &n, int t) const;
  /// The slicing allows KeepRows (see there): a pipelined item loop of one
  /// image per item over H slices, no channel slices, every layer a
  /// keepRowsLayer, and a tensor the group computes whose H slices overlap.
  bool canKeepRows(const Net &n) const;
  /// Rows of tensor \p t's H slice \p hs that the item of slice hs - 1
  /// computed (empty if \p t keeps none, or hs is 0).
  RowRange keptRows(const Net &n, int t, int hs) const;
  /// The fewest rows an item that keeps takes of \p t (over H slices 1..).
  int64_t fewestKeptRows(const Net &n, int t) const;
  /// Item \p item follows, on its core and in its phase, the item of the H
  /// slice above it (of the same column, image and channel slice): it
  /// keeps rows.
  bool itemKeepsRows(int item) const;
  /// The step (of Steps) at whose start an item moves the rows of kept
  /// tensor \p t that the next item keeps to the front of the slice
  /// (async, on the Move-DMA pipe; the step's __sync() waits for it): of
  /// the steps after the last one that reads t's buffer (t and the layers
  /// computing in place over it) and after the transfer step (which knows
  /// the next item's rows), the one of the most compute. 0 if none: the
  /// next item moves them itself before its first step, synchronously.
  int keptMoveStep(const Net &n, int t) const;
  /// Kept tensors whose rows stay in the window tile their ReLU writes
  /// (ReluTiles) instead: kept tensor -> the convolution whose tile holds
  /// them. The item before moves the tile's rows that the next item keeps
  /// to its front (padding columns and ReLU done), and the ReLU writes
  /// only the rows after them (chooseKeptTiles; PlanOptions::KeptTiles).
  std::map<int, int> KeptTiles;
  /// The convolution of KeptTiles whose window tile holds \p t's kept
  /// rows, or -1.
  int keptTileOf(int t) const {
    auto it = KeptTiles.find(t);
    return it == KeptTiles.end() ? -1 : it->second;
  }
  /// Sets KeptTiles (none unless \p allowed): each kept tensor read by a
  /// ReLU of ReluTiles alone, whose tile starts at the tensor's first row
  /// on every H slice after the first (no padding row above) and is no
  /// taller than the one above (its padding columns then stay filled).
  void chooseKeptTiles(const Net &n, bool allowed);

  /// The group holds a stateful layer (CLIF): its images are time steps.
  bool stateful(const Net &n) const;
  /// A stateful group's state stays in NRAM from one time step to the next:
  /// every item holds all time steps (one N slice), or each core's item
  /// range is whole chains of the N slices of one channel slice, time in
  /// order (channel slices outermost, one phase, no H or W slices).
  bool keepsStateChains(const Net &n) const;

  /// Output channels per weight tile of layer \p l: its slice's channels.
  int64_t weightTileChannels(const Net &n, int l) const {
    return sliceChannels(n, n.Layers[l].Output);
  }
  /// Floats of one output channel of convolution \p l's weights
  /// (KY * KX * C).
  static int64_t weightsPerChannel(const Net &n, int l);
  /// Elements [begin, end) of convolution \p l's weights as the kernels
  /// read them from GDRAM, into \p out: [KY][KX][C][F] per tile of
  /// weightTileChannels output channels, each tile one contiguous block at
  /// f0 * KY * KX * C, so that a kernel loads a channel slice with one
  /// copy. Any range, so that the runner packs them a chunk at a time as it
  /// copies them to GDRAM, never the whole array.
  void packWeights(const Net &n, int l, int64_t begin, int64_t end,
                   float *out) const;
};

} // namespace bangc::lg

#endif // BANGC_LAYERGROUP_GROUPPLAN_H
