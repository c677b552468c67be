//===- LayerGroupCommand.cpp - `bangc-sim graph --layer-group` -----------===//
//
// bangc-sim's graph command: the graph command of tools/GraphCommand.cpp
// with LayerGroup (layergroup/) behind --layer-group. Kept apart so that
// the standalone bangc-graph links neither LayerGroup nor the compiler.
// The command reads the inputs, plans, prints the plan, runs it grouped
// (and, for --report, layer by layer and on the reference executor), and
// writes the outputs, the report and the drawing; planning, running and
// reporting themselves are layergroup/'s.
//
//===----------------------------------------------------------------------===//
#include "tools/Commands.h"
#include "tools/CompileWatchdog.h"
#include "tools/GraphCommand.h"

#include "layergroup/Report.h"
#include "layergroup/Runner.h"

#include "graph/Executor.h"
#include "graph/Graph.h"
#include "graph/Precision.h"
#include "support/Npy.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace llvm;
using namespace bangc::lg;
using bangc::graph::graphFailure;

namespace bangc::tools {

namespace {

/// The network inputs: values [N, H, W, C] by tensor, the batch, and
/// whether the outputs get a leading batch axis.
struct NetInputs {
  std::map<int, std::vector<double>> values;
  int64_t batch = 0;
  bool batched = false;

  HostTensors onDevice() const { return values; }
};

/// The Task IR precision of a tensor: its element type's, or INT9 or
/// TERNARY held in a wider type.
taskir::Precision precisionOf(const Tensor &t) {
  if (t.Narrowed == Tensor::Narrow::Int9)
    return taskir::INT9;
  if (t.Narrowed == Tensor::Narrow::Ternary)
    return taskir::TERNARY;
  switch (t.Type) {
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, CTYPE, NPY, ALIAS1,      \
                    ALIAS2, MLUOP, TASKIR)                                     \
  case DType::ENUM:                                                            \
    return taskir::TASKIR;
#include "support/DTypes.def"
  }
  llvm_unreachable("unknown DType");
}

int inputTensor(const Net &n, const std::string &name) {
  for (int t : n.inputs())
    if (n.Tensors[t].InputName == name)
      return t;
  return -1;
}

/// The host shape of one image of a network input: [H, W, C], or its
/// storage block's own (an SIFC's [R]).
std::vector<int64_t> inputShape(const Tensor &t) {
  if (!t.InputShape.empty())
    return t.InputShape;
  return {t.H, t.W, t.C};
}

/// The inputs of --in NAME=FILE.npy; an exit status on failure.
std::optional<int> readInputs(const Net &n, const graph::NamedFiles &ins,
                              NetInputs &in) {
  for (auto &[name, file] : ins) {
    int t = inputTensor(n, name);
    if (t < 0)
      return graphFailure("--in " + name + ": no input of that name");
    auto array = readNpy(file);
    if (!array)
      return graphFailure(toString(array.takeError()));
    auto values = graph::npyToValues(*array, precisionOf(n.Tensors[t]),
                                     "input '" + name + "'");
    if (!values)
      return graphFailure(toString(values.takeError()));
    const Tensor &tensor = n.Tensors[t];
    std::vector<int64_t> shape = inputShape(tensor);
    int64_t b =
        int64_t(values->size()) / std::max<int64_t>(1, tensor.elements());
    if (b * tensor.elements() != int64_t(values->size()) ||
        array->shape.size() < shape.size())
      return graphFailure(fmt::format("--in {}: expected [{}] or [N, {}]", name,
                                      fmt::join(shape, ", "),
                                      fmt::join(shape, ", ")));
    in.batched |= array->shape.size() == shape.size() + 1;
    if (in.batch && in.batch != b)
      return graphFailure("inputs disagree on the batch size");
    in.batch = b;
    in.values[t] = std::move(*values);
  }
  return std::nullopt;
}

/// --steps T: the batch is T time steps; an input given without a leading
/// axis is the same frame at every step (as the reference executor takes
/// it).
std::optional<int> applySteps(const Net &n, int steps, NetInputs &in) {
  if (steps <= 1)
    return std::nullopt;
  for (auto &[t, v] : in.values) {
    int64_t frame = n.Tensors[t].elements();
    if (int64_t(v.size()) == steps * frame)
      continue;
    if (int64_t(v.size()) != frame)
      return graphFailure(fmt::format(
          "--in {}: {} values, neither one frame nor {} time steps of {}",
          n.Tensors[t].InputName, v.size(), steps, frame));
    std::vector<double> all;
    all.reserve(size_t(steps * frame));
    for (int s = 0; s < steps; ++s)
      all.insert(all.end(), v.begin(), v.end());
    v = std::move(all);
  }
  in.batch = steps;
  in.batched = true;
  return std::nullopt;
}

/// Inputs not given: deterministic values, in [-1, 1) for FLOAT32 and
/// integers uniform over the type's range (over [-32768, 32767] for the
/// 32-bit ones).
void fillInputs(const Net &n, NetInputs &in) {
  if (!in.batch)
    in.batch = 1;
  in.batched |= in.batch > 1;
  for (int t : n.inputs()) {
    if (in.values.count(t))
      continue;
    std::vector<double> v(size_t(in.batch * n.Tensors[t].elements()));
    uint64_t x = 0x9E3779B97F4A7C15ull + uint64_t(t);
    taskir::Precision p = precisionOf(n.Tensors[t]);
    bool integer = graph::isIntegerPrecision(p);
    int64_t lo =
                integer ? std::max<int64_t>(graph::precisionMin(p), -32768) : 0,
            hi = integer ? std::min<int64_t>(graph::precisionMax(p), 32767) : 0;
    for (double &d : v) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      d = integer ? double(lo + int64_t((x >> 11) % uint64_t(hi - lo + 1)))
                  : double(x >> 11) / double(1ull << 52) - 1.0;
    }
    in.values[t] = std::move(v);
  }
}

