//===- Isolate.cpp - Launches in a worker process under seccomp -----------===//
//
// Kernel code is native code: in-process, a kernel that calls exit(),
// abort(), raise(SIGKILL) or fork(), or writes through a wild pointer into
// host memory, ends or corrupts the host. An isolated launch
// (LaunchOptions::isolate) runs in the device's worker process instead, a
// fork of this one that runs launch after launch while it can (the same
// buffers, modules and launching thread; a clean end of each launch):
//
//  - GDRAM buffers are MAP_SHARED mappings (Memory.cpp), and so is the
//    modules' writable data (codegen/JIT.cpp), so the worker writes the
//    parent's buffers and device variables directly; the rest of its
//    memory is its own copy, so the host survives whatever the kernel
//    scribbles. Buffers no argument points into are made inaccessible in
//    the worker for the launch: a wild store into another buffer faults
//    instead of corrupting it.
//  - The worker runs each launch as the in-process path does, under a
//    seccomp-BPF filter that allows only the system calls the simulator
//    needs (memory, threads, futexes, reads and writes on its socket). Any
//    other raises SIGSYS, whose handler records the task and the source
//    line in a page shared with the parent and ends the worker.
//  - Launches go to the worker, and results (stats, fault, error) and
//    __bang_printf's lines come back, as frames on a socket. The parent
//    turns any other end of the worker (a signal, an exit, the --timeout,
//    which is enforced here on the wall clock by killing the worker) into
//    a LaunchFault naming the kernel and the tasks that were running, with
//    their source line when it can be read, and forks a new worker for
//    the next launch.
//
// The fork happens on the launching thread while it holds the device's
// launch lock; the worker uses no lock another parent thread could hold
// (it allocates, which glibc's fork handlers make safe).
//
//===----------------------------------------------------------------------===//
#include "Sim.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <map>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace bangsim;

namespace bangsim {

/// The page an isolated launch's parent and worker share: which task each
/// worker thread runs, and what the SIGSYS handler saw.
struct IsolationRecord {
  static constexpr int MaxWorkers = 256;
  struct Slot {
    std::atomic<int32_t> taskId;
    int32_t coreId, clusterId;
    uint64_t ctx; ///< the task's BangTaskContext, in the worker
  } slots[MaxWorkers];
  std::atomic<int32_t> blocked; ///< 1 once the SIGSYS handler ran
  int64_t syscall;
  int32_t inKernel, taskId, coreId, clusterId, line, col;
  char file[256], function[160], intrinsic[64];
};

} // namespace bangsim

