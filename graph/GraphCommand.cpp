//===- GraphCommand.cpp - The `bangc-sim graph` subcommand ---------------===//
#include "graph/GraphCommand.h"

#include "graph/Dot.h"
#include "graph/Executor.h"
#include "graph/Graph.h"
#include "graph/GraphIO.h"
#include "graph/Precision.h"
#include "graph/Stats.h"
#include "graph/Validate.h"
#include "support/Npy.h"
#ifdef BANGC_HAVE_LAYERGROUP
#include "graph/layergroup/Runner.h"
#endif

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;

namespace bangc::graph {

namespace {

const char *Usage =
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
    "  --help                show this help\n"
    "\n"
    "exit status: 0 ok, 1 invalid graph or run error, 2 usage error\n";

struct Options {
  std::string File;
  bool Validate = false, Stats = false, Run = false;
  std::vector<std::pair<std::string, std::string>> Ins, Outs;
  int Steps = 1;
  std::optional<std::string> Dot, WriteBinary, WriteJson;
  bool LayerGroup = false, NoCompare = false, NoCache = false;
  std::optional<std::string> EmitMlu, Report, LmemSvg, Device;
};

int usageError(const std::string &Msg) {
  errs() << "bangc-sim graph: " << Msg << "\n"
         << "run 'bangc-sim graph --help' for usage\n";
  return 2;
}

/// Parses the arguments; returns an exit code to stop with, or nullopt.
std::optional<int> parseArgs(ArrayRef<const char *> Args, Options &O) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    auto Value = [&](std::string &Out) -> bool {
      if (I + 1 >= Args.size())
        return false;
      Out = Args[++I];
      return true;
    };
    auto Pair = [&](std::vector<std::pair<std::string, std::string>> &Into)
        -> std::optional<int> {
      std::string V;
      if (!Value(V))
        return usageError(fmt::format("{} needs NAME=FILE.npy", A.str()));
      auto [Name, File] = StringRef(V).split('=');
      if (Name.empty() || File.empty())
        return usageError(
            fmt::format("{} expects NAME=FILE.npy, got '{}'", A.str(), V));
      Into.emplace_back(Name.str(), File.str());
      return std::nullopt;
    };
    auto Path = [&](std::optional<std::string> &Into) -> std::optional<int> {
      std::string V;
      if (!Value(V))
        return usageError(fmt::format("{} needs a file name", A.str()));
      Into = V;
      return std::nullopt;
    };
    if (A == "--help" || A == "-h") {
      outs() << Usage;
      return 0;
    }
    if (A == "--validate") {
      O.Validate = true;
    } else if (A == "--stats") {
      O.Stats = true;
    } else if (A == "--run") {
      O.Run = true;
    } else if (A == "--in") {
      if (auto R = Pair(O.Ins))
        return R;
    } else if (A == "--out") {
      if (auto R = Pair(O.Outs))
        return R;
    } else if (A == "--steps") {
      std::string V;
      if (!Value(V) || StringRef(V).getAsInteger(10, O.Steps) || O.Steps < 1)
        return usageError("--steps needs a positive integer");
    } else if (A == "--dot") {
      if (auto R = Path(O.Dot))
        return R;
    } else if (A == "--write-binary") {
      if (auto R = Path(O.WriteBinary))
        return R;
    } else if (A == "--write-json") {
      if (auto R = Path(O.WriteJson))
        return R;
    } else if (A == "--layer-group") {
      O.LayerGroup = true;
    } else if (A == "--no-compare") {
      O.NoCompare = true;
    } else if (A == "--no-cache") {
      O.NoCache = true;
    } else if (A == "--emit-mlu") {
      if (auto R = Path(O.EmitMlu))
        return R;
    } else if (A == "--report") {
      if (auto R = Path(O.Report))
        return R;
    } else if (A == "--lmem-svg") {
      if (auto R = Path(O.LmemSvg))
        return R;
    } else if (A == "--device") {
      if (auto R = Path(O.Device))
        return R;
    } else if (A.starts_with("-")) {
      return usageError(fmt::format("unknown option '{}'", A.str()));
    } else if (O.File.empty()) {
      O.File = A.str();
    } else {
      return usageError(fmt::format("more than one graph file ('{}' and '{}')",
                                    O.File, A.str()));
    }
  }
  if (O.File.empty())
    return usageError("no graph file given");
  if (!O.LayerGroup && (O.EmitMlu || O.Report || O.LmemSvg || O.Device ||
                        O.NoCompare || O.NoCache))
    return usageError("--emit-mlu, --report, --lmem-svg, --device, "
                      "--no-compare and --no-cache need --layer-group");
  if (O.LayerGroup && O.Steps != 1)
    return usageError("--layer-group runs one time step");
  if (!O.Run && (!O.Ins.empty() || !O.Outs.empty() || O.Steps != 1))
    return usageError("--in, --out and --steps need --run");
  return std::nullopt;
}

int fail(const std::string &Msg) {
  errs() << "bangc-sim graph: " << Msg << "\n";
  return 1;
}

std::string summarize(const std::vector<double> &V) {
  if (V.empty())
    return "empty";
  double Lo = *std::min_element(V.begin(), V.end());
  double Hi = *std::max_element(V.begin(), V.end());
  double Sum = 0;
  for (double X : V)
    Sum += X;
  return fmt::format("min {} max {} mean {:.6g}", Lo, Hi, Sum / V.size());
}

