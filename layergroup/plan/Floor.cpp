//===- Floor.cpp - LayerGroup planner: the roofline floor of a group ------===//
//
// How close a group's kernel comes to what the device allows needs a floor
// to measure against (issue 22, item 4). The floor of a group is the
// largest of three times, each for the whole device with every core busy
// and with the cost model's own rates (bangsim/CostModel.h, the formulas
// simrt charges): the matrix unit's multiply-accumulates, the vector unit's
// work (each output element once, at its op class's rate), and the GDRAM
// bytes the group's boundary needs (each input read once, each output
// written once, each parameter read once). No start-ups, granules, halos,
// tiles or re-reads: those are what a schedule adds above the floor.
//
//===----------------------------------------------------------------------===//
#include "layergroup/plan/GroupPass.h"

namespace bangc::lg {

namespace {

/// Vector work of one image of a layer: bytes of destination per op class,
/// as the device's intrinsics charge them (a pool's taps, an add per extra
/// input, a per-channel bias or alpha once per output element).
struct VectorWork {
  double bytes[BANG_OP_NUM_CLASSES] = {};
  void add(int opClass, double elements, int64_t elemBytes) {
    bytes[opClass] += elements * double(elemBytes);
  }
};

void addLayerWork(const Net &n, const Layer &l, VectorWork &w) {
  const Tensor &out = n.Tensors[l.Output];
  double elems = double(out.elements());
  int64_t eb = out.elemBytes();
  if (!l.Bias.empty())
    w.add(BANG_OP_ALU, elems, eb);
  switch (l.Kind) {
  case OpKind::Conv: // the matrix unit; its bias above
    break;
  case OpKind::MaxPool:
  case OpKind::MinPool:
  case OpKind::SumPool:
    w.add(BANG_OP_REDUCE, elems * double(l.KY * l.KX), eb);
    break;
  case OpKind::Relu:
    w.add(BANG_OP_ACT, elems, eb);
    break;
  case OpKind::Clamp:
    w.add(BANG_OP_ALU, elems, eb);
    break;
  case OpKind::Add:
    w.add(BANG_OP_ALU, elems * double(l.Inputs.size() - 1), eb);
    break;
  case OpKind::Scale:
    w.add(BANG_OP_MUL, elems, eb);
    break;
  case OpKind::Lut: // one lookup per element (__bang_lut, the REDUCE class;
                    // lg_lut gathers in a scalar loop)
    w.add(BANG_OP_REDUCE, elems, eb);
    break;
  case OpKind::Mul: // CVVH: one product per element; its bias above
    w.add(BANG_OP_MUL, elems, eb);
    break;
  case OpKind::Lif: // V = decay * V, + x - leak, >= threshold, reset
    // (lg_lif runs it as a scalar loop; the device could on the vector unit)
    w.add(BANG_OP_MUL, elems, eb);
    w.add(BANG_OP_ALU, 3 * elems, eb);
    break;
  }
}

} // namespace

Roofline groupFloor(const Net &n, const bangsim::DeviceSpec &spec,
                    int64_t batch, const GroupInfo &g) {
  namespace cost = bangsim::cost;
  Roofline r;
  double cores = double(spec.numCores());
  VectorWork work;
  for (int l : g.Layers) {
    const Layer &layer = n.Layers[l];
    addLayerWork(n, layer, work);
    if (layer.Kind == OpKind::Conv) {
      int64_t macs = n.macs(l) * batch;
      r.Macs += macs;
      int dtype = plan::bangDType(n.Tensors[layer.Inputs[0]].Type);
      r.Matrix += double(macs) / cost::matrixMacsPerCycle(spec, dtype) / cores;
    }
    r.ReadBytes += plan::weightElems(n, layer, n.Tensors[layer.Output].C) *
                       n.weightElemBytes(layer) +
                   plan::vecElems(layer) * n.vectorElemBytes(layer);
  }
  for (int c = 0; c < BANG_OP_NUM_CLASSES; ++c)
    if (work.bytes[c] > 0) // (a class the spec gives no rate may be unused)
      r.Vector +=
          cost::vectorStreamCycles(spec, c, work.bytes[c] * double(batch)) /
          cores;
  for (int t : g.Inputs)
    r.ReadBytes += n.Tensors[t].bytes() * batch;
  for (int t : g.Outputs)
    r.WriteBytes += n.Tensors[t].bytes() * batch;
  // The card's bandwidth: every core's share together.
  double chip = cost::gdramBytesPerCycle(spec, spec.numCores()) * cores;
  r.Gdram = cost::gdramStreamCycles(spec, chip, double(r.ReadBytes),
                                    double(r.WriteBytes), /*strided=*/false);
  return r;
}

} // namespace bangc::lg
