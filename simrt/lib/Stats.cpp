//===- Stats.cpp - Reporting what a launch cost ---------------------------===//
#include "bangsim/Stats.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace bangsim;

static const char *const classNames[BANG_OP_NUM_CLASSES] = {
    "move", "alu", "mul", "div", "cvt", "act", "reduce", "mac", "atomic"};

/// The acceptance thresholds of mlu-ops'
/// docs/MLU-OPS-Performance-Acceptance-Standard.md §2: the bottleneck
/// side's efficiency on common network shapes, and on other shapes.
constexpr double NetworkShapeStandard = 0.60, GeneralShapeStandard = 0.30;

AcceptanceVerdict bangsim::acceptanceVerdict(const LaunchStats &s) {
  AcceptanceVerdict v;
  v.ioBound = s.ioEfficiency > s.computeEfficiency;
  v.efficiency = v.ioBound ? s.ioEfficiency : s.computeEfficiency;
  v.meetsNetwork = v.efficiency >= NetworkShapeStandard;
  v.meetsGeneral = v.efficiency >= GeneralShapeStandard;
  return v;
}

static void printBottleneck(llvm::raw_ostream &os, const LaunchStats &s) {
  os << "  pipes (busy cycles, all cores):";
  for (int p = 0; p < NumPipes; ++p)
    os << llvm::formatv(" {0} {1}", pipeName(p), uint64_t(s.pipeBusy[p]));
  os << "\n";
  double cores = std::max<size_t>(1, s.cores.size());
  os << llvm::formatv("  bound by the {0} pipe ({1:F1}% busy)\n",
                      pipeName(s.boundPipe),
                      s.cycles > 0 ? 100 * s.pipeBusy[s.boundPipe] /
                                         (s.cycles * cores)
                                   : 0.0);
  AcceptanceVerdict v = acceptanceVerdict(s);
  os << llvm::formatv(
      "  acceptance (mlu-ops standard): {0} bottleneck, efficiency {1:F1}%: "
      "{2}\n",
      v.ioBound ? "IO" : "compute", v.efficiency * 100,
      v.meetsNetwork   ? "meets both (>= 60% network shapes, >= 30% others)"
      : v.meetsGeneral ? "meets >= 30% (other shapes), not >= 60% (network "
                         "shapes)"
                       : "below both (60% network shapes, 30% others)");
}

void bangsim::printProfile(llvm::raw_ostream &os, const LaunchStats &s) {
  os << llvm::formatv("kernel {0} on {1}: {2} tasks\n", s.kernel, s.device,
                      s.tasks);
  os << llvm::formatv("  simulated: {0} cycles = {1:F3} us at {2} GHz\n",
                      uint64_t(s.cycles), s.seconds * 1e6, s.clockGHz);
  os << llvm::formatv("  GDRAM: read {0} B, written {1} B; IO efficiency "
                      "{2:F1}%\n",
                      s.gdramReadBytes, s.gdramWriteBytes,
                      s.ioEfficiency * 100);
  os << llvm::formatv("  compute efficiency {0:F1}%, scalar instructions "
                      "{1}\n",
                      s.computeEfficiency * 100, s.scalarInstructions);
  for (int d = 0; d < NumDirections; ++d)
    if (s.bytesByDirection[d])
      os << llvm::formatv("  {0,-12} {1,14} bytes\n", directionName(d),
                          s.bytesByDirection[d]);
  for (int c = 0; c < BANG_OP_NUM_CLASSES; ++c)
    if (s.opsByClass[c])
      os << llvm::formatv("  op {0,-9} {1,14} elements\n", classNames[c],
                          s.opsByClass[c]);
  printBottleneck(os, s);
  os << "  core  tasks  compute-busy     dma-busy          end   idle\n";
  for (size_t i = 0; i < s.cores.size(); ++i) {
    const CoreStats &c = s.cores[i];
    double idle = s.cycles > 0 ? 1 - c.computeBusy / s.cycles : 0;
    os << llvm::formatv("  {0,4} {1,6} {2,13} {3,12} {4,12} {5,5:F1}%\n", i,
                        c.tasks, uint64_t(c.computeBusy), uint64_t(c.dmaBusy),
                        uint64_t(c.end), idle * 100);
  }
  os << llvm::formatv("  host time {0:F3} ms\n", s.hostSeconds * 1e3);
}

