//===- LayerGroupCommand.cpp - `bangc-sim graph --layer-group` -----------===//
//
// bangc-sim's graph command: the graph command of tools/GraphCommand.cpp
// with LayerGroup (layergroup/) behind --layer-group. Kept apart so that
// the standalone bangc-graph links neither LayerGroup nor the compiler.
//
//===----------------------------------------------------------------------===//
#include "tools/Commands.h"
#include "tools/GraphCommand.h"

#include "layergroup/Runner.h"

namespace bangc::tools {

namespace {

int runLayerGroup(const graph::Graph &g, const graph::GraphActions &a,
                  const LayerGroupArgs &lg) {
  lg::LayerGroupOptions o;
  o.File = a.file;
  o.Run = a.run;
  o.Compare = !lg.noCompare;
  o.UseCache = !lg.noCache;
  o.Ins = a.ins;
  o.Outs = a.outs;
  o.EmitDir = lg.emitMlu.value_or("");
  o.Report = lg.report.value_or("");
  o.LmemSvg = lg.lmemSvg.value_or("");
  if (lg.device)
    o.Device = *lg.device;
  return lg::runLayerGroupCommand(g, o);
}

} // namespace

int graphMain(llvm::ArrayRef<const char *> argv) {
  return runGraphCommand(argv, runLayerGroup);
}

} // namespace bangc::tools