namespace {

/// The status the worker exits with, the only one the filter allows.
constexpr int WorkerExit = 0x5b;

IsolationRecord *activeRecord = nullptr; ///< in the worker

/// Counts module loads and unloads (noteModulesChanged).
std::atomic<uint64_t> moduleGeneration{0};

/// Copies a C string the worker can still read into `dst`, bounded.
void copyString(char *dst, size_t size, const char *src) {
  size_t i = 0;
  for (; src && i + 1 < size && src[i]; ++i)
    dst[i] = src[i];
  dst[i] = 0;
}

/// The worker's SIGSYS handler: a system call the filter does not allow.
void onSigsys(int, siginfo_t *info, void *) {
  IsolationRecord *r = activeRecord;
  r->syscall = info->si_syscall;
  if (const Task *t = currentTask()) {
    r->inKernel = 1;
    r->taskId = t->ctx.taskId;
    r->coreId = t->ctx.coreId;
    r->clusterId = t->ctx.clusterId;
    if (const BangSrcLoc *loc = t->ctx.loc) {
      r->line = loc->line;
      r->col = loc->col;
      copyString(r->file, sizeof r->file, loc->file);
      copyString(r->function, sizeof r->function, loc->function);
      copyString(r->intrinsic, sizeof r->intrinsic, loc->intrinsic);
    }
  }
  r->blocked.store(1);
  syscall(SYS_exit_group, WorkerExit);
}

const char *syscallName(int64_t nr) {
  switch (nr) {
#define NAME(n)                                                                \
  case SYS_##n:                                                                \
    return #n;
    NAME(read)
    NAME(write)
    NAME(open)
    NAME(openat)
    NAME(close) NAME(exit) NAME(exit_group) NAME(kill) NAME(tgkill) NAME(tkill)
        NAME(fork) NAME(vfork) NAME(clone) NAME(clone3) NAME(execve)
            NAME(execveat) NAME(rt_sigaction) NAME(socket) NAME(connect)
                NAME(ptrace) NAME(unlink) NAME(unlinkat) NAME(getpid)
                    NAME(ioctl) NAME(mkdir) NAME(rename)
#undef NAME
                        default : return nullptr;
  }
}

// --- The filter ---------------------------------------------------------===//

#if defined(__x86_64__)
constexpr uint32_t FilterArch = AUDIT_ARCH_X86_64;
#endif

struct FilterBuilder {
  std::vector<sock_filter> code;
  void stmt(uint16_t c, uint32_t k) { code.push_back(BPF_STMT(c, k)); }
  void jump(uint16_t c, uint32_t k, uint8_t t, uint8_t f) {
    code.push_back(BPF_JUMP(c, k, t, f));
  }
  void allow(int nr) {
    jump(BPF_JMP | BPF_JEQ | BPF_K, uint32_t(nr), 0, 1);
    stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  }
  /// Allows `nr` when (low 32 bits of argument `arg` & mask) == value.
  void allowIf(int nr, int arg, uint32_t mask, uint32_t value) {
    jump(BPF_JMP | BPF_JEQ | BPF_K, uint32_t(nr), 0, 5);
    stmt(BPF_LD | BPF_W | BPF_ABS,
         uint32_t(offsetof(seccomp_data, args) + 8 * arg));
    stmt(BPF_ALU | BPF_AND | BPF_K, mask);
    jump(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1);
    stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    stmt(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    // Skipping past here leaves the number in A only when nr did not match.
  }
};

/// Installs the worker's filter; false (errno set) if the kernel refuses.
bool installFilter(int resultFd) {
#if defined(__x86_64__)
  FilterBuilder b;
  b.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  b.jump(BPF_JMP | BPF_JEQ | BPF_K, FilterArch, 1, 0);
  b.stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  b.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
  // What the simulator itself needs: memory (malloc, thread stacks),
  // threads, futexes, fiber switches (sigprocmask), the signal stack, time.
  for (int nr : {SYS_futex,         SYS_mmap,
                 SYS_munmap,        SYS_mprotect,
                 SYS_madvise,       SYS_mremap,
                 SYS_brk,           SYS_set_robust_list,
                 SYS_rseq,          SYS_rt_sigprocmask,
                 SYS_sigaltstack,   SYS_rt_sigreturn,
                 SYS_exit,          SYS_sched_yield,
                 SYS_nanosleep,     SYS_clock_nanosleep,
                 SYS_clock_gettime, SYS_gettimeofday,
                 SYS_gettid,        SYS_getpid,
                 SYS_getrandom,     SYS_sched_getaffinity})
    b.allow(nr);
  // clone3's flags are in memory the filter cannot read: refusing it makes
  // glibc fall back to clone, whose flags it can.
  b.jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1);
  b.stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
  // glibc's malloc may read /proc/sys/vm/overcommit_memory once, from a
  // thread's arena: opening files fails (EACCES) rather than ends the worker.
  for (int nr : {SYS_open, SYS_openat}) {
    b.jump(BPF_JMP | BPF_JEQ | BPF_K, uint32_t(nr), 0, 1);
    b.stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
  }
  // Threads, never processes.
  b.allowIf(SYS_clone, 0, CLONE_THREAD, CLONE_THREAD);
  // Only from and to its socket; only the worker's own exit status.
  b.allowIf(SYS_read, 0, ~0u, uint32_t(resultFd));
  b.allowIf(SYS_write, 0, ~0u, uint32_t(resultFd));
  b.allowIf(SYS_exit_group, 0, ~0u, WorkerExit);
  b.stmt(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
  sock_fprog prog{uint16_t(b.code.size()), b.code.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
    return false;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
#else
  (void)resultFd;
  errno = ENOSYS;
  return false;
#endif
}

// --- The socket protocol: frames of a type byte, a length and the bytes -===//

enum Frame : char {
  LaunchRequest = 'L', ///< parent to worker: a launch (putRequest)
  Printf = 'P',        ///< worker to parent: __bang_printf output
  Stats = 'S',         ///< and the launch's result: its stats,
  Fault = 'F',         ///< a fault,
  Failure = 'E'        ///< or another error
};

void writeAll(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return; // the parent is gone or killed us: nothing to tell
    p += w;
    n -= size_t(w);
  }
}

void sendFrame(int fd, Frame type, llvm::StringRef bytes) {
  char head[9];
  head[0] = type;
  uint64_t n = bytes.size();
  std::memcpy(head + 1, &n, 8);
  writeAll(fd, head, sizeof head);
  writeAll(fd, bytes.data(), bytes.size());
}

/// __bang_printf's output in the worker: each write is a frame.
class SocketStream : public llvm::raw_ostream {
public:
  explicit SocketStream(int fd) : fd(fd) { SetUnbuffered(); }

private:
  void write_impl(const char *p, size_t n) override {
    sendFrame(fd, Printf, llvm::StringRef(p, n));
    pos += n;
  }
  uint64_t current_pos() const override { return pos; }
  int fd;
  uint64_t pos = 0;
};

// --- LaunchStats on the wire --------------------------------------------===//

// A new field of LaunchStats, CoreStats or TraceEvent must be sent too:
// update put() and get() below, then these sizes. (workerPid is not sent:
// the parent sets it.)
static_assert(sizeof(LaunchStats) == 440 && sizeof(CoreStats) == 72 &&
                  sizeof(TraceEvent) == 72,
              "LaunchStats changed: update Isolate.cpp's put() and get()");

struct Writer {
  std::string out;
  template <typename T> void pod(const T &v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out.append(reinterpret_cast<const char *>(&v), sizeof v);
  }
  void str(const std::string &s) {
    pod(uint64_t(s.size()));
    out += s;
  }
};

struct Reader {
  llvm::StringRef in;
  bool ok = true;
  template <typename T> void pod(T &v) {
    if (in.size() < sizeof v) {
      ok = false;
      return;
    }
    std::memcpy(&v, in.data(), sizeof v);
    in = in.drop_front(sizeof v);
  }
  void str(std::string &s) {
    uint64_t n = 0;
    pod(n);
    if (!ok || n > in.size()) {
      ok = false;
      return;
    }
    s = in.take_front(n).str();
    in = in.drop_front(n);
  }
  /// A count of items of at least `each` bytes that can still follow.
  bool count(uint64_t &n, size_t each) {
    pod(n);
    ok = ok && n <= in.size() / each;
    return ok;
  }
};

std::string put(const LaunchStats &s) {
  Writer w;
  w.str(s.kernel);
  w.str(s.device);
  w.pod(s.tasks);
  w.pod(s.cycles);
  w.pod(s.seconds);
  w.pod(s.clockGHz);
  w.pod(s.bytesByDirection);
  w.pod(s.opsByClass);
  w.pod(s.scalarInstructions);
  w.pod(s.gdramReadBytes);
  w.pod(s.gdramWriteBytes);
  w.pod(s.peakGdramGBps);
  w.pod(s.ioEfficiency);
  w.pod(s.computeEfficiency);
  w.pod(s.pipeBusy);
  w.pod(s.boundPipe);
  w.pod(uint64_t(s.cores.size()));
  for (const CoreStats &c : s.cores)
    w.pod(c);
  w.pod(s.hostSeconds);
  w.pod(uint64_t(s.events.size()));
  for (const TraceEvent &e : s.events) {
    w.pod(e.core);
    w.pod(e.dma);
    w.pod(e.pipe);
    w.pod(e.start);
    w.pod(e.cycles);
    w.str(e.name);
    w.pod(e.bytes);
  }
  return std::move(w.out);
}

bool get(llvm::StringRef bytes, LaunchStats &s) {
  Reader r{bytes};
  r.str(s.kernel);
  r.str(s.device);
  r.pod(s.tasks);
  r.pod(s.cycles);
  r.pod(s.seconds);
  r.pod(s.clockGHz);
  r.pod(s.bytesByDirection);
  r.pod(s.opsByClass);
  r.pod(s.scalarInstructions);
  r.pod(s.gdramReadBytes);
  r.pod(s.gdramWriteBytes);
  r.pod(s.peakGdramGBps);
  r.pod(s.ioEfficiency);
  r.pod(s.computeEfficiency);
  r.pod(s.pipeBusy);
  r.pod(s.boundPipe);
  uint64_t n = 0;
  if (!r.count(n, sizeof(CoreStats)))
    return false;
  s.cores.resize(n);
  for (CoreStats &c : s.cores)
    r.pod(c);
  r.pod(s.hostSeconds);
  if (!r.count(n, 4 + 1 + 4 + 8 + 8 + 8 + 8))
    return false;
  s.events.resize(n);
  for (TraceEvent &e : s.events) {
    r.pod(e.core);
    r.pod(e.dma);
    r.pod(e.pipe);
    r.pod(e.start);
    r.pod(e.cycles);
    r.str(e.name);
    r.pod(e.bytes);
  }
  return r.ok && r.in.empty();
}

// --- Launch requests on the wire ---------------------------------------===//

// A new field of LaunchOptions, Kernel or StaticLayout must be sent too:
// update putRequest() and getRequest() below, then these sizes.
static_assert(sizeof(LaunchOptions) == 40 && sizeof(Kernel) == 168 &&
                  sizeof(StaticLayout) == 48,
              "a launch's inputs changed: update Isolate.cpp's putRequest() "
              "and getRequest()");

/// A launch as the parent sends it to the worker: what launchInProcess
/// takes. Its pointers (the kernel's entry, the static initialisers' data,
/// the buffers the arguments point into) are valid in the worker because
/// it was forked after the module was loaded and the buffers allocated.
struct Request {
  Kernel kernel;
  StaticLayout layout;
  Dim3 dim;
  FuncType type = FuncType::Block;
  std::vector<KernelArg> args;
  LaunchOptions options;
};

std::string putRequest(const Kernel &k, const StaticLayout &layout, Dim3 dim,
                       FuncType type, llvm::ArrayRef<KernelArg> args,
                       const LaunchOptions &o) {
  Writer w;
  w.str(k.name);
  w.str(k.pretty);
  w.str(k.signature);
  w.pod(reinterpret_cast<uintptr_t>(k.entry));
  w.str(k.file);
  w.pod(k.line);
  w.pod(uint64_t(k.params.size()));
  for (const BangParamDesc &p : k.params)
    w.pod(p);
  w.pod(layout.bytes);
  w.pod(uint64_t(layout.inits.size()));
  for (const BangStaticInit &i : layout.inits)
    w.pod(i);
  w.pod(dim);
  w.pod(type);
  w.pod(uint64_t(args.size()));
  for (const KernelArg &a : args) {
    w.pod(a.kind);
    w.pod(a.bits);
    w.str(std::string(a.bytes.begin(), a.bytes.end()));
  }
  w.pod(o.hostThreads);
  w.pod(o.trace);
  w.pod(o.printfLimit);
  w.pod(o.checkRaces);
  return std::move(w.out);
}

bool getRequest(llvm::StringRef bytes, Request &q) {
  Reader r{bytes};
  Kernel &k = q.kernel;
  r.str(k.name);
  r.str(k.pretty);
  r.str(k.signature);
  uintptr_t entry = 0;
  r.pod(entry);
  k.entry = reinterpret_cast<BangKernelEntry>(entry);
  r.str(k.file);
  r.pod(k.line);
  uint64_t n = 0;
  if (!r.count(n, sizeof(BangParamDesc)))
    return false;
  k.params.resize(n);
  for (BangParamDesc &p : k.params)
    r.pod(p);
  r.pod(q.layout.bytes);
  if (!r.count(n, sizeof(BangStaticInit)))
    return false;
  q.layout.inits.resize(n);
  for (BangStaticInit &i : q.layout.inits)
    r.pod(i);
  r.pod(q.dim);
  r.pod(q.type);
  if (!r.count(n, 1 + 8 + 8))
    return false;
  q.args.resize(n);
  for (KernelArg &a : q.args) {
    std::string bytes;
    r.pod(a.kind);
    r.pod(a.bits);
    r.str(bytes);
    a.bytes.assign(bytes.begin(), bytes.end());
  }
  r.pod(q.options.hostThreads);
  r.pod(q.options.trace);
  r.pod(q.options.printfLimit);
  r.pod(q.options.checkRaces);
  return r.ok && r.in.empty();
}

// --- The worker ---------------------------------------------------------===//

/// What the worker did to a buffer: made it inaccessible, mapped its pages.
struct BufferState {
  bool hidden = false, populated = false;
};

/// Makes every GDRAM buffer no argument points into inaccessible here, and
/// the others accessible again, with their pages mapped (once per worker).
void showOnlyArguments(const MemoryMap &memory, llvm::ArrayRef<KernelArg> args,
                       std::map<uintptr_t, BufferState> &states) {
  for (auto [base, bytes] : memory.liveRanges()) {
    bool passed = false;
    for (const KernelArg &a : args)
      passed |= a.kind == 'p' && a.bits >= base &&
                a.bits < base + std::max<uint64_t>(bytes, 1);
    void *p = reinterpret_cast<void *>(base);
    BufferState &s = states[base];
    if (!passed) {
      if (!s.hidden)
        mprotect(p, bytes ? bytes : 1, PROT_NONE);
      s.hidden = true;
      continue;
    }
    if (s.hidden)
      mprotect(p, bytes ? bytes : 1, PROT_READ | PROT_WRITE);
    s.hidden = false;
    if (!s.populated && bytes) // the parent's pages at once, not a fault each
      madvise(p, bytes, MADV_POPULATE_WRITE);
    s.populated = true;
  }
}

bool readAll(int fd, char *p, size_t n) {
  while (n) {
    ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    p += r;
    n -= size_t(r);
  }
  return true;
}

/// The parent's next request; false when it closed the socket.
bool readFrame(int fd, char &type, std::string &body) {
  char head[9];
  if (!readAll(fd, head, sizeof head))
    return false;
  uint64_t n;
  std::memcpy(&n, head + 1, 8);
  if (n > (uint64_t(1) << 32))
    return false;
  type = head[0];
  body.resize(n);
  return readAll(fd, body.data(), n);
}

[[noreturn]] void workerMain(int fd, IsolationRecord *record,
                             DeviceImpl &device, pid_t parent) {
  // The launch lock the parent holds is this process's to take, and the
  // worker's only thread is this one.
  new (&device.launchMutex) std::mutex();
  // Die with the thread that forked us (it waits for every launch it sends)
  // and, if the parent is already gone, now.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent)
    syscall(SYS_exit_group, WorkerExit);
  // No file of the parent's but the socket: not another worker's socket.
  if (fd > 0)
    syscall(SYS_close_range, 0u, unsigned(fd - 1), 0u);
  syscall(SYS_close_range, unsigned(fd + 1), ~0u, 0u);
  installSignalHandlers();
  activeRecord = record;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = onSigsys;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSYS, &sa, nullptr);
  // glibc sets up its thread signals (sigaction) at a process's first
  // thread: have that happen before the filter.
  std::thread([] {}).join();
  if (!installFilter(fd)) {
    sendFrame(fd, Failure,
              "cannot isolate the launch: the kernel refused the system call "
              "filter (" +
                  std::string(std::strerror(errno)) +
                  "); --no-isolate runs it "
                  "in-process");
    syscall(SYS_exit_group, WorkerExit);
  }
  // Launches until the parent closes the socket (or kills us).
  std::map<uintptr_t, BufferState> buffers;
  std::string body;
  char type = 0;
  while (readFrame(fd, type, body)) {
    Request q;
    if (type != LaunchRequest || !getRequest(body, q)) {
      sendFrame(fd, Failure,
                "the launch's worker process got a malformed "
                "request (a bug of bangc-sim)");
      break;
    }
    showOnlyArguments(device.memory, q.args, buffers);
    SocketStream printfOut(fd);
    q.options.printfOut = &printfOut;
    q.options.timeoutSeconds = 0; // the parent ends the worker at the deadline
    q.options.isolate = false;
    llvm::Expected<LaunchStats> stats = launchInProcess(
        device, q.kernel, q.layout, q.dim, q.type, q.args, q.options);
    if (stats) {
      sendFrame(fd, Stats, put(*stats));
      continue;
    }
    std::string fault, other;
    llvm::handleAllErrors(
        stats.takeError(), [&](const LaunchFault &f) { fault = f.message; },
        [&](const llvm::ErrorInfoBase &e) { other = e.message(); });
    if (!other.empty())
      sendFrame(fd, Failure, other);
    else
      sendFrame(fd, Fault, fault);
  }
  syscall(SYS_exit_group, WorkerExit);
  __builtin_unreachable();
}

// --- The parent ---------------------------------------------------------===//

std::string taskName(int32_t task, int32_t core, int32_t cluster) {
  return llvm::formatv("task {0} (core {1} of cluster {2})", task, core,
                       cluster);
}

/// Reads `n` bytes at `addr` of process `pid`; false if it cannot.
bool peek(pid_t pid, uint64_t addr, void *to, size_t n) {
  iovec local{to, n}, remote{reinterpret_cast<void *>(addr), n};
  return process_vm_readv(pid, &local, 1, &remote, 1, 0) == ssize_t(n);
}

/// The source line a running task of the (stopped, living) worker is at.
std::string peekLocation(pid_t pid, uint64_t ctxAddr) {
  BangTaskContext ctx;
  BangSrcLoc loc;
  if (!ctxAddr || !peek(pid, ctxAddr, &ctx, sizeof ctx) || !ctx.loc ||
      !peek(pid, reinterpret_cast<uintptr_t>(ctx.loc), &loc, sizeof loc))
    return "";
  auto text = [&](const char *p) {
    char buf[256] = {};
    for (size_t i = 0; p && i + 1 < sizeof buf; ++i)
      if (!peek(pid, reinterpret_cast<uintptr_t>(p) + i, &buf[i], 1) || !buf[i])
        break;
    buf[sizeof buf - 1] = 0;
    return std::string(buf);
  };
  return llvm::formatv(" at {0}:{1}:{2} in {3}, in {4}", text(loc.file),
                       loc.line, loc.col, text(loc.function),
                       text(loc.intrinsic));
}

/// The tasks the worker's threads were running, one line each.
std::string runningTasks(const IsolationRecord &r, pid_t livePid) {
  std::string out;
  for (const auto &s : r.slots) {
    int32_t task = s.taskId.load();
    if (task < 0)
      continue;
    out += "\n  " + taskName(task, s.coreId, s.clusterId) + " was running";
    if (livePid > 0)
      out += peekLocation(livePid, s.ctx);
  }
  return out;
}

std::string blockedMessage(const Kernel &kernel, const IsolationRecord &r) {
  const char *name = syscallName(r.syscall);
  std::string call =
      llvm::formatv("system call {0}{1}{2}{3}", r.syscall, name ? " (" : "",
                    name ? name : "", name ? ")" : "");
  if (!r.inKernel)
    return llvm::formatv("kernel '{0}': the simulator's worker process made "
                         "{1}, which its filter does not allow (a bug of "
                         "bangc-sim; --no-isolate runs the launch in-process)",
                         kernel.pretty, call);
  std::string at;
  if (r.file[0])
    at = llvm::formatv("\n  after {0}:{1}:{2} in {3}, in {4}", r.file, r.line,
                       r.col, r.function, r.intrinsic);
  return llvm::formatv("kernel '{0}' {1}: {2}: kernel code may not call the "
                       "host system (exit, abort, signals, processes, files "
                       "...); the launch's worker process was ended{3}",
                       kernel.pretty, taskName(r.taskId, r.coreId, r.clusterId),
                       call, at);
}

llvm::Error startError(const char *what) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("cannot start the launch's worker process: {0}: {1}", what,
                    std::strerror(errno)));
}

} // namespace

