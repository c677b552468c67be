//===- IsolationTest.cpp - Isolated launches survive what kernels do ------===//
//
// An isolated launch (LaunchOptions::isolate, docs/isolation.md) runs in a
// worker process under a system-call filter. Whatever the kernel does ends
// as a LaunchFault naming the kernel and the task, and this process, its
// memory and every buffer the kernel was not given survive. The kernels
// reach host functions through pointers this test passes as integers, so
// that no compile-time check of called functions can stop them first.
//
//===----------------------------------------------------------------------===//
#include "FaultMessage.h"
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace bangsim;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool Isolated = false; // launches run in-process under ASan
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool Isolated = false;
#else
constexpr bool Isolated = true;
#endif
#else
constexpr bool Isolated = true;
#endif

const char *const source = R"(
__mlu_global__ void fill(int *out, int v) {
  out[taskId] = v;
  __bang_printf("task %d\n", taskId);
}
// Calls fp(arg) in task 1, after every task wrote its slot.
__mlu_global__ void call1(int *out, long fp, long arg) {
  out[taskId] = 1;
  if (taskId == 1)
    ((long (*)(long))fp)(arg);
  out[taskId] = 2;
}
// Calls fp(a, b).
__mlu_global__ void call2(int *out, long fp, long a, long b) {
  if (taskId == 0)
    ((long (*)(long, long))fp)(a, b);
  out[taskId] = 2;
}
__mlu_global__ void store(int *out, long addr) {
  if (taskId == 0)
    *(volatile int *)addr = 0x5a5a5a5a;
  out[taskId] = 3;
}
volatile int counter; // a side effect: the loop stays
__mlu_global__ void spin(int *out) {
  for (;;)
    counter = counter + 1;
}
// out[0] = how many launches of it ran before, in every place it ran.
int launches;
__mlu_global__ void count(int *out) {
  if (taskId == 0)
    out[0] = launches++;
}
// Copies the first n ints of `from` to `to`, plus one.
__mlu_global__ void inc(int *out, int *to, int *from, int n) {
  for (int i = taskId; i < n; i += taskDim)
    to[i] = from[i] + 1;
  out[taskId] = 4;
}
)";

struct Fixture {
  Fixture() {
    std::string diags;
    llvm::raw_string_ostream os(diags);
    CompileOptions options;
    options.diagnostics = &os;
    auto m =
        Module::compileString("iso.mlu", source, defaultDeviceSpec(), options);
    if (!m) {
      ADD_FAILURE() << llvm::toString(m.takeError()) << "\n" << diags;
      return;
    }
    module = std::move(*m);
    device = std::move(*Device::open(defaultDeviceSpec()));
    out = *device->malloc(64);
    bystander = *device->malloc(4096);
    std::vector<int> pattern(1024, 0x11223344);
    EXPECT_FALSE(bool(device->copyToDevice(bystander, pattern.data(), 4096)));
  }

  llvm::Expected<LaunchStats> launch(llvm::StringRef kernel,
                                     std::vector<KernelArg> args,
                                     bool isolate = true, double timeout = 0) {
    LaunchOptions options;
    options.isolate = isolate;
    options.timeoutSeconds = timeout;
    options.printfOut = &printed;
    args.insert(args.begin(), KernelArg::pointer(out));
    return device->launch(**module->findKernel(kernel), module->staticLayout(),
                          {4, 1, 1}, FuncType::Block, args, options);
  }

  std::vector<int> read(void *p, size_t n) {
    std::vector<int> v(n);
    EXPECT_FALSE(bool(device->copyFromDevice(v.data(), p, n * 4)));
    return v;
  }

  /// The bystander buffer is untouched and the device still runs kernels.
  void expectSurvived() {
    EXPECT_EQ(read(bystander, 1024), std::vector<int>(1024, 0x11223344));
    auto ok = launch("fill", {KernelArg::i32(9)});
    ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
    EXPECT_EQ(read(out, 4), std::vector<int>(4, 9));
  }

  std::string printedText;
  llvm::raw_string_ostream printed{printedText};
  std::unique_ptr<Module> module;
  std::unique_ptr<Device> device;
  void *out = nullptr, *bystander = nullptr;
};

long address(const void *p) { return long(reinterpret_cast<uintptr_t>(p)); }

