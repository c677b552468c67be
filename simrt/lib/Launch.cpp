//===- Launch.cpp - Tasks as fibers on a pool of host threads -------------===//
//
// Every task of a launch is a fiber (ucontext) with its own stack, bound to
// one host worker thread. A worker runs its ready fibers in turn; a fiber
// gives the thread back when it waits at a barrier, ends, or faults. So a
// 16-core UNION4 launch runs on a 2-core host, and barriers cost a context
// switch instead of a kernel-level wait.
//
// Tasks beyond the card's cores run in waves, each wave on the physical
// cores, as a real card queues them. Barriers are per cluster
// (__sync_cluster) and per union group (__sync_all). A task that ends while
// others wait at a barrier it never reached, or a state where every living
// task waits, is an "unreached barrier" fault rather than a hang.
//
// A segmentation fault in kernel code (a wild scalar pointer) stops the
// task, not the process: the signal handler switches back to the worker.
// So do SIGFPE, SIGILL and SIGTRAP (codegen's TrapsAsFaults pass turns the
// divisions and traps it sees into faults naming the line; these handlers
// catch the rest), and a stack overflow: each fiber stack has a guard region
// below it, codegen probes every page of a large frame, so an overflow
// faults in the guard instead of writing into another task's stack.
//
// --timeout is wall-clock: a watchdog thread ends the launch at its
// deadline by setting the stop flag every task's context points to; runtime
// calls and the loop headers of kernel code (the TimeoutPolls pass) look at
// it and leave the task.
//
//===----------------------------------------------------------------------===//
#include "FiberSanitizer.h"
#include "Sim.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <sys/mman.h>
#include <thread>

using namespace bangsim;

