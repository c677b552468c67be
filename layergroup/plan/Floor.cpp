//===- Floor.cpp - LayerGroup planner: the roofline floor of a group ------===//
//
// How close a group's kernel comes to what the device allows needs a floor
// to measure against (issue 22, item 4). The floor of a group is the
// largest of three times, each for the whole device with every core busy
// and with the cost model's own rates (bangsim/CostModel.h, the formulas
// simrt charges): the matrix unit's multiply-accumulates, the vector unit's
// work (each output element once, at its op class's rate), and the GDRAM
// bytes the group's boundary needs (each input element the group's layers
// read loaded once, each output written once, each parameter read once). No
// start-ups, granules, halos, tiles or re-reads: those are what a schedule adds
// above the floor.
//
//===----------------------------------------------------------------------===//
#include "layergroup/plan/GroupPass.h"

#include <algorithm>
#include <vector>

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

/// Marks the rows (columns) of an input of \p need.size() rows that a
/// window of \p k taps, stride \p s, padding \p pad and dilation \p d
/// reads for \p out output rows.
void markWindow(std::vector<char> &need, int64_t out, int64_t k, int64_t s,
                int64_t pad, int64_t d) {
  int64_t extent = int64_t(need.size());
  for (int64_t o = 0; o < out; ++o)
    for (int64_t t = 0; t < k; ++t) {
      int64_t i = o * s - pad + t * d;
      if (i >= 0 && i < extent)
        need[size_t(i)] = 1;
    }
}

/// The runs [lo, hi) of marked rows (columns).
std::vector<std::pair<int64_t, int64_t>> runs(const std::vector<char> &need) {
  std::vector<std::pair<int64_t, int64_t>> r;
  for (int64_t i = 0, n = int64_t(need.size()); i < n;) {
    if (!need[size_t(i)]) {
      ++i;
      continue;
    }
    int64_t lo = i;
    while (i < n && need[size_t(i)])
      ++i;
    r.push_back({lo, i});
  }
  return r;
}

} // namespace

int64_t neededInputElements(const Net &n, const GroupInfo &g, int t) {
  const Tensor &in = n.Tensors[t];
  std::vector<char> rows(size_t(in.H), 0), cols(size_t(in.W), 0);
  for (int l : g.Layers) {
    const Layer &layer = n.Layers[l];
    if (std::find(layer.Inputs.begin(), layer.Inputs.end(), t) ==
        layer.Inputs.end())
      continue;
    const Tensor &out = n.Tensors[layer.Output];
    if (!layer.windowed()) { // every element
      std::fill(rows.begin(), rows.end(), 1);
      std::fill(cols.begin(), cols.end(), 1);
      continue;
    }
    markWindow(rows, out.H, layer.KY, layer.SY, layer.PU, layer.DY);
    markWindow(cols, out.W, layer.KX, layer.SX, layer.PL, layer.DX);
  }
  int64_t elems = 0;
  for (auto [r0, r1] : runs(rows))
    for (auto [c0, c1] : runs(cols))
      elems += in.loadedElements(r0, r1, c0, c1);
  return elems;
}

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
    r.ParamBytes += plan::weightElems(n, layer, n.Tensors[layer.Output].C) *
                        n.weightElemBytes(layer) +
                    plan::vecElems(layer) * n.vectorElemBytes(layer);
  }
  for (int c = 0; c < BANG_OP_NUM_CLASSES; ++c)
    if (work.bytes[c] > 0) // (a class the spec gives no rate may be unused)
      r.Vector +=
          cost::vectorStreamCycles(spec, c, work.bytes[c] * double(batch)) /
          cores;
  for (int t : g.Inputs)
    r.InputBytes +=
        neededInputElements(n, g, t) * n.Tensors[t].elemBytes() * batch;
  r.ReadBytes = r.InputBytes + r.ParamBytes;
  for (int t : g.Outputs)
    r.WriteBytes += n.Tensors[t].bytes() * batch;
  // The card's bandwidth: every core's share together.
  double chip = cost::gdramBytesPerCycle(spec, spec.numCores()) * cores;
  r.Gdram = cost::gdramStreamCycles(spec, chip, double(r.ReadBytes),
                                    double(r.WriteBytes), /*strided=*/false);
  return r;
}

} // namespace bangc::lg