llvm::Error bangsim::writeChromeTrace(llvm::StringRef path,
                                      const LaunchStats &s) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError(ec, "cannot write trace '%s': %s",
                                   path.str().c_str(), ec.message().c_str());
  double usPerCycle = 1e-3 / s.clockGHz;
  llvm::json::Array events;
  for (size_t core = 0; core < s.cores.size(); ++core)
    for (int pipe = 0; pipe < NumPipes; ++pipe)
      events.push_back(llvm::json::Object{
          {"name", "thread_name"},
          {"ph", "M"},
          {"pid", 0},
          {"tid", int(core * NumPipes + pipe)},
          {"args", llvm::json::Object{
                       {"name", llvm::formatv("core {0} {1}", core,
                                              pipeName(pipe))
                                    .str()}}}});
  for (const TraceEvent &e : s.events)
    events.push_back(llvm::json::Object{
        {"name", e.name},
        {"cat", e.dma ? "dma" : "compute"},
        {"ph", "X"},
        {"pid", 0},
        {"tid", e.core * NumPipes + e.pipe},
        {"ts", e.start * usPerCycle},
        {"dur", e.cycles * usPerCycle},
        {"args", llvm::json::Object{{e.dma ? "bytes" : "elements", e.bytes},
                                    {"core", e.core},
                                    {"pipe", pipeName(e.pipe)},
                                    {"start_cycle", e.start},
                                    {"cycles", e.cycles}}}});
  llvm::json::Object root{{"traceEvents", std::move(events)},
                          {"displayTimeUnit", "ns"}};
  os << llvm::json::Value(std::move(root));
  return llvm::Error::success();
}

std::string bangsim::statsToJSON(const LaunchStats &s) {
  llvm::json::Object bytes, ops;
  for (int d = 0; d < NumDirections; ++d)
    if (s.bytesByDirection[d])
      bytes[directionName(d)] = s.bytesByDirection[d];
  for (int c = 0; c < BANG_OP_NUM_CLASSES; ++c)
    if (s.opsByClass[c])
      ops[classNames[c]] = s.opsByClass[c];
  auto pipes = [](const std::array<double, NumPipes> &busy) {
    llvm::json::Object o;
    for (int p = 0; p < NumPipes; ++p)
      o[pipeName(p)] = busy[p];
    return o;
  };
  llvm::json::Array cores;
  for (const CoreStats &c : s.cores)
    cores.push_back(llvm::json::Object{{"tasks", c.tasks},
                                       {"compute_busy", c.computeBusy},
                                       {"dma_busy", c.dmaBusy},
                                       {"pipe_busy", pipes(c.pipeBusy)},
                                       {"end", c.end}});
  AcceptanceVerdict v = acceptanceVerdict(s);
  llvm::json::Object root{
      {"kernel", s.kernel},
      {"device", s.device},
      {"tasks", s.tasks},
      {"cycles", s.cycles},
      {"seconds", s.seconds},
      {"gdram_read_bytes", s.gdramReadBytes},
      {"gdram_write_bytes", s.gdramWriteBytes},
      {"io_efficiency", s.ioEfficiency},
      {"compute_efficiency", s.computeEfficiency},
      {"pipe_busy", pipes(s.pipeBusy)},
      {"bound_pipe", pipeName(s.boundPipe)},
      {"acceptance", llvm::json::Object{{"bottleneck", v.ioBound ? "io"
                                                                 : "compute"},
                                        {"efficiency", v.efficiency},
                                        {"meets_network_60", v.meetsNetwork},
                                        {"meets_general_30", v.meetsGeneral}}},
      {"scalar_instructions", s.scalarInstructions},
      {"bytes_by_direction", std::move(bytes)},
      {"ops_by_class", std::move(ops)},
      {"cores", std::move(cores)},
      {"host_seconds", s.hostSeconds}};
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  return out;
}
