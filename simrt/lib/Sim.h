//===- Sim.h - simrt internals shared by its source files -----*- C++ -*-===//
#ifndef BANGSIM_SIM_H
#define BANGSIM_SIM_H

#include "bangsim/Device.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <ucontext.h>
#include <vector>

namespace bangsim {

// --- Memory -------------------------------------------------------------===//

struct Allocation {
  uintptr_t base;
  uint64_t bytes;
  uint64_t id;
  bool freed;
};

/// Where an address range lies.
struct Place {
  enum Kind { Nowhere, Gdram, Nram, Wram, Sram, FreedGdram } kind = Nowhere;
  int index = -1;       ///< core (NRAM/WRAM) or cluster (SRAM)
  bool whole = false;   ///< the whole range is inside that one region
  const Allocation *alloc = nullptr; ///< for GDRAM
  uintptr_t regionBase = 0, regionEnd = 0;
};

const char *placeKindName(Place::Kind kind);

/// GDRAM allocations and the on-chip memories of every core and cluster.
class MemoryMap {
public:
  explicit MemoryMap(const DeviceSpec &spec);
  ~MemoryMap();
  llvm::Expected<void *> allocate(uint64_t bytes);
  llvm::Error release(void *ptr);
  /// Classifies [p, p+bytes).
  Place locate(uintptr_t p, uint64_t bytes) const;
  /// "buffer #3 [0x.., 0x..) of 4096 bytes" nearest to p, for messages.
  std::string nearest(uintptr_t p) const;
  /// The live allocation that wholly contains [p, p+bytes), or null.
  const Allocation *liveContaining(uintptr_t p, uint64_t bytes) const;
  uint64_t allocatedBytes() const;
  /// Base and size of every live allocation.
  std::vector<std::pair<uintptr_t, uint64_t>> liveRanges() const;
  /// Counts allocations and frees: an isolated launch's worker process
  /// (Isolate.cpp) knows the buffers of the generation it was forked at.
  uint64_t generation() const { return changes.load(); }
  /// Holds off allocations and frees while it lives (around a fork).
  std::shared_lock<std::shared_mutex> readLock() const {
    return std::shared_lock(mutex);
  }

