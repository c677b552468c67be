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

/// How many times a layer does its floor's per-element work (the PER
/// column of layergroup/OpKinds.def).
enum class Per { Element, Tap, ExtraInput };
double perElement(const Layer &l, Per per) {
  switch (per) {
  case Per::Element:
    return 1;
  case Per::Tap:
    return double(l.KY * l.KX);
  case Per::ExtraInput:
    return double(l.Inputs.size() - 1);
  }
  return 1;
}

/// The ALU, MUL, ACT and REDUCE columns of layergroup/OpKinds.def (the
/// convolution's own work is the matrix unit's).
void addLayerWork(const Net &n, const Layer &l, VectorWork &w) {
  const Tensor &out = n.Tensors[l.Output];
  double elems = double(out.elements());
  int64_t eb = out.elemBytes();
  if (!l.Bias.empty())
    w.add(BANG_OP_ALU, elems, eb);
  auto add = [&](int opClass, int ops, Per per) {
    if (ops > 0)
      w.add(opClass, double(ops) * (elems * perElement(l, per)), eb);
  };
  switch (l.Kind) {
#define LG_OPKIND(KIND, NAME, VECTORS, CHAN_SLICE, COMPUTE, LOOP, INT_LOOP,    \
                  ALU, MUL, ACT, REDUCE, PER)                                  \
  case OpKind::KIND:                                                           \
    add(BANG_OP_ALU, ALU, Per::PER);                                           \
    add(BANG_OP_MUL, MUL, Per::PER);                                           \
    add(BANG_OP_ACT, ACT, Per::PER);                                           \
    add(BANG_OP_REDUCE, REDUCE, Per::PER);                                     \
    break;
#include "layergroup/OpKinds.def"
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
  for (int t : g.Inputs) {
    const Tensor &in = n.Tensors[t];
    r.ReadBytes +=
        in.loadedElements(0, in.H, 0, in.W) * in.elemBytes() * batch;
  }
  for (int t : g.Outputs)
    r.WriteBytes += n.Tensors[t].bytes() * batch;
  // The card's bandwidth: every core's share together.
  double chip = cost::gdramBytesPerCycle(spec, spec.numCores()) * cores;
  r.Gdram = cost::gdramStreamCycles(spec, chip, double(r.ReadBytes),
                                    double(r.WriteBytes), /*strided=*/false);
  return r;
}

} // namespace bangc::lg
