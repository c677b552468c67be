//===- GraphActions.h - What the graph command does with a graph -*- C++
//-*-===//
//
// The graph-only part of `bangc-sim graph` and of the standalone bangc-graph
// tool: read a Task IR file, validate it, print its summary or statistics,
// draw it, convert it, and run it on the reference executor. The command
// lines themselves are read in tools/ (tools/GraphCommand.cpp), which also
// adds LayerGroup; graph/ knows neither.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_GRAPHACTIONS_H
#define BANGC_GRAPH_GRAPHACTIONS_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bangc::graph {

class Graph;

/// Host files by block name: NAME=FILE.npy.
using NamedFiles = std::vector<std::pair<std::string, std::string>>;

struct GraphActions {
  std::string file;
  bool validate = false, stats = false, run = false;
  NamedFiles ins, outs;
  int steps = 1;
  std::optional<std::string> dot, writeBinary, writeJson;
};

/// Prints "bangc-sim graph: MESSAGE" to stderr and returns 1.
int graphFailure(const std::string &message);

/// Reads and validates \p a.file, then prints, draws and converts it as \p a
/// asks. Then hands the graph to \p then if given, else runs it on the
/// reference executor when \p a.run. Returns the exit status: 0, 1 for an
/// invalid graph or a failed run, or what \p then returns. Output goes to
/// stdout, diagnostics to stderr.
int runGraphActions(const GraphActions &a,
                    llvm::function_ref<int(const Graph &)> then = nullptr);

} // namespace bangc::graph

#endif // BANGC_GRAPH_GRAPHACTIONS_H