  char *nram(int core) const { return chip + core * coreStride; }
  char *wram(int core) const { return nram(core) + spec.nramBytes; }
  char *sram(int cluster) const { return sramBase + cluster * sramStride; }

private:
  const DeviceSpec &spec;
  char *chip = nullptr;
  size_t chipBytes = 0;
  uint64_t coreStride = 0;
  uint64_t sramStride = 0; ///< page-aligned, like coreStride
  char *sramBase = nullptr;
  mutable std::shared_mutex mutex;
  std::map<uintptr_t, Allocation> live;
  std::map<uintptr_t, Allocation> freed; ///< most recent per base
  uint64_t nextId = 1;
  uint64_t liveBytes = 0;
  std::atomic<uint64_t> changes{0};
};

// --- Launches -----------------------------------------------------------===//

struct Launch;
class RaceChecker;

/// One task of a launch: a fiber with its own stack and task context, and
/// its core's simulated clocks.
struct Task {
  BangTaskContext ctx{};
  Launch *launch = nullptr;
  int physicalCore = 0;
  int barrierGroup = 0;      ///< cluster group for __sync_cluster
  int unionGroup = 0;        ///< union group for __sync_all
  /// The physical cluster of the union group's logical cluster 0: the group
  /// runs on clusters [firstCluster, firstCluster + ctx.clusterDim).
  int firstCluster = 0;
  ucontext_t context;
  void *stack = nullptr;
  size_t stackBytes = 0;
  void *fakeStack = nullptr; ///< AddressSanitizer's, while switched out
  enum State { Ready, Blocked, Done, Stopped } state = Ready;
  bool started = false;
  uint64_t runtimeCalls = 0;
  int worker = 0;
  /// Simulated clocks, in cycles: where the in-order issue of the task's
  /// instructions has reached, and when each pipe is free (Cost.cpp).
  double issue = 0;
  std::array<double, NumPipes> pipes{};
  double start = 0;
  /// Starts the task's clocks at \p t.
  void resetClocks(double t) {
    issue = start = t;
    pipes.fill(t);
  }
  /// When the task has issued everything and every pipe has drained.
  double end() const {
    double t = issue;
    for (double p : pipes)
      t = p > t ? p : t;
    return t;
  }
  CoreStats stats;
  int64_t scalar = 0;
  std::array<int64_t, NumDirections> bytes{};
  std::array<int64_t, BANG_OP_NUM_CLASSES> ops{};
  std::vector<TraceEvent> events;
  std::string printfLine; ///< __bang_printf output not yet ended by '\n'
  int waitingAt = -1; ///< barrier kind while Blocked
  const BangSrcLoc *waitLoc = nullptr;
};

/// A barrier among a fixed set of tasks.
struct Barrier {
  int expected = 0;
  int arrived = 0;
  int finished = 0; ///< members that ended without arriving
  std::vector<Task *> waiting;
};

/// Divides by a rate: by multiplying with its reciprocal when that is exact
/// (a power of two, as in the built-in specs), which gives the same result
/// as the division at a fraction of its latency.
class Rate {
public:
  explicit Rate(double rate = 1);
  double divide(double x) const { return exact ? x * reciprocal : x / rate; }

private:
  double rate, reciprocal;
  bool exact;
};

struct Launch {
  DeviceImpl *device = nullptr;
  const Kernel *kernel = nullptr;
  const DeviceSpec *spec = nullptr;
  LaunchOptions options;
  std::vector<Task> tasks;            ///< the wave being run
  std::vector<uint64_t> argValues;    ///< the kernel's arguments
  std::vector<void *> argPointers;    ///< &argValues[i], as the entry wants
  std::vector<Barrier> clusterBarriers, unionBarriers;
  std::mutex mutex; ///< barriers, task states, the fault
  std::condition_variable wake;
  std::atomic<bool> stopped{false};
  std::string fault;
  LaunchStats stats;
  std::mutex statsMutex;
  double gdramBytesPerCycle = 1; ///< per core, with the card's bandwidth shared
  Rate scalarIPC;                ///< the spec's scalar_ipc
  std::chrono::steady_clock::time_point deadline;
  bool hasDeadline = false;
  int64_t printfLines = 0;   ///< __bang_printf lines printed
  int64_t printfDropped = 0; ///< and over the limit (Printf.cpp's mutex)
  RaceChecker *races = nullptr; ///< --check=race (RaceCheck.h), or null
};

/// Task stacks, each with a guard region below it, mapped once and reused by
/// the device's launches: mapping, guarding, faulting in and unmapping a
/// stack per task cost a small launch more than its work.
class StackPool {
public:
  StackPool() = default;
  StackPool(const StackPool &) = delete;
  StackPool &operator=(const StackPool &) = delete;
  ~StackPool();
  /// A stack, guard region included (sizes in Launch.cpp).
  void *acquire();
  /// Gives a stack back once its fiber will never run again.
  void release(void *stack);

private:
  std::mutex mutex;
  std::vector<void *> free;
};

/// The worker process isolated launches of a device run in (Isolate.cpp).
struct IsolatedWorker;
struct IsolatedWorkerDeleter {
  void operator()(IsolatedWorker *worker) const; ///< ends the process
};

struct DeviceImpl {
  explicit DeviceImpl(const DeviceSpec &spec) : spec(spec), memory(this->spec) {}
  DeviceSpec spec;
  MemoryMap memory;
  StackPool stacks;
  std::mutex atomicMutex; ///< serialises __bang_atomic_* across cores
  std::mutex launchMutex; ///< one launch at a time per device
  /// The worker of the last isolated launch, kept for the next while it
  /// can run it (under launchMutex); destroyed first, before the memories.
  std::unique_ptr<IsolatedWorker, IsolatedWorkerDeleter> worker;
};

/// Runs a checked launch on this process's threads (Device.cpp), holding
/// the device's launch lock.
llvm::Expected<LaunchStats>
launchInProcess(DeviceImpl &device, const Kernel &kernel,
                const StaticLayout &layout, Dim3 dim, FuncType type,
                llvm::ArrayRef<KernelArg> args, const LaunchOptions &options);

/// The task running on this host thread, or null outside kernel code.
Task *currentTask();

/// Records a fault of the current task (the message is prefixed with the
/// kernel, task and source location) and stops its launch. Returns false so
/// that checks can `return recordFault(...)`; the caller unwinds to its
/// runtime entry point, which then leaves with stopCurrentTask(). Leaving
/// from deeper would abandon frames that own memory: a fiber's frames are
/// never unwound.
bool recordTaskFault(std::string what);

/// Stops the launch of the current task for its --timeout; does not return.
[[noreturn]] void timeoutCurrentTask();

/// Leaves the current task of a stopped launch quietly; does not return.
[[noreturn]] void stopCurrentTask();

/// Runs all tasks of `launch` to completion, a fault, or a stop.
void runTasks(Launch &launch);

/// Installs the handlers that turn kernel code's signals into faults
/// (Launch.cpp); once per process.
void installSignalHandlers();

// --- Isolated launches (Isolate.cpp) ------------------------------------===//

/// Whether launches can run in a worker process: not under AddressSanitizer,
/// whose runtime needs system calls the worker's filter refuses.
bool isolationSupported();

/// Runs a checked launch in the device's worker process, under a
/// system-call filter, holding the device's launch lock, and turns any end
/// of the worker into stats or a LaunchFault. The worker is forked for the
/// launch unless the one of the last launch can run it (same buffers, same
/// modules, same launching thread) and is kept after a clean launch.
llvm::Expected<LaunchStats>
launchIsolated(DeviceImpl &device, const Kernel &kernel,
               const StaticLayout &layout, Dim3 dim, FuncType type,
               llvm::ArrayRef<KernelArg> args, const LaunchOptions &options);

/// Notes that a kernel module was loaded or unloaded: a worker forked
/// before cannot run its kernels (Module.cpp calls it).
void noteModulesChanged();

/// In an isolated launch's worker, notes that worker thread `worker` runs
/// `task` (null: none), for the parent; elsewhere does nothing.
void noteRunningTask(int worker, const Task *task);

/// __sync_cluster (kind 1) and __sync_all (kind 2) for the current task.
void barrierWait(Task &task, int kind);

/// __bang_printf: prints each task's unfinished line (Printf.cpp), in task
/// order, after a wave of tasks has run.
void flushPrintf(Launch &launch);
/// Notes the lines over the launch's printf limit, at its end.
void finishPrintf(Launch &launch);

/// Where the segments of one side of a copy lie: segment (i1, i2) at
/// base + i1 * stride1 + i2 * stride2, i1 <= n1, i2 <= n2.
struct CopySide {
  const void *base = nullptr;
  int64_t stride1 = 0, n1 = 0, stride2 = 0, n2 = 0;
};

/// Cost model: charge work to the current task's core. A copy of segments
/// of \p seg bytes, laid out as \p dst and \p src say.
void chargeDma(Task &task, int dir, int64_t seg, const CopySide &dst,
               const CopySide &src, bool async, const char *name);
void chargeCompute(Task &task, int opClass, int dtype, int64_t count,
                   const char *name);
void chargeScalar(Task &task, int64_t instructions);
/// Charges and clears the count kernel code left in ctx.scalarPending.
void chargePendingScalar(Task &task);
void chargeSync(Task &task);
/// Aligns the clocks of the tasks meeting at a barrier.
void chargeBarrier(std::vector<Task *> &tasks);

} // namespace bangsim

#endif // BANGSIM_SIM_H
