//===- GraphCommand.cpp - The `bangc-sim graph` subcommand ---------------===//
//
// Reads the graph command's options with tools/Args, then lets graph/ do
// the work (runGraphActions) and a LayerGroup runner, when given, take over
// for --layer-group. Messages and exit codes are the command's contract
// (test/lit, graph/test/CommandTest.cpp).
//
//===----------------------------------------------------------------------===//
#include "tools/GraphCommand.h"

#include "tools/Args.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

using namespace llvm;
using namespace bangc::graph;

namespace bangc::tools {

namespace {

const char *usage =
    "usage: bangc-sim graph FILE [options]\n"
    "\n"
    "Reads a Task IR graph (protobuf binary or JSON), validates it, and\n"
    "optionally prints statistics, runs it on the reference executor,\n"
    "draws it, or converts it.\n"
    "\n"
    "options:\n"
    "  --validate            validate only and report (always done)\n"
    "  --stats               print params, MACs, ops and storage per block\n"
    "  --run                 execute the graph on the reference executor\n"
    "  --in NAME=FILE.npy    value of input block NAME (SI/SIC/SIC2D/SIFC\n"
    "                        without producer; NAME is its name or id)\n"
    "  --out NAME=FILE.npy   write output block NAME (an SO) to FILE.npy;\n"
    "                        outputs not written are summarised on stdout\n"
    "  --steps T             run T time steps (SNN); inputs may carry a\n"
    "                        leading time axis, outputs get one\n"
    "  --dot FILE            write a Graphviz drawing\n"
    "  --write-binary FILE   write the graph as protobuf binary\n"
    "  --write-json FILE     write the graph as protobuf JSON\n"
    "  --layer-group         plan the network into NRAM layer groups\n"
    "                        (docs/layergroup.md); with --run, compile one\n"
    "                        kernel per group and run on the simulated device\n"
    "  --emit-mlu DIR        (--layer-group) write the group kernels to DIR\n"
    "  --report FILE         (--layer-group) JSON report: groups, slices,\n"
    "                        time steps, NRAM; grouped vs layer-by-layer\n"
    "                        traffic and cycles; error vs the reference\n"
    "  --lmem-svg FILE       (--layer-group) draw the NRAM allocation\n"
    "  --device NAME|FILE    (--layer-group) device spec (default mlu370)\n"
    "  --no-compare          (--layer-group) skip the layer-by-layer and\n"
    "                        reference runs of --report\n"
    "  --no-cache            (--layer-group) compile the group kernels\n"
    "                        without the compile cache (docs/cache.md)\n"
    "  --check=race          (--layer-group) check every group kernel's\n"
    "                        launches for races (docs/device.md)\n"
    "  --no-isolate          (--layer-group) run the group kernels in this\n"
    "                        process, not in a worker process under a\n"
    "                        system-call filter (docs/isolation.md)\n"
    "  --max-compile-seconds=N, --max-compile-memory=MIB\n"
    "                        (--layer-group) end a group kernel's compile\n"
    "                        that runs longer than N s (default 300) or adds\n"
    "                        more than MIB MiB to the resident memory\n"
    "                        (default 4096); 0: no limit\n"
    "  --help                show this help\n"
    "\n"
    "exit status: 0 ok, 1 invalid graph or run error, 2 usage error\n";

/// The graph command's usage errors (its own form, which its tests check).
int graphUsageError(const std::string &message) {
  WithColor::error(errs(), "bangc-sim graph") << message << "\n";
  errs() << "run 'bangc-sim graph --help' for usage\n";
  return 2;
}

struct GraphOptions {
  GraphActions actions;
  LayerGroupArgs layerGroup;
};

/// Reads one option at the front of \p args into \p o. Returns an exit
/// status to stop with (0 after --help), or nullopt to go on.
std::optional<int> readOption(Args &args, GraphOptions &o) {
  GraphActions &a = o.actions;
  LayerGroupArgs &lg = o.layerGroup;
  if (args.flag("--help") || args.flag("-h")) {
    outs() << usage;
    return 0;
  }
  std::pair<const char *, bool *> flags[] = {{"--validate", &a.validate},
                                             {"--stats", &a.stats},
                                             {"--run", &a.run},
                                             {"--layer-group", &lg.enabled},
                                             {"--no-compare", &lg.noCompare},
                                             {"--no-cache", &lg.noCache},
                                             {"--check=race", &lg.checkRaces},
                                             {"--no-isolate", &lg.noIsolate}};
  for (auto &[name, into] : flags)
    if (args.flag(name)) {
      *into = true;
      return std::nullopt;
    }
  std::pair<const char *, NamedFiles *> pairs[] = {{"--in", &a.ins},
                                                   {"--out", &a.outs}};
  for (auto &[name, into] : pairs) {
    std::optional<std::string> v = args.value(name);
    if (!args.error.empty())
      return graphUsageError(fmt::format("{} needs NAME=FILE.npy", name));
    if (!v)
      continue;
    auto [block, file] = StringRef(*v).split('=');
    if (block.empty() || file.empty())
      return graphUsageError(
          fmt::format("{} expects NAME=FILE.npy, got '{}'", name, *v));
    into->emplace_back(block.str(), file.str());
    return std::nullopt;
  }
  if (std::optional<std::string> v = args.value("--steps");
      v || !args.error.empty()) {
    if (!v || StringRef(*v).getAsInteger(10, a.steps) || a.steps < 1)
      return graphUsageError("--steps needs a positive integer");
    return std::nullopt;
  }
  std::pair<const char *, std::optional<std::string> *> paths[] = {
      {"--dot", &a.dot},
      {"--write-binary", &a.writeBinary},
      {"--write-json", &a.writeJson},
      {"--emit-mlu", &lg.emitMlu},
      {"--report", &lg.report},
      {"--lmem-svg", &lg.lmemSvg},
      {"--device", &lg.device}};
  for (auto &[name, into] : paths) {
    std::optional<std::string> v = args.value(name);
    if (!args.error.empty())
      return graphUsageError(fmt::format("{} needs a file name", name));
    if (!v)
      continue;
    *into = *v;
    return std::nullopt;
  }
  if (lg.limits.parse(args)) {
    if (!args.error.empty())
      return graphUsageError(args.error);
    lg.limitsGiven = true;
    return std::nullopt;
  }
  StringRef arg = args.peek();
  if (arg.starts_with("-"))
    return graphUsageError(fmt::format("unknown option '{}'", arg.str()));
  std::string file = *args.positional();
  if (!a.file.empty())
    return graphUsageError(
        fmt::format("more than one graph file ('{}' and '{}')", a.file, file));
  a.file = file;
  return std::nullopt;
}

/// Reads the command line; returns an exit status to stop with, or nullopt.
std::optional<int> readOptions(ArrayRef<const char *> argv, GraphOptions &o) {
  Args args(argv);
  while (!args.done())
    if (std::optional<int> stop = readOption(args, o))
      return stop;
  const GraphActions &a = o.actions;
  const LayerGroupArgs &lg = o.layerGroup;
  if (a.file.empty())
    return graphUsageError("no graph file given");
  if (!lg.enabled && (lg.emitMlu || lg.report || lg.lmemSvg || lg.device ||
                      lg.noCompare || lg.noCache || lg.checkRaces ||
                      lg.noIsolate || lg.limitsGiven))
    return graphUsageError("--emit-mlu, --report, --lmem-svg, --device, "
                           "--no-compare, --no-cache, --check=race, "
                           "--no-isolate and --max-compile-* need "
                           "--layer-group");
  if (!a.run && (!a.ins.empty() || !a.outs.empty() || a.steps != 1))
    return graphUsageError("--in, --out and --steps need --run");
  return std::nullopt;
}

} // namespace

int parseGraphCommand(ArrayRef<const char *> argv) {
  GraphOptions o;
  std::optional<int> stop = readOptions(argv, o);
  return stop ? *stop : -1;
}

int runGraphCommand(ArrayRef<const char *> argv, LayerGroupRunner layerGroup) {
  GraphOptions o;
  if (std::optional<int> stop = readOptions(argv, o))
    return *stop;
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
