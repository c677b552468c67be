//===- Planner.h - LayerGroup: groups, slices, time steps, NRAM -*- C++ -*-===//
//
// The planning half of LayerGroup (design seed 004, docs/layergroup.md):
//  - backward-H: the input rows a window op needs for a range of output rows;
//  - slicing of a group: N first down to one image, then H, with the h/2
//    duplication rule; single layers that do not fit may also split their
//    output channels (a "global" layer);
//  - the time-step table of one slice;
//  - NRAM allocation as rectangles in time x address;
//  - an analytic cost with simrt's own formulas (bangsim/CostModel.h), and
//    the dynamic program over layer ranges.
// The passes behind planGroupWith are in plan/ (plan/GroupPass.h).
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_PLANNER_H
#define BANGC_LAYERGROUP_PLANNER_H

#include "layergroup/GroupPlan.h"
#include "layergroup/Net.h"

#include "bangsim/DeviceSpec.h"

#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bangc::lg {

/// Backward-H of a window op (conv, pool): for output rows \p out, the input
/// rows needed, in_idx = out_idx * stride - pad and
/// in_slice = (out_slice - 1) * stride + dilated kernel, clamped to [0, InH).
/// Element-wise ops pass the range through (kernel 1, stride 1, pad 0).
RowRange backwardH(RowRange out, int64_t stride, int64_t pad,
                   int64_t dilatedKernel, int64_t inH);
RowRange backwardH(const Layer &l, RowRange out, int64_t inH);
/// Backward-W: the same along columns (stride SX, left pad PL, dilated
/// kernel width), clamped to [0, InW).
RowRange backwardW(const Layer &l, RowRange out, int64_t inW);

/// The seed's h/2 rule: slices of a tensor of height H whose rows add up to
/// more than H + H/2 (duplicated rows > h/2) fail.
bool duplicationOk(int64_t h, const std::vector<RowRange> &slices);

/// Why a slicing or a group plan is not valid: the kind, for the search
/// to act on, and the message, for people.
enum class PlanFailure {
  None,
  BadSlicing,            ///< N or channel slice counts that leave one empty
  NotChannelSliceable,   ///< channel slices of a group that cannot have them
  ChannelSlicesOneImage, ///< channel slices with several images per item
  EmptySlice,            ///< more slices than rows (columns)
  NotFeedingOutput,      ///< a layer that does not feed the group output
  HDuplication,          ///< the h/2 rule
  WDuplication,          ///< the w/2 rule
  StateChain,            ///< a stateful layer's time steps split over cores
  ViewInGroup, ///< a view read in the group whose source the group computes
  NramFull,
  WramFull,
};
struct PlanError {
  PlanFailure Kind = PlanFailure::None;
  std::string Message;
};

/// Rows of every tensor of the group for each H slice (HSlicing): each
/// group output's own rows (HSlicing::own), then backward-H through the
/// layers, hulls where several ranges meet. Fails (nullopt, with \p why)
/// when the group cannot be H sliced that way: slices that leave a slice of
/// some output empty, or the h/2 rule on a tensor computed in the group
/// (group inputs are re-read, not recomputed).
std::optional<HSlicing> sliceH(const Net &n, const GroupInfo &g, int hSecs,
                               PlanError *why);
/// W slices (columns): backward-W and the w/2 rule, the same rule as H
/// along the other axis.
std::optional<HSlicing> sliceW(const Net &n, const GroupInfo &g, int wSecs,
                               PlanError *why);
/// The same, with only the message.
std::optional<HSlicing> sliceH(const Net &n, const GroupInfo &g, int hSecs,
                               std::string *why = nullptr);
std::optional<HSlicing> sliceW(const Net &n, const GroupInfo &g, int wSecs,
                               std::string *why = nullptr);

/// Places the buffers (the seed's order: weights first when \p weightsFirst,
/// then op order, longer lifetime first, then larger size; each at the lowest
/// 64-byte aligned address where it overlaps no placed buffer in both time
/// and address; not crossing a bank boundary when \p banks > 0). Returns
/// false if some buffer does not fit under \p capacity. \p peak gets the
/// highest end address.
bool allocateLmem(std::vector<LmemBuffer> &bufs, int64_t capacity, int banks,
                  bool weightsFirst, int64_t *peak);
