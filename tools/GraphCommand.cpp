//===- GraphCommand.cpp - The `bangc-sim graph` subcommand ---------------===//
//
// Reads the graph command's options with tools/Args (one table), then lets
// graph/ do the work (runGraphActions) and a LayerGroup runner, when given,
// take over for --layer-group. Messages and exit codes are the command's
// contract (test/lit, graph/test/CommandTest.cpp).
//
//===----------------------------------------------------------------------===//
#include "tools/GraphCommand.h"

#include "tools/Args.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <fmt/format.h>

using namespace llvm;
using namespace bangc::graph;

namespace bangc::tools {

namespace {

const char *head =
    "usage: bangc-sim graph FILE [options]\n"
    "\n"
    "Reads a Task IR graph (protobuf binary or JSON), validates it, and\n"
    "optionally prints statistics, runs it on the reference executor,\n"
    "draws it, or converts it.\n";

const char *tail =
    "\n"
    "exit status: 0 ok, 1 invalid graph or run error, 2 usage error\n";

struct GraphOptions {
  GraphActions actions;
  LayerGroupArgs layerGroup;

  CommandLine commandLine();
  /// What the table cannot say: the exit status to stop with, or -1.
  int check() const;
};

/// --in, --out: NAME=FILE.npy, appended to `into`.
Option namedFile(StringRef spelling, StringRef help, NamedFiles &into) {
  std::string name = spelling.str();
  return custom(spelling, "NAME=FILE.npy", help,
                [&into, name](StringRef v) {
                  auto [block, file] = v.split('=');
                  if (block.empty() || file.empty())
                    return fmt::format("{} expects NAME=FILE.npy, got '{}'",
                                       name, v.str());
                  into.emplace_back(block.str(), file.str());
                  return std::string();
                })
      .ifMissing(name + " needs NAME=FILE.npy");
}

/// --dot, --write-json, ...: a file or folder name.
Option path(StringRef spelling, StringRef meta, StringRef help,
            std::optional<std::string> &into) {
  return text(spelling, meta, help, into)
      .ifMissing(spelling.str() + " needs a file name");
}

CommandLine GraphOptions::commandLine() {
  GraphActions &a = actions;
  LayerGroupArgs &lg = layerGroup;
  std::vector<Option> rows = {
      flag("--validate", "validate only and report (always done)", a.validate),
      flag("--stats", "print params, MACs, ops and storage per block", a.stats),
      flag("--run", "execute the graph on the reference executor", a.run),
      namedFile("--in",
                "value of input block NAME (SI/SIC/SIC2D/SIFC without "
                "producer; NAME is its name or id)",
                a.ins),
      namedFile("--out",
                "write output block NAME (an SO) to FILE.npy; outputs not "
                "written are summarised on stdout",
                a.outs),
      custom("--steps", "T",
             "run T time steps (SNN); inputs may carry a leading time axis, "
             "outputs get one",
             [&a](StringRef v) {
               if (v.getAsInteger(10, a.steps) || a.steps < 1)
                 return std::string("--steps needs a positive integer");
               return std::string();
             })
          .ifMissing("--steps needs a positive integer"),
      path("--dot", "FILE", "write a Graphviz drawing", a.dot),
      path("--write-binary", "FILE", "write the graph as protobuf binary",
           a.writeBinary),
      path("--write-json", "FILE", "write the graph as protobuf JSON",
           a.writeJson),
      flag("--layer-group",
           "plan the network into NRAM layer groups (docs/layergroup.md); "
           "with --run, compile one kernel per group and run on the "
           "simulated device",
           lg.enabled),
      path("--emit-mlu", "DIR",
           "(--layer-group) write the group kernels to DIR", lg.emitMlu),
      path("--report", "FILE",
           "(--layer-group) JSON report: groups, slices, time steps, NRAM; "
           "grouped vs layer-by-layer traffic and cycles; error vs the "
           "reference",
           lg.report),
      path("--lmem-svg", "FILE", "(--layer-group) draw the NRAM allocation",
           lg.lmemSvg),
      text("--device", "NAME|FILE",
           "(--layer-group) device spec (default mlu370)", lg.device)
          .ifMissing("--device needs a device name or file"),
      nonNegativeNumber(
          "--traffic-weight", "W",
          "(--layer-group) the planner's weight of GDRAM bytes against "
          "cycles: cycles + W x the cycles the chip's GDRAM bandwidth "
          "needs for the bytes (default 8; 0 = cycles only)",
          lg.trafficWeight),
      nonNegativeNumber(
          "--excess-margin", "M",
          "(--layer-group) take the grouping whose every group is at its "
          "group-boundary minimum of feature-map bytes when its objective "
          "is at most M above the best grouping's (a fraction; default "
          "0.1; 0 = the objective alone)",
          lg.excessMargin),
      flag("--no-first-positions",
           "(--layer-group) a first weight tile loaded by kernel rows never "
           "loads in pieces of kernel positions (GroupPlan::FirstPieces)",
           lg.noFirstPositions),
      flag("--no-early-piece",
           "(--layer-group) a first weight tile in pieces loads its second "
           "piece after the first item's input, not beside it "
           "(GroupPlan::EarlyPiece)",
           lg.noEarlyPiece),
      flag("--no-next-item-row0",
           "(--layer-group) a first weight tile loaded by kernel rows feeds "
           "the first item alone, not the next one's kernel row 0 too "
           "(GroupPlan::NextItemRow0)",
           lg.noNextItemRow0),
      flag("--no-keep-rows",
           "(--layer-group) every tile computes the halo rows of its inner "
           "layers, none kept in NRAM from the tile above (GroupPlan::"
           "KeepRows)",
           lg.noKeepRows),
      flag("--no-chunked-staging",
           "(--layer-group) a phase stages its inputs in SRAM whole before "
           "its items, never the rest beside them (GroupPlan::"
           "chunkedStaging)",
           lg.noChunkedStaging),
      flag("--no-stage-mid",
           "(--layer-group) chunked staging stages the rows of the items "
           "before its barrier first, none beside the first item "
           "(GroupPlan::StageMid)",
           lg.noStageMid),
      flag("--no-late-weights",
           "(--layer-group) a group of tiles with resident weights stages "
           "all of them before its first item, not those after its first "
           "step beside it (GroupPlan::LateWeights)",
           lg.noLateWeights),
      flag("--no-window-tiles",
           "(--layer-group) ReLUs and W-sliced group inputs write a scratch "
           "tile that is copied into the padding convolution's window tile "
           "(GroupPlan::ReluTiles, PaddedInputs)",
           lg.noWindowTiles),
      flag("--no-relu-floors",
           "(--layer-group) a ReLU that writes its reader's window tile "
           "leaves the bias to the convolution before it, not taking it as "
           "its floor (GroupPlan::ReluFloors)",
           lg.noReluFloors),
      flag("--no-kept-tiles",
           "(--layer-group) kept rows stay in their own buffer and the ReLU "
           "that writes its reader's window tile runs over them again "
           "(GroupPlan::KeptTiles)",
           lg.noKeptTiles),
      flag("--no-steps-run-on",
           "(--layer-group) every step of a pipelined item ends with a "
           "__sync() (GroupPlan::stepRunsOn)",
           lg.noStepsRunOn),
      flag("--no-last-pieces",
           "(--layer-group) a pipelined core computes its last item whole "
           "and stores it after the loop (GroupPlan::LastPieces)",
           lg.noLastPieces),
      flag("--no-compare",
           "(--layer-group) skip the layer-by-layer and reference runs of "
           "--report",
           lg.noCompare),
      flag("--no-cache",
           "(--layer-group) compile the group kernels without the compile "
           "cache (docs/cache.md)",
           lg.noCache),
      flag("--check=race",
           "(--layer-group) check every group kernel's launches for races "
           "(docs/device.md)",
           lg.checkRaces),
      flag("--no-isolate",
           "(--layer-group) run the group kernels in this process, not in a "
           "worker process under a system-call filter (docs/isolation.md)",
           lg.noIsolate),
      flag("--no-dma-pad-rows",
           "(--layer-group) a pipelined item zeroes its padded input tiles' "
           "padding rows on the vector unit, never with an NRAM fill on the "
           "Move-DMA pipe (GroupPlan::PadRowsByDma)",
           lg.noDmaPadRows),
      flag("--no-cluster-sends",
           "(--layer-group) a phase with resident inputs sends each core's "
           "share to every other cluster and loads its first weight tile "
           "before the barrier (GroupPlan::ClusterSends)",
           lg.noClusterSends)};
  for (Option &row : lg.limits.options("(--layer-group)"))
    rows.push_back(std::move(row));
  CommandLine cmd{"graph", head, tail, 24};
  cmd.groups = {{"options", std::move(rows)}};
  cmd.positional = [&a](StringRef file) {
    if (!a.file.empty())
      return fmt::format("more than one graph file ('{}' and '{}')", a.file,
                         file.str());
    a.file = file.str();
    return std::string();
  };
  // "-" is no graph file: graph files are read by name.
  cmd.dashIsFile = false;
  return cmd;
}

int GraphOptions::check() const {
  const GraphActions &a = actions;
  const LayerGroupArgs &lg = layerGroup;
  if (a.file.empty())
    return usageError("graph", "no graph file given");
  if (!lg.enabled &&
      (lg.emitMlu || lg.report || lg.lmemSvg || lg.device || lg.noCompare ||
       lg.noCache || lg.checkRaces || lg.noIsolate || lg.noDmaPadRows ||
       lg.noClusterSends ||
       lg.trafficWeight ||
       lg.excessMargin || lg.noKeepRows || lg.noChunkedStaging ||
       lg.noStageMid ||
       lg.noFirstPositions || lg.noEarlyPiece || lg.noNextItemRow0 ||
       lg.noLateWeights ||
       lg.noWindowTiles || lg.noReluFloors || lg.noKeptTiles ||
       lg.noStepsRunOn ||
       lg.noLastPieces ||
       lg.limits.given))
    return usageError("graph", "--emit-mlu, --report, --lmem-svg, --device, "
                               "--no-compare, --no-cache, --check=race, "
                               "--no-isolate, --no-dma-pad-rows, "
                               "--no-cluster-sends, "
                               "--traffic-weight, "
                               "--excess-margin, --no-first-positions, "
                               "--no-early-piece, "
                               "--no-next-item-row0, "
                               "--no-keep-rows, "
                               "--no-chunked-staging, --no-stage-mid, "
                               "--no-late-weights, "
                               "--no-window-tiles, --no-relu-floors, "
                               "--no-kept-tiles, "
                               "--no-steps-run-on, --no-last-pieces and "
                               "--max-compile-* "
                               "need --layer-group");
  if (!a.run && (!a.ins.empty() || !a.outs.empty() || a.steps != 1))
    return usageError("graph", "--in, --out and --steps need --run");
  return -1;
}

} // namespace

int parseGraphCommand(ArrayRef<const char *> argv) {
  return parseOnly<GraphOptions>(argv);
}

int runGraphCommand(ArrayRef<const char *> argv, LayerGroupRunner layerGroup) {
  GraphOptions o;
  if (int stop = parseInto(o, argv); stop >= 0)
    return stop;
  if (!o.layerGroup.enabled)
    return runGraphActions(o.actions);
  return runGraphActions(o.actions, [&](const Graph &g) {
    if (!layerGroup)
      return graphFailure("--layer-group needs the compiler: run it with "
                          "'bangc-sim graph'");
    return layerGroup(g, o.actions, o.layerGroup);
  });
}

} // namespace bangc::tools