int runCommand(const Graph &G, const Options &O) {
  TensorMap Inputs;
  for (auto &[Name, File] : O.Ins) {
    if (Inputs.count(Name))
      return fail(fmt::format("input '{}' given twice", Name));
    Expected<NpyArray> A = readNpy(File);
    if (!A)
      return fail(toString(A.takeError()));
    Inputs[Name] = std::move(*A);
  }
  for (auto &[Name, File] : O.Outs) {
    const taskir::TaskBlock *B = G.findBlock(Name);
    if (!B || B->type() != taskir::SO)
      return fail(fmt::format("--out {}: the graph has no SO block of that "
                              "name",
                              Name));
  }
  RunOptions RO;
  RO.TimeSteps = O.Steps;
  Expected<TensorMap> Out = runGraph(G, Inputs, RO);
  if (!Out)
    return fail(fmt::format("{}: run failed: {}", O.File,
                            toString(Out.takeError())));
  std::vector<std::string> Written;
  for (auto &[Name, File] : O.Outs) {
    const taskir::TaskBlock *B = G.findBlock(Name);
    const NpyArray &A = Out->at(Graph::ioName(*B));
    if (Error E = writeNpy(File, A))
      return fail(toString(std::move(E)));
    outs() << fmt::format("wrote output '{}' {} {} to {}\n", Name,
                          shapeStr(A.shape), dtypeName(A.dtype).str(), File);
    Written.push_back(Graph::ioName(*B));
  }
  for (auto &[Name, A] : *Out) {
    if (std::find(Written.begin(), Written.end(), Name) != Written.end())
      continue;
    const taskir::TaskBlock *B = G.findBlock(Name);
    Expected<std::vector<double>> V =
        npyToValues(A, B->precision(), "output '" + Name + "'");
    if (!V)
      return fail(toString(V.takeError()));
    outs() << fmt::format("output '{}' {} {}: {}\n", Name, shapeStr(A.shape),
                          dtypeName(A.dtype).str(), summarize(*V));
  }
  return 0;
}

} // namespace

int runGraphCommand(ArrayRef<const char *> Args) {
  Options O;
  if (std::optional<int> Stop = parseArgs(Args, O))
    return *Stop;
  Expected<taskir::TaskGraph> TG = readGraphFile(O.File);
  if (!TG)
    return fail(toString(TG.takeError()));
  std::vector<std::string> Errors = collectGraphErrors(*TG);
  if (!Errors.empty()) {
    errs() << fmt::format("{}: invalid graph ({} problem{}):\n", O.File,
                          Errors.size(), Errors.size() == 1 ? "" : "s");
    for (const std::string &E : Errors)
      errs() << "  " << E << "\n";
    // A drawing helps to debug an invalid graph.
    if (O.Dot) {
      std::string Dot = graphToDot(*TG);
      std::error_code EC;
      raw_fd_ostream OS(*O.Dot, EC);
      if (!EC)
        OS << Dot;
    }
    return 1;
  }
  Expected<Graph> G = Graph::create(std::move(*TG));
  if (!G)
    return fail(toString(G.takeError()));
  if (O.Validate || (!O.Stats && !O.Run && !O.Dot && !O.WriteBinary &&
                     !O.WriteJson))
    outs() << fmt::format("{}: valid Task IR graph ({} blocks, {} edges, "
                          "inputs: {}, outputs: {})\n",
                          O.File, G->proto().blocks_size(),
                          G->proto().edges_size(), G->inputBlocks().size(),
                          G->outputBlocks().size());
  if (O.Stats)
    outs() << formatStats(computeStats(*G));
  if (O.Dot) {
    std::error_code EC;
    raw_fd_ostream OS(*O.Dot, EC);
    if (EC)
      return fail(fmt::format("{}: cannot open for writing: {}", *O.Dot,
                              EC.message()));
    OS << graphToDot(G->proto());
  }
  if (O.WriteBinary)
    if (Error E = writeGraphBinary(*O.WriteBinary, G->proto()))
      return fail(toString(std::move(E)));
  if (O.WriteJson)
    if (Error E = writeGraphJson(*O.WriteJson, G->proto()))
      return fail(toString(std::move(E)));
  if (O.LayerGroup) {
#ifdef BANGC_HAVE_LAYERGROUP
    lg::LayerGroupOptions LO;
    LO.File = O.File;
    LO.Run = O.Run;
    LO.Compare = !O.NoCompare;
    LO.UseCache = !O.NoCache;
    LO.Ins = O.Ins;
    LO.Outs = O.Outs;
    LO.EmitDir = O.EmitMlu.value_or("");
    LO.Report = O.Report.value_or("");
    LO.LmemSvg = O.LmemSvg.value_or("");
    if (O.Device)
      LO.Device = *O.Device;
    return lg::runLayerGroupCommand(*G, LO);
#else
    return fail("--layer-group needs the compiler (this build has "
                "BANGC_GRAPH_ONLY)");
#endif
  }
  if (O.Run)
    return runCommand(*G, O);
  return 0;
}

} // namespace bangc::graph
