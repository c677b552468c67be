//===- Buffers.cpp - LayerGroup planner: time steps and buffers -----------===//
//
// The time-step table of one item (load the inputs, compute each layer,
// store the outputs) and the buffers it needs, as rectangles of time steps
// x bytes: activations, per-channel vectors and scratch tiles in NRAM,
// convolution weights in WRAM. Double buffers for a pipelined item loop;
// in-place element-wise layers; group inputs loaded straight into their
// reader's padded window tile.
//
//===----------------------------------------------------------------------===//
#include "layergroup/plan/GroupPass.h"

#include <algorithm>
#include <cmath>

namespace bangc::lg::plan {

bool vectorPool(const Layer &l) {
  if (l.Integer)
    return false;
  return l.Kind == OpKind::SumPool ||
         (l.Kind == OpKind::MaxPool && std::isinf(l.Cmp) && l.Cmp < 0);
}

int64_t tileCols(const Layer &l, int64_t outCols) {
  return (outCols - 1) * l.SX + l.keffX();
}

int64_t tileRows(const Layer &l, int64_t outRows) {
  return (outRows - 1) * l.SY + l.keffY();
}

/// True if a window op may need a padded scratch tile (inCols and outCols:
/// the columns of its input and output slices).
static bool needsTile(const Layer &l, int64_t inCols, int64_t outCols) {
  return l.PU || l.PD || l.PL || l.PR || tileCols(l, outCols) != inCols;
}

int64_t weightElems(const Net &net, const Layer &l, int64_t channels) {
  if (l.Kind == OpKind::Conv)
    return channels * net.Tensors[l.Inputs[0]].C * l.KY * l.KX;
  return 0;
}

int64_t vecElems(const Layer &l) {
  return int64_t(l.Bias.size() + l.Alpha.size());
}

GroupPass::GroupPass(const Net &net, const bangsim::DeviceSpec &spec,
                     const GroupInfo &group, const PlanOptions &options,
                     GroupPlan &plan)
    : net(net), spec(spec), group(group), options(options),
      plan(plan), cost{spec, plan.Cores} {
  for (int t : group.Inputs)
    inputBytes += plan.Batch * net.Tensors[t].bytes();
}

int GroupPass::lastUse(int t) const {
  int last = -1;
  for (int c : net.Tensors[t].Consumers)
    if (group.contains(c))
      last = std::max(last, computeStep(c));
  return last;
}

// A window op reads its slice in place when no padding is needed and the
// slice is exactly its window; with W slices an input read by several
// layers holds their hull, so it copies.
LayerSlice GroupPass::layerSlice(int l) const {
  const Layer &layer = net.Layers[l];
  int in0 = layer.Inputs[0], t = layer.Output;
  LayerSlice s{rowsCap(t), colsCap(t), colsCap(in0), plan.sliceChannels(net, t),
               false};
  int readers = group.readers(net, in0);
  s.tile = layer.windowed() &&
           (layer.Kind == OpKind::Conv || vectorPool(layer)) &&
           (needsTile(layer, s.inCols, s.outCols) ||
            (plan.WSecs > 1 && readers > 1)) &&
           !plan.PaddedInputs.count(in0) && !plan.StridedInputs.count(in0);
  return s;
}

int64_t GroupPass::inputBufferBytes(int t) const {
  if (auto s = plan.StridedInputs.find(t); s != plan.StridedInputs.end()) {
    int out = net.Layers[s->second].Output;
    return net.Tensors[t].C * rowsCap(out) * colsCap(out) *
           net.Tensors[t].elemBytes();
  }
  auto it = plan.PaddedInputs.find(t);
  if (it == plan.PaddedInputs.end())
    return plan.sliceBytes(net, t);
  const Layer &reader = net.Layers[it->second];
  return net.Tensors[t].C * tileRows(reader, rowsCap(reader.Output)) *
         tileCols(reader, colsCap(reader.Output)) * net.Tensors[t].elemBytes();
}

// A group input read by one convolution alone, which pads it, is loaded
// straight into that convolution's window tile (one image per item): its
// buffer is the tile, and the convolution copies nothing. Whole rows: the
// padding columns are zeroed once; under W slices each load zeroes the
// padding of its item's tile.
void choosePaddedInputs(GroupPass &pass) {
  const Net &net = pass.net;
  GroupPlan &p = pass.plan;
  for (int t : pass.group.Inputs) {
    int reader = -1, readers = 0;
    for (int c : net.Tensors[t].Consumers)
      if (pass.group.contains(c))
        reader = c, ++readers;
    if (readers != 1 || p.ImagesPerSlice != 1 || net.Tensors[t].isView() ||
        net.Layers[reader].Kind != OpKind::Conv ||
        !pass.layerSlice(reader).tile)
      continue;
    // Under W slices each load fills the tile of its item's columns and
    // zeroes the padding around them (lg_load_window); a resident input is
    // loaded once for all items. Only in a pipelined item loop: a plain
    // item's estimate (small_fp16's 2 x 2 tiles: 6,475 cycles against
    // 9,288 simulated) is low enough already that the copy saved tips
    // its search towards tiles that run slower than the one group.
    const Layer &conv = net.Layers[reader];
    if (p.WSecs > 1
            ? !pass.options.WindowTiles || !p.pipelined() || p.inputsResident()
            : conv.PL + net.Tensors[t].W >
                  tileCols(conv, pass.colsCap(conv.Output)))
      continue;
    p.PaddedInputs[t] = reader;
  }
}

// A group input read by one 1x1 convolution alone, without padding on any
// side (a padding row or column past the input would be read from the next
// image or past the tensor's end), of
// stride SY x SX above 1: its load copies only the pixels the convolution
// reads (every SY-th row, SX-th column) into a dense tile of the
// convolution's output rows x columns, one image per item, and the
// convolution runs at stride 1 on it. Its GDRAM bytes are then the
// group-boundary minimum (neededInputElements). Not for views, channel
// slices or resident inputs (a global group's, loaded once per core).
void chooseStridedInputs(GroupPass &pass) {
  const Net &net = pass.net;
  GroupPlan &p = pass.plan;
  if (!pass.options.StridedLoads || p.ImagesPerSlice != 1 || p.SlicedInputs ||
      p.inputsResident())
    return;
  for (int t : pass.group.Inputs) {
    int reader = -1, readers = 0;
    for (int c : net.Tensors[t].Consumers)
      if (pass.group.contains(c))
        reader = c, ++readers;
    if (readers != 1 || net.Tensors[t].isView() || p.PaddedInputs.count(t))
      continue;
    const Layer &conv = net.Layers[reader];
    if (conv.Kind != OpKind::Conv || conv.KY != 1 || conv.KX != 1 ||
        conv.PU != 0 || conv.PD != 0 || conv.PL != 0 || conv.PR != 0 ||
        (conv.SY == 1 && conv.SX == 1) || conv.Inputs.size() != 1)
      continue;
    p.StridedInputs[t] = reader;
  }
}

namespace {

LmemBuffer buffer(LmemBuffer::Kind kind, std::string name, int64_t bytes,
                  int start, int end, int order) {
  LmemBuffer b;
  b.K = kind;
  b.Name = std::move(name);
  b.Bytes = bytes;
  b.Start = start, b.End = end;
  b.Order = order;
  return b;
}

/// Group inputs: loaded in ts0 (pipelined or resident) or at their first
/// reader's step; double-buffered when pipelined.
void placeInputs(GroupPass &pass, int &orderId) {
  const Net &net = pass.net;
  GroupPlan &p = pass.plan;
  for (int t : pass.group.Inputs) {
    int first = INT_MAX;
    for (int c : net.Tensors[t].Consumers)
      if (pass.group.contains(c))
        first = std::min(first, c - pass.group.First);
    bool held = p.pipelined() || p.inputsResident();
    int loadStep = held ? 0 : first;
    p.Steps[loadStep].LoadTensors.push_back(t);
    bool twice = p.pipelined() && !p.inputsResident();
    // A padded input's padding columns are zeroed once, in the prologue: no
    // other buffer may share its NRAM, before its load or after.
    bool padded = p.PaddedInputs.count(t);
    for (int copy = 0; copy < (twice ? 2 : 1); ++copy) {
      LmemBuffer b = buffer(
          LmemBuffer::Activation, net.Tensors[t].Name + (copy ? "'" : ""),
          pass.inputBufferBytes(t), padded ? 0 : loadStep,
          (held || padded) ? TsInf : pass.lastUse(t), orderId);
      b.Tensor = t, b.Copy = copy;
      p.Buffers.push_back(b);
    }
    if (net.Tensors[t].gathered()) {
      // Its index table and source window (lg_gather_view), for the whole
      // kernel: the loads of a pipelined item run in another item's steps.
      LmemBuffer b =
          buffer(LmemBuffer::Scratch, net.Tensors[t].Name + ".gather",
                 p.gatherScratchBytes(net, t), 0, TsInf, orderId);
      b.Layer = t, b.Tensor = t, b.Part = 4;
      p.Buffers.push_back(b);
    }
    ++orderId;
  }
}

/// Layer \p l's weights (WRAM, per step unless resident or tiled; two
/// tiles for a pipelined global group) and per-channel vectors (NRAM,
/// loaded once per core).
void placeParameters(GroupPass &pass, int l, int orderId) {
  const Layer &layer = pass.net.Layers[l];
  GroupPlan &p = pass.plan;
  int64_t elems =
      weightElems(pass.net, layer, p.weightTileChannels(pass.net, l));
  if (elems > 0) {
    bool held = p.weightsResident() || p.global();
    int loadStep = held ? 0 : l - pass.group.First;
    p.Steps[loadStep].LoadWeights.push_back(l);
    int copies = (p.global() && p.pipelined()) ? 2 : 1;
    for (int copy = 0; copy < copies; ++copy) {
      LmemBuffer b =
          buffer(LmemBuffer::Weight, layer.Name + ".w" + (copy ? "'" : ""),
                 elems * pass.net.weightElemBytes(layer), loadStep,
                 held ? TsInf : pass.computeStep(l), orderId);
      b.Layer = l, b.Copy = copy, b.Part = 0;
      p.WramBuffers.push_back(b);
    }
  }
  const int64_t vectors[3] = {0, int64_t(layer.Bias.size()),
                              int64_t(layer.Alpha.size())};
  for (int part = 1; part < 3; ++part) {
    if (vectors[part] == 0)
      continue;
    LmemBuffer b = buffer(
        LmemBuffer::Weight, layer.Name + (part == 1 ? ".b" : ".a"),
        vectors[part] * pass.net.vectorElemBytes(layer), 0, TsInf, orderId);
    b.Layer = l, b.Part = part;
    p.Buffers.push_back(b);
  }
}

/// Layer \p l's scratch tiles: the padded window tile,
/// a HalfViaFloat layer's float chunk.
void placeScratch(GroupPass &pass, int l, int orderId) {
  const Layer &layer = pass.net.Layers[l];
  GroupPlan &p = pass.plan;
  int t = layer.Output, step = pass.computeStep(l);
  if (pass.layerSlice(l).tile) {
    int64_t channels = layer.Kind == OpKind::Conv
                           ? pass.net.Tensors[layer.Inputs[0]].C
                           : p.sliceChannels(pass.net, t);
    LmemBuffer b = buffer(LmemBuffer::Scratch, layer.Name + ".tile",
                          tileRows(layer, pass.rowsCap(t)) *
                              tileCols(layer, pass.colsCap(t)) * channels *
                              pass.net.Tensors[layer.Inputs[0]].elemBytes(),
                          step, step, orderId);
    b.Layer = l, b.Part = 0;
    p.Buffers.push_back(b);
  }
  if (layer.HalfViaFloat) {
    int64_t c = p.sliceChannels(pass.net, t);
    int64_t floats = (GroupPlan::halfViaFloatPixels(c) + 2) * c;
    if (layer.Kind == OpKind::SumPool)
      floats = GroupPlan::halfSumPoolFloats(
          tileRows(layer, pass.rowsCap(t)) * tileCols(layer, pass.colsCap(t)) *
              c,
          pass.rowsCap(t) * pass.colsCap(t) * c, c);
    LmemBuffer b = buffer(LmemBuffer::Scratch, layer.Name + ".f", floats * 4,
                          step, step, orderId);
    b.Layer = l, b.Part = 3;
    p.Buffers.push_back(b);
  }
  if (layer.stateful()) {
    // The membrane potential of the item's neurons, a double each: alive
    // for the whole kernel, so that a core's next item (the next time
    // steps of the same neurons) finds it (GroupPlan::keepsStateChains).
    LmemBuffer b = buffer(LmemBuffer::Scratch, layer.Name + ".v",
                          p.sliceImageFloats(pass.net, t) * 8, 0, TsInf,
                          orderId);
    b.Layer = l, b.Part = 2;
    p.Buffers.push_back(b);
  }
}

/// An element-wise layer whose input is produced in the group and read by
/// it alone works in place: its output takes the input's buffer(s).
bool inPlace(const GroupPass &pass, const Layer &layer) {
  const Net &net = pass.net;
  int in0 = layer.Inputs.empty() ? -1 : layer.Inputs[0];
  return (layer.Kind == OpKind::Relu || layer.Kind == OpKind::Clamp ||
          layer.Kind == OpKind::Scale) &&
         layer.Inputs.size() == 1 && pass.group.computes(net, in0) &&
         net.Tensors[in0].Consumers.size() == 1 && !pass.group.isOutput(in0) &&
         pass.plan.sliceBytes(net, in0) ==
             pass.plan.sliceBytes(net, layer.Output);
}

/// Tensor \p t shares the buffers of the tensor its input aliases, whose
/// lifetime grows to cover both; a second copy if it needs one.
void aliasBuffers(GroupPass &pass, int t, int in0, int copies, int start,
                  int end) {
  GroupPlan &p = pass.plan;
  int root = p.Alias.count(in0) ? p.Alias[in0] : in0;
  p.Alias[t] = root;
  LmemBuffer *first = nullptr;
  bool hasCopy1 = false;
  for (LmemBuffer &b : p.Buffers)
    if (b.K == LmemBuffer::Activation && b.Tensor == root) {
      b.Start = std::min(b.Start, start);
      b.End = std::max(b.End, end);
      b.Name += "=" + pass.net.Tensors[t].Name;
      hasCopy1 |= b.Copy == 1;
      if (b.Copy == 0)
        first = &b;
    }
  if (copies == 2 && !hasCopy1) {
    LmemBuffer b = *first;
    b.Copy = 1;
    b.Name += "'";
    p.Buffers.push_back(b);
  }
}

/// Layer \p l's output: stored after its step (or at the end when
/// pipelined, double-buffered) if a group output, else alive until its
/// last reader.
void placeOutput(GroupPass &pass, int l, int orderId) {
  const Layer &layer = pass.net.Layers[l];
  GroupPlan &p = pass.plan;
  int t = layer.Output, step = pass.computeStep(l);
  bool isOut = pass.group.isOutput(t);
  int storeStep =
      p.pipelined() ? pass.storeStep() : std::min(pass.storeStep(), step + 1);
  if (isOut)
    p.Steps[storeStep].StoreTensors.push_back(t);
  bool doubled = isOut && p.pipelined();
  int copies = doubled ? 2 : 1;
  int start = doubled ? 0 : step;
  int end =
      doubled ? TsInf : std::max(pass.lastUse(t), isOut ? storeStep : step);
  if (inPlace(pass, layer)) {
    aliasBuffers(pass, t, layer.Inputs[0], copies, start, end);
    return;
  }
  for (int copy = 0; copy < copies; ++copy) {
    LmemBuffer b = buffer(LmemBuffer::Activation,
                          pass.net.Tensors[t].Name + (copy ? "'" : ""),
                          p.sliceBytes(pass.net, t), start, end, orderId);
    b.Tensor = t, b.Copy = copy;
    p.Buffers.push_back(b);
  }
}

} // namespace

/// A group whose first tile by kernel rows may feed the next item's kernel
/// row 0 too (GroupPlan::NextItemRow0): 3 kernel rows, of at least 2
/// positions, over the group's one input, and at least 3 items a channel
/// slice.
static bool nextItemRow0Shape(const GroupPass &pass) {
  const Layer &conv = pass.net.Layers[pass.group.First];
  return pass.options.NextItemRow0 && pass.plan.firstConvRows(pass.net) == 3 &&
         conv.KX >= 2 && pass.plan.channelAxis().Stride >= 3 &&
         pass.group.Inputs.size() == 1 &&
         conv.Inputs[0] == pass.group.Inputs[0];
}

void placeInTimeSteps(GroupPass &pass) {
  GroupPlan &p = pass.plan;
  p.Steps.assign(pass.layers() + 2, TimeStep{});
  int orderId = 0;
  placeInputs(pass, orderId);
  for (int l : pass.group.Layers) {
    placeParameters(pass, l, orderId);
    placeScratch(pass, l, orderId);
    placeOutput(pass, l, orderId);
    p.Steps[pass.computeStep(l)].Compute.push_back(l);
    ++orderId;
  }
  // A first tile by kernel rows (GroupPlan::firstTileRows) sums each row
  // into the output's second buffer, or, when it has none (a convolution
  // followed by its ReLU and pool), into a scratch of its slice, alive in
  // its step. So do tiles by rows in every item (GroupPlan::rowsEveryItem),
  // whose second output buffer holds the previous item's output. And so
  // does a first tile that may feed the next item's kernel row 0 too
  // (GroupPlan::NextItemRow0), whose second output buffer holds it.
  int first = pass.group.First, out = pass.net.Layers[first].Output;
  int root = p.Alias.count(out) ? p.Alias.at(out) : out;
  bool doubled = std::any_of(p.Buffers.begin(), p.Buffers.end(),
                             [&](const LmemBuffer &b) {
                               return b.K == LmemBuffer::Activation &&
                                      b.Tensor == root && b.Copy == 1;
                             });
  if (p.firstConvRows(pass.net) &&
      (!doubled || p.rowsEveryItemShape(pass.net) ||
       nextItemRow0Shape(pass))) {
    int step = pass.computeStep(first);
    LmemBuffer b = buffer(LmemBuffer::Scratch,
                          pass.net.Layers[first].Name + ".rows",
                          p.sliceBytes(pass.net, out), step, step, 0);
    b.Layer = first, b.Part = 1;
    p.Buffers.push_back(b);
  }
}

// A float ReLU computed in place, whose output only a convolution of the
// group reads through a padded window tile (one image per item), writes
// that tile itself: its rows at their place, the padding zeroed around
// them (lg_relu_window), instead of the convolution copying the rows in
// with a synchronous on-chip copy. The tile lives from the ReLU's step to
// the convolution's. The ReLU's input buffer keeps its lifetime (to the
// convolution's step): ending it at the ReLU frees NRAM that lets VGG-16's
// search merge conv1 and conv2 into one group of 10 layers, which its
// objective (GDRAM bytes weighed 8x) prefers but which runs 918 K cycles
// against 706 K for the two groups.
void chooseReluTiles(GroupPass &pass) {
  const Net &net = pass.net;
  GroupPlan &p = pass.plan;
  if (!pass.options.WindowTiles || p.ImagesPerSlice != 1 || p.global())
    return;
  for (int l : pass.group.Layers) {
    const Layer &relu = net.Layers[l];
    if (relu.Kind != OpKind::Relu || relu.Integer || relu.RealMath ||
        relu.HalfViaFloat || relu.Inputs.size() != 1 || !inPlace(pass, relu))
      continue;
    int t = relu.Output;
    const Tensor &out = net.Tensors[t];
    if (pass.group.isOutput(t) || out.Consumers.size() != 1 ||
        !pass.group.contains(out.Consumers[0]))
      continue;
    int conv = out.Consumers[0];
    const Layer &c = net.Layers[conv];
    if (c.Kind != OpKind::Conv || c.Integer || c.Inputs.size() != 1 ||
        !pass.layerSlice(conv).tile)
      continue;
    int step = pass.computeStep(l);
    p.ReluTiles[l] = conv;
    for (LmemBuffer &b : p.Buffers)
      if (b.K == LmemBuffer::Scratch && b.Layer == conv && b.Part == 0)
        b.Start = std::min(b.Start, step);
  }
}

// A ReLU of ReluTiles over a float convolution's biased output, which it
// alone reads, whose reader has a bias too: max(y + b, 0) = max(y, -b) + b
// and the tile's padding is 0 = -b + b, so the reader's convolution of the
// tile equals its convolution of max(y, -b) (padding -b) plus conv(b), a
// constant per output channel that its bias takes. The convolution then
// adds no bias: one vector pass fewer over its output, for a floor per
// channel in the ReLU's compare at the same rate (GroupPlan::ReluFloors).
void chooseReluFloors(GroupPass &pass) {
  const Net &net = pass.net;
  GroupPlan &p = pass.plan;
  if (!pass.options.ReluFloors)
    return;
  for (auto [l, reader] : p.ReluTiles) {
    const Layer &relu = net.Layers[l];
    int conv = net.Tensors[relu.Inputs[0]].Producer;
    if (conv < 0 || !pass.group.contains(conv))
      continue;
    const Layer &c = net.Layers[conv];
    const Layer &r = net.Layers[reader];
    const Tensor &y = net.Tensors[c.Output];
    if (c.Kind != OpKind::Conv || c.Integer || c.Bias.empty() ||
        r.Bias.empty() || y.Type != DType::F32 ||
        net.Tensors[relu.Output].Type != DType::F32 ||
        net.Tensors[r.Output].Type != DType::F32 ||
        pass.group.isOutput(c.Output) || y.Consumers.size() != 1 ||
        pass.group.poolFirst(net, conv) >= 0)
      continue;
    // The fold's scratch, the reader's output buffer (lg_fold_floor).
    int64_t scratch =
        (r.KY * r.KX * y.C + net.Tensors[r.Output].C) * int64_t(sizeof(float));
    if (p.sliceBytes(net, r.Output) < scratch)
      continue;
    p.ReluFloors[l] = conv;
  }
}

} // namespace bangc::lg::plan
