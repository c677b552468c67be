//===- Executor.cpp - The reference engine ("Task Rabbit") ---------------===//
#include "graph/Executor.h"

#include "graph/Kernels.h"
#include "graph/Precision.h"
#include "graph/Rearrange.h"
#include "graph/WeightInit.h"

#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <cassert>
#include <cstring>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

static Error runError(const std::string &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}

Expected<std::vector<double>> npyToValues(const NpyArray &a, Precision p,
                                          StringRef what) {
  DType want = precisionDType(p);
  if (a.dtype != want)
    return runError(fmt::format("{}: expected a {} array for {} data, got {}",
                                what.str(), dtypeName(want).str(),
                                precisionName(p), dtypeName(a.dtype).str()));
  std::vector<double> v(a.numElements());
  loadValues(a.dtype, a.data.data(), v);
  if (isIntegerPrecision(p))
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] < precisionMin(p) || v[i] > precisionMax(p))
        return runError(fmt::format("{}: element {} = {} is outside the {} "
                                    "range [{}, {}]",
                                    what.str(), i, v[i], precisionName(p),
                                    precisionMin(p), precisionMax(p)));
  return v;
}

NpyArray valuesToNpy(const std::vector<double> &v,
                     const std::vector<int64_t> &shape, Precision p) {
  NpyArray a(precisionDType(p), shape);
  assert(size_t(a.numElements()) == v.size() && "shape/value mismatch");
  storeValues(a.dtype, v, a.data.data());
  return a;
}

namespace {

/// Copies the sub-box [pos, pos + size) of a tensor of shape \p full (all
/// in the used dims of a Dims) to or from a dense tensor of shape size.
void copyBox(const Dims &full, const Dims &pos, const Dims &size,
             std::vector<double> &big, std::vector<double> &small,
             bool toSmall) {
  std::vector<int64_t> at = boxIndexes(full, pos, size);
  assert(at.size() == small.size() && "the dense tensor is the box's size");
  for (size_t k = 0; k < at.size(); ++k) {
    if (toSmall)
      small[k] = big[at[k]];
    else
      big[at[k]] = small[k];
  }
}

class Engine {
public:
  Engine(const Graph &g, const RunOptions &o) : G(g), O(o) {}
  Expected<TensorMap> run(const TensorMap &inputs);

private:
  const Graph &G;
  RunOptions O;
  std::map<int64_t, std::vector<double>> Consts, State, Value, HostIn;
  std::map<int64_t, int64_t> HostFrames; // 1 or T frames per input

