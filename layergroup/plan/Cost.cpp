//===- Cost.cpp - LayerGroup planner: estimated cycles --------------------===//
//
// The cycles of a group's kernel, estimated with the device's own cost
// formulas (bangsim/CostModel.h, the same simrt charges): per layer the
// vector, matrix and scalar work of its lg_ops.mlu function; per time step
// compute against DMA; per item the steps, pipelined or not; per group the
// prologue, the SRAM staging, the phases and the weight tiles of the
// busiest core. And the search objective, cycles plus weighted traffic.
//
//===----------------------------------------------------------------------===//
#include "layergroup/plan/GroupPass.h"

#include <algorithm>
#include <functional>

namespace bangc::lg {

double planObjective(const GroupPlan &p, const bangsim::DeviceSpec &spec,
                     const PlanOptions &o) {
  double cyclesPerByte = spec.clockGHz / spec.gdramGBps;
  return p.Cycles + o.TrafficWeight * cyclesPerByte * double(p.ReadBytes + p.WriteBytes);
}

namespace plan {

namespace {

/// Instructions per inner iteration of the plain loops of lg_ops.mlu (from
/// the simulator's scalar count; see docs/layergroup.md).
constexpr double ScalarPoolPerTap = 30;
constexpr double ScalarPerCall = 30;
/// Instructions per element (per tap for windows) of the scalar loops of
/// integer layers (lg_ops.mlu's lg_int_* functions: load, convert to
/// double, compare or multiply-add, round and saturate, store), from the
/// simulator's counts on LeNet's layers run one by one.
constexpr double ScalarIntCmp = 56;
constexpr double ScalarIntArith = 66;
constexpr double ScalarIntPoolPerTap = 55;
/// The same in 64-bit integers (GroupPlan.h's intLoop): lg_int_cmp_exact
/// and lg_int_scale_exact per element (the scale also per channel),
/// lg_int_pool_exact per output pixel, per output element, per window row
/// and per tap; from the simulator's counts on LeNet's layers run one by
/// one (layer by layer in --report; less about 280 per kernel).
constexpr double ScalarIntExactCmp = 18;
constexpr double ScalarIntExactScale = 40;
constexpr double ScalarIntExactScalePerChannel = 17;
constexpr double ScalarIntExactPoolPerPixel = 35;
constexpr double ScalarIntExactPoolPerOutput = 10;
constexpr double ScalarIntExactPoolPerRow = 12;
constexpr double ScalarIntExactPoolPerTap = 21;
/// Instructions per neuron and time step of lg_lif (load the input and the
/// state, multiply-add in double, floor, compare, reset, store both), and
/// per call beyond ScalarPerCall (its runs and pointers); from the
/// simulator's counts on snn_lif.json's lif1 (24 neurons an item) and lif2
/// (2 steps of 10 an item), less ScalarPipelinedItem each.
constexpr double ScalarLifPerNeuron = 50;
constexpr double ScalarLifPerCall = 85;
/// A pipelined item's own scalar code (its slice, the calls that issue its
/// transfers, the bookkeeping): it runs beside a matrix or vector step, but
/// in a scalar-loop step it adds to the loop (Codegen issues the transfers
/// there, GroupPlan::transferStep); from the same counts.
constexpr double ScalarPipelinedItem = 225;
/// Per element of lg_lut: load, subtract, index, load, store.
constexpr double ScalarLutPerElement = 20;
/// Per element of lg_clamp (a float compare and select).
constexpr double ScalarClampPerElement = 8;
/// The INT_LOOP of a kind whose integer outputs take its own path.
constexpr double Own = 0;

/// The cost columns of layergroup/OpKinds.def.
enum class Compute { Matrix, Pool, Vector, Loop };
enum class Per { Element, Tap, ExtraInput };
struct KindCost {
  Compute Shape;
  double Loop;     ///< Loop: instructions per element
  double IntLoop;  ///< integer outputs: instructions per element, or Own
  int VectorClass; ///< Vector: the class of its floor's work
  Per Calls;       ///< Vector: ExtraInput, one call per input
};

/// The one op class of a Vector kind's floor work (-1 for none or several).
constexpr int vectorClass(int alu, int mul, int act, int reduce) {
  if (alu + mul + act + reduce != 1)
    return -1;
  return alu   ? BANG_OP_ALU
         : mul ? BANG_OP_MUL
         : act ? BANG_OP_ACT
               : BANG_OP_REDUCE;
}

KindCost kindCost(OpKind k) {
  switch (k) {
#define LG_OPKIND(KIND, NAME, VECTORS, CHAN_SLICE, COMPUTE, LOOP, INT_LOOP,    \
                  ALU, MUL, ACT, REDUCE, PER)                                  \
  case OpKind::KIND:                                                           \
    return {Compute::COMPUTE, LOOP, INT_LOOP,                                  \
            vectorClass(ALU, MUL, ACT, REDUCE), Per::PER};
#include "layergroup/OpKinds.def"
  }
  llvm_unreachable("a row of layergroup/OpKinds.def");
}

/// Cycles of lg_chan_op over \p px pixels of \p c channels of \p eb
/// bytes each: one cycle operation.
double chanOpCycles(const CostModel &m, int64_t px, int64_t c, int64_t eb) {
  return m.vec(BANG_OP_ALU, double(px * c), eb) + m.scalar(ScalarPerCall);
}

/// Cycles of filling the padding of a window tile of \p r x \p p pixels
/// (lg_fill_border: the rows beyond the \p rows real ones in one write, the
/// columns beyond the \p w real ones a write per row) and copying the real
/// rows in.
double tileCycles(const CostModel &m, int64_t r, int64_t p, int64_t c,
                  int64_t rows, int64_t w, int64_t eb) {
  double fill = 0;
  if (r > rows)
    fill += m.vec(BANG_OP_MOVE, double((r - rows) * p * c), eb) +
            m.scalar(ScalarPerCall);
  if (p > w)
    fill += double(rows) * (m.vec(BANG_OP_MOVE, double((p - w) * c), eb) +
                            m.scalar(ScalarPerCall));
  return fill + m.dma(double(rows * w * c * eb), false);
}

/// Convolution \p l reads the window tile its ReLU wrote (GroupPlan::
/// ReluTiles): it copies nothing.
static bool reluWritesTile(const GroupPass &pass, const Layer &l) {
  return pass.plan.reluTileOf(pass.net.Tensors[l.Output].Producer) >= 0;
}

/// Cycles of filling and copying the window tile of convolution \p l for
/// one image (0 without a tile, or when its ReLU writes it).
double windowTileCycles(const GroupPass &pass, const Layer &l,
                        const LayerSlice &s) {
  if (l.Kind != OpKind::Conv || !s.tile || reluWritesTile(pass, l))
    return 0;
  int64_t r = tileRows(l, s.outRows), p = tileCols(l, s.outCols);
  const Tensor &in = pass.net.Tensors[l.Inputs[0]];
  return tileCycles(pass.cost, r, p, in.C, std::min(r, in.H), s.inCols,
                    in.elemBytes());
}

/// Cycles of a pooling layer for one image.
double poolCycles(const GroupPass &pass, const Layer &l,
                  const LayerSlice &s) {
  const CostModel &m = pass.cost;
  const Tensor &in = pass.net.Tensors[l.Inputs[0]];
  int64_t px = s.outRows * s.outCols, ft = s.channels;
  if (intLoop(pass.net, l) == IntLoop::Exact)
    return m.scalar(double(px) * ScalarIntExactPoolPerPixel +
                    double(ft * px) *
                        (ScalarIntExactPoolPerOutput +
                         double(l.KY) * ScalarIntExactPoolPerRow +
                         double(l.KY * l.KX) * ScalarIntExactPoolPerTap));
  if (!vectorPool(l))
    return m.scalar(double(ft * px) *
                    (double(l.KY * l.KX) *
                         (l.Integer ? ScalarIntPoolPerTap : ScalarPoolPerTap) +
                     6));
  double c = 0;
  int64_t r = tileRows(l, s.outRows), p = tileCols(l, s.outCols);
  if (s.tile)
    c += tileCycles(m, r, p, ft, std::min(r, in.H), s.inCols, in.elemBytes());
  double taps = double(px * ft * l.KY * l.KX);
  c += m.vec(BANG_OP_REDUCE, taps) + m.scalar(ScalarPerCall);
  if (l.HalfViaFloat) // lg_sum_pool_half: three more sums (two parts and
    // the infinities' correction), 13 passes over the float tile, 11 over
    // the output, about 28 calls
    c += 3 * m.vec(BANG_OP_REDUCE, taps) +
         m.vec(BANG_OP_ALU, 13.0 * double(r * p * ft)) +
         m.vec(BANG_OP_ALU, 11.0 * double(px * ft)) +
         m.scalar(28 * ScalarPerCall);
  if (!l.Bias.empty())
    c += chanOpCycles(m, px, ft, in.elemBytes());
  return c;
}

/// Instructions per element of integer layer \p l's scalar loop (its
/// kind's INT_LOOP, or the exact loop's count).
double intLoopPerElement(const GroupPass &pass, const Layer &l) {
  if (intLoop(pass.net, l) == IntLoop::Generic)
    return kindCost(l.Kind).IntLoop;
  return l.Kind == OpKind::Relu || l.Kind == OpKind::Clamp
             ? ScalarIntExactCmp
             : ScalarIntExactScale;
}

/// ... and per channel (lg_int_scale_exact picks a channel's constants
/// once).
double intLoopPerChannel(const GroupPass &pass, const Layer &l) {
  bool scale = l.Kind == OpKind::Scale || l.Kind == OpKind::Add;
  return scale && intLoop(pass.net, l) == IntLoop::Exact
             ? ScalarIntExactScalePerChannel
             : 0.0;
}

/// Layer \p l computes in a scalar loop of lg_ops.mlu (as layerCompute
/// costs it): a Loop kind, an integer or real-math layer off the matrix
/// unit, or a pool off the vector unit.
bool scalarLoop(const Layer &l) {
  KindCost k = kindCost(l.Kind);
  return k.Shape == Compute::Loop || (l.Integer && k.IntLoop != Own) ||
         (k.Shape == Compute::Pool && !vectorPool(l));
}

/// Compute cycles of layer \p l for one item of \p nb images: the shape
/// of its kind's cost (layergroup/OpKinds.def), then its per-channel
/// vectors (a pool adds its bias itself).
double layerCompute(const GroupPass &pass, const Layer &l, int64_t nb,
                    const LayerSlice &s) {
  const CostModel &m = pass.cost;
  const Tensor &in = pass.net.Tensors[l.Inputs[0]];
  int64_t ob = pass.net.Tensors[l.Output].elemBytes();
  int64_t ft = s.channels;
  int64_t px = s.outRows * s.outCols;
  KindCost k = kindCost(l.Kind);
  if (l.Integer && k.IntLoop != Own)
    return double(nb) *
           m.scalar(double(ft * px) * intLoopPerElement(pass, l) +
                    double(ft) * intLoopPerChannel(pass, l) + ScalarPerCall);
  // A convolution's bias and ReLU moved behind its max pool
  // (GroupInfo::poolFirst): none on the convolution and the ReLU, both on
  // the pool's output.
  const Net &net = pass.net;
  const GroupInfo &g = pass.group;
  int self = net.Tensors[l.Output].Producer;
  int prev = net.Tensors[l.Inputs[0]].Producer;
  // Or into a ReLU's floor and its reader's bias (GroupPlan::ReluFloors).
  bool biasMoved = l.Kind == OpKind::Conv && (g.poolFirst(net, self) >= 0 ||
                                              pass.plan.biasInFloor(self));
  if (l.Kind == OpKind::Relu && prev >= 0 && g.poolFirst(net, prev) >= 0)
    return 0;
  if (l.Kind == OpKind::MaxPool && prev >= 0) {
    int conv = net.Tensors[net.Layers[prev].Inputs[0]].Producer;
    if (conv >= 0 && g.poolFirst(net, conv) == self) {
      double c = poolCycles(pass, l, s) + m.vec(BANG_OP_ALU, double(px * ft)) +
                 m.scalar(ScalarPerCall);
      if (!net.Layers[conv].Bias.empty())
        c += chanOpCycles(m, px, ft, ob);
      return c * double(nb);
    }
  }
  double c = 0;
  switch (k.Shape) {
  case Compute::Matrix:
    c += windowTileCycles(pass, l, s);
    c += m.mac(double(px * ft * l.KY * l.KX * in.C), bangDType(in.Type)) +
         m.scalar(ScalarPerCall);
    break;
  case Compute::Pool:
    return poolCycles(pass, l, s) * double(nb);
  case Compute::Vector: {
    assert(k.VectorClass >= 0 && "a Vector kind has one class of work");
    double calls = k.Calls == Per::ExtraInput ? double(l.Inputs.size()) : 1.0;
    c += calls *
         (m.vec(k.VectorClass, double(ft * px)) + m.scalar(ScalarPerCall));
    break;
  }
  case Compute::Loop:
    c += m.scalar(double(ft * px) * k.Loop + ScalarPerCall +
                  (l.Kind == OpKind::Lif ? ScalarLifPerCall : 0.0));
    break;
  }
  ChanVectors v = chanVectors(l.Kind);
  if (v == ChanVectors::BiasAlpha && !l.Alpha.empty())
    c += chanOpCycles(m, px, ft, ob);
  if (v != ChanVectors::None && !l.Bias.empty() && !biasMoved)
    c += chanOpCycles(m, px, ft, ob);
  return c * double(nb);
}

// The w4 correction: a weight load moves to an earlier step while that
// step's compute hides it.
void hoistWeightLoads(GroupPass &pass) {
  GroupPlan &p = pass.plan;
  std::vector<TimeStep> &steps = p.Steps;
  for (int ts = 2; ts < int(steps.size()); ++ts) {
    std::vector<int> keep;
    for (int l : steps[ts].LoadWeights) {
      int to = ts;
      double c = pass.weightLoadCycles(l);
      while (to > 1 && !steps[to - 1].SyncCopy &&
             steps[to - 1].ComputeCycles >= steps[to - 1].DmaCycles + c)
        --to;
      if (to == ts) {
        keep.push_back(l);
        continue;
      }
      steps[to].LoadWeights.push_back(l);
      steps[to].DmaCycles += c;
      steps[ts].DmaCycles -= c;
      for (LmemBuffer &b : p.WramBuffers)
        if (b.Layer == l)
          b.Start = to;
    }
    steps[ts].LoadWeights = keep;
  }
}

/// Cycles of step \p s with \p dma cycles of DMA: compute and DMA overlap,
/// except that a step copying a window tile (a synchronous on-chip DMA)
/// waits for the loads and stores queued before it (one made before the
/// step queues its DMA waits for nothing).
double stepCycles(const TimeStep &s, double dma) {
  if (s.TileFirstCycles > 0)
    return s.TileFirstCycles +
           std::max(s.ComputeCycles - s.TileFirstCycles, dma);
  return s.SyncCopy ? s.ComputeCycles + dma : std::max(s.ComputeCycles, dma);
}

/// Staging \p bytes in SRAM: per cluster, a core copies its share of a
/// cluster's cores; broadcast, a core copies its share of the chip's cores
/// and sends it to every other cluster.
double stageCycles(const GroupPass &pass, double bytes) {
  const CostModel &m = pass.cost;
  if (!pass.plan.sramBroadcast())
    return m.dma(bytes / pass.spec.coresPerCluster, true);
  double share = bytes / pass.plan.Cores;
  return m.dma(share, true) + (pass.plan.Clusters - 1) * m.dma(share, false);
}

/// Cycles of lg_zero_pad_columns on the window tile of \p reader that
/// holds tensor \p t: a write per row boundary, and the two ends.
double padColumnsCycles(const GroupPass &pass, int t, const Layer &reader) {
  const Tensor &in = pass.net.Tensors[t];
  int64_t rows = tileRows(reader, pass.rowsCap(reader.Output));
  int64_t cols = tileCols(reader, pass.colsCap(reader.Output));
  int64_t right = cols - reader.PL - in.W, eb = in.elemBytes();
  const CostModel &m = pass.cost;
  auto zero = [&](int64_t px) {
    return px > 0 ? m.vec(BANG_OP_MOVE, double(px * in.C), eb) +
                        m.scalar(ScalarPerCall)
                  : 0.0;
  };
  return zero(reader.PL) + double(rows - 1) * zero(right + reader.PL) +
         zero(right);
}

/// Staging once per chip one tensor after another (Codegen's stageAll):
/// this core's share of each is read beside the sends of the previous one,
/// the first read beside \p overlap cycles of on-chip copies.
double stageAllCycles(const GroupPass &pass, const std::vector<double> &bytes,
                      double overlap) {
  const CostModel &m = pass.cost;
  double cores = pass.plan.Cores;
  auto read = [&](double b) { return m.dma(b / cores, true); };
  auto send = [&](double b) {
    return (pass.plan.Clusters - 1) * m.dma(b / cores, false);
  };
  if (bytes.empty())
    return overlap;
  double c = std::max(read(bytes[0]), overlap);
  for (size_t k = 1; k < bytes.size(); ++k)
    c += std::max(read(bytes[k]), send(bytes[k - 1]));
  return c + send(bytes.back());
}

/// A phase's staged inputs, bytes per input (Codegen's phaseStart), or per
/// range of chunk 0 (GroupPlan::chunkedStaging).
std::vector<double> phaseInputBytes(const GroupPass &pass) {
  std::vector<double> bytes;
  if (pass.plan.chunkedStaging()) {
    int64_t eb = pass.net.Tensors[pass.group.Inputs[0]].elemBytes();
    for (const RowRange &r : pass.plan.StageFirst)
      bytes.push_back(double(r.size() * eb));
    return bytes;
  }
  for (int t : pass.group.Inputs) {
    const Tensor &x = pass.net.Tensors[t];
    bytes.push_back(double(x.elements() * x.elemBytes() * pass.plan.SramImages));
  }
  return bytes;
}

/// Weights staged once per chip as one SRAM range (Codegen's prologue,
/// GroupPlan::weightsStagedAsOne): the busiest core's reads, a part of each
/// weight array its share overlaps, then its sends of the share.
double stagedAsOneCycles(const GroupPass &pass) {
  const GroupPlan &p = pass.plan;
  const CostModel &m = pass.cost;
  std::vector<int64_t> elems;
  int64_t total = 0, eb = 1;
  for (int l : pass.group.Layers) {
    const Layer &layer = pass.net.Layers[l];
    if (layer.Kind != OpKind::Conv || p.lateWeight(pass.net, l))
      continue; // late ones: lateWeightsCycles
    elems.push_back(int64_t(layer.Weight.size()));
    total += elems.back();
    eb = pass.net.weightElemBytes(layer);
  }
  double busiest = 0;
  for (int64_t me = 0; me < p.Cores; ++me) {
    int64_t a = total * me / p.Cores, b = total * (me + 1) / p.Cores, off = 0;
    double c =
        b > a ? (p.Clusters - 1) * m.dma(double((b - a) * eb), false) : 0;
    for (int64_t n : elems) {
      int64_t lo = std::max(a, off), hi = std::min(b, off + n);
      if (hi > lo)
        c += m.dma(double((hi - lo) * eb), true);
      off += n;
    }
    busiest = std::max(busiest, c);
  }
  return busiest;
}

/// The bytes of each layer's resident weights, in the order the prologue
/// stages them (not the late ones: GroupPlan::LateWeights).
std::vector<double> stagedWeightBytes(const GroupPass &pass) {
  const GroupPlan &p = pass.plan;
  const Net &net = pass.net;
  std::vector<double> bytes;
  for (int l : pass.group.Layers) {
    const Layer &layer = net.Layers[l];
    int64_t w = weightElems(net, layer, p.weightTileChannels(net, l));
    if (w > 0 && !p.lateWeight(net, l))
      bytes.push_back(double(w * net.weightElemBytes(layer)));
  }
  return bytes;
}

/// Weights staged once per chip, the sends of the busiest core's last
/// share to the other clusters (Codegen's prologue: of the one SRAM range,
/// or of the last weight array staged; \p bytes each array's).
double lastWeightSends(const GroupPass &pass,
                       const std::vector<double> &bytes) {
  const GroupPlan &p = pass.plan;
  double share = 0;
  if (p.weightsStagedAsOne(pass.net)) {
    for (double b : bytes)
      share += b;
  } else if (!bytes.empty()) {
    share = bytes.back();
  }
  return (p.Clusters - 1) * pass.cost.dma(share / p.Cores, false);
}

/// GroupPlan::ReadAhead: the most of phase 0's first input share whose
/// read (IO-DMA) ends within the weights' last sends (Move-DMA) before the
/// prologue's barrier, which waits for both.
int readAhead(const GroupPass &pass, const std::vector<double> &bytes) {
  const GroupPlan &p = pass.plan;
  std::vector<double> in = phaseInputBytes(pass);
  if (!p.weightsInSram() || !p.deferWramCopies() || in.empty() ||
      p.Clusters < 2)
    return 0;
  double share = in[0] / p.Cores, sends = lastWeightSends(pass, bytes);
  int lo = 0, hi = GroupPlan::ReadAheadDen;
  while (lo < hi) { // the largest piece whose read fits
    int mid = (lo + hi + 1) / 2;
    if (pass.cost.dma(share * mid / GroupPlan::ReadAheadDen, true) <= sends)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

double stagedBeforeItems(const GroupPass &pass);

/// The one send a cluster of a phase's shares (GroupPlan::ClusterSends):
/// the cluster's cores' shares in one on-chip copy.
double clusterSendCycles(const GroupPass &pass) {
  const GroupPlan &p = pass.plan;
  return pass.cost.dma(stagedBeforeItems(pass) / p.Clusters, false);
}

/// The resident inputs' SRAM->NRAM copy (Codegen's residentInputs).
double residentCopyCycles(const GroupPass &pass) {
  double c = 0;
  for (int t : pass.group.Inputs)
    c += pass.cost.dma(double(pass.plan.sliceBytes(pass.net, t)),
                       !pass.plan.inputsInSram());
  return c;
}

/// The per-channel vectors' GDRAM->NRAM loads, one after another.
double vectorLoadCycles(const GroupPass &pass) {
  double io = 0;
  for (int l : pass.group.Layers)
    if (vecElems(pass.net.Layers[l]) > 0)
      io += pass.cost.dma(double(vecElems(pass.net.Layers[l]) *
                                 pass.net.vectorElemBytes(pass.net.Layers[l])),
                          true);
  return io;
}

/// The per-channel vectors, GDRAM->NRAM once per core (Codegen's
/// vectorLoads): beside the last staged input's sends of phase 0 when the
/// phases stage their inputs one after another (stageAll), else beside the
/// resident inputs' copy or the first item's first loads, which take the
/// IO-DMA pipe too unless they come from SRAM. The cycles they add.
double vectorCycles(const GroupPass &pass) {
  const GroupPlan &p = pass.plan;
  const CostModel &m = pass.cost;
  double io = vectorLoadCycles(pass);
  if (io == 0)
    return 0;
  if (p.clusterSends()) // beside the cluster's sends
    return std::max(0.0, io - clusterSendCycles(pass));
  std::vector<double> in = phaseInputBytes(pass);
  if (p.phased() && !(p.pipelined() && p.weightTiles()) && !in.empty())
    return std::max(0.0,
                    io - (p.Clusters - 1) * m.dma(in.back() / p.Cores, false));
  if (!p.inputsInSram())
    return io;
  if (p.inputsResident()) { // beside their SRAM->NRAM copy (residentInputs)
    double resident = 0;
    for (int t : pass.group.Inputs)
      resident += m.dma(double(p.sliceBytes(pass.net, t)), false);
    return std::max(0.0, io - resident);
  }
  return std::max(0.0, io - p.Steps[0].DmaCycles);
}

/// Once per core before the items: the per-channel vectors, resident
/// weights, resident inputs, the zeroed padding of padded inputs.
double prologueCycles(const GroupPass &pass, const Traffic &traffic) {
  const GroupPlan &p = pass.plan;
  const CostModel &m = pass.cost;
  const Net &net = pass.net;
  double c = vectorCycles(pass);
  if (p.weightsInSram() && p.sramBroadcast()) {
    // Staged layer by layer, then copied SRAM->WRAM a layer per copy,
    // beside phase 0's first input read when deferred.
    std::vector<double> bytes;
    double wram = 0, later = 0; // later: beside the first compute step
    for (int l : pass.group.Layers) {
      const Layer &layer = net.Layers[l];
      int64_t w = weightElems(net, layer, p.weightTileChannels(net, l));
      if (w <= 0 || p.lateWeight(net, l)) // late: lateWeightsCycles
        continue;
      bytes.push_back(double(w * net.weightElemBytes(layer)));
      (p.wramCopyInItem(net, l) ? later : wram) +=
          m.dma(bytes.back(), false);
    }
    if (later > 0) { // issued after ts1's compute (laterWramCopies)
      const TimeStep &s1 = p.Steps[1];
      c += std::max(0.0, s1.DmaCycles + later - s1.ComputeCycles) -
           std::max(0.0, s1.DmaCycles - s1.ComputeCycles);
    }
    c += p.weightsStagedAsOne(net) ? stagedAsOneCycles(pass)
                                   : stageAllCycles(pass, bytes, 0);
    if (!p.deferWramCopies()) {
      c += wram;
    } else if (std::vector<double> in = phaseInputBytes(pass); !in.empty()) {
      // Phase 0 reads the rest of its first input share beside the copies
      // (the phases count the whole read; the piece read ahead hides in
      // the weights' sends).
      double read = m.dma(in[0] / p.Cores, true);
      double rest = m.dma(in[0] / p.Cores *
                              (GroupPlan::ReadAheadDen - p.ReadAhead) /
                              GroupPlan::ReadAheadDen,
                          true);
      c += std::max(0.0, wram - rest) - (read - rest);
    } else {
      c += wram;
    }
  } else if (p.weightsInSram())
    c += stageCycles(pass, double(traffic.weightBytes)) +
         m.dma(double(traffic.weightBytes), false);
  else if (p.weightsResident())
    for (int l : pass.group.Layers)
      if (weightElems(net, net.Layers[l], p.weightTileChannels(net, l)) > 0)
        c += pass.weightLoadCycles(l);
  if (p.inputsResident())
    for (int t : pass.group.Inputs)
      c += m.dma(double(p.sliceBytes(net, t)), !p.inputsInSram());
  // Zero the padding columns once: after phase 0's input share is read
  // and during the first weight tile's load in a pipelined global group
  // staged once per chip (Codegen's phaseStart), else before anything.
  if (!(p.phased() && p.pipelined() && p.weightTiles()) && p.WSecs == 1)
    for (auto [t, l] : p.PaddedInputs)
      c += (p.pipelined() && !p.inputsResident() ? 2 : 1) *
           padColumnsCycles(pass, t, net.Layers[l]);
  return c;
}

/// The bytes a phase of inputs staged in SRAM stages before its items:
/// all its images, or chunk 0 (GroupPlan::chunkedStaging).
double stagedBeforeItems(const GroupPass &pass) {
  const GroupPlan &p = pass.plan;
  if (!p.chunkedStaging())
    return double(pass.inputBytes / p.Batch * p.SramImages);
  double bytes = 0;
  for (double b : phaseInputBytes(pass))
    bytes += b;
  return bytes;
}

/// This core's share of staged element ranges \p ranges (chunked
/// staging): the cycles it takes to read (IO-DMA) added to \p read, to
/// send to the other clusters (Move-DMA) to \p sends.
void stagedShares(const GroupPass &pass, const std::vector<RowRange> &ranges,
                  double &read, double &sends) {
  const GroupPlan &p = pass.plan;
  int64_t eb = pass.net.Tensors[pass.group.Inputs[0]].elemBytes();
  for (const RowRange &r : ranges) {
    double share = double(r.size() * eb) / p.Cores;
    read += pass.cost.dma(share, true);
    sends += (p.Clusters - 1) * pass.cost.dma(share, false);
  }
}

/// The instructions that issue one __bang_write_zero of
/// lg_zero_pad_columns (the simulator's count on VGG-16's conv3_2: 14 in
/// about 210 cycles).
constexpr double ScalarZeroCall = 15;

/// The most kernel positions of a first weight tile split into pieces of
/// positions (GroupPlan::FirstPieces): 2^(n-1) splits are tried.
constexpr int MaxFirstPositions = 16;

/// The first layer's output has a second buffer alive in every time step
/// (GroupPlan::NextItemRow0 keeps the second item's kernel row 0 in it).
static bool otherOutputAlways(const GroupPass &pass) {
  const GroupPlan &p = pass.plan;
  int out = pass.net.Layers[pass.group.First].Output;
  int root = p.Alias.count(out) ? p.Alias.at(out) : out;
  return std::any_of(p.Buffers.begin(), p.Buffers.end(),
                     [&](const LmemBuffer &b) {
                       return b.K == LmemBuffer::Activation &&
                              b.Tensor == root && b.Copy == 1 &&
                              b.Start == 0 && b.End == TsInf;
                     });
}

/// A pipelined global group's core loads a weight tile that the first item
/// of a phase needs before that item and loads each later one in pieces,
/// one in ts1 of each item of the channel slice before it (of this phase),
/// beside that item's loads and stores (\p moved: the fill and drain DMA
/// moved into ts1). A phase staged once per chip queues the first tile
/// behind its share of the inputs, while it sends the share to the other
/// clusters (Codegen's phaseStart): only the rest of the load shows; or
/// only its first kernel row (GroupPlan::firstTileRows), and the first item
/// takes the rest; with GroupPlan::rowsEveryItem every item takes the rest
/// of its own tile and loads row 0 of the next one. Or the first tile in
/// pieces of kernel positions (GroupPlan::FirstPieces): the pieces whose
/// estimate is lowest, if lower than by rows. The busiest core counts.
double tileLoadCycles(GroupPass &pass, double moved) {
  GroupPlan &p = pass.plan;
  p.FirstPieces.clear();
  p.EarlyPiece = false;
  if (!p.pipelined() || !p.global())
    return 0;
  int l = pass.group.First;
  double load = pass.weightLoadCycles(l);
  double first = load;
  double bytes = double(weightElems(pass.net, pass.net.Layers[l],
                                    p.weightTileChannels(pass.net, l)) *
                        pass.net.weightElemBytes(pass.net.Layers[l]));
  const TimeStep &s1 = p.Steps[1];
  double dma1 = s1.DmaCycles + moved;
  // A tile in \p pieces: each adds its own to an item's ts1.
  auto pieces = [&](int n) {
    double piece = pass.cost.dma(bytes / n, true);
    return n * (stepCycles(s1, dma1 + piece) - stepCycles(s1, dma1));
  };
  int rows = p.phased() ? p.firstTileRows(pass.net) : 0;
  double sends = 0, row = 0, conv = 0, add = 0;
  if (p.phased()) { // beside the sends of this core's share of a phase
    double share = stagedBeforeItems(pass) / p.Cores;
    sends = (p.Clusters - 1) * pass.cost.dma(share, false);
    first = std::max(0.0, load - sends);
  }
  if (p.clusterSends()) { // after the barrier, beside the resident copy
    sends = residentCopyCycles(pass);
    first = std::max(0.0, load - sends);
  }
  // Chunk 1 of chunked staging (GroupPlan::StageMid): the first item's
  // IO-DMA reads it after the tile's last piece and the next tile's piece.
  double mid = 0, midSends = 0;
  stagedShares(pass, p.StageMid, mid, midSends);
  // What it adds after the last piece's load, beside its convolution
  // (\p conv) and the item's other IO-DMA (\p io: it stores nothing, and
  // loads its next item from SRAM).
  auto midAfter = [&](double conv, double io) {
    return std::max(0.0, io + mid - conv) - std::max(0.0, io - conv);
  };
  if (rows) { // a kernel row at a time (Codegen's computeConvByRows)
    row = pass.cost.dma(bytes / rows, true);
    conv = s1.ComputeCycles / rows;
    const Layer &layer = pass.net.Layers[l];
    add = pass.cost.vec(BANG_OP_ALU,
                        double(pass.rowsCap(layer.Output) *
                               pass.colsCap(layer.Output) * p.SliceChannels));
  }
  // The first tile of a phase whose first channel slice has \p run items
  // on the core, \p more when another slice follows. By kernel rows: row 0
  // beside the sends, then the first item's convolution takes each further
  // row's load or the row before it, whichever is longer, and an add per
  // row; its IO-DMA the further rows, then the step's own transfers and
  // the next tile's piece. The item ends when both have (the DMA may be the
  // longer: conv5 of VGG-16), against its usual step.
  // Every item by kernel rows (GroupPlan::rowsEveryItem): a __sync() after
  // each row's convolution (and its add) and the next row's load; the last
  // row's beside the step's own transfers and, when another item follows,
  // kernel row 0 of its tile. Against the item's usual step.
  bool every = p.rowsEveryItem(pass.net);
  auto byRows = [&](bool next) {
    return std::max(conv, row) + (rows - 2) * std::max(conv + add, row) +
           std::max(conv + add, dma1 + (next ? row : 0) + mid) -
           stepCycles(s1, dma1);
  };
  // The same by pieces of kernel positions (\p ends, FirstPieces): piece
  // j loads while piece j - 1 convolves, a piece of whole kernel rows in
  // one convolution, one of part of a row in one per output row (each
  // with its start-up), and each piece after the first issues a load and
  // a convolution after a __sync(); the formulas above with the pieces for
  // the rows. The sends of phase 0 wait for the vector work of zeroing the
  // input tiles' padding columns, the first piece only for their calls: a
  // lag the barrier waits for when the first piece loads sooner.
  const Layer &layer = pass.net.Layers[l];
  int kx = int(layer.KX), kk = rows ? int(layer.KY * layer.KX) : 0;
  double perRowConv = double(p.ImagesPerSlice) *
                      double(pass.rowsCap(layer.Output) - 1) *
                      double(pass.spec.computeStartupCycles);
  double perPiece = 2 * pass.cost.scalar(ScalarPerCall);
  double pad = 0;
  if (p.WSecs == 1)
    for (auto [t, reader] : p.PaddedInputs) {
      const Layer &r = pass.net.Layers[reader];
      int64_t cols = tileCols(r, pass.colsCap(r.Output));
      int64_t rowsT = tileRows(r, pass.rowsCap(r.Output));
      int64_t right = cols - r.PL - pass.net.Tensors[t].W;
      int64_t calls = (r.PL > 0) + (rowsT - 1) * (right + r.PL > 0) +
                      (right > 0); // as padColumnsCycles
      pad += (p.inputsResident() ? 1 : 2) *
             (padColumnsCycles(pass, t, r) -
              double(calls) * pass.cost.scalar(ScalarPerCall + ScalarZeroCall));
    }
  pad = p.clusterSends() ? 0.0 : std::max(0.0, pad); // beside the sends
  auto firstByPieces = [&](const std::vector<int> &ends, int run, bool more,
                           bool ph0) {
    auto load = [&](int j) {
      int a = j ? ends[j - 1] : 0;
      return pass.cost.dma(bytes * (ends[j] - a) / kk, true);
    };
    auto convOf = [&](int j) {
      int a = j ? ends[j - 1] : 0;
      bool whole = a % kx == 0 && ends[j] % kx == 0;
      return s1.ComputeCycles * (ends[j] - a) / kk + (whole ? 0 : perRowConv) +
             (j ? perPiece : 0);
    };
    int m = int(ends.size()) - 1;
    // EarlyPiece: the sends wait for no padding, and the vectors load
    // before the first piece.
    double head = p.EarlyPiece
                      ? std::max(0.0, load(0) + vectorLoadCycles(pass) - sends)
                      : std::max(ph0 ? pad : 0, load(0) - sends);
    if (every) {
      double t = std::max(convOf(0), load(1));
      for (int j = 2; j <= m; ++j)
        t += std::max(convOf(j - 1) + add, load(j));
      return head + t +
             std::max(convOf(m) + add, dma1 + (more ? row : 0) + mid) -
             stepCycles(s1, dma1);
    }
    double piece = more ? pass.cost.dma(bytes / run, true) : 0;
    double matrix = convOf(m), io = dma1 + piece;
    // GroupPlan::EarlyPiece: piece 1 loads beside the input's copy too.
    double early = p.EarlyPiece ? std::min(load(1), p.Steps[0].DmaCycles) : 0;
    for (int j = 1; j <= m; ++j)
      matrix += std::max(load(j) - (j == 1 ? early : 0), convOf(j - 1)) + add,
          io += load(j);
    io -= early;
    return head + std::max(matrix, io) + midAfter(convOf(m), piece) -
           stepCycles(s1, dma1 + piece);
  };
  auto firstTile = [&](int run, bool more, bool ph0) {
    if (!rows)
      return first;
    if (!p.FirstPieces.empty())
      return firstByPieces(p.FirstPieces, run, more, ph0);
    if (every)
      return std::max(0.0, row - sends) + byRows(more);
    double piece = more ? pass.cost.dma(bytes / run, true) : 0;
    double matrix = (rows - 1) * (std::max(row, conv) + add) + conv;
    double io = (rows - 1) * row + dma1 + piece;
    return std::max(0.0, row - sends) + std::max(matrix, io) +
           midAfter(conv, piece) - stepCycles(s1, dma1 + piece);
  };
  // The pieces: every split of the kernel positions into runs of one
  // kernel row or of whole rows (73 for 3 x 3), against the rows, on
  // the first core's first tile (every core's has the same shape).
  if (rows && pass.options.FirstPositions && kk <= MaxFirstPositions) {
    // Chosen without chunk 1, whose read then follows the last piece.
    double withMid = std::exchange(mid, 0.0);
    int b = p.itemBegin(0, 0), e = p.itemEnd(0, 0), run = 1;
    while (b + run < e && p.itemF(b + run) == p.itemF(b))
      ++run;
    bool more = b + run < e;
    std::vector<int> ends;
    for (int r = 1; r <= rows; ++r)
      ends.push_back(r * kx);
    // The rows, by the same formulas, less a cycle.
    double best = firstByPieces(ends, run, more, true) - 1;
    ends.clear();
    std::function<void(int)> split = [&](int a) {
      if (a == kk) {
        if (std::all_of(ends.begin(), ends.end(),
                        [&](int x) { return x % kx == 0; }))
          return; // whole rows only: the rows are the baseline
        double c = firstByPieces(ends, run, more, true);
        if (c < best)
          best = c, p.FirstPieces = ends;
        return;
      }
      int rowEnd = (a / kx + 1) * kx;
      for (int to = a + 1; to <= kk; ++to) {
        if (to > rowEnd && (a % kx || to % kx))
          continue;
        ends.push_back(to);
        split(to);
        ends.pop_back();
      }
    };
    if (b < e)
      split(0);
    mid = withMid;
  }
  // Chosen without GroupPlan::EarlyPiece, which then speeds the pieces up
  // where they pay already (it would take them instead of the rows in
  // conv4_2 and conv4_3 of VGG-16, and cost more there).
  p.EarlyPiece = pass.options.EarlyPiece && !p.FirstPieces.empty() &&
                 p.phased() && !p.clusterSends() && !p.inputsResident() &&
                 !every && p.WSecs == 1 && p.SramPhases == 1;
  // The first two items of a channel slice at once (GroupPlan::
  // NextItemRow0; Codegen's nextItemRow0): the tile's other kernel
  // positions in three pieces, beside item 0's row 0, item 1's row 0 and
  // item 0's row 1 (with its add), then item 0's row 2; item 1 convolves
  // rows 1 and 2 with an add, without the next tile's piece, which item 2
  // loads beside its own. Where it is lower than by rows (\p run >= 3),
  // and the output's other buffer, which holds the second item's row 0,
  // lives through every step.
  auto twoItems = [&](int run, bool more) {
    int e1 = kx + 2 * kx / 3, e2 = kx + 4 * kx / 3;
    auto load = [&](int a, int b) {
      return pass.cost.dma(bytes * (b - a) / kk, true);
    };
    double piece = more ? pass.cost.dma(bytes / run, true) : 0;
    double matrix = std::max(conv, load(kx, e1)) +
                    std::max(conv, load(e1, e2)) +
                    std::max(conv + add, load(e2, kk)) + conv + add;
    double io = load(kx, kk) + dma1 + piece;
    TimeStep second = s1;
    second.ComputeCycles -= conv - add;
    return std::max(0.0, row - sends) + std::max(matrix, io) +
           stepCycles(second, dma1) + stepCycles(s1, dma1 + 2 * piece) -
           3 * stepCycles(s1, dma1 + piece);
  };
  p.NextItemRow0 = false;
  if (rows == 3 && kx >= 2 && pass.options.NextItemRow0 &&
      p.FirstPieces.empty() && !every && p.SramPhases == 1 && mid == 0 &&
      pass.group.Inputs.size() == 1 &&
      layer.Inputs[0] == pass.group.Inputs[0] && otherOutputAlways(pass)) {
    int b = p.itemBegin(0, 0), e = p.itemEnd(0, 0), run = 1;
    while (b + run < e && p.itemF(b + run) == p.itemF(b))
      ++run;
    p.NextItemRow0 =
        run >= 3 && twoItems(run, b + run < e) < firstTile(run, b + run < e,
                                                           true);
  }
  double busiest = 0;
  for (int c = 0; c < p.Cores; ++c) {
    double own = 0;
    int prev = -1; // kept from an earlier phase
    for (int ph = 0; ph < p.SramPhases; ++ph) {
      int run = 0; // items of this phase with the current tile
      int b = p.itemBegin(c, ph), e = p.itemEnd(c, ph);
      for (int it = b; it < e; ++it, ++run) {
        int fi = p.itemF(it);
        if (fi == prev)
          continue;
        if (it == b) {
          int r = 1;
          while (b + r < e && p.itemF(b + r) == fi)
            ++r;
          own += p.NextItemRow0 && r >= 3 ? twoItems(r, b + r < e)
                                          : firstTile(r, b + r < e, ph == 0);
        } else {
          own += every ? byRows(it + 1 < e) : pieces(run);
        }
        prev = fi, run = 0;
      }
    }
    busiest = std::max(busiest, own);
  }
  return busiest;
}

} // namespace

int bangDType(DType t) {
  switch (t) {
#define BANGC_DTYPE(ENUM, ...)                                                 \
  case DType::ENUM:                                                            \
    return BANG_DT_##ENUM;
#include "support/DTypes.def"
  }
  llvm_unreachable("a row of support/DTypes.def");
}
double GroupPass::weightLoadCycles(int l) const {
  return cost.dma(
      double(weightElems(net, net.Layers[l], plan.weightTileChannels(net, l)) *
             net.weightElemBytes(net.Layers[l])),
      true);
}

double GroupPass::storeCycles(int t) const {
  namespace cost = bangsim::cost;
  const Tensor &x = net.Tensors[t];
  int64_t eb = x.elemBytes(), c = plan.sliceChannels(net, t);
  int64_t rows = rowsCap(t), cols = colsCap(t), nb = plan.ImagesPerSlice;
  double rate = cost::gdramBytesPerCycle(spec, std::max(1, plan.Cores));
  // copies of segs segments of seg bytes each (an aligned first segment)
  auto copies = [&](int64_t n, int64_t segs, int64_t seg) {
    double bytes = double(segs) * cost::gdramSegmentBytes(spec, 0, seg, true);
    return double(n) * cost::gdramCopyCycles(spec, rate, 0, bytes, segs > 1);
  };
  if (c == x.C && cols == x.W) // one copy, an image per segment
    return copies(1, nb, rows * cols * c * eb);
  if (c == x.C) // a copy per image, a segment per row
    return copies(nb, rows, cols * c * eb);
  if (cols == x.W) // a copy per image, a segment per pixel
    return copies(nb, rows * cols, c * eb);
  return copies(nb * rows, cols, c * eb); // a copy per row
}

namespace {

/// A box of rows repeated v.DH times or columns v.DW times, as lg_load_view
/// moves \p rows x \p cols of it (from a run's start): per image, each
/// source row one GDRAM copy of one row (\p copies(n, segments, segment
/// bytes) costs them; repeated columns: one copy of the whole runs and one
/// of the cut run), then one NRAM2NRAM copy of the run's other rows.
template <typename Copies>
double repeatedLoadCycles(const bangsim::DeviceSpec &spec, const ViewPiece &v,
                          const Tensor &x, int64_t nb, int64_t rows,
                          int64_t cols, const Copies &copies) {
  namespace cost = bangsim::cost;
  int64_t eb = x.elemBytes(), chans = v.C1 - v.C0;
  int64_t n = nb * ((rows + v.DH - 1) / v.DH);
  double c;
  if (v.DW > 1) // whole runs, then the cut one
    c = (cols >= v.DW ? copies(n, cols / v.DW * v.DW, chans * eb) : 0.0) +
        (cols % v.DW ? copies(n, cols % v.DW, chans * eb) : 0.0);
  else if (v.SC == 1 && chans == x.C && v.SW == x.C) // a segment
    c = copies(n, 1, cols * chans * eb);
  else if (v.SC == 1) // a segment per pixel
    c = copies(n, cols, chans * eb);
  else // an element per segment
    c = copies(n, cols * chans, eb);
  // The repeats: full runs of DH rows, and the last run's rest.
  double rate = cost::onchipBytesPerCycle(spec);
  auto repeat = [&](int64_t runs, int64_t runRows) {
    if (runRows < 2)
      return 0.0;
    return double(nb * runs) *
           cost::dmaCycles(spec, double((runRows - 1) * cols * chans * eb),
                           rate);
  };
  return c + repeat(rows / v.DH, v.DH) + repeat(1, rows % v.DH);
}

} // namespace

double GroupPass::viewLoadCycles(int t) const {
  namespace cost = bangsim::cost;
  const Tensor &x = net.Tensors[t];
  if (x.gathered())
    return gatherLoadCycles(t);
  int64_t eb = x.elemBytes(), nb = plan.ImagesPerSlice;
  double rate = cost::gdramBytesPerCycle(spec, std::max(1, plan.Cores));
  auto copies = [&](int64_t n, int64_t segs, int64_t seg) {
    double bytes = double(segs) * cost::gdramSegmentBytes(spec, 0, seg, false);
    return double(n) * cost::gdramCopyCycles(spec, rate, bytes, 0, segs > 1);
  };
  double c = 0;
  for (const ViewPiece &v : x.View) {
    if (v.Source < 0)
      continue;
    int64_t rows = std::min(rowsCap(t), v.H1 - v.H0);
    int64_t cols = std::min(colsCap(t), v.W1 - v.W0), chans = v.C1 - v.C0;
    if (v.DH > 1 || v.DW > 1) {
      c += repeatedLoadCycles(spec, v, x, nb, rows, cols, copies);
      continue;
    }
    if (v.SC == 1 && chans == x.C && v.SW == x.C) // a segment per row
      c += copies(nb, rows, cols * chans * eb);
    else if (v.SC == 1) // a segment per pixel
      c += copies(nb, rows * cols, chans * eb);
    else // an element per segment, a copy per row
      c += copies(nb * rows, cols * chans, eb);
  }
  return c;
}

double GroupPass::stridedLoadCycles(int t) const {
  namespace cost = bangsim::cost;
  const Tensor &x = net.Tensors[t];
  const Layer &conv = net.Layers[plan.StridedInputs.at(t)];
  int64_t rows = rowsCap(conv.Output), cols = colsCap(conv.Output);
  int64_t eb = x.elemBytes();
  assert(!plan.inputsInSram() && "strided inputs are loaded from GDRAM");
  double rate = cost::gdramBytesPerCycle(spec, std::max(1, plan.Cores));
  auto copy = [&](int64_t segs, int64_t seg) {
    double bytes = double(segs) * cost::gdramSegmentBytes(spec, 0, seg, false);
    return cost::gdramCopyCycles(spec, rate, bytes, 0, segs > 1);
  };
  return conv.SX == 1 ? copy(rows, cols * x.C * eb) // a segment per row
                      : copy(rows * cols, x.C * eb); // a segment per pixel
}

void costTimeSteps(GroupPass &pass, const Traffic &traffic) {
  GroupPlan &p = pass.plan;
  for (int l : pass.group.Layers) {
    TimeStep &s = p.Steps[pass.computeStep(l)];
    LayerSlice slice = pass.layerSlice(l);
    s.ComputeCycles =
        layerCompute(pass, pass.net.Layers[l], p.ImagesPerSlice, slice);
    s.SyncCopy |= slice.tile && !reluWritesTile(pass, pass.net.Layers[l]);
    s.ScalarLoop |= scalarLoop(pass.net.Layers[l]);
  }
  // A pipelined item of one image makes the window tile of a convolution
  // computed first before it queues its stores and loads (see Codegen).
  if (p.pipelined() && p.ImagesPerSlice == 1) {
    TimeStep &s1 = p.Steps[1];
    int l = s1.Compute.front();
    s1.TileFirstCycles =
        windowTileCycles(pass, pass.net.Layers[l], pass.layerSlice(l));
  }
  // A global group reloads its tile only when the channel slice changes:
  // the share of items that load one (pipelined, the tile loads are costed
  // per core in estimateCycles instead).
  double tileShare = !p.global()     ? 1.0
                     : p.pipelined() ? 0.0
                                     : double(traffic.tileLoads) / p.items();
  for (TimeStep &s : p.Steps) {
    if (!p.inputsResident())
      for (int t : s.LoadTensors)
        s.DmaCycles += pass.net.Tensors[t].isView() ? pass.viewLoadCycles(t)
                       : p.StridedInputs.count(t)
                           ? pass.stridedLoadCycles(t)
                           : pass.cost.dma(double(p.sliceBytes(pass.net, t)),
                                           !p.inputsInSram());
    for (int t : s.StoreTensors)
      s.DmaCycles += pass.storeCycles(t);
    if (!p.weightsResident())
      for (int l : s.LoadWeights)
        s.DmaCycles += tileShare * pass.weightLoadCycles(l);
  }
  if (!p.weightsResident() && !p.global())
    hoistWeightLoads(pass);
}

/// Step \p ts of a pipelined item: the transfer step (GroupPlan::
/// transferStep) also moves the next item's inputs and the previous one's
/// outputs (\p moved cycles of DMA), and when it is a scalar loop the
/// item's own scalar code adds to the loop.
static double pipelinedStepCycles(const GroupPass &pass, int ts,
                                  double moved) {
  const GroupPlan &p = pass.plan;
  TimeStep s = p.Steps[ts];
  if (ts != p.transferStep())
    return stepCycles(s, s.DmaCycles);
  if (s.ScalarLoop)
    s.ComputeCycles += pass.cost.scalar(ScalarPipelinedItem);
  return stepCycles(s, s.DmaCycles + moved);
}

/// The calls that layerCompute charges layer \p l a ScalarPerCall each
/// for one image: its own and its per-channel vectors' (lg_chan_op), a max
/// pool's bias and ReLU after it (GroupInfo::poolFirst); none for a scalar
/// loop, which never runs on (stepRunsOn), nor for a window tile's fills.
static double layerCalls(const GroupPass &pass, const Layer &l) {
  if (scalarLoop(l) || l.Integer)
    return 0;
  const Net &net = pass.net;
  const GroupInfo &g = pass.group;
  int self = net.Tensors[l.Output].Producer;
  int prev = net.Tensors[l.Inputs[0]].Producer;
  if (l.Kind == OpKind::Relu && prev >= 0 && g.poolFirst(net, prev) >= 0)
    return 0;
  if (l.Kind == OpKind::MaxPool && prev >= 0) {
    int conv = net.Tensors[net.Layers[prev].Inputs[0]].Producer;
    if (conv >= 0 && g.poolFirst(net, conv) == self)
      return 2.0 + (net.Layers[conv].Bias.empty() ? 0 : 1);
  }
  KindCost k = kindCost(l.Kind);
  double calls = 1;
  if (k.Shape == Compute::Pool)
    return calls + (l.Bias.empty() || l.HalfViaFloat ? 0 : 1);
  if (k.Shape == Compute::Vector && k.Calls == Per::ExtraInput)
    calls = double(l.Inputs.size());
  bool biasMoved = l.Kind == OpKind::Conv && (g.poolFirst(net, self) >= 0 ||
                                              pass.plan.biasInFloor(self));
  ChanVectors v = chanVectors(l.Kind);
  if (v == ChanVectors::BiasAlpha && !l.Alpha.empty())
    ++calls;
  if (v != ChanVectors::None && !l.Bias.empty() && !biasMoved)
    ++calls;
  return calls;
}

/// The compute steps of a pipelined item, ts1..tsN. Steps joined by
/// GroupPlan::stepRunsOn (no __sync() between them) run as one: their
/// compute back to back, and their DMA (the transfer step's, which issues
/// at once: the compute does not hold up the issue, a window tile made
/// first does) beside all of it, not only beside its own step's compute.
static double pipelinedStepsCycles(const GroupPass &pass, double moved) {
  const GroupPlan &p = pass.plan;
  double c = 0;
  int last = pass.layers();
  for (int a = 1, b; a <= last; a = b + 1) {
    b = a;
    while (b < last && (p.stepRunsOn(pass.net, b) ||
                        p.stepRunsOnAfterRows(pass.net, b)))
      ++b;
    if (a == b) {
      c += pipelinedStepCycles(pass, a, moved);
      continue;
    }
    double compute = 0, issue = 0, dma = 0, calls = 0;
    for (int ts = a; ts <= b; ++ts) {
      const TimeStep &s = p.Steps[ts];
      bool transfer = ts == p.transferStep();
      compute += s.ComputeCycles; // no scalar loop runs on (stepRunsOn)
      for (int l : s.Compute)
        calls += layerCalls(pass, pass.net.Layers[l]);
      if (s.DmaCycles > 0 || transfer)
        dma = std::max(dma, issue + s.TileFirstCycles + s.DmaCycles +
                                (transfer ? moved : 0));
      issue += s.TileFirstCycles;
    }
    // Each call's scalar code after the first issues while the compute
    // queued before it runs (no __sync() between them): hidden.
    compute -= std::max(0.0, calls * double(p.ImagesPerSlice) - 1) *
               pass.cost.scalar(ScalarPerCall);
    c += std::max(compute, dma);
  }
  return c;
}

/// A pipelined item that keeps rows (GroupPlan::KeepRows): each layer
/// whose output keeps rows computes the rest of them (the fewest an item
/// keeps), its window tile too, and the kept rows of the next item move in
/// the step of GroupPlan::keptMoveStep (Move-DMA beside its compute), or
/// synchronously before the item's first step.
static double keptItemCycles(GroupPass &pass, double moved) {
  GroupPlan &p = pass.plan;
  const Net &net = pass.net;
  std::vector<TimeStep> whole = p.Steps;
  double sync = 0;
  int keptTensors = 0;
  for (int l : pass.group.Layers) {
    const Layer &layer = net.Layers[l];
    int t = layer.Output;
    if (!p.keepsRows(net, t))
      continue;
    ++keptTensors;
    int64_t kept = p.fewestKeptRows(net, t);
    LayerSlice full = pass.layerSlice(l), part = full;
    part.outRows = std::max<int64_t>(0, full.outRows - kept);
    TimeStep &s = p.Steps[pass.computeStep(l)];
    s.ComputeCycles -= layerCompute(pass, layer, p.ImagesPerSlice, full) -
                       layerCompute(pass, layer, p.ImagesPerSlice, part);
    if (s.TileFirstCycles > 0 && s.Compute.front() == l)
      s.TileFirstCycles -= windowTileCycles(pass, layer, full) -
                           windowTileCycles(pass, layer, part);
    // Kept in the window tile its ReLU writes (GroupPlan::KeptTiles): the
    // ReLU writes the rest of the rows, and the tile's rows move.
    int64_t cols = pass.colsCap(t);
    if (int conv = p.keptTileOf(t); conv >= 0) {
      int relu = net.Tensors[t].Consumers[0];
      LayerSlice rf = pass.layerSlice(relu), rp = rf;
      rp.outRows = std::max<int64_t>(0, rf.outRows - kept);
      const Layer &r = net.Layers[relu];
      p.Steps[pass.computeStep(relu)].ComputeCycles -=
          layerCompute(pass, r, p.ImagesPerSlice, rf) -
          layerCompute(pass, r, p.ImagesPerSlice, rp);
      cols = tileCols(net.Layers[conv], pass.layerSlice(conv).outCols);
    }
    double move = pass.cost.dma(double(kept * cols * p.sliceChannels(net, t) *
                                       net.Tensors[t].elemBytes()),
                                false);
    if (int ts = p.keptMoveStep(net, t))
      p.Steps[ts].DmaCycles += move;
    else
      sync += move;
  }
  // The scalar code before the compute: the kept rows' count per kept
  // tensor at the item's start and the call that moves them.
  double c = sync + keptTensors * pass.cost.scalar(2 * ScalarPerCall);
  c += pipelinedStepsCycles(pass, moved);
  p.Steps = std::move(whole);
  return c;
}

/// What item \p item of a W-sliced group adds to the item costed at the
/// plan's slice (every layer at its column cap): each layer computes the
/// item's own columns (fewer at the left and right edges, where the halo
/// is padding), and when its window tiles have padding columns every
/// convolution that fills its window tile (a scratch tile, a padded
/// input's tile, the tile its ReLU writes: lg_fill_border) zeroes them a
/// run per row, and a ReLU that writes the tile (GroupPlan::ReluTiles)
/// writes it a row at a time, not in one run. Which cores run the edge
/// tiles depends on the item order: with KeepRows a core's items go down
/// one column, so the first and last cores run every edge tile (VGG-16's
/// conv1 block: its first convolution, of 3 channels, saves little of its
/// column; its conv2 block's, of 64, saves more than the runs cost). An
/// item that keeps rows (\p keeps) in a ReLU's tile (GroupPlan::KeptTiles)
/// writes only the rows after them, and fills no padding column (the items
/// before did).
static double edgeItemCycles(const GroupPass &pass, int item, bool keeps) {
  const GroupPlan &p = pass.plan;
  if (p.WSecs < 2 || p.ImagesPerSlice != 1)
    return 0;
  const Net &net = pass.net;
  const CostModel &m = pass.cost;
  double c = 0;
  for (int l : pass.group.Layers) {
    const Layer &layer = net.Layers[l];
    LayerSlice cap = pass.layerSlice(l), own = cap;
    own.outCols = p.W.Rows[p.itemW(item)][p.Info.slot(layer.Output)].size();
    if (own.outCols > 0 && own.outCols < cap.outCols)
      c += layerCompute(pass, layer, 1, own) -
           layerCompute(pass, layer, 1, cap);
    if (layer.Kind != OpKind::Conv)
      continue;
    int in = layer.Inputs[0], relu = p.reluTileOf(l);
    if (!pass.layerSlice(l).tile && !p.PaddedInputs.count(in) && relu < 0)
      continue;
    int so = p.Info.slot(layer.Output);
    RowRange cols = p.W.Rows[p.itemW(item)][so];
    RowRange rows = p.H.Rows[p.itemH(item)][so];
    if (cols.size() <= 0 || rows.size() <= 0)
      continue;
    int64_t w = net.Tensors[in].W, ch = net.Tensors[in].C;
    int64_t q0 = cols.Lo * layer.SX - layer.PL;
    int64_t cp = tileCols(layer, cols.size());
    int64_t pad = std::max<int64_t>(0, -q0) +
                  std::max<int64_t>(0, q0 + cp - w);
    if (pad == 0)
      continue;
    int64_t r = tileRows(layer, rows.size()), real = cp - pad, fills = r;
    if (keeps && relu >= 0) {
      int t = net.Layers[relu].Inputs[0];
      if (p.keptTileOf(t) == l) {
        r = std::max<int64_t>(0, r - p.keptRows(net, t, p.itemH(item)).size());
        fills = 0;
      }
    }
    int64_t eb = net.Tensors[in].elemBytes();
    int cls = kindCost(OpKind::Relu).VectorClass;
    // A ReLU's floor: zeroed, then the floor added (ReluFloors).
    bool floor = relu >= 0 && p.ReluFloors.count(relu);
    c += double(fills) * m.vec(cls, double(pad * ch), eb) * (floor ? 2 : 1);
    if (relu >= 0)
      c += double(r) * m.vec(cls, double(real * ch), eb) -
           m.vec(cls, double(r * real * ch), eb);
  }
  return c;
}

/// The items of a phase on its busiest core: per core its items at
/// \p item cycles each, or with KeepRows those that keep rows at
/// keptItemCycles, and the edge tiles' padding (edgeItemCycles): the
/// slowest core's range, not the average one's.
static double phaseItemCycles(GroupPass &pass, int rounds, double item,
                              double moved) {
  const GroupPlan &p = pass.plan;
  bool edges = p.WSecs > 1 && p.ImagesPerSlice == 1;
  if (!p.KeepRows && !edges)
    return rounds * item;
  double kept = p.KeepRows ? keptItemCycles(pass, moved) : item, most = 0;
  for (int c = 0; c < p.Cores; ++c) {
    double core = 0;
    for (int it = p.itemBegin(c); it < p.itemEnd(c); ++it)
      core += (p.itemKeepsRows(it) ? kept : item) +
              (edges ? edgeItemCycles(pass, it, p.itemKeepsRows(it)) : 0.0);
    most = std::max(most, core);
  }
  return most;
}

/// The padding rows of the window tiles that a pipelined item's loads of
/// padded inputs fill (GroupPlan::PaddedInputs without W slices:
/// lg_load_padded): a load whose tile reaches above the input's first row
/// or below its last (the top and the bottom H slice) zeroes those rows,
/// on the vector unit after the transfer step's compute, or with
/// PadRowsByDma as an NRAM fill beside it on the Move-DMA pipe, which adds
/// only what the step's DMA then exceeds its compute by. Per core the loads
/// of its items after the first of each phase (the first loads before
/// ts1); the busiest core's count. An item that loads its weight tile by
/// kernel rows (GroupPlan::firstTileRows: a phase's first; rowsEveryItem:
/// every one) queues the next item's loads after its last row, beside
/// little compute: its loads zero on the vector unit either way. Sets
/// PadRowsByDma where the fill costs less (PlanOptions::PadRowsByDma).
static double padRowsCycles(GroupPass &pass, double moved) {
  GroupPlan &p = pass.plan;
  p.PadRowsByDma = false;
  if (!p.pipelined() || p.WSecs > 1 || p.PaddedInputs.empty())
    return 0;
  bool byRows = p.firstTileRows(pass.net) > 0;
  bool everyByRows = p.rowsEveryItem(pass.net);
  const Net &net = pass.net;
  const CostModel &m = pass.cost;
  const TimeStep &s = p.Steps[p.transferStep()];
  double dma = s.DmaCycles + moved;
  // The loads for item it: their zeroing on the vector unit (vec), as
  // fills (fill), and what stays on the vector unit with fills (rest).
  auto load = [&](int it, double &vec, double &fill, double &rest) {
    vec = 0, fill = 0, rest = 0;
    for (auto [t, l] : p.PaddedInputs) {
      const Layer &r = net.Layers[l];
      const Tensor &x = net.Tensors[t];
      RowRange in = p.H.Rows[p.itemH(it)][p.Info.slot(t)];
      RowRange out = p.H.Rows[p.itemH(it)][p.Info.slot(r.Output)];
      if (out.size() <= 0)
        continue;
      int64_t r0 = out.Lo * r.SY - r.PU, rows = tileRows(r, out.size());
      int64_t pad = std::max<int64_t>(0, in.Lo - r0) +
                    std::max<int64_t>(0, r0 + rows - in.Hi);
      if (pad <= 0)
        continue;
      int64_t elems = pad * tileCols(r, x.W) * x.C, eb = x.elemBytes();
      vec += m.vec(BANG_OP_MOVE, double(elems), eb);
      // lg_zero_dma: __nramset_async of half, float and int32_t.
      bool fills = x.Type == DType::F16 || x.Type == DType::F32 ||
                   x.Type == DType::I32;
      (fills ? fill : rest) += fills ? m.dma(double(elems * eb), false)
                                     : m.vec(BANG_OP_MOVE, double(elems), eb);
    }
  };
  double vecMost = 0, dmaMost = 0;
  for (int c = 0; c < p.Cores; ++c) {
    double vec = 0, viaDma = 0;
    for (int ph = 0; ph < p.SramPhases; ++ph)
      for (int it = p.itemBegin(c, ph) + 1; it < p.itemEnd(c, ph); ++it) {
        double v, f, r;
        load(it, v, f, r);
        vec += v;
        bool rows = everyByRows || (byRows && it == p.itemBegin(c, ph) + 1);
        viaDma += rows ? v : r + stepCycles(s, dma + f) - stepCycles(s, dma);
      }
    vecMost = std::max(vecMost, vec);
    dmaMost = std::max(dmaMost, viaDma);
  }
  if (pass.options.PadRowsByDma && dmaMost < vecMost) {
    p.PadRowsByDma = true;
    return dmaMost;
  }
  return vecMost;
}

/// The most row pieces of a plain item's tail (GroupPlan::TailPieces).
constexpr int MaxTailPieces = 4;

/// The scalar work of one row piece of a tail over steps [from, last
/// step) (Codegen's tailPieces, lastItemPieces): a call per layer, the
/// piece's __sync(), and a window copy's latency for a convolution that
/// copies one (not from a padded input tile, its ReLU's window tile or
/// one made first).
static double pieceCalls(const GroupPass &pass, int from) {
  const GroupPlan &p = pass.plan;
  const CostModel &m = pass.cost;
  double calls = m.scalar(ScalarPerCall);
  for (size_t ts = from; ts + 1 < p.Steps.size(); ++ts)
    for (int l : p.Steps[ts].Compute) {
      const Layer &layer = pass.net.Layers[l];
      bool copies = layer.Kind == OpKind::Conv &&
                    !p.PaddedInputs.count(layer.Inputs[0]) &&
                    p.reluTileOf(l) < 0 && p.Steps[ts].TileFirstCycles == 0;
      calls += m.scalar(ScalarPerCall) + (copies ? m.dma(64, false) : 0.0);
    }
  return calls;
}

/// A tail of \p compute cycles in \p k row pieces of an output slice of
/// \p rows rows (two shares each, the last one share, cut as the kernel
/// cuts them: tailPieces' pieceRows), \p calls more per piece: the first
/// piece beside \p before cycles of DMA already queued, each further one
/// beside the store of the one before, then the last piece's store alone;
/// each piece's store its own DMA start-up of the \p store cycles of the
/// whole slice's.
static double piecesCycles(const CostModel &m, double compute, double calls,
                           double store, int64_t rows, int k, double before) {
  auto at = [&](int x) { return x >= k ? rows : rows * 2 * x / (2 * k - 1); };
  double lat = m.dma(64, true), t = 0, prev = before;
  for (int j = 0; j < k; ++j) {
    double share = double(at(j + 1) - at(j)) / double(rows);
    t += std::max(share * compute + calls, prev);
    prev = share > 0 ? lat + share * (store - lat) : 0;
  }
  return t + prev;
}

/// A plain item: per step the longer of its compute and DMA. Its tail
/// (GroupPlan::tailStart, when its buffers are placed for it) in k row
/// pieces runs as a pipeline (Codegen's tailPieces; piecesCycles): the
/// first piece's compute, then each further one beside the store of the
/// one before, then the last store (its piece half the rows of the
/// others); each piece adds its calls (pieceCalls). Sets TailPieces to the
/// k of the fewest cycles, 1 if no pieces.
static double plainItemCycles(GroupPass &pass) {
  GroupPlan &p = pass.plan;
  const CostModel &m = pass.cost;
  int from = p.tailStart(pass.net);
  if (from && !lmemDisjoint(tailHeldBuffers(p, from)))
    from = 0;
  p.TailPieces = 1;
  double head = 0, whole = 0, compute = 0, loads = 0;
  for (int ts = 0; ts < int(p.Steps.size()); ++ts) {
    const TimeStep &s = p.Steps[ts];
    (from && ts >= from ? whole : head) += stepCycles(s, s.DmaCycles);
    if (from && ts >= from && ts + 1 < int(p.Steps.size()))
      compute += s.ComputeCycles, loads += s.DmaCycles;
  }
  if (!from)
    return head;
  // In pieces the tail's loads go with the step before it.
  const TimeStep &before = p.Steps[from - 1];
  double moved = stepCycles(before, before.DmaCycles + loads) -
                 stepCycles(before, before.DmaCycles);
  double store = p.Steps.back().DmaCycles, best = whole;
  int out = p.Info.Outputs.front();
  int64_t rows = std::min<int64_t>(p.H.stepOf(pass.net.Tensors[out].H),
                                   pass.net.Tensors[out].H);
  double calls = pieceCalls(pass, from);
  for (int k = 2; k <= MaxTailPieces && k <= rows; ++k) {
    double tail = moved + piecesCycles(m, compute, calls, store, rows, k, 0);
    if (tail < best)
      best = tail, p.TailPieces = k;
  }
  return head + best;
}

/// The most row pieces of a pipelined core's last item (GroupPlan::
/// LastPieces).
constexpr int MaxLastPieces = 4;

/// What a pipelined core's last item in k row pieces from step F
/// (GroupPlan::lastPiecesStart; Codegen's lastItemPieces) saves against
/// computing those steps whole (from ts1: the item's steps beside the
/// previous item's stores alone, after the first of \p rounds items: the
/// last item loads no next one) and storing the item alone after the
/// loop: the pieces as piecesCycles, the first beside those stores when F
/// is ts1, of the typical item's rows. Sets LastPieces to the k that
/// saves the most, 1 if none saves.
static double lastPiecesSaving(GroupPass &pass, int rounds) {
  GroupPlan &p = pass.plan;
  const Net &n = pass.net;
  const CostModel &m = pass.cost;
  p.LastPieces = 1;
  int from = p.lastPiecesStart(n);
  bool byRows = from == 1 && p.rowsEveryItem(n);
  if (!pass.options.LastPieces || !from ||
      (p.firstTileRows(n) && !byRows && rounds < 2) ||
      !lmemDisjoint(tailHeldBuffers(p, from)))
    return 0;
  int out = p.Info.Outputs.front();
  int64_t height = n.Tensors[out].H;
  int64_t rows = std::min<int64_t>(p.H.stepOf(height), height);
  double compute = 0, first = p.Steps[from].ComputeCycles;
  for (size_t ts = from; ts + 1 < p.Steps.size(); ++ts)
    compute += p.Steps[ts].ComputeCycles;
  if (byRows) { // only the tile's last kernel row (lastRowsFirst)
    double row = first / p.firstTileRows(n);
    compute -= first - row, first = row;
  }
  double store = p.Steps.back().DmaCycles, calls = pieceCalls(pass, from);
  double lat = m.dma(64, true);
  // Item \p it's rows of the output, and its share of the typical item's.
  ItemAxis axis = p.rowAxis();
  auto itemRows = [&](int it) {
    int64_t lo = std::min<int64_t>(axis.of(it) * rows, height);
    return std::min<int64_t>(lo + rows, height) - lo;
  };
  // Each core's last item: its steps from F whole (the first beside the
  // previous item's stores, from ts1) and its store, against the pieces.
  // An edge item of fewer rows (the stores before it as long) saves least:
  // the fewest over the cores counts.
  double best = 0;
  for (int k = 2; k <= MaxLastPieces && k <= rows; ++k) {
    double saved = HUGE_VAL;
    for (int c = 0; c < p.Cores; ++c) {
      int b = p.itemBegin(c), e = p.itemEnd(c);
      if (b >= e)
        continue;
      int64_t r = itemRows(e - 1);
      if (r < k)
        continue; // pieces of no rows: as good as fewer
      double f = double(r) / double(rows);
      double before = from == 1 && e - 1 > b
                          ? lat + (store - lat) * double(itemRows(e - 2)) /
                                      double(rows)
                          : 0.0;
      double own = lat + (store - lat) * f;
      double whole = (from == 1 ? std::max(f * first, before) +
                                      f * (compute - first)
                                : f * compute) +
                     own;
      double t = piecesCycles(m, f * compute, calls, own, r, k, before);
      saved = std::min(saved, whole - t);
    }
    if (saved > best && saved < HUGE_VAL)
      best = saved, p.LastPieces = k;
  }
  return best;
}

/// Chunked staging (GroupPlan::chunkedStaging): what the rest of a phase's
/// staged input adds to the items beside whose compute it moves: this
/// core's share of each of its ranges read in the transfer step of item
/// StageItem (IO-DMA), sent to the other clusters in step StageSendStep
/// of that item or in the transfer step of the next (Move-DMA), each
/// against the step's own DMA (\p moved: the next item's loads and the
/// previous one's stores; item 0 stores nothing). The second barrier waits
/// for nothing more: every core has the same work up to it.
static double stagedRestCycles(const GroupPass &pass, double moved) {
  const GroupPlan &p = pass.plan;
  double read = 0, sends = 0, midRead = 0, midSends = 0;
  stagedShares(pass, p.stagedRest(pass.net), read, sends);
  // Chunk 1's read: with the first tile's pieces (tileLoadCycles).
  stagedShares(pass, p.StageMid, midRead, midSends);
  int ts = p.transferStep();
  auto extra = [&](double own, double dma) {
    return pipelinedStepCycles(pass, ts, own + dma) -
           pipelinedStepCycles(pass, ts, own);
  };
  // Chunk 1's sends in item 1's transfer step, with the rest's read when
  // StageItem is 1.
  bool together = p.StageItem == 1;
  double c = extra(p.StageItem == 0 ? p.Steps[0].DmaCycles : moved,
                   read + (together ? midSends : 0));
  if (!together)
    c += extra(moved, midSends);
  if (!p.StageSendStep)
    return c + extra(moved, sends);
  const TimeStep &s = p.Steps[p.StageSendStep];
  return c + stepCycles(s, s.DmaCycles + sends) - stepCycles(s, s.DmaCycles);
}

/// GroupPlan::LateWeights, the cycles the late weights add (Codegen's
/// lateWeightReads, lateWeightSends, lateWeightCopies): phase 0 reads each
/// core's share (IO-DMA) after the per-channel vectors, beside the last
/// sends of chunk 0 (vectorCycles charges the vectors); the first item
/// sends it to the other clusters (Move-DMA) beside its transfer step's
/// compute and own DMA (the first item's loads, and the rest of the staged
/// input when StageItem is 0); then a barrier, which waits for nothing
/// more (every core has the same work up to it), and the SRAM->WRAM copies
/// of lateWeightStep's weights beside the compute of the steps before it,
/// those of later steps beside it and the steps up to the next that reads
/// late weights.
static double lateWeightsCycles(const GroupPass &pass) {
  const GroupPlan &p = pass.plan;
  if (!p.LateWeights)
    return 0;
  const CostModel &m = pass.cost;
  const Net &net = pass.net;
  std::vector<int> steps = p.lateWeightSteps(net);
  double bytes = 0, copies[2] = {0, 0}; // of the first step, of the others
  for (int l : pass.group.Layers)
    if (p.lateWeight(net, l)) {
      double b = double(int64_t(net.Layers[l].Weight.size()) *
                        net.weightElemBytes(net.Layers[l]));
      bytes += b;
      const std::vector<int> &at = p.Steps[steps.front()].Compute;
      bool first = std::find(at.begin(), at.end(), l) != at.end();
      copies[first ? 0 : 1] += m.dma(b, false);
    }
  double share = bytes / p.Cores;
  std::vector<double> in = phaseInputBytes(pass);
  double lastSends =
      in.empty() ? 0 : (p.Clusters - 1) * m.dma(in.back() / p.Cores, false);
  double io = vectorLoadCycles(pass);
  double read = m.dma(share, true);
  double c = p.LateSplit ? 0
                         : std::max(0.0, io + read - lastSends) -
                               std::max(0.0, io - lastSends);
  double own = p.Steps[0].DmaCycles;
  if (p.chunkedStaging() && p.StageItem == 0) {
    int64_t eb = net.Tensors[pass.group.Inputs[0]].elemBytes();
    for (const RowRange &r : p.stagedRest(net))
      own += m.dma(double(r.size() * eb) / p.Cores, true);
  }
  int ts = p.transferStep();
  double sends = (p.Clusters - 1) * m.dma(share, false);
  if (p.LateSplit) { // the read beside the first half, the rest the second
    double half = p.Steps[ts].ComputeCycles / 2;
    c += std::max(half, read) + std::max(half, own + sends) -
         std::max(2 * half, own);
  } else {
    c += pipelinedStepCycles(pass, ts, own + sends) -
         pipelinedStepCycles(pass, ts, own);
  }
  auto beside = [&](int from, int to) {
    double compute = 0;
    for (int u = from; u < to; ++u)
      compute += p.Steps[u].ComputeCycles;
    return compute;
  };
  c += std::max(0.0, copies[0] - beside(ts + 1, steps.front()));
  if (steps.size() > 1)
    c += std::max(0.0, copies[1] - beside(steps[0], steps[1]));
  return c;
}

/// The latest item that may read the rest of the staged input (a later
/// one needs a larger chunk 0 and stages less beside the compute).
constexpr int MaxStageItem = 2;
/// Chunked staging adds a barrier and moves DMA beside the compute, where
/// the estimate is less exact: kept only when it saves at least this
/// share of the group's estimate (FLOAT16 VGG-16's conv3_1 in 56 x 2
/// tiles: an estimated 67 of 42,945 cycles, 295 more simulated).
constexpr double MinChunkedGain = 0.005;

static void estimateWith(GroupPass &pass, const Traffic &traffic);
static void lateWeights(GroupPass &pass, const Traffic &traffic);

// Cycles: per item the sum over steps of max(compute, DMA); a pipelined item
// hides its input loads and output stores behind its first compute. Per
// phase the staging, the items and the pipeline fill and drain; once the
// prologue and the busiest core's weight tiles. Inputs staged once per chip
// by a pipelined group may stage most of each phase beside the items
// (GroupPlan::chunkedStaging): the item that reads the rest and the step
// that sends it (the next item's transfer step, or the step after this
// one's with the most compute) with the fewest cycles, if fewer than
// staging all first by MinChunkedGain. Item 0 of a first tile loaded by
// kernel rows reads none: its IO-DMA loads the rows, a __sync() after
// each.
void estimateCycles(GroupPass &pass, const Traffic &traffic) {
  GroupPlan &p = pass.plan;
  p.StageFirst.clear(), p.StageMid.clear(), p.StageItem = 0,
      p.StageSendStep = 0;
  p.LateWeights = false, p.LateSplit = false;
  p.ClusterSends = pass.options.ClusterSends && p.phased() &&
                   p.pipelined() && p.weightTiles() && p.inputsResident() &&
                   p.Clusters > 1;
  estimateWith(pass, traffic);
  if (!pass.options.ChunkedStaging || p.Info.Inputs.size() != 1 ||
      !p.phased() || !p.pipelined())
    return lateWeights(pass, traffic);
  int64_t granule =
      int64_t(p.Cores) *
      std::max<int64_t>(1, pass.spec.gdramAccessBytes /
                               pass.net.Tensors[p.Info.Inputs[0]].elemBytes());
  int later = 0; // the step after the transfer step with the most compute
  for (int ts = p.transferStep() + 1; ts <= pass.layers(); ++ts)
    if (!later || p.Steps[ts].ComputeCycles > p.Steps[later].ComputeCycles)
      later = ts;
  std::vector<int> sendSteps = {0};
  if (later)
    sendSteps.push_back(later);
  double best = p.Cycles * (1 - MinChunkedGain);
  std::vector<RowRange> bestFirst, bestMid;
  int bestItem = 0, bestSend = 0;
  auto consider = [&] {
    estimateWith(pass, traffic);
    if (p.Cycles < best)
      best = p.Cycles, bestFirst = p.StageFirst, bestMid = p.StageMid,
      bestItem = p.StageItem, bestSend = p.StageSendStep;
  };
  // Chunk 1 (GroupPlan::StageMid): chunk 0 for the items before its
  // barrier, chunk 1 the rows of those up to \p upTo (the whole phase
  // when empty).
  bool mids = pass.options.StageMid && p.firstTileRows(pass.net) &&
              p.SramPhases == 1;
  std::vector<RowRange> first =
      mids ? p.stagedFirst(pass.net, GroupPlan::StageMidBarrier + 1, granule)
           : std::vector<RowRange>{};
  auto withMid = [&](const std::vector<RowRange> &upTo) {
    if (first.empty())
      return;
    int64_t total =
        p.SramImages * pass.net.Tensors[p.Info.Inputs[0]].elements();
    p.StageMid = GroupPlan::rangesLeft(
        upTo.empty() ? std::vector<RowRange>{{0, total}} : upTo, first);
    p.StageFirst = first;
    consider();
    p.StageMid.clear();
  };
  for (int j = p.firstTileRows(pass.net) ? 1 : 0; j <= MaxStageItem; ++j)
    for (int send : sendSteps) {
      p.StageItem = j, p.StageSendStep = send;
      p.StageFirst =
          p.stagedFirst(pass.net, p.stageBarrierItem() + 1, granule);
      if (p.StageFirst.empty())
        continue;
      std::vector<RowRange> upTo = p.StageFirst;
      consider();
      if (!send && p.stageBarrierItem() > GroupPlan::StageMidBarrier)
        withMid(upTo);
    }
  // Chunk 0 and chunk 1 only, no rest.
  p.StageItem = 1, p.StageSendStep = 0;
  withMid({});
  p.StageFirst = std::move(bestFirst), p.StageMid = std::move(bestMid);
  p.StageItem = bestItem, p.StageSendStep = bestSend;
  estimateWith(pass, traffic);
  lateWeights(pass, traffic);
}

// The weights ts1 does not need staged beside the first item
// (GroupPlan::LateWeights), if the estimate is lower.
static void lateWeights(GroupPass &pass, const Traffic &traffic) {
  GroupPlan &p = pass.plan;
  if (!pass.options.LateWeights || !p.lateWeightsFit(pass.net))
    return;
  double best = p.Cycles;
  int bestMode = 0; // 0: none, 1: LateWeights, 2: and LateSplit
  for (int mode = 1; mode <= 2; ++mode) {
    p.LateWeights = true, p.LateSplit = mode == 2;
    if (p.LateSplit && !p.lateSplitFits(pass.net))
      continue;
    estimateWith(pass, traffic);
    if (p.Cycles < best)
      best = p.Cycles, bestMode = mode;
  }
  p.LateWeights = bestMode > 0, p.LateSplit = bestMode == 2;
  estimateWith(pass, traffic);
}


/// GroupPlan::ReluFloors, once per core: the bias negated (lg_floor_of_bias)
/// and the reader's bias folded (lg_fold_floor: a tile of the floor, its
/// convolution, a subtraction).
static double reluFloorsCycles(const GroupPass &pass) {
  const CostModel &m = pass.cost;
  double c = 0;
  for (auto [relu, conv] : pass.plan.ReluFloors) {
    const Layer &r = pass.net.Layers[pass.plan.ReluTiles.at(relu)];
    double ch = double(pass.net.Tensors[pass.net.Layers[conv].Output].C);
    double f = double(pass.net.Tensors[r.Output].C);
    double tile = double(r.KY * r.KX) * ch;
    c += m.vec(BANG_OP_MUL, ch) + m.vec(BANG_OP_MOVE, tile) +
         m.vec(BANG_OP_ALU, tile) + m.mac(tile * f) + m.vec(BANG_OP_ALU, f) +
         m.scalar(5 * ScalarPerCall);
  }
  return c;
}

static void estimateWith(GroupPass &pass, const Traffic &traffic) {
  GroupPlan &p = pass.plan;
  // A core with one item per phase stores and loads nothing in ts1.
  int phaseItems = p.items() / p.SramPhases;
  int rounds = (phaseItems + p.Cores - 1) / p.Cores;
  double fillDrain = p.Steps[0].DmaCycles + p.Steps.back().DmaCycles;
  double item = 0;
  double moved = rounds > 1 ? fillDrain : 0;
  if (p.pipelined()) {
    item = pipelinedStepsCycles(pass, moved);
  } else {
    item = plainItemCycles(pass);
  }
  double last = p.pipelined() ? lastPiecesSaving(pass, rounds) : 0.0;
  double phase = 0;
  if (p.phased() && !(p.pipelined() && p.weightTiles()))
    phase += stageAllCycles(pass, phaseInputBytes(pass), 0);
  else if (p.clusterSends()) // this core's share, then its cluster's sends
    phase += pass.cost.dma(stagedBeforeItems(pass) / p.Cores, true) +
             clusterSendCycles(pass);
  else if (p.inputsInSram())
    phase += stageCycles(pass, stagedBeforeItems(pass));
  if (p.chunkedStaging())
    phase += stagedRestCycles(pass, moved);
  phase += padRowsCycles(pass, moved);
  phase += phaseItemCycles(pass, rounds, item, moved) +
           (p.pipelined() ? fillDrain : 0) - last;
  p.ReadAhead = readAhead(pass, stagedWeightBytes(pass));
  double prologue = prologueCycles(pass, traffic);
  double tiles = tileLoadCycles(pass, moved);
  p.Cycles = prologue + tiles + p.SramPhases * phase + lateWeightsCycles(pass) +
             reluFloorsCycles(pass);
}

} // namespace plan

} // namespace bangc::lg
