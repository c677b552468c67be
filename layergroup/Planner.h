//===- Planner.h - LayerGroup: groups, slices, time steps, NRAM -*- C++ -*-===//
//
// The planning half of LayerGroup (design seed 004, docs/layergroup.md):
//  - backward-H: the input rows a window op needs for a range of output rows;
//  - slicing of a group: N first down to one image, then H, with the h/2
//    duplication rule; single layers that do not fit may also split their
//    output channels (a "global" layer);
//  - the time-step table of one slice;
//  - NRAM allocation as rectangles in time x address;
//  - an analytic cost from the DeviceSpec, the same formulas as simrt's
//    cost model, and the dynamic program over layer ranges.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_PLANNER_H
#define BANGC_LAYERGROUP_PLANNER_H

#include "layergroup/Net.h"

#include "bangsim/DeviceSpec.h"

#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bangc::lg {

/// Rows [Lo, Hi).
struct RowRange {
  int64_t Lo = 0, Hi = 0;
  int64_t size() const { return Hi > Lo ? Hi - Lo : 0; }
  bool operator==(const RowRange &O) const { return Lo == O.Lo && Hi == O.Hi; }
};

/// Backward-H of a window op (conv, pool): for output rows \p Out, the input
/// rows needed, in_idx = out_idx * stride - pad and
/// in_slice = (out_slice - 1) * stride + dilated kernel, clamped to [0, InH).
/// Element-wise ops pass the range through (kernel 1, stride 1, pad 0).
RowRange backwardH(RowRange Out, int64_t Stride, int64_t Pad,
                   int64_t DilatedKernel, int64_t InH);
RowRange backwardH(const Layer &L, RowRange Out, int64_t InH);
/// Backward-W: the same along columns (stride SX, left pad PL, dilated
/// kernel width), clamped to [0, InW).
RowRange backwardW(const Layer &L, RowRange Out, int64_t InW);

/// The seed's h/2 rule: slices of a tensor of height H whose rows add up to
/// more than H + H/2 (duplicated rows > h/2) fail.
bool duplicationOk(int64_t H, const std::vector<RowRange> &Slices);

/// A candidate group: layers [First, Last] in topological order.
struct GroupInfo {
  int First = 0, Last = 0;
  std::vector<int> Layers;
  std::vector<int> Inputs;   ///< tensors read from GDRAM
  std::vector<int> Outputs;  ///< tensors written to GDRAM
  std::vector<int> Internal; ///< tensors produced and consumed inside only
  std::vector<int> Tensors;  ///< all tensors touched, inputs first
};
GroupInfo groupInfo(const Net &N, int First, int Last);

/// Rows of every tensor of the group for each H slice (indexed [slice][t]
/// with t an index into Info.Tensors). Fails (nullopt, with \p Why) when the
/// group cannot be H sliced that way: several outputs, slices that leave a
/// slice empty, or the h/2 rule on a tensor computed in the group (group
/// inputs are re-read, not recomputed).
///
/// The same structure describes W slices (sliceW): Rows then holds column
/// ranges, Step columns and RowsCap the most columns of a slice. Backward-H
/// and backward-W are separable, so a 2-D tile (hs, ws) holds rows
/// H.Rows[hs][t] x columns W.Rows[ws][t] of tensor t.
struct HSlicing {
  int HSecs = 1;
  int64_t Step = 0; ///< output rows per slice of the final tensor
  std::vector<std::vector<RowRange>> Rows;
  std::vector<int64_t> RowsCap; ///< per tensor, the most rows of a slice
};
std::optional<HSlicing> sliceH(const Net &N, const GroupInfo &G, int HSecs,
                               std::string *Why = nullptr);
/// W slices (columns): backward-W and the w/2 rule, the same rule as H
/// along the other axis.
std::optional<HSlicing> sliceW(const Net &N, const GroupInfo &G, int WSecs,
                               std::string *Why = nullptr);

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
                   ///< Scratch: 0 padded window tile, 1 vector tile
  int64_t Bytes = 0;
  int Start = 0, End = 0;
  int Order = 0; ///< op order (id in breadth-first order)
  int64_t Offset = -1;
};

/// Places the buffers (the seed's order: weights first when \p WeightsFirst,
/// then op order, longer lifetime first, then larger size; each at the lowest
/// 64-byte aligned address where it overlaps no placed buffer in both time
/// and address; not crossing a bank boundary when \p Banks > 0). Returns
/// false if some buffer does not fit under \p Capacity. \p Peak gets the
/// highest end address.
bool allocateLmem(std::vector<LmemBuffer> &Bufs, int64_t Capacity, int Banks,
                  bool WeightsFirst, int64_t *Peak);
/// True if no two placed buffers overlap in both time and address.
bool lmemDisjoint(const std::vector<LmemBuffer> &Bufs);