/// Writes --out NAME=FILE.npy from the grouped run.
std::optional<int> writeOutputs(const Net &n, const graph::NamedFiles &outs,
                                const NetInputs &in,
                                const std::optional<RunResult> &grouped) {
  for (auto &[name, file] : outs) {
    int t = -1;
    for (int i : n.outputs())
      for (auto &outName : n.Tensors[i].OutputNames)
        if (outName == name)
          t = i;
    if (t < 0)
      return graphFailure("--out " + name + ": no SO block of that name");
    if (!grouped)
      return graphFailure("--out needs --run");
    const Tensor &tensor = n.Tensors[t];
    const std::vector<double> &values = grouped->Outputs.at(t);
    std::vector<int64_t> shape{tensor.H, tensor.W, tensor.C};
    if (auto it = tensor.OutputShapes.find(name);
        it != tensor.OutputShapes.end())
      shape = it->second;
    if (in.batched)
      shape.insert(shape.begin(), in.batch);
    if (Error e = writeNpy(
            file, graph::valuesToNpy(values, shape, precisionOf(tensor))))
      return graphFailure(toString(std::move(e)));
    llvm::outs() << fmt::format("wrote output '{}' to {}\n", name, file);
  }
  return std::nullopt;
}

/// |x - r|: 0 when equal (infinities of one sign, or both NaN), infinite
/// when only one of them is NaN (std::max would skip a NaN).
double difference(double x, double r) {
  if (x == r || (std::isnan(x) && std::isnan(r)))
    return 0;
  double d = std::fabs(x - r);
  return std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
}

/// The grouped and layer-by-layer outputs against the reference executor,
/// image by image; a stateful network (CLIF) in one run of as many time
/// steps as images.
Expected<Accuracy> compareWithReference(const graph::Graph &g, const Net &n,
                                        const NetInputs &in,
                                        const RunResult &grouped,
                                        const RunResult &layerByLayer) {
  Accuracy a;
  int64_t steps = n.stateful() ? in.batch : 1;
  for (int64_t img = 0; img < in.batch; img += steps) {
    graph::TensorMap tm;
    for (auto &[t, v] : in.values) {
      const Tensor &tensor = n.Tensors[t];
      std::vector<double> one(v.begin() + img * tensor.elements(),
                              v.begin() + (img + steps) * tensor.elements());
      std::vector<int64_t> shape = inputShape(tensor);
      if (steps > 1)
        shape.insert(shape.begin(), steps);
      tm[tensor.InputName] =
          graph::valuesToNpy(one, shape, precisionOf(tensor));
    }
    graph::RunOptions ro;
    ro.TimeSteps = int(steps);
    auto ref = graph::runGraph(g, tm, ro);
    if (!ref)
      return createStringError(inconvertibleErrorCode(),
                               "reference executor: " +
                                   toString(ref.takeError()));
    for (int t : n.outputs()) {
      const Tensor &tensor = n.Tensors[t];
      const std::vector<double> &mine = grouped.Outputs.at(t);
      const std::vector<double> &other = layerByLayer.Outputs.at(t);
      for (const std::string &outName : tensor.OutputNames) {
        auto rv =
            graph::npyToValues(ref->at(outName), precisionOf(tensor), outName);
        if (!rv)
          return rv.takeError();
        for (size_t i = 0; i < rv->size(); ++i) {
          double r = (*rv)[i];
          size_t j = size_t(img * tensor.elements()) + i;
          a.maxAbsErr = std::max(a.maxAbsErr, difference(mine[j], r));
          a.maxAbsErrLayerByLayer =
              std::max(a.maxAbsErrLayerByLayer, difference(other[j], r));
          // Finite only: a -inf output (a max pool window of padding)
          // would make every relative error 0 and the JSON report invalid.
          if (std::isfinite(r))
            a.maxAbsRef = std::max(a.maxAbsRef, std::fabs(r));
        }
      }
    }
  }
  return a;
}

