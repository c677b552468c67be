//===- Interop.cpp - C++ access to the runtime's devices and queues -------===//
//
// bangsim/Cnrt.h: libraries above the runtime (the mlu-ops C API in
// kernels/) launch on the device behind a cnrtQueue_t, so memory from
// cnrtMalloc, the queue's clock and its fault reporting are shared with
// <<<>>> launches.
//
//===----------------------------------------------------------------------===//
#include "State.h"

#include "bangsim/Cnrt.h"

#include "llvm/Support/raw_ostream.h"

using namespace bangsim;
using namespace bangsim::cnrt;

llvm::Expected<int> bangsim::cnrt::queueDevice(cnrtQueue_t queue) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (state.devices().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no device: " + state.devicesError);
  CNqueue_st *q = resolveQueue(state, queue);
  if (!q)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the queue is not a live cnrtQueue_t");
  return q->device;
}

llvm::Expected<Device *> bangsim::cnrt::device(int ordinal) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (ordinal < 0 || size_t(ordinal) >= state.devices().size())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no device " + std::to_string(ordinal));
  return state.open(ordinal);
}

void bangsim::cnrt::recordLaunch(cnrtQueue_t queue, const LaunchStats &stats) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (CNqueue_st *q = resolveQueue(state, queue))
    state.devices()[q->device].clockSeconds += stats.seconds;
}

void bangsim::cnrt::recordFault(cnrtQueue_t queue, llvm::StringRef message) {
  llvm::errs() << message << "\n";
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (CNqueue_st *q = resolveQueue(state, queue))
    q->pending = cnrtErrorCndrvFuncCall;
}

bool bangsim::cnrt::isDeviceMemory(const void *ptr, uint64_t bytes) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  return state.find(ptr, bytes, /*device=*/true) != nullptr;
}

llvm::Expected<Device *> bangsim::cnrt::currentDevice() {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (state.devices().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no device: " + state.devicesError);
  int d = currentOrdinal();
  if (d < 0 || size_t(d) >= state.devices().size())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the current device does not exist");
  return state.open(d);
}

llvm::Expected<LaunchStats>
bangsim::cnrt::launch(cnrtQueue_t queue, const Kernel &kernel,
                      const StaticLayout &layout, Dim3 dim, FuncType type,
                      llvm::ArrayRef<KernelArg> args,
                      const LaunchOptions &options) {
  State &state = State::get();
  std::unique_lock lock(state.mutex);
  if (state.devices().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no device: " + state.devicesError);
  CNqueue_st *q = resolveQueue(state, queue);
  if (!q)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the queue is not a live cnrtQueue_t");
  int ordinal = q->device;
  llvm::Expected<Device *> device = state.open(ordinal);
  if (!device)
    return device.takeError();
  lock.unlock();
  llvm::Expected<LaunchStats> stats =
      (*device)->launch(kernel, layout, dim, type, args, options);
  lock.lock();
  bool live = q == &state.devices()[ordinal].defaultQueue ||
              state.queues.count(q);
  if (stats) {
    state.devices()[ordinal].clockSeconds += stats->seconds;
    return stats;
  }
  llvm::Error err = stats.takeError();
  if (!err.isA<LaunchFault>())
    return std::move(err);
  std::string message = toString(std::move(err));
  llvm::errs() << "[CNRT] [Error] kernel '" << kernel.pretty
               << "' faulted on device " << ordinal << ": " << message << "\n";
  if (live)
    q->pending = cnrtErrorCndrvFuncCall;
  return llvm::make_error<LaunchFault>(message);
}