namespace {

thread_local Task *tlsTask = nullptr;
thread_local ucontext_t *tlsWorker = nullptr;
thread_local StackBounds tlsWorkerStack; ///< for the sanitizer's switches

constexpr size_t StackBytes = size_t(4) << 20; // per task; pages on demand
constexpr size_t GuardBytes = 64 * 1024;       // at the bottom of StackBytes
constexpr size_t AltStackBytes = 64 * 1024;

StackBounds fiberStack(const Task &t) {
  return {static_cast<const char *>(t.stack) + GuardBytes,
          t.stackBytes - GuardBytes};
}

std::string taskName(const Task &t) {
  return llvm::formatv("task {0} (core {1} of cluster {2})", t.ctx.taskId,
                       t.ctx.coreId, t.ctx.clusterId);
}

std::string where(const BangSrcLoc *loc) {
  if (!loc)
    return "";
  return llvm::formatv("\n  at {0}:{1}:{2} in {3}, in {4}", loc->file,
                       loc->line, loc->col, loc->function, loc->intrinsic);
}

std::string timeoutMessage(const Launch &l) {
  return llvm::formatv("kernel '{0}': stopped after the --timeout of {1} s",
                       l.kernel->pretty,
                       llvm::format("%g", l.options.timeoutSeconds));
}

/// Records the first fault of a launch and stops it. Caller holds the mutex.
void recordFault(Launch &launch, std::string message) {
  if (launch.fault.empty())
    launch.fault = std::move(message);
  launch.stopped = true;
  launch.wake.notify_all();
}

/// Switches from a stopped task back to its worker; never returns.
[[noreturn]] void leaveTask(Task &task) {
  task.state = Task::Stopped;
  tlsTask = nullptr;
  beforeSwitch(nullptr, tlsWorkerStack); // this fiber never resumes
  setcontext(tlsWorker);
  std::abort(); // setcontext does not return
}

/// Tasks `task` must meet at barrier `kind`, and the barrier itself.
Barrier &barrierOf(Task &task, int kind) {
  Launch &l = *task.launch;
  return kind == 1 ? l.clusterBarriers[task.barrierGroup]
                   : l.unionBarriers[task.unionGroup];
}

const char *barrierName(int kind) {
  return kind == 1 ? "__sync_cluster()" : "__sync_all()";
}

/// The message for tasks waiting at `b` that `missing` will never reach.
std::string unreachedMessage(const Launch &l, const Barrier &b, int kind,
                             const std::string &missing) {
  std::string waiting;
  for (const Task *t : b.waiting)
    waiting += (waiting.empty() ? "" : ", ") + std::to_string(t->ctx.taskId);
  const BangSrcLoc *loc = b.waiting.empty() ? nullptr : b.waiting[0]->waitLoc;
  bool one = b.waiting.size() == 1;
  return llvm::formatv("kernel '{0}': unreached barrier: {1} {2} {3} at {4} "
                       "but {5}{6}",
                       l.kernel->pretty, one ? "task" : "tasks", waiting,
                       one ? "waits" : "wait", barrierName(kind), missing,
                       where(loc));
}

/// A task ended: barriers it belongs to can no longer complete.
void finishTask(Task &task) {
  Launch &l = *task.launch;
  std::lock_guard lock(l.mutex);
  task.state = Task::Done;
  for (int kind : {1, 2}) {
    Barrier &b = barrierOf(task, kind);
    b.finished++;
    if (b.arrived > 0 && !l.stopped)
      recordFault(l, unreachedMessage(l, b, kind,
                                      taskName(task) +
                                          " ended without reaching it"));
  }
  l.wake.notify_all();
}

void taskMain(unsigned hi, unsigned lo) {
  tlsWorkerStack = afterSwitch(nullptr);
  Task *task = reinterpret_cast<Task *>((uintptr_t(hi) << 32) | uintptr_t(lo));
  task->launch->kernel->entry(task->launch->argPointers.data());
  chargePendingScalar(*task); // the scalar work after its last runtime call
  chargeSync(*task);          // a kernel ends when its DMA has drained
  finishTask(*task);
  tlsTask = nullptr;
  beforeSwitch(nullptr, tlsWorkerStack); // this fiber ends
  // Returning resumes uc_link: the worker.
}

/// Signals of kernel code that stop the task (elsewhere, the old handler).
constexpr int TaskSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
constexpr int NumTaskSignals = sizeof(TaskSignals) / sizeof(TaskSignals[0]);
struct sigaction previousActions[NumTaskSignals];

/// The fault message for signal `sig` at `addr` in `task`.
std::string signalMessage(const Task &task, int sig, uintptr_t addr) {
  const Launch &l = *task.launch;
  uintptr_t stack = reinterpret_cast<uintptr_t>(task.stack);
  if ((sig == SIGSEGV || sig == SIGBUS) && addr >= stack &&
      addr < stack + GuardBytes)
    return llvm::formatv(
        "kernel '{0}' {1}: stack overflow: the task used more than its {2} "
        "KiB of stack (deep recursion, or a large local array or VLA)",
        l.kernel->pretty, taskName(task), (StackBytes - GuardBytes) / 1024);
  if (sig == SIGSEGV || sig == SIGBUS)
    return llvm::formatv(
        "kernel '{0}' {1}: invalid memory access at {2:x} by kernel code "
        "({3}); {4}; run with --check to name the source line",
        l.kernel->pretty, taskName(task), addr,
        sig == SIGSEGV ? "segmentation fault" : "bus error",
        l.device->memory.nearest(addr));
  const char *what = sig == SIGFPE ? "arithmetic fault (integer division by "
                                     "zero or overflow)"
                     : sig == SIGILL ? "trap (illegal instruction)"
                                     : "trap (breakpoint)";
  return llvm::formatv("kernel '{0}' {1}: {2} in kernel code at {3:x}",
                       l.kernel->pretty, taskName(task), what, addr);
}

void onSegfault(int sig, siginfo_t *info, void *uctx) {
  Task *task = tlsTask;
  if (!task) {
    for (int i = 0; i < NumTaskSignals; ++i)
      if (TaskSignals[i] == sig)
        sigaction(sig, &previousActions[i], nullptr);
    return; // re-executes the faulting instruction under the old handler
  }
  Launch &l = *task->launch;
  uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
  std::string message = signalMessage(*task, sig, addr);
  {
    std::lock_guard lock(l.mutex);
    recordFault(l, message);
  }
  (void)uctx;
  leaveTask(*task);
}

} // namespace

void bangsim::installSignalHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = onSegfault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NumTaskSignals; ++i)
      sigaction(TaskSignals[i], &sa, &previousActions[i]);
  });
}

