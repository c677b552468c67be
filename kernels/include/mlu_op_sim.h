//===- mlu_op_sim.h - C++ extensions of the op library ---------*- C++ -*-===//
//
// What the C API cannot say: the simulated device behind a handle, the
// options and statistics of its launches, and the switches for the places
// where bangc-sim's operators deliberately differ from mlu-ops. (The registry of operators that
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

/// Options used for the handle's launches (trace, host threads, timeout).
void setLaunchOptions(mluOpHandle_t handle, const bangsim::LaunchOptions &opts);
/// Statistics of the launches of the last operator run on the handle, in
/// order (an operator may launch more than one kernel).
const std::vector<bangsim::LaunchStats> &lastLaunches(mluOpHandle_t handle);
/// The launches of the last operator merged into one (cycles and bytes
/// added, efficiencies recomputed from the handle's device, events kept).
bangsim::LaunchStats mergedLastLaunches(mluOpHandle_t handle);

/// Compile-time seconds of the handle's cached kernel modules (for benches).
double compileSeconds(mluOpHandle_t handle);
/// Whether the handle compiles its kernels through the on-disk compile
/// cache (docs/cache.md; on by default). Set before the first operator.
void setCompileCache(mluOpHandle_t handle, bool enabled);

// --- Where bangc-sim deliberately differs from mlu-ops (docs/ops.md) ------===//
/// mluOpTinShiftBackward computes the true gradient (the adjoint of
/// forward, shifting by -s) unless this is set: then it shifts the
/// gradient by +s like the data, as mmcv's and mlu-ops' backward kernels.
void setTinShiftBackwardShiftsLikeForward(mluOpHandle_t handle, bool enabled);
/// BorderAlign requires K == H * W (one box per pixel), as mmcv and
/// mlu-ops do; set, any K >= 1 is accepted (the kernels do not depend on
/// it).
void setBorderAlignAnyBoxCount(mluOpHandle_t handle, bool enabled);

} // namespace mluop

#endif // MLU_OP_SIM_H