/// What happens in one time step of one slice.
struct TimeStep {
  std::vector<int> Compute;        ///< layers
  std::vector<int> LoadTensors;    ///< group inputs loaded from GDRAM
  std::vector<int> LoadWeights;    ///< layers whose weights are loaded
  std::vector<int> StoreTensors;   ///< group outputs stored to GDRAM
  double ComputeCycles = 0, DmaCycles = 0;
  /// A layer of the step copies its window tile: a synchronous on-chip
  /// DMA, which waits for the loads and stores queued before it.
  bool SyncCopy = false;
  /// Of ComputeCycles: a window tile made before the step queues its DMA
  /// (the first convolution of a pipelined item of one image), so its copy
  /// waits for nothing.
  double TileFirstCycles = 0;
};

/// The plan of one group.
///
/// Work items are numbered channel slice outermost, then image slice, then
/// H slice, then W slice: item = ((fi * NSecs + ni) * HSecs + hs) * WSecs +
/// ws; a batched group that stages its inputs in SRAM numbers image slices
/// outermost (NOuter: item = ((ni * FSecs + fi) * HSecs + hs) * WSecs + ws),
/// so that a cluster's items (or a phase's) need few images. Core c of
/// Cores takes the contiguous range [c * Items / Cores, (c + 1) * Items /
/// Cores) (of each phase's items when SramPhases > 1), so a core of a
/// global group keeps its weight tile while consecutive items share a
/// channel slice.
struct GroupPlan {
  GroupInfo Info;
  int NSecs = 1, HSecs = 1, WSecs = 1, FSecs = 1;
  int64_t NB = 1;     ///< images per N slice
  int64_t Batch = 1;  ///< images of the whole run
  HSlicing H;
  HSlicing W;         ///< columns (one slice of the whole width if WSecs 1)
  int Items = 1;      ///< NSecs * HSecs * WSecs * FSecs work items
  int Cores = 1;      ///< cores launched
  bool Resident = false;  ///< weights loaded once, held for all slices
  bool InputsResident = false; ///< global group without N/H slices: the
                               ///< inputs are loaded once per core
  /// Global group: each cluster stages the images of the inputs its items
  /// need in SRAM (a UNION1 launch, the cores of a cluster copy a share
  /// each; or once per chip, SramBroadcast), and the items copy their slices
  /// SRAM->NRAM instead of re-reading GDRAM once per channel slice. Chosen,
  /// with the item order, when it reads fewer GDRAM bytes. A resident group
  /// with all cores launched stages its inputs once per chip (SramBroadcast)
  /// when its tiles would re-read halo rows or columns from GDRAM.
  bool InputsInSram = false;
  bool NOuter = false; ///< image slices outermost (see above)
  int SramImages = 0;  ///< InputsInSram: most images a cluster stages
  /// Resident group: the weights are staged in SRAM once per cluster (a
  /// UNION1 launch; once per chip with SramBroadcast) and copied SRAM->WRAM
  /// by each core, instead of GDRAM->WRAM by each core. Together with
  /// InputsInSram only when both are staged once per chip (a resident group
  /// whose tiles re-read halos): the inputs then take the first SramImages
  /// images' worth of SRAM, the weights the rest.
  bool WeightsInSram = false;
  /// InputsInSram or WeightsInSram, staged once per chip instead of once
  /// per cluster: one union of all clusters (UNION<clusters>) whose cores
  /// each copy a share GDRAM->SRAM and send it to the other clusters
  /// (SRAM2SRAM), then meet at __sync_all().
  bool SramBroadcast = false;
  /// InputsInSram with SramBroadcast: the items run in SramPhases phases of
  /// SramImages images each (image slices outermost); a phase stages its
  /// images and spreads its items over all cores.
  int SramPhases = 1;
  bool usesSram() const { return InputsInSram || WeightsInSram; }
  /// Clusters per union of the launch: 0 a BLOCK launch, 1 UNION1 (each
  /// cluster stages for itself), else all clusters (SramBroadcast).
  int Union = 0;
  bool Pipelined = false; ///< more than one item per core: load i+1,
                          ///< compute i, store i-1; inputs/outputs x2
  std::vector<TimeStep> Steps;
  /// Tensors computed in place: tensor -> the tensor whose buffers it
  /// shares (an element-wise layer over an input read by it alone).
  std::map<int, int> Alias;
  /// Group inputs loaded straight into a padded window tile: tensor -> the
  /// convolution, its only reader, which reads the tile in place.
  std::map<int, int> PaddedInputs;
  std::vector<LmemBuffer> Buffers;     ///< NRAM
  std::vector<LmemBuffer> WramBuffers; ///< WRAM: convolution weights
  int64_t PeakBytes = 0;               ///< NRAM
  int64_t WramPeakBytes = 0;
  int TilePx = 1; ///< pixels per call of the per-channel vector ops
  double Cycles = 0;              ///< estimated
  int64_t ReadBytes = 0, WriteBytes = 0; ///< GDRAM traffic (exact)
  int64_t WeightReadBytes = 0; ///< of ReadBytes: parameters (GDRAM2WRAM,
                               ///< GDRAM2SRAM when WeightsInSram)
  int64_t WeightTileLoads = 0; ///< weight tiles loaded, over all cores
  bool global() const { return FSecs > 1; }
  /// Images [first, last] that cluster \p K's items need.
  std::pair<int, int> clusterImages(int K, int CoresPerCluster) const {
    int B = itemBegin(K * CoresPerCluster);
    int E = itemBegin((K + 1) * CoresPerCluster);
    return {itemN(B) * int(NB), itemN(E - 1) * int(NB) + int(NB) - 1};
  }
  /// Items [Begin, End) of core \p Core in phase \p Ph (items
  /// [Ph * Items / SramPhases, (Ph + 1) * Items / SramPhases)).
  int itemBegin(int Core, int Ph = 0) const {
    int PI = Items / SramPhases;
    return Ph * PI + int(int64_t(Core) * PI / Cores);
  }
  int itemEnd(int Core, int Ph = 0) const { return itemBegin(Core + 1, Ph); }
  int itemF(int Item) const {
    return NOuter ? (Item / (HSecs * WSecs)) % FSecs
                  : Item / (NSecs * HSecs * WSecs);
  }
  int itemN(int Item) const {
    return NOuter ? Item / (FSecs * HSecs * WSecs)
                  : (Item / (HSecs * WSecs)) % NSecs;
  }
  int itemH(int Item) const { return (Item / WSecs) % HSecs; }
  int itemW(int Item) const { return Item % WSecs; }
  /// Spatial (N x H x W) slices: more than one holds the weights resident.
  int spatialSecs() const { return NSecs * HSecs * WSecs; }
};

