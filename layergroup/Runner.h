//===- Runner.h - LayerGroup: compile, run, report --------------*- C++ -*-===//
#ifndef BANGC_LAYERGROUP_RUNNER_H
#define BANGC_LAYERGROUP_RUNNER_H

#include "layergroup/Codegen.h"
#include "layergroup/Planner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace bangc::graph {
class Graph;
}

namespace bangc::lg {

/// Host tensors in NHWC float order (the device layout), by tensor index.
using HostTensors = std::map<int, std::vector<float>>;

struct GroupRun {
  double Cycles = 0;
  int64_t ReadBytes = 0, WriteBytes = 0;
  int64_t WeightReadBytes = 0; ///< of ReadBytes: GDRAM2WRAM (parameters)
  double CompileSeconds = 0, HostSeconds = 0;
};

struct RunResult {
  HostTensors Outputs; ///< network outputs, NHWC
  std::vector<GroupRun> Groups;
  double Cycles = 0;
  int64_t ReadBytes = 0, WriteBytes = 0, WeightReadBytes = 0;
};

/// Compiles each group's kernel, runs them in order on a fresh device and
/// returns the network outputs. Writes the kernels to \p EmitDir if set.
/// \p UseCache false compiles without the compile cache (--no-cache).
llvm::Expected<RunResult> runPlan(const Net &N, const NetPlan &P,
                                  const bangsim::DeviceSpec &Spec,
                                  int64_t Batch, const HostTensors &Inputs,
                                  const std::string &EmitDir = "",
                                  bool UseCache = true);

/// The NRAM allocation of every group as an SVG (time across, address up).
std::string lmemSvg(const Net &N, const NetPlan &P, int64_t Capacity);

/// `bangc-sim graph FILE --layer-group ...`: the options after parsing.
struct LayerGroupOptions {
  std::string File;
  std::string Device = "mlu370";
  std::string EmitDir, Report, LmemSvg;
  bool Run = false;
  bool Compare = true; ///< with --report: run layer by layer and the reference
  int64_t Batch = 0;   ///< 0: from the inputs (or 1)
  bool UseCache = true; ///< false: --no-cache
  std::vector<std::pair<std::string, std::string>> Ins, Outs;
};
int runLayerGroupCommand(const graph::Graph &G, const LayerGroupOptions &O);

} // namespace bangc::lg

#endif