namespace {

/// A worker's alternate signal stack, so a fiber's stack overflow can be
/// reported.
struct AltStack {
  AltStack() : memory(new char[AltStackBytes]) {
    stack_t ss{};
    ss.ss_sp = memory.get();
    ss.ss_size = AltStackBytes;
    sigaltstack(&ss, &old);
  }
  ~AltStack() { sigaltstack(&old, nullptr); }
  std::unique_ptr<char[]> memory;
  stack_t old{};
};

/// The process's one watchdog thread: it ends each registered launch at its
/// --timeout deadline (recordFault sets `stopped`, the flag kernel code and
/// runtime calls look at), however busy its tasks are. Registering costs a
/// lock, so a launch of many waves does not start a thread per wave.
class Watchdog {
public:
  static Watchdog &get() {
    static Watchdog *w = new Watchdog; // never destroyed: its thread lives on
    return *w;
  }
  void add(Launch &l) {
    std::lock_guard lock(mutex);
    launches.push_back(&l);
    wake.notify_one();
  }
  /// After this returns, the watchdog never touches `l` again.
  void remove(Launch &l) {
    std::lock_guard lock(mutex);
    launches.erase(std::find(launches.begin(), launches.end(), &l));
  }

private:
  Watchdog() { std::thread([this] { run(); }).detach(); }
  [[noreturn]] void run() {
    std::unique_lock lock(mutex);
    while (true) {
      if (launches.empty()) {
        wake.wait(lock);
        continue;
      }
      auto next = launches.front()->deadline;
      for (Launch *l : launches)
        next = std::min(next, l->deadline);
      wake.wait_until(lock, next);
      auto now = std::chrono::steady_clock::now();
      for (Launch *l : launches)
        if (now >= l->deadline && !l->stopped) {
          std::lock_guard launchLock(l->mutex);
          if (!l->stopped)
            recordFault(*l, timeoutMessage(*l));
        }
    }
  }
  std::mutex mutex;
  std::condition_variable wake;
  std::vector<Launch *> launches;
};

/// Every living task waits at a barrier: none can ever go on.
bool deadlocked(const Launch &l) {
  bool anyBlocked = false;
  for (const Task &t : l.tasks) {
    if (t.state == Task::Ready)
      return false;
    anyBlocked |= t.state == Task::Blocked;
  }
  return anyBlocked;
}

void reportDeadlock(Launch &l) {
  std::string waits;
  for (const Task &t : l.tasks)
    if (t.state == Task::Blocked)
      waits += llvm::formatv("\n  task {0} waits at {1}{2}", t.ctx.taskId,
                             barrierName(t.waitingAt), where(t.waitLoc));
  recordFault(l, llvm::formatv("kernel '{0}': unreached barrier: every "
                               "living task waits and none can go on:{1}",
                               l.kernel->pretty, waits));
}

/// The worker loop: run this worker's ready fibers until all have ended.
void makeFiber(Task &task, ucontext_t *link);

void workerMain(Launch &l, int worker) {
  ucontext_t self;
  tlsWorker = &self;
  AltStack altStack;
  std::unique_lock lock(l.mutex);
  while (true) {
    Task *next = nullptr;
    bool mineLeft = false;
    for (Task &t : l.tasks) {
      if (t.worker != worker || t.state == Task::Done ||
          t.state == Task::Stopped)
        continue;
      if (l.stopped) {
        t.state = Task::Stopped;
        continue;
      }
      mineLeft = true;
      if (t.state == Task::Ready && !next)
        next = &t;
    }
    if (!mineLeft)
      break;
    if (!next) {
      if (deadlocked(l)) {
        reportDeadlock(l);
        continue;
      }
      l.wake.wait_for(lock, std::chrono::milliseconds(20));
      if (l.hasDeadline && std::chrono::steady_clock::now() > l.deadline &&
          !l.stopped)
        recordFault(l, timeoutMessage(l));
      continue;
    }
    if (!next->started) {
      makeFiber(*next, &self);
      next->started = true;
    }
    lock.unlock();
    tlsTask = next;
    void *workerFakeStack = nullptr;
    beforeSwitch(&workerFakeStack, fiberStack(*next));
    noteRunningTask(worker, next);
    swapcontext(&self, &next->context);
    noteRunningTask(worker, nullptr);
    afterSwitch(workerFakeStack);
    tlsTask = nullptr;
    lock.lock();
  }
  tlsWorker = nullptr;
}

/// Prepares the fiber of `task` on a fresh stack.
void makeFiber(Task &task, ucontext_t *link) {
  getcontext(&task.context);
  task.context.uc_stack.ss_sp = static_cast<char *>(task.stack) + GuardBytes;
  task.context.uc_stack.ss_size = task.stackBytes - GuardBytes;
  task.context.uc_link = link;
  uintptr_t p = reinterpret_cast<uintptr_t>(&task);
  makecontext(&task.context, reinterpret_cast<void (*)()>(taskMain), 2,
              unsigned(p >> 32), unsigned(p & 0xffffffffu));
}

} // namespace

