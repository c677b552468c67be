//===- mlu_op_sim.h - C++ extensions of the op library ---------*- C++ -*-===//
//
// What the C API cannot say: the simulated device behind a handle, launch
// options and statistics of a queue, and the registry of operators that
// `bangc-sim op` drives from .npy files.
//
//===----------------------------------------------------------------------===//
#ifndef MLU_OP_SIM_H
#define MLU_OP_SIM_H

#include "mlu_op.h"

#include "bangsim/Device.h"
#include "support/Npy.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mluop {

/// The simulated device of a handle (null for a null handle).
bangsim::Device *deviceOf(mluOpHandle_t handle);

/// Options used for the queue's launches (trace, host threads, timeout).
void setLaunchOptions(mluOpQueue_t queue, const bangsim::LaunchOptions &opts);
/// Statistics of the launches of the last operator run on the queue, in
/// order (an operator may launch more than one kernel).
const std::vector<bangsim::LaunchStats> &lastLaunches(mluOpQueue_t queue);
/// The launches of the last operator merged into one (cycles and bytes
/// added, efficiencies recomputed, events kept).
bangsim::LaunchStats mergedLastLaunches(mluOpQueue_t queue,
                                        const bangsim::DeviceSpec &spec);

/// Compile-time seconds of the handle's cached kernel modules (for benches).
double compileSeconds(mluOpHandle_t handle);
/// Whether the handle compiles its kernels through the on-disk compile
/// cache (docs/cache.md; on by default). Set before the first operator.
void setCompileCache(mluOpHandle_t handle, bool enabled);

// --- The operator registry (bangc-sim op) --------------------------------===//
struct OpAttr {
  std::string name, help;
  bool required = false;
  int64_t defaultValue = 0;
};

struct OpRun {
  mluOpHandle_t handle = nullptr;
  std::map<std::string, bangc::NpyArray> inputs;
  std::map<std::string, int64_t> attrs;
  std::map<std::string, bangc::NpyArray> outputs; ///< filled by run
  std::string error; ///< when run fails before or after the operator
};

struct OpDef {
  std::string name, summary;
  std::vector<std::string> inputs, outputs;
  std::vector<OpAttr> attrs;
  /// Copies inputs to the device, calls the C API, copies outputs back.
  std::function<mluOpStatus_t(OpRun &)> run;
};

const std::vector<OpDef> &registeredOps();
const OpDef *findOp(const std::string &name);

} // namespace mluop

#endif // MLU_OP_SIM_H
