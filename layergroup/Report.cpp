//===- Report.cpp - LayerGroup: summaries, JSON report, NRAM drawing ------===//
//
// The text, JSON and SVG forms of a plan and its runs (Report.h).
//
//===----------------------------------------------------------------------===//
#include "layergroup/Report.h"

#include <fmt/format.h>

#include <algorithm>

using namespace llvm;

namespace bangc::lg {

namespace {

/// " (inputs in SRAM)" and the like, for the plan summary.
std::string sramNote(const GroupPlan &gp) {
  if (!gp.usesSram())
    return "";
  std::string what = gp.inputsInSram() && gp.weightsInSram() ? "inputs, weights"
                     : gp.inputsInSram()                     ? "inputs"
                                                             : "weights";
  if (!gp.sramBroadcast())
    return " (" + what + " in SRAM)";
  return fmt::format(" ({} in SRAM once per chip, {} phase(s))", what,
                     gp.SramPhases);
}

json::Array stepsJson(const Net &n, const GroupPlan &g) {
  json::Array steps;
  for (const TimeStep &t : g.Steps) {
    json::Array compute, load, loadWeights, store;
    for (int l : t.Compute)
      compute.push_back(n.Layers[l].Name);
    for (int x : t.LoadTensors)
      load.push_back(n.Tensors[x].Name);
    for (int l : t.LoadWeights)
      loadWeights.push_back(n.Layers[l].Name);
    for (int x : t.StoreTensors)
      store.push_back(n.Tensors[x].Name);
    steps.push_back(json::Object{{"compute", std::move(compute)},
                                 {"load", std::move(load)},
                                 {"load_weights", std::move(loadWeights)},
                                 {"store", std::move(store)},
                                 {"compute_cycles", t.ComputeCycles},
                                 {"dma_cycles", t.DmaCycles}});
  }
  return steps;
}

/// Simulated figures of a group or of a whole run.
/// The cycles of a group's last core when neither compute pipe works.
double computeIdle(const GroupRun &r) {
  return r.Cycles - r.LastCorePipes[bangsim::PipeTensor] -
         r.LastCorePipes[bangsim::PipeVector];
}

/// The busy cycles of each pipe of the core that finished last, and what
/// is left of its cycles when the compute pipes (which never overlap each
/// other) idle: waits for DMA, scalar code and barriers.
json::Object pipesJson(const GroupRun &r) {
  json::Object o;
  for (int p = 0; p < bangsim::NumPipes; ++p)
    o[bangsim::pipeName(p)] = r.LastCorePipes[size_t(p)];
  o["compute_idle"] = computeIdle(r);
  return o;
}

template <typename Run> void addSimulated(json::Object &o, const Run &r) {
  o["simulated_cycles"] = r.Cycles;
  o["gdram_read_bytes"] = r.ReadBytes;
  o["gdram_write_bytes"] = r.WriteBytes;
  o["gdram_weight_bytes"] = r.WeightReadBytes;
}

/// Feature-map bytes: all GDRAM bytes but the parameters' (weights and
/// per-channel vectors: weights travel GDRAM2WRAM or are staged in SRAM,
/// vectors GDRAM2NRAM).
template <typename Bytes> int64_t featureMaps(const Bytes &b) {
  return b.ReadBytes + b.WriteBytes - b.WeightReadBytes;
}

/// The group-boundary minimum of the feature-map bytes of a plan's groups.
int64_t featureMapMin(const NetPlan &p) {
  int64_t sum = 0;
  for (const GroupPlan &g : p.Groups)
    sum += g.Floor.featureMapBytes();
  return sum;
}

/// What reads a group's feature maps more than once, from its plan: halos
/// of H/W slices, the rows and columns a strided window skips but its tile
/// loads, inputs read per channel slice or per cluster. Empty if none.
std::string excessReason(const Net &n, const GroupPlan &p) {
  bool halo = false, skips = false;
  for (int l : p.Info.Layers) {
    const Layer &layer = n.Layers[l];
    if (!layer.windowed())
      continue;
    halo |= (p.HSecs > 1 && layer.keffY() > layer.SY) ||
            (p.WSecs > 1 && layer.keffX() > layer.SX);
    bool readsInput =
        std::any_of(layer.Inputs.begin(), layer.Inputs.end(), [&](int t) {
          return std::find(p.Info.Inputs.begin(), p.Info.Inputs.end(), t) !=
                 p.Info.Inputs.end();
        });
    skips |=
        readsInput && (layer.keffY() < layer.SY || layer.keffX() < layer.SX);
  }
  std::vector<std::string> why;
  if (halo && !p.inputsInSram())
    why.push_back(fmt::format("halos of {} x {} tiles", p.HSecs, p.WSecs));
  if (skips)
    why.push_back("a strided window's tiles load the rows and columns it "
                  "skips");
  if (p.global() && !p.SlicedInputs && !p.inputsInSram())
    why.push_back(fmt::format("inputs read per channel slice on {} cores, "
                              "not staged",
                              p.Cores));
  else if (p.global() && p.inputsInSram() && !p.sramBroadcast())
    why.push_back("inputs staged once per cluster");
  // lg_gather_view loads each row's span of source elements (more than the
  // view's elements when the map skips some) and the index tables.
  for (int t : p.Info.Inputs)
    if (n.Tensors[t].gathered())
      why.push_back(fmt::format("gathered view {} loads its source windows "
                                "and 4-byte index tables",
                                n.Tensors[t].Name));
  std::string s;
  for (const std::string &w : why)
    s += (s.empty() ? "" : "; ") + w;
  return s;
}

/// The simulated feature-map bytes against the group-boundary minimum.
void addFeatureMaps(json::Object &o, int64_t estimated, int64_t minimum,
                    const int64_t *simulated) {
  o["estimated_feature_map_bytes"] = estimated;
  o["feature_map_min_bytes"] = minimum;
  if (simulated) {
    o["feature_map_bytes"] = *simulated;
    o["feature_map_excess_bytes"] = *simulated - minimum;
  }
}

json::Object floorJson(const Roofline &f) {
  return json::Object{{"cycles", f.cycles()},
                      {"bound", f.bound()},
                      {"matrix_cycles", f.Matrix},
                      {"vector_cycles", f.Vector},
                      {"gdram_cycles", f.Gdram},
                      {"macs", f.Macs},
                      {"gdram_read_bytes", f.ReadBytes},
                      {"gdram_write_bytes", f.WriteBytes},
                      {"feature_map_read_bytes", f.InputBytes},
                      {"param_bytes", f.ParamBytes}};
}

/// Simulated cycles over the floor, 0 without a floor.
double overFloor(double cycles, double floor) {
  return floor > 0 ? cycles / floor : 0.0;
}

json::Object groupJson(const Net &n, const GroupPlan &g, const GroupRun *r) {
  json::Array layers;
  for (int l : g.Info.Layers)
    layers.push_back(n.Layers[l].Name);
  json::Object o{{"layers", std::move(layers)},
                 {"nsecs", g.NSecs},
                 {"hsecs", g.HSecs},
                 {"wsecs", g.WSecs},
                 {"fsecs", g.FSecs},
                 {"keep_rows", g.KeepRows},
                 {"cores", g.Cores},
                 {"weights_resident", g.weightsResident()},
                 {"pipelined", g.pipelined()},
                 {"time_steps", int64_t(g.Steps.size())},
                 {"steps", stepsJson(n, g)},
                 {"inputs_resident", g.inputsResident()},
                 {"inputs_in_sram", g.inputsInSram()},
                 {"weights_in_sram", g.weightsInSram()},
                 {"sram_broadcast", g.sramBroadcast()},
                 {"sram_phases", g.SramPhases},
                 {"peak_nram_bytes", g.PeakBytes},
                 {"peak_wram_bytes", g.WramPeakBytes},
                 {"weight_tile_loads", g.WeightTileLoads},
                 {"estimated_cycles", g.Cycles},
                 {"estimated_gdram_read_bytes", g.ReadBytes},
                 {"estimated_gdram_write_bytes", g.WriteBytes},
                 {"estimated_gdram_weight_bytes", g.WeightReadBytes},
                 {"floor", floorJson(g.Floor)},
                 {"floor_cycles", g.Floor.cycles()}};
  int64_t simulated = r ? featureMaps(*r) : 0;
  addFeatureMaps(o, featureMaps(g), g.Floor.featureMapBytes(),
                 r ? &simulated : nullptr);
  if (featureMaps(g) > g.Floor.featureMapBytes())
    o["feature_map_excess_reason"] = excessReason(n, g);
  if (r) {
    addSimulated(o, *r);
    o["simulated_over_floor"] = overFloor(r->Cycles, g.Floor.cycles());
    o["last_core_pipes"] = pipesJson(*r);
  }
  return o;
}

} // namespace

std::string planSummary(const Net &n, const NetPlan &p) {
  std::string s = fmt::format(
      "layer group: {} layers in {} groups (search {:.3f} s); estimated "
      "{:.0f} cycles, GDRAM {} bytes ({} of parameters); roofline floor "
      "{:.0f} cycles\n",
      n.Layers.size(), p.Groups.size(), p.SearchSeconds, p.Cycles,
      p.ReadBytes + p.WriteBytes, p.WeightReadBytes, p.FloorCycles);
  for (size_t i = 0; i < p.Groups.size(); ++i) {
    const GroupPlan &gp = p.Groups[i];
    s += fmt::format("  group {}: {} .. {} ({} layers) nsecs {} hsecs {} "
                     "wsecs {} fsecs {}{} peak NRAM {} bytes; GDRAM {} "
                     "bytes; floor {:.0f} cycles ({})\n",
                     i, n.Layers[gp.Info.First].Name,
                     n.Layers[gp.Info.Last].Name, gp.Info.Layers.size(),
                     gp.NSecs, gp.HSecs, gp.WSecs, gp.FSecs, sramNote(gp),
                     gp.PeakBytes, gp.ReadBytes + gp.WriteBytes,
                     gp.Floor.cycles(), gp.Floor.bound());
  }
  return s;
}

std::string runSummary(const char *what, const RunResult &r) {
  return fmt::format("{}: {:.0f} cycles, GDRAM read {} write {} bytes ({} of "
                     "parameters)\n",
                     what, r.Cycles, r.ReadBytes, r.WriteBytes,
                     r.WeightReadBytes);
}

std::string floorSummary(const char *what, const NetPlan &p,
                         const RunResult &r) {
  std::string s = fmt::format(
      "{}: {:.0f} cycles = {:.3f}x the roofline floor of {:.0f} cycles (sum "
      "of the groups' floors)\n",
      what, r.Cycles, overFloor(r.Cycles, p.FloorCycles), p.FloorCycles);
  for (size_t i = 0; i < p.Groups.size() && i < r.Groups.size(); ++i) {
    const Roofline &f = p.Groups[i].Floor;
    const GroupRun &g = r.Groups[i];
    auto pipe = [&](bangsim::Pipe p) { return g.LastCorePipes[size_t(p)]; };
    s += fmt::format("  group {}: {:.0f} cycles, floor {:.0f} ({} bound; "
                     "matrix {:.0f}, vector {:.0f}, GDRAM {:.0f}): {:.3f}x; "
                     "last core: tensor {:.0f}, vector {:.0f}, scalar {:.0f}, "
                     "io-dma {:.0f}, move-dma {:.0f}, compute idle {:.0f}\n",
                     i, g.Cycles, f.cycles(), f.bound(), f.Matrix, f.Vector,
                     f.Gdram, overFloor(g.Cycles, f.cycles()),
                     pipe(bangsim::PipeTensor), pipe(bangsim::PipeVector),
                     pipe(bangsim::PipeScalar), pipe(bangsim::PipeIO),
                     pipe(bangsim::PipeMove), computeIdle(g));
  }
  return s;
}

std::string featureMapSummary(const Net &n, const char *what, const NetPlan &p,
                              const RunResult &r) {
  int64_t sim = featureMaps(r), min = featureMapMin(p);
  std::string s = fmt::format(
      "{}: feature maps {} GDRAM bytes, group-boundary minimum {} (excess "
      "{})\n",
      what, sim, min, sim - min);
  for (size_t i = 0; i < p.Groups.size() && i < r.Groups.size(); ++i) {
    int64_t gs = featureMaps(r.Groups[i]);
    int64_t gm = p.Groups[i].Floor.featureMapBytes();
    if (gs == gm)
      continue;
    std::string why = excessReason(n, p.Groups[i]);
    s += fmt::format("  group {}: feature maps {} bytes, minimum {} "
                     "(excess {}{}{})\n",
                     i, gs, gm, gs - gm, why.empty() ? "" : ": ", why);
  }
  return s;
}

json::Object runJson(const Net &n, const NetPlan &p, const RunResult *r) {
  json::Array groups;
  for (size_t i = 0; i < p.Groups.size(); ++i)
    groups.push_back(groupJson(n, p.Groups[i], r ? &r->Groups[i] : nullptr));
  json::Object o{{"groups", std::move(groups)},
                 {"num_groups", int64_t(p.Groups.size())},
                 {"estimated_cycles", p.Cycles},
                 {"estimated_gdram_read_bytes", p.ReadBytes},
                 {"estimated_gdram_write_bytes", p.WriteBytes},
                 {"estimated_gdram_weight_bytes", p.WeightReadBytes},
                 {"floor_cycles", p.FloorCycles},
                 {"search_seconds", p.SearchSeconds},
                 {"group_evaluations", p.GroupEvaluations}};
  // Parameters travel GDRAM2WRAM (or GDRAM2SRAM in a group that stages its
  // weights there), feature maps GDRAM<->NRAM (or GDRAM2SRAM in a group
  // that stages its inputs): the simulator's per-direction counters of each
  // group split the total exactly.
  int64_t simulated = r ? featureMaps(*r) : 0;
  addFeatureMaps(o, featureMaps(p), featureMapMin(p), r ? &simulated : nullptr);
  if (r) {
    addSimulated(o, *r);
    o["cycles_over_floor"] = overFloor(r->Cycles, p.FloorCycles);
  }
  return o;
}

void addComparison(json::Object &report, const RunResult &grouped,
                   const RunResult &layerByLayer, const Accuracy &accuracy) {
  const RunResult &g = grouped, &l = layerByLayer;
  double gBytes = double(g.ReadBytes + g.WriteBytes);
  double lBytes = double(l.ReadBytes + l.WriteBytes);
  report["gdram_bytes_reduction"] = lBytes > 0 ? 1.0 - gBytes / lBytes : 0.0;
  double gActs = gBytes - double(g.WeightReadBytes),
         lActs = lBytes - double(l.WeightReadBytes);
  report["gdram_activation_bytes_reduction"] =
      lActs > 0 ? 1.0 - gActs / lActs : 0.0;
  report["gdram_weight_bytes_reduction"] =
      l.WeightReadBytes > 0
          ? 1.0 - double(g.WeightReadBytes) / double(l.WeightReadBytes)
          : 0.0;
  report["cycles_speedup"] = g.Cycles > 0 ? l.Cycles / g.Cycles : 0.0;
  report["max_abs_err"] = accuracy.maxAbsErr;
  report["max_abs_ref"] = accuracy.maxAbsRef;
  report["max_rel_err"] = accuracy.relative();
  report["layer_by_layer_max_abs_err"] = accuracy.maxAbsErrLayerByLayer;
}

// --- SVG ---------------------------------------------------------------------

namespace {

const int PlotW = 640, PlotH = 260, Margin = 60, Gap = 50;
const char *Colors[3] = {"#8fb8de", "#f4b183", "#c5e0b4"};

/// Group \p gi's panel: title, frame, step labels, a rectangle per buffer.
std::string groupSvg(const Net &n, const GroupPlan &g, size_t gi,
                     const GroupRun *r) {
  int y0 = 40 + int(gi) * (PlotH + Gap);
  int steps = int(g.Steps.size());
  double top = double(std::max<int64_t>(g.PeakBytes, 1));
  double colW = double(PlotW) / (steps + 1); // the last column is "inf"
  std::string title;
  for (int l : g.Info.Layers)
    title += (title.empty() ? "" : ", ") + n.Layers[l].Name;
  if (title.size() > 90)
    title = title.substr(0, 87) + "...";
  std::string s = fmt::format(
      "<text x=\"{}\" y=\"{}\">group {}: {} (nsecs {}, hsecs {}, wsecs {}, "
      "fsecs {}; peak {} bytes)</text>\n",
      Margin, y0 + 12, gi, title, g.NSecs, g.HSecs, g.WSecs, g.FSecs,
      g.PeakBytes);
  int boxY = y0 + 20, boxH = PlotH - 40;
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                   "fill=\"none\" stroke=\"#444\"/>\n",
                   Margin, boxY, PlotW, boxH);
  for (int t = 0; t <= steps; ++t)
    s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}"
                     "</text>\n",
                     Margin + (t + 0.5) * colW, boxY + boxH + 12,
                     t == steps ? std::string("inf") : fmt::format("T{}", t));
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">0</text>\n",
                   Margin - 4, boxY + boxH);
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                   Margin - 4, boxY + 8, g.PeakBytes);
  std::string floor = fmt::format(
      "roofline floor {:.0f} cycles ({} bound; matrix {:.0f}, vector {:.0f}, "
      "GDRAM {:.0f})",
      g.Floor.cycles(), g.Floor.bound(), g.Floor.Matrix, g.Floor.Vector,
      g.Floor.Gdram);
  if (r)
    floor += fmt::format("; simulated {:.0f} cycles, {:.3f}x the floor",
                         r->Cycles, overFloor(r->Cycles, g.Floor.cycles()));
  s += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", Margin,
                   boxY + boxH + 26, floor);
  for (const LmemBuffer &b : g.Buffers) {
    int end = b.End == TsInf ? steps : b.End;
    double x = Margin + b.Start * colW, w = (end - b.Start + 1) * colW;
    double h = b.Bytes / top * boxH;
    double y = boxY + boxH - (b.Offset + b.Bytes) / top * boxH;
    s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
                     "height=\"{:.1f}\" fill=\"{}\" stroke=\"#333\" "
                     "stroke-width=\"0.5\"><title>{} [{}, {}] offset {} "
                     "bytes {}</title></rect>\n",
                     x, y, w, std::max(h, 0.5), Colors[b.K], b.Name, b.Start,
                     b.End == TsInf ? "inf" : std::to_string(b.End), b.Offset,
                     b.Bytes);
    if (h >= 10)
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", x + 2,
                       y + std::min(h / 2 + 3, 11.0), b.Name);
  }
  return s;
}

} // namespace

std::string lmemSvg(const Net &n, const NetPlan &p, int64_t capacity,
                    const RunResult *r) {
  int height = int(p.Groups.size()) * (PlotH + Gap) + 40;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"10\">\n",
      PlotW + 2 * Margin + 160, height);
  s += fmt::format("<text x=\"{}\" y=\"20\" font-size=\"14\">NRAM allocation "
                   "per group: time steps across, address up (capacity {} "
                   "bytes)</text>\n",
                   Margin, capacity);
  for (size_t gi = 0; gi < p.Groups.size(); ++gi)
    s += groupSvg(n, p.Groups[gi], gi,
                  r && gi < r->Groups.size() ? &r->Groups[gi] : nullptr);
  int legendX = Margin + PlotW + 20;
  const char *kinds[3] = {"activation", "weight", "buffer"};
  for (int k = 0; k < 3; ++k)
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" "
                     "fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
                     legendX, 50 + 18 * k, Colors[k], legendX + 16, 60 + 18 * k,
                     kinds[k]);
  s += "</svg>\n";
  return s;
}

} // namespace bangc::lg