StackPool::~StackPool() {
  for (void *stack : free)
    munmap(stack, StackBytes);
}

void *StackPool::acquire() {
  {
    std::lock_guard lock(mutex);
    if (!free.empty()) {
      void *stack = free.back();
      free.pop_back();
      return stack;
    }
  }
  void *stack = mmap(nullptr, StackBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  assert(stack != MAP_FAILED && "cannot map a task stack");
  mprotect(stack, GuardBytes, PROT_NONE); // overflow faults, not corrupts
  return stack;
}

void StackPool::release(void *stack) {
  forgetStack(stack, StackBytes);
  std::lock_guard lock(mutex);
  free.push_back(stack);
}

Task *bangsim::currentTask() { return tlsTask; }

void bangsim::timeoutCurrentTask() {
  Task *task = tlsTask;
  assert(task && "timeoutCurrentTask outside kernel code");
  Launch &l = *task->launch;
  {
    std::lock_guard lock(l.mutex);
    if (!l.stopped)
      recordFault(l, timeoutMessage(l));
  }
  leaveTask(*task);
}

void bangsim::stopCurrentTask() {
  Task *task = tlsTask;
  assert(task && "stopCurrentTask outside kernel code");
  leaveTask(*task);
}

bool bangsim::recordTaskFault(std::string what) {
  Task *task = tlsTask;
  assert(task && "recordTaskFault outside kernel code");
  Launch &l = *task->launch;
  std::lock_guard lock(l.mutex);
  if (!l.stopped)
    recordFault(l, llvm::formatv("kernel '{0}' {1}: {2}{3}", l.kernel->pretty,
                                 taskName(*task), what, where(task->ctx.loc)));
  return false;
}

/// Called by __bangsim_sync for kinds 1 and 2.
void bangsim::barrierWait(Task &task, int kind) {
  Launch &l = *task.launch;
  std::unique_lock lock(l.mutex);
  if (l.stopped) {
    lock.unlock();
    leaveTask(task);
  }
  Barrier &b = barrierOf(task, kind);
  task.waitLoc = task.ctx.loc;
  task.waitingAt = kind;
  if (b.finished > 0) {
    b.waiting.push_back(&task);
    recordFault(l, unreachedMessage(l, b, kind,
                                    "another task of the group has already "
                                    "ended without reaching it"));
    lock.unlock();
    leaveTask(task);
  }
  b.waiting.push_back(&task);
  if (++b.arrived == b.expected) {
    chargeBarrier(b.waiting);
    for (Task *t : b.waiting)
      t->state = Task::Ready;
    b.waiting.clear();
    b.arrived = 0;
    l.wake.notify_all();
    return;
  }
  task.state = Task::Blocked;
  lock.unlock();
  tlsTask = nullptr;
  beforeSwitch(&task.fakeStack, tlsWorkerStack);
  swapcontext(&task.context, tlsWorker);
  tlsWorkerStack = afterSwitch(task.fakeStack);
  tlsTask = &task;
  if (l.stopped)
    leaveTask(task);
}

void bangsim::runTasks(Launch &l) {
  installSignalHandlers();
  unsigned threads = l.options.hostThreads
                         ? l.options.hostThreads
                         : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<unsigned>(threads, l.tasks.size());
  for (size_t i = 0; i < l.tasks.size(); ++i)
    l.tasks[i].worker = int(i % threads);
  StackPool &stacks = l.device->stacks;
  // Kernel code polls `stopped` through its context (BangTaskContext::stop).
  static_assert(sizeof(std::atomic<bool>) == 1 &&
                std::atomic<bool>::is_always_lock_free);
  for (Task &t : l.tasks) {
    t.stackBytes = StackBytes;
    t.stack = stacks.acquire();
    t.ctx.stop = reinterpret_cast<const volatile char *>(&l.stopped);
  }
  if (l.hasDeadline) {
    // A deadline that passed during an earlier wave ends the launch here.
    if (std::chrono::steady_clock::now() >= l.deadline) {
      std::lock_guard lock(l.mutex);
      if (!l.stopped)
        recordFault(l, timeoutMessage(l));
    }
    Watchdog::get().add(l);
  }
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < threads; ++w)
    pool.emplace_back([&l, w] { workerMain(l, int(w)); });
  workerMain(l, 0); // this thread is worker 0
  for (std::thread &t : pool)
    t.join();
  if (l.hasDeadline)
    Watchdog::get().remove(l);
  for (Task &t : l.tasks)
    stacks.release(t.stack);
}