/// True if no two placed buffers overlap in both time and address.
bool lmemDisjoint(const std::vector<LmemBuffer> &bufs);

/// True if output channels of the group can be sliced: a convolution
/// followed by a chain of channel-wise single-input layers (ReLU, clamp,
/// scale, pools), with one group output.
bool channelSliceable(const Net &n, const GroupInfo &g);

/// The roofline floor of group \p g over \p batch images on \p spec
/// (Roofline): a function of the group's layers and boundary alone, not of
/// its slicing.
Roofline groupFloor(const Net &n, const bangsim::DeviceSpec &spec,
                    int64_t batch, const GroupInfo &g);

/// The elements of group input \p t that \p g's layers read (each once):
/// all of them, except the rows and columns a strided window skips.
int64_t neededInputElements(const Net &n, const GroupInfo &g, int t);

/// Options of the search.
struct PlanOptions {
  bool LayerByLayer = false; ///< every layer its own group
  int MaxGroupLayers = 40;
  int MaxHSecs = 128;
  /// Most W slices tried (2-D tiles, for rows too wide for NRAM).
  int MaxWSecs = 32;
  /// Most output-channel slices tried for a channel-sliceable group.
  int MaxFSecs = 64;
  /// Groups may stage inputs or weights in SRAM (GroupPlan::InputStaging,
  /// WeightStaging).
  bool UseSram = true;
  /// With UseSram, stage once per chip (Staging::SramPerChip) when the
  /// launched cores fill 2, 4 or 8 clusters; otherwise once per cluster.
  bool SramBroadcast = true;
  /// With SramBroadcast, a resident group may stage its inputs too (kept
  /// when the objective is lower than without).
  bool StageResidentInputs = true;
  /// The input of a strided 1x1 convolution may be loaded with its stride
  /// (GroupPlan::StridedInputs; kept when the objective is lower than
  /// without).
  bool StridedLoads = true;
  /// A phase's first weight tile loaded by kernel rows may load in pieces
  /// of kernel positions instead (GroupPlan::FirstPieces, kept where the
  /// estimate says it pays; `--no-first-positions` turns it off).
  bool FirstPositions = true;
  /// A first weight tile in pieces of kernel positions loads its second
  /// piece right after the phase's barrier, beside the first item's input
  /// copy (GroupPlan::EarlyPiece; `--no-early-piece` turns it off).
  bool EarlyPiece = true;
  /// A first weight tile loaded by kernel rows may feed the core's first
  /// two items at once (GroupPlan::NextItemRow0, kept where the estimate
  /// says it pays; `--no-next-item-row0` turns it off).
  bool NextItemRow0 = true;
  /// A core's consecutive items of one column of tiles keep the rows of
  /// the item above that they need (GroupPlan::KeepRows).
  bool KeepRows = true;
  /// Inputs staged once per chip by a pipelined group may stage most of a
  /// phase beside its items (GroupPlan::chunkedStaging; kept when the
  /// estimate is lower than staging it all first).
  bool ChunkedStaging = true;
  /// ... in three parts: chunk 1 read beside the first item's compute,
  /// so that chunk 0 is smaller (GroupPlan::StageMid; kept when the
  /// estimate is lower; `--no-stage-mid` turns it off).
  bool StageMid = true;
  /// A pipelined group of tiles with resident weights stages the weights
  /// its first compute step does not need beside its first item
  /// (GroupPlan::LateWeights; kept when the estimate is lower;
  /// `--no-late-weights` turns it off).
  bool LateWeights = true;
  /// A float ReLU writes its padding convolution's window tile
  /// (GroupPlan::ReluTiles), and a group input under W slices is loaded
  /// into its padding convolution's window tile (GroupPlan::PaddedInputs,
  /// lg_load_window), with no copy (`graph --layer-group
  /// --no-window-tiles` turns both off).
  bool WindowTiles = true;
  /// A ReLU of WindowTiles' tiles takes the bias of the convolution before
  /// it as its floor and its reader's bias the rest (GroupPlan::ReluFloors;
  /// `--no-relu-floors` turns it off).
  bool ReluFloors = true;
  /// Kept rows read by a ReLU of WindowTiles' tiles alone stay in the tile
  /// (GroupPlan::KeptTiles; `--no-kept-tiles` turns it off).
  bool KeptTiles = true;
  /// A pipelined item's steps run on without the __sync() that guards
  /// nothing (GroupPlan::stepRunsOn; `--no-steps-run-on` turns it off).
  bool StepsRunOn = true;
  /// A pipelined item zeroes its padded input tiles' padding rows with an
  /// NRAM fill on the Move-DMA pipe where the estimate says it pays
  /// (GroupPlan::PadRowsByDma; `--no-dma-pad-rows` turns it off).
  bool PadRowsByDma = true;
  /// A phased group with resident inputs sends its staged shares a
  /// cluster at a time and loads its first weight tile after the barrier
  /// (GroupPlan::ClusterSends; `--no-cluster-sends` turns it off).
  bool ClusterSends = true;
  /// A pipelined core's last item runs in row pieces, each stored while
  /// the next computes (GroupPlan::LastPieces, kept where the estimate
  /// says it pays; `--no-last-pieces` turns it off).
  bool LastPieces = true;
  int64_t ReserveBytes = 0; ///< NRAM kept free
  /// Objective: cycles + TrafficWeight * (GDRAM bytes x the cycles the whole
  /// chip's GDRAM bandwidth needs per byte). 0 = cycles only
  /// (`graph --layer-group --traffic-weight=W`).
  double TrafficWeight = 8;
  /// planNet takes the grouping whose every group is at its group-boundary
  /// minimum of feature-map bytes (no halo or input re-read) when its
  /// objective exceeds the best grouping's by at most this fraction; 0 =
  /// the objective alone.
  double ExcessMargin = 0.1;
  /// Keep only plans at their feature-map minimum (planNet's second
  /// search for ExcessMargin).
  bool AtMinimumOnly = false;
};

