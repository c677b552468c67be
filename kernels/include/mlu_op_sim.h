//===- mlu_op_sim.h - C++ extensions of the op library ---------*- C++ -*-===//
//
// What the C API cannot say: the simulated device behind a handle, launch
// options and statistics of a queue. (The registry of operators that
// `bangc-sim op` drives from .npy files is the CLI's: tools/OpRegistry.h.)
//
//===----------------------------------------------------------------------===//
#ifndef MLU_OP_SIM_H
#define MLU_OP_SIM_H

#include "mlu_op.h"

#include "bangsim/Device.h"

#include <cstdint>
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

} // namespace mluop

#endif // MLU_OP_SIM_H
