//===- GroupPass.h - LayerGroup planner: one group's passes -----*- C++ -*-===//
//
// Internal to the planner. planGroupWith (Planner.cpp) plans one group with
// a given slicing as a sequence of passes, each in its own file:
//   Slicing.cpp     the slice counts, H and W slices (backward-H/W);
//   Buffers.cpp     the time steps and the NRAM/WRAM buffers of one item;
//   Staging.cpp     GDRAM traffic and whether to stage inputs or weights in
//                   SRAM;
//   Cost.cpp        the cycles of the steps and of the whole group, with the
//                   device's own cost formulas (bangsim/CostModel.h);
//   Allocation.cpp  placing the buffers in NRAM and WRAM;
//   Floor.cpp       the roofline floor of a group (groupFloor), to measure
//                   the plan against;
//   Search.cpp      the slicings tried per group and the groups of a net.
// GroupPass carries what they share: the inputs of the call, the plan
// being built, and the small facts several passes ask.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_PLAN_GROUPPASS_H
#define BANGC_LAYERGROUP_PLAN_GROUPPASS_H

#include "layergroup/Planner.h"

#include "bangsim/CostModel.h"

#include <optional>

namespace bangc::lg::plan {

/// The device's cost formulas for a launch on \p cores cores, in the
/// planner's units (float elements).
struct CostModel {
  const bangsim::DeviceSpec &spec;
  int cores;
  /// A copy of \p bytes touching GDRAM (\p gdram: estimated as a
  /// contiguous, block-aligned read) or on chip.
  double dma(double bytes, bool gdram) const {
    if (bytes <= 0)
      return 0;
    if (gdram)
      return bangsim::cost::gdramCopyCycles(
          spec, bangsim::cost::gdramBytesPerCycle(spec, std::max(1, cores)),
          bytes, /*write=*/false);
    return bangsim::cost::dmaCycles(spec, bytes,
                                    bangsim::cost::onchipBytesPerCycle(spec));
  }
  /// A vector op over \p elems elements of \p elemBytes bytes.
  double vec(int opClass, double elems, int64_t elemBytes = 4) const {
    return bangsim::cost::vectorCycles(spec, opClass,
                                       elems * double(elemBytes));
  }
  /// Multiply-accumulates on the matrix unit with inputs of type \p dtype
  /// (a BANG_DT_ value).
  double mac(double macs, int dtype = BANG_DT_F32) const {
    return bangsim::cost::computeCycles(
        macs / bangsim::cost::matrixMacsPerCycle(spec, dtype));
  }
  double scalar(double instructions) const {
    return bangsim::cost::scalarCycles(spec, instructions);
  }
};

/// The slice shape of a layer for one item: output rows and columns, input
/// columns, output channels (the channels of its output slice), and whether
/// its window op copies into a scratch tile.
struct LayerSlice {
  int64_t outRows = 1, outCols = 1, inCols = 1, channels = 1;
  bool tile = false;
};

/// Bytes a group moves and loads, as the staging pass decides them.
struct Traffic {
  int64_t read = 0, write = 0; ///< feature maps, GDRAM
  int64_t params = 0;          ///< parameters read from GDRAM
  int64_t vectorBytes = 0;     ///< per-channel vectors, per core
  int64_t weightBytes = 0;     ///< all layers' whole weights
  int64_t tileLoads = 0;       ///< weight tiles loaded, over all cores
};

struct GroupPass {
  const Net &net;
  const bangsim::DeviceSpec &spec;
  const GroupInfo &group;
  const PlanOptions &options;
  GroupPlan &plan;
  CostModel cost;
  int64_t inputBytes = 0; ///< the whole group inputs, all images

  GroupPass(const Net &net, const bangsim::DeviceSpec &spec,
            const GroupInfo &group, const PlanOptions &options,
            GroupPlan &plan);