/// The search objective of a group plan (see PlanOptions::TrafficWeight).
double planObjective(const GroupPlan &p, const bangsim::DeviceSpec &spec,
                     const PlanOptions &o);

/// Feature-map bytes plan \p p moves above its group-boundary minimum
/// (GroupPlan::Floor): halos re-read, inputs read per channel slice, ...
int64_t featureMapExcess(const GroupPlan &p);

/// Plans one group with the given slicing; nullopt (and \p why) if invalid
/// or it does not fit.
std::optional<GroupPlan>
planGroupWith(const Net &n, const bangsim::DeviceSpec &spec, int64_t batch,
              const GroupInfo &g, int nSecs, int hSecs, int wSecs, int fSecs,
              const PlanOptions &o, PlanError *why);
/// The same, with only the message.
std::optional<GroupPlan>
planGroupWith(const Net &n, const bangsim::DeviceSpec &spec, int64_t batch,
              const GroupInfo &g, int nSecs, int hSecs, int wSecs, int fSecs,
              const PlanOptions &o, std::string *why = nullptr);
/// The cheapest valid slicing of layers [First, Last]: N first, then H,
/// then H x W tiles; for a convolution with channel-wise layers, output
/// channels too.
std::optional<GroupPlan> planGroup(const Net &n,
                                   const bangsim::DeviceSpec &spec,
                                   int64_t batch, int first, int last,
                                   const PlanOptions &o,
                                   std::string *why = nullptr);

struct NetPlan {
  std::vector<GroupPlan> Groups;
  double Cycles = 0;
  int64_t ReadBytes = 0, WriteBytes = 0, WeightReadBytes = 0;
  /// The sum of the groups' roofline floors (GroupPlan::Floor).
  double FloorCycles = 0;
  double SearchSeconds = 0;
  int64_t GroupEvaluations = 0;
};
/// The dynamic program cost[i][j] = min(group(i..j), min_k cost[i][k] +
/// cost[k+1][j]) over layer ranges.
llvm::Expected<NetPlan> planNet(const Net &n, const bangsim::DeviceSpec &spec,
                                int64_t batch, const PlanOptions &o = {});

/// A text rendering of a group's time-step table (for comments and docs).
std::string formatTimeSteps(const Net &n, const GroupPlan &p);

} // namespace bangc::lg

#endif