/// Replaces each inf or NaN number in `v` (JSON has neither; llvm::json
/// would print them bare, and no JSON reader would take the file) by null,
/// and returns where they were (`max_abs_err` or `grouped.groups[2].x`)
/// with the value, by path, for the text output to say why a field is null.
std::vector<std::pair<std::string, double>> nullNonFinite(json::Value &v) {
  std::vector<std::pair<std::string, double>> found;
  auto walk = [&](auto &self, json::Value &x, const std::string &path) -> void {
    if (json::Object *o = x.getAsObject()) {
      for (auto &[key, value] : *o)
        self(self, value, path.empty() ? key.str() : path + "." + key.str());
    } else if (json::Array *a = x.getAsArray()) {
      for (size_t i = 0; i < a->size(); ++i)
        self(self, (*a)[i], path + "[" + std::to_string(i) + "]");
    } else if (std::optional<double> d = x.getAsNumber();
               d && !std::isfinite(*d)) {
      found.emplace_back(path, *d);
      x = nullptr;
    }
  };
  walk(walk, v, "");
  // json::Object iterates in hash order.
  std::sort(found.begin(), found.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  return found;
}

/// How the group kernels of one run are compiled and launched.
RunOptions runOptions(const LayerGroupArgs &lg, std::string emitDir = "") {
  RunOptions o;
  o.emitDir = std::move(emitDir);
  o.useCache = !lg.noCache;
  o.checkRaces = lg.checkRaces;
  o.isolate = !lg.noIsolate;
  // The watchdog charges the process's whole growth to the running compile:
  // a limit given on the command line is measured on the compiles alone.
  o.compileBesideUploads = !lg.limits.given;
  return o;
}

/// One invocation of `graph FILE --layer-group ...`.
struct LayerGroupRun {
  const graph::Graph &g;
  const graph::GraphActions &a;
  const LayerGroupArgs &lg;
  bangsim::DeviceSpec spec;
  Net net;
  NetInputs in;
  std::optional<NetPlan> plan;
  std::optional<RunResult> grouped;

  /// The planner's options the command line sets (--traffic-weight,
  /// --excess-margin, --no-keep-rows, --no-chunked-staging, --no-stage-mid,
  /// --no-window-tiles, --no-steps-run-on, --no-last-pieces).
  PlanOptions planOptions() const {
    PlanOptions o;
    o.KeepRows = !lg.noKeepRows;
    o.FirstPositions = !lg.noFirstPositions;
    o.EarlyPiece = !lg.noEarlyPiece; // --no-early-piece
    o.NextItemRow0 = !lg.noNextItemRow0; // --no-next-item-row0
    o.ChunkedStaging = !lg.noChunkedStaging;
    o.StageMid = !lg.noStageMid;
    o.LateWeights = !lg.noLateWeights;
    o.WindowTiles = !lg.noWindowTiles;
    o.ReluFloors = !lg.noReluFloors; // --no-relu-floors
    o.KeptTiles = !lg.noKeptTiles;   // --no-kept-tiles
    o.StepsRunOn = !lg.noStepsRunOn;
    o.LastPieces = !lg.noLastPieces;
    o.PadRowsByDma = !lg.noDmaPadRows; // --no-dma-pad-rows
    o.ClusterSends = !lg.noClusterSends; // --no-cluster-sends
    if (lg.trafficWeight)
      o.TrafficWeight = *lg.trafficWeight;
    if (lg.excessMargin)
      o.ExcessMargin = *lg.excessMargin;
    return o;
  }
  std::optional<int> planAndRun();
  std::optional<int> compare(json::Object &report);
  int writeReport();
};

std::optional<int> LayerGroupRun::planAndRun() {
  auto p = planNet(net, spec, in.batch, planOptions());
  if (!p)
    return graphFailure(toString(p.takeError()));
  plan = std::move(*p);
  llvm::outs() << planSummary(net, *plan);
  // The NRAM drawing, with each group's simulated cycles beside its floor
  // when the network runs.
  auto writeSvg = [&]() -> std::optional<int> {
    if (!lg.lmemSvg)
      return std::nullopt;
    if (Error e =
            writeTextFile(*lg.lmemSvg, lmemSvg(net, *plan, spec.nramBytes,
                                               grouped ? &*grouped : nullptr)))
      return graphFailure(toString(std::move(e)));
    return std::nullopt;
  };
  if (!a.run && !lg.report && !lg.emitMlu)
    return writeSvg();
  auto r = runPlan(net, *plan, spec, in.batch, in.onDevice(),
                   runOptions(lg, lg.emitMlu.value_or("")));
  if (!r)
    return graphFailure(toString(r.takeError()));
  grouped = std::move(*r);
  llvm::outs() << runSummary("grouped", *grouped)
               << floorSummary("grouped", *plan, *grouped)
               << featureMapSummary(net, "grouped", *plan, *grouped);
  return writeSvg();
}

// Layer by layer and the reference: the baseline and the check.
std::optional<int> LayerGroupRun::compare(json::Object &report) {
  PlanOptions o = planOptions();
  o.LayerByLayer = true;
  // The baseline's tiles are planned for the objective alone: the margin
  // for the group-boundary minimum would trade its cycles for bytes and
  // inflate the grouped run's speedup.
  o.ExcessMargin = 0;
  auto lp = planNet(net, spec, in.batch, o);
  if (!lp)
    return graphFailure(toString(lp.takeError()));
  auto lr = runPlan(net, *lp, spec, in.batch, in.onDevice(), runOptions(lg));
  if (!lr)
    return graphFailure(toString(lr.takeError()));
  report["layer_by_layer"] = runJson(net, *lp, &*lr);
  llvm::outs() << runSummary("layer by layer", *lr)
               << fmt::format("layer by layer: {:.3f}x its roofline floor of "
                              "{:.0f} cycles\n",
                              lp->FloorCycles > 0 ? lr->Cycles / lp->FloorCycles
                                                  : 0.0,
                              lp->FloorCycles);
  Expected<Accuracy> accuracy = compareWithReference(g, net, in, *grouped, *lr);
  if (!accuracy)
    return graphFailure(toString(accuracy.takeError()));
  addComparison(report, *grouped, *lr, *accuracy);
  llvm::outs() << fmt::format("max_abs_err {:.3g} (max |ref| {:.3g}, "
                              "relative {:.3g})\n",
                              accuracy->maxAbsErr, accuracy->maxAbsRef,
                              accuracy->relative());
  return std::nullopt;
}

int LayerGroupRun::writeReport() {
  json::Object report{{"graph", a.file},
                      {"device", spec.name},
                      {"batch", in.batch},
                      {"layers", int64_t(net.Layers.size())}};
  report["grouped"] = runJson(net, *plan, grouped ? &*grouped : nullptr);
  if (!lg.noCompare)
    if (std::optional<int> stop = compare(report))
      return *stop;
  json::Value value(std::move(report));
  for (auto &[path, number] : nullNonFinite(value))
    llvm::outs() << fmt::format("report: {} is {}, written as null (JSON has "
                                "no inf or NaN)\n",
                                path, number);
  std::string text;
  raw_string_ostream os(text);
  os << formatv("{0:2}", value) << "\n";
  if (Error e = writeTextFile(*lg.report, os.str()))
    return graphFailure(toString(std::move(e)));
  llvm::outs() << "wrote report " << *lg.report << "\n";
  return 0;
}

int runLayerGroup(const graph::Graph &g, const graph::GraphActions &a,
                  const LayerGroupArgs &lg) {
  CompileWatchdog watchdog(lg.limits); // the group kernels' compiles
  auto spec = bangsim::loadDeviceSpec(lg.device.value_or("mlu370"));
  if (!spec)
    return graphFailure(toString(spec.takeError()));
  auto net = buildNet(g);
  if (!net)
    return graphFailure(toString(net.takeError()));
  LayerGroupRun run{g, a, lg, *spec, std::move(*net), {}, {}, {}};
  run.net.Name = sys::path::stem(a.file).str();
  if (std::optional<int> stop = readInputs(run.net, a.ins, run.in))
    return *stop;
  if (std::optional<int> stop = applySteps(run.net, a.steps, run.in))
    return *stop;
  fillInputs(run.net, run.in);
  if (std::optional<int> stop = run.planAndRun())
    return *stop;
  if (std::optional<int> stop =
          writeOutputs(run.net, a.outs, run.in, run.grouped))
    return *stop;
  if (!lg.report)
    return 0;
  return run.writeReport();
}

} // namespace

int graphParse(llvm::ArrayRef<const char *> argv) {
  return parseGraphCommand(argv);
}

int graphMain(llvm::ArrayRef<const char *> argv) {
  return runGraphCommand(argv, runLayerGroup);
}

} // namespace bangc::tools
