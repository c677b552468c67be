//===- CompileWatchdog.cpp - Enforces a command's compile limits ----------===//
//
// The process ends from the watchdog's thread while another thread is deep
// in Clang or LLVM: so it writes its message with write(2), removes the
// output files LLVM would remove on a signal (a half-written -o file) and
// calls _exit, which runs no destructor another thread could be using.
//
//===----------------------------------------------------------------------===//
#include "tools/CompileWatchdog.h"

#include "driver/CompileActivity.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Signals.h"

#include <cstdio>
#include <unistd.h>

using namespace bangc::tools;

namespace {

/// The resident memory of the process in bytes; 0 if unknown.
uint64_t residentBytes() {
  FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f)
    return 0;
  unsigned long long size = 0, resident = 0;
  int read = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  return read == 2 ? resident * uint64_t(::sysconf(_SC_PAGESIZE)) : 0;
}

[[noreturn]] void exceeded(const std::string &message) {
  std::string line = message + "\n";
  for (size_t done = 0; done < line.size();) {
    ssize_t n = ::write(2, line.data() + done, line.size() - done);
    if (n <= 0)
      break;
    done += size_t(n);
  }
  llvm::sys::RunInterruptHandlers();
  ::_exit(1);
}

} // namespace

CompileWatchdog::CompileWatchdog(const CompileLimits &limits) : limits(limits) {
  if (limits.seconds || limits.memoryMiB)
    thread = std::thread([this] { watch(); });
}

CompileWatchdog::~CompileWatchdog() {
  if (!thread.joinable())
    return;
  {
    std::lock_guard<std::mutex> guard(lock);
    stop = true;
  }
  wake.notify_all();
  thread.join();
}

void CompileWatchdog::watch() {
  constexpr uint64_t bytesPerMiB = 1 << 20;
  // The resident memory when each compile was first seen (at most one poll
  // after it began): what it adds is measured from there.
  uint64_t watchedId = 0, baseline = 0;
  std::unique_lock<std::mutex> guard(lock);
  while (!wake.wait_for(guard, std::chrono::milliseconds(25),
                        [this] { return stop; })) {
    std::optional<bangsim::RunningCompile> c = bangsim::oldestRunningCompile();
    if (!c)
      continue;
    if (c->id != watchedId) {
      watchedId = c->id;
      baseline = residentBytes();
    }
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - c->start)
                         .count();
    if (limits.seconds && seconds > double(limits.seconds))
      exceeded(llvm::formatv("{0}: error: compilation exceeded the time "
                             "limit of {1} s (raise it with "
                             "--max-compile-seconds=N, 0 for no limit)",
                             c->name, limits.seconds));
    uint64_t resident = residentBytes();
    uint64_t added = resident > baseline ? resident - baseline : 0;
    if (limits.memoryMiB && added > limits.memoryMiB * bytesPerMiB)
      exceeded(llvm::formatv("{0}: error: compilation exceeded the memory "
                             "limit of {1} MiB (it added {2:F1} MiB to the "
                             "process; raise it with --max-compile-memory=MIB, "
                             "0 for no limit)",
                             c->name, limits.memoryMiB,
                             double(added) / bytesPerMiB));
  }
}