  int layers() const { return int(group.Layers.size()); }
  /// The time step computing layer \p l (ts0 loads, the last stores).
  int computeStep(int l) const { return l - group.First + 1; }
  int storeStep() const { return layers() + 1; }
  int64_t rowsCap(int t) const { return plan.H.RowsCap[group.slot(t)]; }
  int64_t colsCap(int t) const { return plan.W.RowsCap[group.slot(t)]; }
  /// The last step reading tensor \p t, -1 if none in the group.
  int lastUse(int t) const;
  LayerSlice layerSlice(int l) const;
  /// Bytes of a group input's buffer: its slice, or its reader's padded
  /// tile.
  int64_t inputBufferBytes(int t) const;
  /// Cycles of loading layer \p l's weight tile from GDRAM.
  double weightLoadCycles(int l) const;
  /// Cycles of storing an item's slice of group output \p t to GDRAM, as
  /// lg_store copies it (a copy per image, or per row of a channel slice
  /// of a column range) and as simrt charges it: whole 64 B blocks per
  /// segment, a block written in part read too, the strided efficiency.
  double storeCycles(int t) const;
  /// DMA cycles of loading an item's slice of view \p t: lg_load_view's
  /// strided copies of each box that is not zero fill.
  double viewLoadCycles(int t) const;
  /// DMA cycles of loading an item's tile of strided input \p t from
  /// GDRAM (lg_load_strided: a segment per pixel, or per row when SX is 1).
  double stridedLoadCycles(int t) const;
  /// Cycles of loading an item's slice of gathered view \p t
  /// (lg_gather_view: its window and index table from GDRAM, then a scalar
  /// gather loop; GatherCost.cpp).
  double gatherLoadCycles(int t) const;
};

// --- Passes, in the order planGroupWith runs them --------------------------

/// Slice counts, channel slices, H and W slices, cores.
std::optional<PlanError> chooseSlices(GroupPlan &plan, const Net &net,
                                      const bangsim::DeviceSpec &spec,
                                      int64_t batch, int nSecs, int hSecs,
                                      int wSecs, int fSecs);
/// Group inputs loaded straight into their reader's padded window tile.
void choosePaddedInputs(GroupPass &pass);
/// Group inputs of a strided 1x1 convolution loaded with its stride.
void chooseStridedInputs(GroupPass &pass);
/// The time steps of one item and its NRAM and WRAM buffers.
void placeInTimeSteps(GroupPass &pass);
/// ReLUs that write their reader's padded window tile (GroupPlan::
/// ReluTiles); after placeInTimeSteps, whose buffers it adjusts.
void chooseReluTiles(GroupPass &pass);
/// Of those, the ReLUs that take their convolution's bias as their floor
/// (GroupPlan::ReluFloors); after chooseReluTiles.
void chooseReluFloors(GroupPass &pass);
/// GDRAM traffic, and staging of inputs or weights in SRAM.
Traffic chooseStaging(GroupPass &pass);
/// Compute and DMA cycles of each time step; weight loads moved earlier
/// where compute hides them.
void costTimeSteps(GroupPass &pass, const Traffic &traffic);
/// Places the NRAM and WRAM buffers.
std::optional<PlanError> allocateMemories(GroupPass &pass);
/// The NRAM buffers with every one alive in steps [\p from, last] held
/// for all of them (a tail in row pieces, GroupPlan::tailStart): placed
/// disjoint that way, the tail may run in pieces.
std::vector<LmemBuffer> tailHeldBuffers(const GroupPlan &p, int from);
/// The estimated cycles of the group (GroupPlan::Cycles).
void estimateCycles(GroupPass &pass, const Traffic &traffic);

// --- Shared helpers --------------------------------------------------------

/// Runs \p plan with a PlanError and keeps only its message in \p why.
template <typename Fn> auto withMessage(std::string *why, Fn &&plan) {
  PlanError error;
  auto result = plan(&error);
  if (!result && why)
    *why = std::move(error.Message);
  return result;
}

/// The BANG_DT_ value of a tensor element type (the matrix unit's rate).
int bangDType(DType t);
/// Max or sum pooling on the vector unit (else scalar loops).
bool vectorPool(const Layer &l);
/// Columns (rows) of the window tile of \p outCols output columns (rows).
int64_t tileCols(const Layer &l, int64_t outCols);
int64_t tileRows(const Layer &l, int64_t outRows);
/// Floats of a layer's weight tile of \p channels output channels.
int64_t weightElems(const Net &net, const Layer &l, int64_t channels);
/// Bias and alpha elements: whole vectors, resident in NRAM.
int64_t vecElems(const Layer &l);

} // namespace bangc::lg::plan

#endif // BANGC_LAYERGROUP_PLAN_GROUPPASS_H
