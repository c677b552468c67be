//===- CompileWatchdog.h - Enforces a command's compile limits --*- C++ -*-===//
//
// While a command runs, a thread looks every 25 ms at the compile that has
// been running longest (driver/CompileActivity.h) and at the process's
// resident memory (/proc/self/statm). A compile past its time limit, or
// one that has added more than its memory limit to the resident memory
// since it began, ends the process: a clang-style error naming the source
// and the option that raises the limit, exit status 1. Launches are not
// compiles: a kernel's time is bounded by --timeout, its memory by the
// device's.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TOOLS_COMPILEWATCHDOG_H
#define BANGC_TOOLS_COMPILEWATCHDOG_H

#include "tools/CompileLimits.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace bangc::tools {

class CompileWatchdog {
public:
  /// Watches from now until destroyed; no thread if neither limit is set.
  explicit CompileWatchdog(const CompileLimits &limits);
  ~CompileWatchdog();
  CompileWatchdog(const CompileWatchdog &) = delete;
  CompileWatchdog &operator=(const CompileWatchdog &) = delete;

private:
  void watch();

  CompileLimits limits;
  std::mutex lock;
  std::condition_variable wake;
  bool stop = false;
  std::thread thread;
};

} // namespace bangc::tools

#endif // BANGC_TOOLS_COMPILEWATCHDOG_H
