//===- GraphCommand.h - The `bangc-sim graph` subcommand --------*- C++ -*-===//
//
// The command line of `bangc-sim graph` and of the standalone bangc-graph
// tool, read with tools/Args. What it does with the graph is graph/'s
// (graph/GraphActions.h); `--layer-group` is handed to a LayerGroup runner
// that bangc-sim supplies (tools/LayerGroupCommand.cpp), so that bangc-graph
// and graph-only builds need neither the compiler nor LayerGroup.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TOOLS_GRAPHCOMMAND_H
#define BANGC_TOOLS_GRAPHCOMMAND_H

#include "tools/CompileLimits.h"

#include "graph/GraphActions.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace bangc::tools {

/// The options of `graph FILE --layer-group ...` besides the graph's own.
struct LayerGroupArgs {
  bool enabled = false, noCompare = false, noCache = false, checkRaces = false,
       noIsolate = false;
  /// --no-dma-pad-rows: PlanOptions::PadRowsByDma off.
  bool noDmaPadRows = false;
  /// --no-cluster-sends: PlanOptions::ClusterSends off.
  bool noClusterSends = false;
  /// --no-keep-rows: PlanOptions::KeepRows off (every item computes its
  /// halo rows).
  bool noKeepRows = false;
  bool noChunkedStaging = false;
  bool noStageMid = false; ///< --no-stage-mid: PlanOptions::StageMid
  bool noLateWeights = false; ///< --no-late-weights: PlanOptions::LateWeights
  bool noWindowTiles = false; ///< --no-window-tiles: PlanOptions::WindowTiles
  bool noReluFloors = false;  ///< --no-relu-floors: PlanOptions::ReluFloors
  bool noKeptTiles = false;   ///< --no-kept-tiles: PlanOptions::KeptTiles
  bool noStepsRunOn = false;  ///< --no-steps-run-on: PlanOptions::StepsRunOn
  bool noLastPieces = false;  ///< --no-last-pieces: PlanOptions::LastPieces
  std::optional<std::string> emitMlu, report, lmemSvg, device;
  /// --traffic-weight: the planner's weight of GDRAM bytes against cycles
  /// (PlanOptions::TrafficWeight); unset keeps the planner's default.
  std::optional<double> trafficWeight;
  /// --excess-margin: PlanOptions::ExcessMargin; unset keeps the default.
  std::optional<double> excessMargin;
  CompileLimits limits; ///< of the group kernels' compiles
  /// --no-first-positions: PlanOptions::FirstPositions off.
  bool noFirstPositions = false;
  /// --no-early-piece: PlanOptions::EarlyPiece off.
  bool noEarlyPiece = false;
  /// --no-next-item-row0: PlanOptions::NextItemRow0 off.
  bool noNextItemRow0 = false;
};

/// Runs LayerGroup on a loaded, valid graph; returns the exit status.
using LayerGroupRunner = int (*)(const graph::Graph &g,
                                 const graph::GraphActions &a,
                                 const LayerGroupArgs &lg);

/// Reads the command line of `bangc-sim graph` only: the exit status it
/// stops with (0 after --help, 2 for a usage error), or -1 to go on.
int parseGraphCommand(llvm::ArrayRef<const char *> argv);

/// Runs `bangc-sim graph ARGS...` (ARGS excludes "bangc-sim graph"):
///   FILE [--validate] [--stats] [--run --in NAME=X.npy... [--out
///   NAME=Y.npy...] [--steps T]] [--dot FILE] [--write-binary FILE]
///   [--write-json FILE] [--layer-group ...] | --help
/// Returns 0 on success, 1 for an invalid graph or a failed run, 2 for a
/// usage error. Output goes to stdout, diagnostics to stderr. Without
/// \p layerGroup, `--layer-group` fails (exit 1).
int runGraphCommand(llvm::ArrayRef<const char *> argv,
                    LayerGroupRunner layerGroup = nullptr);

} // namespace bangc::tools

#endif // BANGC_TOOLS_GRAPHCOMMAND_H
