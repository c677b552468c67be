//===- Runner.h - LayerGroup: compile and run a plan ------------*- C++ -*-===//
//
// Execution of a plan on the simulated device: upload the inputs and the
// parameters (convolution weights packed as the plan says), compile each
// group's kernel, launch it, read the counters and the outputs back. The
// report (Report.h) and the command line (tools/LayerGroupCommand.cpp) are
// apart.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_RUNNER_H
#define BANGC_LAYERGROUP_RUNNER_H

#include "layergroup/Codegen.h"
#include "layergroup/Planner.h"

#include "bangsim/Stats.h"

#include "llvm/Support/Error.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace bangc::lg {

/// Host tensors in NHWC order (the device layout), by tensor index: exact
/// values, stored on the device in each tensor's element type.
using HostTensors = std::map<int, std::vector<double>>;

struct GroupRun {
  double Cycles = 0;
  int64_t ReadBytes = 0, WriteBytes = 0;
  int64_t WeightReadBytes = 0; ///< of ReadBytes: GDRAM2WRAM (parameters)
  double CompileSeconds = 0, HostSeconds = 0;
  int WorkerPid = 0; ///< bangsim::LaunchStats::workerPid of its launch
  /// Where the time went on the core that finished last (the group's
  /// cycles): the busy cycles of its pipes, indexed by bangsim::Pipe
  /// (scalar, vector, tensor, IO-DMA, Move-DMA; docs/device.md).
  std::array<double, bangsim::NumPipes> LastCorePipes{};
};

struct RunResult {
  HostTensors Outputs; ///< network outputs, NHWC
  std::vector<GroupRun> Groups;
  double Cycles = 0;
  int64_t ReadBytes = 0, WriteBytes = 0, WeightReadBytes = 0;
};

/// How runPlan compiles and launches the group kernels.
struct RunOptions {
  std::string emitDir;    ///< write the kernels here if set (--emit-mlu)
  bool useCache = true;   ///< false: no compile cache (--no-cache)
  bool checkRaces = false; ///< --check=race on every launch (docs/device.md)
  /// Each launch in a worker process under the system-call filter
  /// (docs/isolation.md); false: on this process's threads (--no-isolate).
  bool isolate = false;
  /// Compile the group kernels on a thread of their own while the
  /// parameters upload (with more than one host thread); false: compile
  /// them first, alone. A compile limit (--max-compile-memory, -seconds)
  /// given on the command line needs false: its watchdog charges all the
  /// process's memory growth and time to the compile.
  bool compileBesideUploads = true;
};

/// Compiles each group's kernel, runs them in order on a fresh device and
/// returns the network outputs.
llvm::Expected<RunResult> runPlan(const Net &n, const NetPlan &p,
                                  const bangsim::DeviceSpec &spec,
                                  int64_t batch, const HostTensors &inputs,
                                  const RunOptions &options = {});

/// Writes \p text to the file \p path.
llvm::Error writeTextFile(const std::string &path, const std::string &text);

} // namespace bangc::lg

#endif // BANGC_LAYERGROUP_RUNNER_H