bool bangsim::isolationSupported() {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return false;
#endif
#endif
  return true;
}

void bangsim::noteRunningTask(int worker, const Task *task) {
  if (!activeRecord || worker >= IsolationRecord::MaxWorkers)
    return;
  IsolationRecord::Slot &s = activeRecord->slots[worker];
  if (task) {
    s.coreId = task->ctx.coreId;
    s.clusterId = task->ctx.clusterId;
    s.ctx = reinterpret_cast<uintptr_t>(&task->ctx);
  }
  s.taskId.store(task ? task->ctx.taskId : -1);
}

struct bangsim::IsolatedWorker {
  pid_t pid = -1;
  int fd = -1; ///< the parent's end of the socket
  IsolationRecord *record = nullptr;
  /// What the worker's copy of the process knows: the buffers and modules
  /// of these generations.
  uint64_t memoryGeneration = 0, moduleGeneration = 0;
  /// The thread that forked it: its end ends the worker (PR_SET_PDEATHSIG).
  pid_t thread = 0;
  /// The process that forked it. A child the host forks later inherits
  /// this object; there it is not its worker to kill or wait for.
  pid_t owner = getpid();
  bool reaped = false;
  ~IsolatedWorker() {
    if (pid > 0 && !reaped && owner == getpid()) {
      kill(pid, SIGKILL);
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR)
        ;
    }
    if (fd >= 0)
      close(fd);
    if (record)
      munmap(record, sizeof(IsolationRecord));
  }
};