  Error prepareInputs(const TensorMap &inputs);
  Error prepareConstants();
  Expected<std::vector<double>> gather(const TaskBlock &b, int cluster);
  Error evaluate(const TaskBlock &b, int step);
};

Error Engine::prepareInputs(const TensorMap &inputs) {
  for (auto &[Name, A] : inputs)
    if (!G.findBlock(Name) ||
        !is_contained(G.inputBlocks(), G.findBlock(Name)->id()))
      return runError(fmt::format("input '{}': the graph has no input block "
                                  "of that name",
                                  Name));
  for (int64_t id : G.inputBlocks()) {
    const TaskBlock &b = G.block(id);
    std::string name = Graph::ioName(b);
    auto it = inputs.find(name);
    if (it == inputs.end())
      return runError(
          fmt::format("input '{}' ({}) was not given", name, describeBlock(b)));
    std::vector<int64_t> shape = storageShape(b);
    std::vector<int64_t> timed = shape;
    timed.insert(timed.begin(), O.TimeSteps);
    const NpyArray &a = it->second;
    if (a.shape == shape)
      HostFrames[id] = 1;
    else if (O.TimeSteps > 1 && a.shape == timed)
      HostFrames[id] = O.TimeSteps;
    else
      return runError(fmt::format(
          "input '{}': shape {} does not match the block shape {}{}", name,
          shapeStr(a.shape), shapeStr(shape),
          O.TimeSteps > 1 ? " (or " + shapeStr(timed) + " with time)" : ""));
    Expected<std::vector<double>> v =
        npyToValues(a, b.precision(), "input '" + name + "'");
    if (!v)
      return v.takeError();
    HostIn[id] = std::move(*v);
  }
  return Error::success();
}

Error Engine::prepareConstants() {
  for (int64_t id : G.topologicalOrder()) {
    const TaskBlock &b = G.block(id);
    BlockType t = b.type();
    bool carries = carriesData(kindOf(b));
    if (!carries || (t != CLUT && !G.inEdges(id).empty()))
      continue;
    Expected<std::vector<double>> v = blockValues(b);
    if (!v)
      return v.takeError();
    Consts[id] = std::move(*v);
  }
  return Error::success();
}

Expected<std::vector<double>> Engine::gather(const TaskBlock &b, int cluster) {
  const EdgeCluster &c = b.input_clusters(cluster);
  Dims cd = Dims::fromProto(c.shape());
  std::vector<double> out(cd.volume(), 0.0);
  for (const Interface &iface : c.interfaces()) {
    int64_t eId = iface.edge_id();
    const Edge &e = G.edge(eId);
    const Graph::End &s = G.sourceEnd(eId);
    const Graph::End &d = G.destinationEnd(eId);
    const TaskBlock &sb = G.block(s.Block);
    Dims srcCluster = Dims::fromProto(sb.output_clusters(s.Cluster).shape());
    std::vector<double> piece(s.Size.volume());
    copyBox(srcCluster, s.Position, s.Size, Value.at(s.Block), piece, true);
    std::vector<int64_t> shape = s.Size.present();
    Expected<std::vector<double>> r =
        applyRearranges(e.rearranges(), shape, std::move(piece));
    if (!r)
      return runError(fmt::format("edge {}: {}", eId, toString(r.takeError())));
    copyBox(cd, d.Position, d.Size, out, *r, false);
  }
  return out;
}

Error Engine::evaluate(const TaskBlock &b, int step) {
  int64_t id = b.id();
  if (isStorageBlock(b.type())) {
    if (auto it = HostIn.find(id); it != HostIn.end()) {
      size_t n = size_t(blockDims(b).volume());
      size_t frame = HostFrames[id] > 1 ? size_t(step) : 0;
      Value[id].assign(it->second.begin() + frame * n,
                       it->second.begin() + (frame + 1) * n);
    } else if (auto cIt = Consts.find(id); cIt != Consts.end()) {
      Value[id] = cIt->second;
    } else {
      // Fed by its input cluster; the buffer is the same C-order data.
      Expected<std::vector<double>> v = gather(b, 0);
      if (!v)
        return v.takeError();
      Value[id] = std::move(*v);
    }
    return Error::success();
  }
  KernelArgs a;
  for (int c = 0; c < b.input_clusters_size(); ++c) {
    Expected<std::vector<double>> v = gather(b, c);
    if (!v)
      return v.takeError();
    a.Clusters.push_back(std::move(*v));
  }
  a.DataPrecision = G.inputPrecision(id, 0);
  if (auto it = Consts.find(id); it != Consts.end())
    a.Table = &it->second;
  a.State = &State[id];
  Expected<std::vector<double>> out = runComputeBlock(b, a);
  if (!out)
    return out.takeError();
  Value[id] = std::move(*out);
  return Error::success();
}

Expected<TensorMap> Engine::run(const TensorMap &inputs) {
  if (O.TimeSteps < 1 || O.TimeSteps > MaxTimeSteps)
    return runError(fmt::format("time steps must be in [1, {}], got {}",
                                MaxTimeSteps, O.TimeSteps));
  // The outputs of all steps are collected (as doubles) before they are
  // written: bound them before the first step runs.
  uint64_t perStep = 0;
  for (int64_t id : G.outputBlocks()) {
    uint64_t n = 1;
    for (int64_t d : storageShape(G.block(id)))
      n = d <= 0                                  ? 0
          : n <= MaxCollectedValues / uint64_t(d) ? n * uint64_t(d)
                                                  : MaxCollectedValues + 1;
    perStep = std::min<uint64_t>(perStep + n, MaxCollectedValues + 1);
  }
  if (perStep > MaxCollectedValues / uint64_t(O.TimeSteps))
    return runError(fmt::format(
        "{} time steps of {} output values each exceed the limit of {} values "
        "collected in one run",
        O.TimeSteps, perStep, MaxCollectedValues));
  if (Error e = prepareInputs(inputs))
    return std::move(e);
  if (Error e = prepareConstants())
    return std::move(e);
  std::map<int64_t, std::vector<double>> collected;
  for (int step = 0; step < O.TimeSteps; ++step) {
    Value.clear();
    for (int64_t id : G.topologicalOrder())
      if (Error e = evaluate(G.block(id), step))
        return std::move(e);
    for (int64_t id : G.outputBlocks()) {
      std::vector<double> &v = collected[id];
      v.insert(v.end(), Value[id].begin(), Value[id].end());
    }
  }
  TensorMap out;
  for (int64_t id : G.outputBlocks()) {
    const TaskBlock &b = G.block(id);
    std::vector<int64_t> shape = storageShape(b);
    if (O.TimeSteps > 1)
      shape.insert(shape.begin(), O.TimeSteps);
    out[Graph::ioName(b)] = valuesToNpy(collected[id], shape, b.precision());
  }
  return out;
}

} // namespace

Expected<TensorMap> runGraph(const Graph &g, const TensorMap &inputs,
                             const RunOptions &opts) {
  return Engine(g, opts).run(inputs);
}

} // namespace bangc::graph