#define REQUIRE_ISOLATION()                                                    \
  if (!Isolated)                                                               \
  GTEST_SKIP() << "launches run in-process under AddressSanitizer"

TEST(Isolation, ResultsStatsAndPrintfComeBack) {
  Fixture f;
  ASSERT_TRUE(f.module);
  auto here = f.launch("fill", {KernelArg::i32(5)}, /*isolate=*/false);
  ASSERT_TRUE(bool(here)) << llvm::toString(here.takeError());
  f.printedText.clear();
  auto there = f.launch("fill", {KernelArg::i32(7)});
  ASSERT_TRUE(bool(there)) << llvm::toString(there.takeError());
  EXPECT_EQ(f.read(f.out, 4), std::vector<int>(4, 7));
  EXPECT_EQ(there->cycles, here->cycles);
  EXPECT_EQ(there->tasks, 4);
  EXPECT_EQ(there->kernel, "fill");
  EXPECT_EQ(there->cores.size(), here->cores.size());
  EXPECT_EQ(there->scalarInstructions, here->scalarInstructions);
  EXPECT_GT(there->hostSeconds, 0);
  EXPECT_NE(f.printedText.find("] task 3\n"), std::string::npos)
      << f.printedText;
}

/// A kernel calling `fn` ends as a fault naming the kernel, task 1 and the
/// system call, and everything else survives.
void expectBlocked(long fn, long arg, const char *call) {
  Fixture f;
  ASSERT_TRUE(f.module);
  auto stats = f.launch("call1", {KernelArg::i64(fn), KernelArg::i64(arg)});
  std::string message = faultMessage(std::move(stats));
  EXPECT_NE(message.find("kernel 'call1' task 1 (core 1 of cluster 0): "
                         "system call"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(call), std::string::npos) << message;
  // Tasks that ran before the end wrote the shared output.
  EXPECT_EQ(f.read(f.out, 4)[1], 1);
  f.expectSurvived();
}

TEST(Isolation, ExitIsAFault) {
  REQUIRE_ISOLATION();
  // exit() runs the process's exit handlers first: any of their system
  // calls may be the one that ends the worker.
  expectBlocked(address(reinterpret_cast<void *>(&::exit)), 0, "");
  expectBlocked(address(reinterpret_cast<void *>(&::_exit)), 0, "(exit_group)");
}

TEST(Isolation, AbortAndRaiseAreFaults) {
  REQUIRE_ISOLATION();
  expectBlocked(address(reinterpret_cast<void *>(&::abort)), 0, "kill)");
  expectBlocked(address(reinterpret_cast<void *>(&::raise)), SIGKILL, "kill)");
}

TEST(Isolation, ForkIsAFault) {
  REQUIRE_ISOLATION();
  expectBlocked(address(reinterpret_cast<void *>(&::fork)), 0, "(clone)");
}

TEST(Isolation, SignalHandlersCannotBeChanged) {
  REQUIRE_ISOLATION();
  Fixture f;
  ASSERT_TRUE(f.module);
  auto stats = f.launch(
      "call2", {KernelArg::i64(address(reinterpret_cast<void *>(&::signal))),
                KernelArg::i64(SIGSEGV), KernelArg::i64(long(SIG_DFL))});
  std::string message = faultMessage(std::move(stats));
  EXPECT_NE(message.find("kernel 'call2' task 0"), std::string::npos)
      << message;
  EXPECT_NE(message.find("rt_sigaction"), std::string::npos) << message;
  f.expectSurvived();
}

TEST(Isolation, WildStoreIntoAnotherBufferFaults) {
  REQUIRE_ISOLATION();
  Fixture f;
  ASSERT_TRUE(f.module);
  auto stats = f.launch("store", {KernelArg::i64(address(f.bystander) + 64)});
  std::string message = faultMessage(std::move(stats));
  EXPECT_NE(message.find("kernel 'store' task 0"), std::string::npos)
      << message;
  EXPECT_NE(message.find("invalid memory access"), std::string::npos)
      << message;
  f.expectSurvived();
}

TEST(Isolation, WildStoreIntoHostMemoryLeavesTheHostIntact) {
  REQUIRE_ISOLATION();
  Fixture f;
  ASSERT_TRUE(f.module);
  static int hostValue = 42; // mapped in the worker too, as its own copy
  auto stats = f.launch("store", {KernelArg::i64(address(&hostValue))});
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(hostValue, 42);
  EXPECT_EQ(f.read(f.out, 4), std::vector<int>(4, 3));
}

TEST(Isolation, TimeoutEndsTheWorker) {
  REQUIRE_ISOLATION();
  Fixture f;
  ASSERT_TRUE(f.module);
  auto stats = f.launch("spin", {}, /*isolate=*/true, /*timeout=*/0.5);
  std::string message = faultMessage(std::move(stats));
  EXPECT_NE(message.find("kernel 'spin': stopped after the --timeout of 0.5 s"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("was running"), std::string::npos) << message;
  f.expectSurvived();
}

// --- A worker serves launch after launch (docs/isolation.md "Cost") -----===//

TEST(Isolation, LaunchesReuseTheWorkerAsIfInProcess) {
  Fixture f;
  ASSERT_TRUE(f.module);
  void *a = *f.device->malloc(4096), *b = *f.device->malloc(4096);
  std::vector<int> ramp(1024);
  for (int i = 0; i < 1024; ++i)
    ramp[i] = i;
  ASSERT_FALSE(bool(f.device->copyToDevice(a, ramp.data(), 4096)));
  // Launches that pass different buffers to one worker, in-process and
  // isolated alternately: the same results, the same cycles.
  for (bool isolate : {false, true, true, false, true}) {
    auto ab = f.launch("inc", {KernelArg::pointer(b), KernelArg::pointer(a),
                               KernelArg::i32(1024)},
                       isolate);
    ASSERT_TRUE(bool(ab)) << llvm::toString(ab.takeError());
    // Hides a and b in the worker; the next launch shows them again.
    auto hide = f.launch("fill", {KernelArg::i32(4)}, isolate);
    ASSERT_TRUE(bool(hide)) << llvm::toString(hide.takeError());
    auto ba = f.launch("inc", {KernelArg::pointer(a), KernelArg::pointer(b),
                               KernelArg::i32(1024)},
                       isolate);
    ASSERT_TRUE(bool(ba)) << llvm::toString(ba.takeError());
    EXPECT_EQ(ab->cycles, ba->cycles);
  }
  std::vector<int> want(1024);
  for (int i = 0; i < 1024; ++i)
    want[i] = i + 10;
  EXPECT_EQ(f.read(a, 1024), want);
  EXPECT_EQ(f.read(f.out, 4), std::vector<int>(4, 4));
  // A buffer no argument points into is still out of reach, also after a
  // launch that passed it (only in a worker: under AddressSanitizer every
  // launch runs in-process).
  if (!Isolated)
    return;
  auto wild = f.launch("store", {KernelArg::i64(address(a))});
  EXPECT_NE(faultMessage(wild.takeError()).find("invalid memory access"),
            std::string::npos);
  EXPECT_EQ(f.read(a, 1024), want);
}

TEST(Isolation, DeviceVariablesLiveOnAsInProcess) {
  Fixture f;
  ASSERT_TRUE(f.module);
  // A file-scope variable of device code keeps what one launch wrote for
  // the next, wherever each runs; also across a new worker (after a
  // malloc, a fault).
  std::vector<int> seen;
  auto next = [&](bool isolate) {
    auto s = f.launch("count", {}, isolate);
    EXPECT_TRUE(bool(s)) << llvm::toString(s.takeError());
    seen.push_back(f.read(f.out, 1)[0]);
  };
  next(false);
  next(true);
  next(true);
  next(false);
  next(true);
  ASSERT_TRUE(bool(f.device->malloc(64)));
  next(true);
  auto fault = f.launch("store", {KernelArg::i64(8)});
  EXPECT_FALSE(faultMessage(fault.takeError()).empty());
  next(true);
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(Isolation, AFaultEndsOnlyItsLaunch) {
  REQUIRE_ISOLATION();
  Fixture f;
  ASSERT_TRUE(f.module);
  for (int round = 0; round < 2; ++round) {
    auto ok = f.launch("fill", {KernelArg::i32(round)});
    ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
    auto exited = f.launch(
        "call1", {KernelArg::i64(address(reinterpret_cast<void *>(&::_exit))),
                  KernelArg::i64(0)});
    EXPECT_NE(faultMessage(exited.takeError()).find("(exit_group)"),
              std::string::npos);
    auto wild = f.launch("store", {KernelArg::i64(8)});
    EXPECT_NE(faultMessage(wild.takeError()).find("invalid memory access"),
              std::string::npos);
  }
  f.expectSurvived();
}

TEST(Isolation, BuffersAllocatedAndFreedBetweenLaunches) {
  REQUIRE_ISOLATION();
  Fixture f;
  ASSERT_TRUE(f.module);
  auto first = f.launch("fill", {KernelArg::i32(1)});
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  // Allocated after the worker started: the next launch sees it.
  void *fresh = *f.device->malloc(4096);
  std::vector<int> ones(1024, 1);
  ASSERT_FALSE(bool(f.device->copyToDevice(fresh, ones.data(), 4096)));
  auto used = f.launch("inc", {KernelArg::pointer(fresh),
                               KernelArg::pointer(fresh), KernelArg::i32(1024)});
  ASSERT_TRUE(bool(used)) << llvm::toString(used.takeError());
  EXPECT_EQ(f.read(fresh, 1024), std::vector<int>(1024, 2));
  // Freed after a launch used it: gone for the next, as in-process.
  ASSERT_FALSE(bool(f.device->free(fresh)));
  auto stale = f.launch("store", {KernelArg::i64(address(fresh))});
  std::string message = faultMessage(stale.takeError());
  EXPECT_NE(message.find("invalid memory access"), std::string::npos)
      << message;
  f.expectSurvived();
}

TEST(Isolation, TimeoutEndsAWorkerThatServedLaunches) {
  REQUIRE_ISOLATION();
  Fixture f;
  ASSERT_TRUE(f.module);
  for (int v : {1, 2}) {
    auto ok = f.launch("fill", {KernelArg::i32(v)});
    ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
  }
  auto stats = f.launch("spin", {}, /*isolate=*/true, /*timeout=*/0.3);
  EXPECT_NE(faultMessage(stats.takeError()).find("stopped after the --timeout"),
            std::string::npos);
  f.expectSurvived();
}

/// Kernel code that leaves a thread of its own running (what a raw clone
/// could do): the thread outlives the launch.
long leaveThreadRunning(long) {
  std::thread([] { std::this_thread::sleep_for(std::chrono::seconds(60)); })
      .detach();
  return 0;
}

TEST(Isolation, AWorkerWithAThreadLeftRunningIsNotKept) {
  REQUIRE_ISOLATION();
  Fixture f;
  ASSERT_TRUE(f.module);
  auto kept = f.launch("fill", {KernelArg::i32(1)});
  ASSERT_TRUE(bool(kept)) << llvm::toString(kept.takeError());
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), 0) << "a clean launch keeps its worker";
  auto left = f.launch("call1", {KernelArg::i64(address(
                                     reinterpret_cast<void *>(
                                         &leaveThreadRunning))),
                                 KernelArg::i64(0)});
  ASSERT_TRUE(bool(left)) << llvm::toString(left.takeError());
  // That worker could read the next request or write the next launch's
  // buffers: it was ended and reaped, so no child is left.
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
  f.expectSurvived();
}

TEST(Isolation, AForkedChildLeavesTheParentsWorkerAlone) {
  REQUIRE_ISOLATION();
  Fixture f;
  ASSERT_TRUE(f.module);
  auto s = f.launch("fill", {KernelArg::i32(1)});
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  // A child of the host (os.fork, multiprocessing) inherits the device and
  // its kept worker; destroying it there must not end the parent's worker.
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    f.device.reset();
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  // The worker is still a live child of this process: nothing to reap.
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), 0);
  f.expectSurvived();
}

TEST(Isolation, ALaunchFromAnotherThreadGetsAWorkerThatLives) {
  REQUIRE_ISOLATION();
  {
    Fixture f;
    ASSERT_TRUE(f.module);
    // The worker dies with the thread that forked it: a launch from another
    // thread after that one ended runs in a worker of its own.
    std::thread([&] {
      auto s = f.launch("fill", {KernelArg::i32(1)});
      EXPECT_TRUE(bool(s)) << llvm::toString(s.takeError());
    }).join();
    for (int v : {2, 3}) {
      auto s = f.launch("fill", {KernelArg::i32(v)});
      ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
      EXPECT_EQ(f.read(f.out, 4), std::vector<int>(4, v));
    }
  }
  // The device is gone, and so is its worker: no child is left.
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

} // namespace