void bangsim::IsolatedWorkerDeleter::operator()(IsolatedWorker *w) const {
  delete w;
}

void bangsim::noteModulesChanged() { ++moduleGeneration; }

namespace {

using WorkerPtr = std::unique_ptr<IsolatedWorker, IsolatedWorkerDeleter>;

/// Whether the device's worker can run the next launch: it knows the
/// buffers and modules of now, this thread forked it, and it still lives.
bool reusable(IsolatedWorker &w, const DeviceImpl &device) {
  if (w.owner != getpid() || w.memoryGeneration != device.memory.generation() ||
      w.moduleGeneration != moduleGeneration.load() || w.thread != gettid())
    return false;
  int status;
  if (waitpid(w.pid, &status, WNOHANG) == 0)
    return true;
  w.reaped = true; // killed while idle (by a user, the OOM killer): a new one
  return false;
}

llvm::Expected<WorkerPtr> startWorker(DeviceImpl &device) {
  WorkerPtr w(new IsolatedWorker());
  w->memoryGeneration = device.memory.generation();
  w->moduleGeneration = moduleGeneration.load();
  w->thread = gettid();
  void *page = mmap(nullptr, sizeof(IsolationRecord), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    return startError("mmap");
  w->record = new (page) IsolationRecord();
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
    return startError("socketpair");
  pid_t parent = getpid();
  pid_t pid;
  {
    // The worker's copy of the buffer map must not be locked by another
    // thread's malloc; the worker only ever reads it.
    auto mapLock = device.memory.readLock();
    pid = fork();
  }
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return startError("fork");
  }
  if (pid == 0) {
    close(fds[0]);
    workerMain(fds[1], w->record, device, parent);
  }
  close(fds[1]);
  w->pid = pid;
  w->fd = fds[0];
  return std::move(w);
}

/// The threads of process \p pid (0 if it cannot be read).
int threadCount(pid_t pid) {
  std::string dir = "/proc/" + std::to_string(pid) + "/task";
  DIR *tasks = opendir(dir.c_str());
  if (!tasks)
    return 0;
  int threads = 0;
  while (dirent *entry = readdir(tasks))
    if (entry->d_name[0] != '.')
      ++threads;
  closedir(tasks);
  return threads;
}

/// Whether the worker is down to its one thread, as after every clean
/// launch. A thread kernel code left running could read the next request
/// or write the next launch's buffers: such a worker is not kept. (A joined
/// simulator thread can stay listed for a moment after its join: look a
/// few times before deciding.)
bool singleThreaded(pid_t pid) {
  for (int look = 0; look < 4; ++look) {
    if (threadCount(pid) == 1)
      return true;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return false;
}

/// Sends the whole request; false if the worker is gone.
bool sendRequest(int fd, const std::string &request) {
  char head[9];
  head[0] = LaunchRequest;
  uint64_t n = request.size();
  std::memcpy(head + 1, &n, 8);
  for (llvm::StringRef part :
       {llvm::StringRef(head, sizeof head), llvm::StringRef(request)}) {
    while (!part.empty()) {
      ssize_t w = send(fd, part.data(), part.size(), MSG_NOSIGNAL);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return false;
      part = part.drop_front(size_t(w));
    }
  }
  return true;
}

} // namespace

llvm::Expected<LaunchStats>
bangsim::launchIsolated(DeviceImpl &device, const Kernel &kernel,
                        const StaticLayout &layout, Dim3 dim, FuncType type,
                        llvm::ArrayRef<KernelArg> args,
                        const LaunchOptions &options) {
  std::lock_guard launchLock(device.launchMutex);
  auto start = std::chrono::steady_clock::now();
  LaunchOptions workerOptions = options;
  if (!workerOptions.hostThreads) // the worker may not ask the system
    workerOptions.hostThreads =
        std::max(1u, std::thread::hardware_concurrency());
  llvm::raw_ostream &out =
      options.printfOut ? *options.printfOut : llvm::outs();
  out.flush(); // nothing buffered may be written twice
  if (device.worker && !reusable(*device.worker, device))
    device.worker.reset();
  if (!device.worker) {
    llvm::Expected<WorkerPtr> started = startWorker(device);
    if (!started)
      return started.takeError();
    device.worker = std::move(*started);
  }
  IsolatedWorker &worker = *device.worker;
  IsolationRecord &record = *worker.record;
  for (auto &s : record.slots)
    s.taskId = -1;
  pid_t pid = worker.pid;
  int fd = worker.fd;
  // A worker that died before reading it has sent why (or dies): read on.
  sendRequest(fd, putRequest(kernel, layout, dim, type, args, workerOptions));

  // Read frames until the result, the end of the worker or the deadline.
  bool hasDeadline = options.timeoutSeconds > 0;
  auto deadline =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(options.timeoutSeconds));
  std::string buffer, result;
  char resultType = 0;
  bool timedOut = false;
  std::string running;
  char chunk[65536];
  while (!resultType) {
    int wait = -1;
    if (hasDeadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        timedOut = true;
        break;
      }
      wait = int(std::min<int64_t>(left.count() + 1, 1 << 30));
    }
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, wait);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      continue; // the deadline, seen above
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    buffer.append(chunk, size_t(n));
    // Whole frames: printf lines go out now, the result ends the launch.
    size_t at = 0;
    while (!resultType && buffer.size() - at >= 9) {
      uint64_t len;
      std::memcpy(&len, buffer.data() + at + 1, 8);
      if (buffer.size() - at - 9 < len)
        break;
      char type = buffer[at];
      llvm::StringRef body(buffer.data() + at + 9, len);
      if (type == Printf) {
        out << body;
      } else {
        resultType = type;
        result = body.str();
      }
      at += 9 + len;
    }
    buffer.erase(0, at);
    out.flush();
  }
  auto hostSeconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  if (resultType == Stats) {
    LaunchStats stats;
    if (get(result, stats)) {
      stats.hostSeconds = hostSeconds();
      stats.workerPid = int(pid);
      if (!singleThreaded(pid)) // kept only while nothing of the kernel runs
        device.worker.reset();
      return stats;
    }
  }
  // Whatever else happened, this worker runs no further launch.
  if (timedOut) {
    kill(pid, SIGSTOP); // hold still while we read where the tasks are
    running = runningTasks(record, pid);
    device.worker.reset();
    return llvm::make_error<LaunchFault>(llvm::formatv(
        "kernel '{0}': stopped after the --timeout of {1} s{2}", kernel.pretty,
        llvm::format("%g", options.timeoutSeconds), running));
  }
  if (resultType == Fault || resultType == Failure) {
    device.worker.reset();
    if (resultType == Fault)
      return llvm::make_error<LaunchFault>(result);
    return llvm::createStringError(llvm::inconvertibleErrorCode(), result);
  }
  // The worker ended (or sent what cannot be read): why.
  kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  worker.reaped = true;
  std::string message;
  if (record.blocked.load()) {
    message = blockedMessage(kernel, record);
  } else {
    bool clean = WIFEXITED(status) && WEXITSTATUS(status) == WorkerExit;
    std::string how =
        resultType ? std::string("sent a result that cannot be read")
        : WIFSIGNALED(status) && !clean
            ? llvm::formatv("was killed by signal {0} ({1})", WTERMSIG(status),
                            strsignal(WTERMSIG(status)))
                  .str()
        : WIFEXITED(status) && WEXITSTATUS(status) != WorkerExit
            ? llvm::formatv("exited with status {0}", WEXITSTATUS(status))
                  .str()
            : std::string("ended without a result");
    message = llvm::formatv("kernel '{0}': the launch's worker process {1} "
                            "before the launch ended{2}",
                            kernel.pretty, how, runningTasks(record, 0));
  }
  device.worker.reset();
  return llvm::make_error<LaunchFault>(std::move(message));
}
