//===- Cnrt.h - C++ access to the CNRT runtime's devices and queues -*- C++ -*-===//
//
// Host libraries written against the simulator's C++ API (kernels/, the
// mlu-ops C API) receive CNRT objects from their callers: a cnrtQueue_t in
// mluOpSetQueue, device memory from cnrtMalloc. This header lets them find
// the simrt Device behind a queue, so that memory, launches and simulated
// time are shared with the CNRT runtime (bangsim_cnrt) instead of living on
// a second, private device. C programs use cnrt.h only.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_CNRT_H
#define BANGSIM_CNRT_H

#include "bangsim/Device.h"
#include "bangsim/Stats.h"

#include "cnrt.h"

#include "llvm/Support/Error.h"

namespace bangsim::cnrt {

/// The device ordinal a queue runs on (a null queue: the calling thread's
/// current device). An invalid handle gives an error.
llvm::Expected<int> queueDevice(cnrtQueue_t queue);

/// The simrt Device of an ordinal, opened on first use.
llvm::Expected<Device *> device(int ordinal);

/// The Device of the calling thread's current CNRT device (cnrtSetDevice).
llvm::Expected<Device *> currentDevice();

/// Launches on the queue's device as <<<>>> does: the launch's simulated
/// time advances the device clock that notifiers read, and a device fault
/// is printed on stderr, left on the queue for cnrtQueueSync
/// (cnrtErrorCndrvFuncCall) and returned as a LaunchFault. A configuration
/// the device cannot run is returned as another error, as Device::launch
/// gives it.
llvm::Expected<LaunchStats> launch(cnrtQueue_t queue, const Kernel &kernel,
                                   const StaticLayout &layout, Dim3 dim,
                                   FuncType type,
                                   llvm::ArrayRef<KernelArg> args,
                                   const LaunchOptions &options = {});

/// Accounts a launch made directly on device(queueDevice(queue)) to the
/// queue: its simulated time advances the device clock that notifiers read.
void recordLaunch(cnrtQueue_t queue, const LaunchStats &stats);

/// Records a device fault of such a launch on the queue and prints its
/// message on stderr: the next cnrtQueueSync(queue) returns
/// cnrtErrorCndrvFuncCall, as CNRT reports a failed kernel.
void recordFault(cnrtQueue_t queue, llvm::StringRef message);

/// Whether [ptr, ptr + bytes) lies inside one live cnrtMalloc allocation.
bool isDeviceMemory(const void *ptr, uint64_t bytes);

} // namespace bangsim::cnrt

#endif // BANGSIM_CNRT_H