/// True if output channels of the group can be sliced: a convolution
/// followed by a chain of channel-wise single-input layers (ReLU, clamp,
/// scale, pools), with one group output.
bool channelSliceable(const Net &N, const GroupInfo &G);

/// Options of the search.
struct PlanOptions {
  bool LayerByLayer = false; ///< every layer its own group
  int MaxGroupLayers = 40;
  int MaxHSecs = 128;
  /// Most W slices tried (2-D tiles, for rows too wide for NRAM).
  int MaxWSecs = 32;
  /// Most output-channel slices tried for a channel-sliceable group.
  int MaxFSecs = 64;
  /// Groups may stage inputs or weights in SRAM (InputsInSram,
  /// WeightsInSram).
  bool UseSram = true;
  /// With UseSram, stage once per chip (SramBroadcast) when all cores are
  /// launched; otherwise once per cluster.
  bool SramBroadcast = true;
  /// With SramBroadcast, a resident group may stage its inputs too (kept
  /// when the objective is lower than without).
  bool StageResidentInputs = true;
  int64_t ReserveBytes = 0; ///< NRAM kept free
  /// Objective: cycles + TrafficWeight * (GDRAM bytes x the cycles the whole
  /// chip's GDRAM bandwidth needs per byte). 0 = cycles only. Overridden by
  /// the environment variable BANGC_LG_TRAFFIC_WEIGHT.
  double TrafficWeight = 8;
};

/// The search objective of a group plan (see PlanOptions::TrafficWeight).
double planObjective(const struct GroupPlan &P, const bangsim::DeviceSpec &Spec,
                     const PlanOptions &O);

/// Plans one group with the given slicing; nullopt (and \p Why) if invalid
/// or it does not fit.
std::optional<GroupPlan>
planGroupWith(const Net &N, const bangsim::DeviceSpec &Spec, int64_t Batch,
              const GroupInfo &G, int NSecs, int HSecs, int WSecs, int FSecs,
              const PlanOptions &O, std::string *Why = nullptr);
/// The cheapest valid slicing of layers [First, Last]: N first, then H,
/// then H x W tiles; for a convolution with channel-wise layers, output
/// channels too.
std::optional<GroupPlan> planGroup(const Net &N,
                                   const bangsim::DeviceSpec &Spec,
                                   int64_t Batch, int First, int Last,
                                   const PlanOptions &O,
                                   std::string *Why = nullptr);

struct NetPlan {
  std::vector<GroupPlan> Groups;
  double Cycles = 0;
  int64_t ReadBytes = 0, WriteBytes = 0, WeightReadBytes = 0;
  double SearchSeconds = 0;
  int64_t GroupEvaluations = 0;
};
/// The dynamic program cost[i][j] = min(group(i..j), min_k cost[i][k] +
/// cost[k+1][j]) over layer ranges.
llvm::Expected<NetPlan> planNet(const Net &N, const bangsim::DeviceSpec &Spec,
                                int64_t Batch, const PlanOptions &O = {});

/// A text rendering of a group's time-step table (for comments and docs).
std::string formatTimeSteps(const Net &N, const GroupPlan &P);

} // namespace bangc::lg

#endif
