//===- GraphActions.cpp - What the graph command does with a graph -------===//
//
// Loading, checking, printing, drawing, converting and running a Task IR
// file for the graph command (tools/GraphCommand.cpp), apart from how its
// command line is read.
//
//===----------------------------------------------------------------------===//
#include "graph/GraphActions.h"

#include "graph/Dot.h"
#include "graph/Executor.h"
#include "graph/Graph.h"
#include "graph/GraphIO.h"
#include "graph/Precision.h"
#include "graph/Stats.h"
#include "graph/Validate.h"
#include "support/Npy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace llvm;

namespace bangc::graph {

int graphFailure(const std::string &message) {
  WithColor::error(errs(), "bangc-sim graph") << message << "\n";
  return 1;
}

namespace {

std::string summarize(const std::vector<double> &values) {
  if (values.empty())
    return "empty";
  double lo = *std::min_element(values.begin(), values.end());
  double hi = *std::max_element(values.begin(), values.end());
  double sum = 0;
  for (double x : values)
    sum += x;
  return fmt::format("min {} max {} mean {:.6g}", lo, hi, sum / values.size());
}

int runOnReference(const Graph &g, const GraphActions &a) {
  TensorMap inputs;
  for (auto &[name, file] : a.ins) {
    if (inputs.count(name))
      return graphFailure(fmt::format("input '{}' given twice", name));
    Expected<NpyArray> array = readNpy(file);
    if (!array)
      return graphFailure(toString(array.takeError()));
    inputs[name] = std::move(*array);
  }
  for (auto &[name, file] : a.outs) {
    const taskir::TaskBlock *b = g.findBlock(name);
    if (!b || b->type() != taskir::SO)
      return graphFailure(fmt::format("--out {}: the graph has no SO block "
                                      "of that name",
                                      name));
  }
  RunOptions ro;
  ro.TimeSteps = a.steps;
  Expected<TensorMap> out = runGraph(g, inputs, ro);
  if (!out)
    return graphFailure(
        fmt::format("{}: run failed: {}", a.file, toString(out.takeError())));
  std::vector<std::string> written;
  for (auto &[name, file] : a.outs) {
    const taskir::TaskBlock *b = g.findBlock(name);
    const NpyArray &array = out->at(Graph::ioName(*b));
    if (Error e = writeNpy(file, array))
      return graphFailure(toString(std::move(e)));
    outs() << fmt::format("wrote output '{}' {} {} to {}\n", name,
                          shapeStr(array.shape), dtypeName(array.dtype).str(),
                          file);
    written.push_back(Graph::ioName(*b));
  }
  for (auto &[name, array] : *out) {
    if (std::find(written.begin(), written.end(), name) != written.end())
      continue;
    const taskir::TaskBlock *b = g.findBlock(name);
    Expected<std::vector<double>> values =
        npyToValues(array, b->precision(), "output '" + name + "'");
    if (!values)
      return graphFailure(toString(values.takeError()));
    outs() << fmt::format("output '{}' {} {}: {}\n", name,
                          shapeStr(array.shape), dtypeName(array.dtype).str(),
                          summarize(*values));
  }
  return 0;
}

/// Prints the problems of an invalid graph (and draws it: a drawing helps to
/// debug it); returns 1.
int reportInvalid(const taskir::TaskGraph &tg, const GraphActions &a,
                  const std::vector<std::string> &errors) {
  errs() << fmt::format("{}: invalid graph ({} problem{}):\n", a.file,
                        errors.size(), errors.size() == 1 ? "" : "s");
  for (const std::string &e : errors)
    errs() << "  " << e << "\n";
  if (a.dot) {
    std::string dot = graphToDot(tg);
    std::error_code ec;
    raw_fd_ostream os(*a.dot, ec);
    if (!ec)
      os << dot;
  }
  return 1;
}

/// The summary line, statistics, drawing and conversions \p a asks for.
int printDrawConvert(const Graph &g, const GraphActions &a) {
  if (a.validate ||
      (!a.stats && !a.run && !a.dot && !a.writeBinary && !a.writeJson))
    outs() << fmt::format("{}: valid Task IR graph ({} blocks, {} edges, "
                          "inputs: {}, outputs: {})\n",
                          a.file, g.proto().blocks_size(),
                          g.proto().edges_size(), g.inputBlocks().size(),
                          g.outputBlocks().size());
  if (a.stats)
    outs() << formatStats(computeStats(g));
  if (a.dot) {
    std::error_code ec;
    raw_fd_ostream os(*a.dot, ec);
    if (ec)
      return graphFailure(
          fmt::format("{}: cannot open for writing: {}", *a.dot, ec.message()));
    os << graphToDot(g.proto());
  }
  if (a.writeBinary)
    if (Error e = writeGraphBinary(*a.writeBinary, g.proto()))
      return graphFailure(toString(std::move(e)));
  if (a.writeJson)
    if (Error e = writeGraphJson(*a.writeJson, g.proto()))
      return graphFailure(toString(std::move(e)));
  return 0;
}

} // namespace

int runGraphActions(const GraphActions &a,
                    function_ref<int(const Graph &)> then) {
  Expected<taskir::TaskGraph> tg = readGraphFile(a.file);
  if (!tg)
    return graphFailure(toString(tg.takeError()));
  std::vector<std::string> errors = collectGraphErrors(*tg);
  if (!errors.empty())
    return reportInvalid(*tg, a, errors);
  Expected<Graph> g = Graph::create(std::move(*tg));
  if (!g)
    return graphFailure(toString(g.takeError()));
  if (int status = printDrawConvert(*g, a))
    return status;
  if (then)
    return then(*g);
  if (a.run)
    return runOnReference(*g, a);
  return 0;
}

} // namespace bangc::graph
