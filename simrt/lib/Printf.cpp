//===- Printf.cpp - __bang_printf: kernels' lines, one task per line ------===//
//
// Kernels print with __bang_printf (docs/language.md). Tasks run at the same
// time on several host threads, so each task collects its output until a
// '\n' ends a line, and only whole lines reach the output, each prefixed
// with the task that printed it ("[cluster 0 core 2] "): lines of different
// tasks never mix. A launch prints at most LaunchOptions::printfLimit lines;
// those past it are counted and one note at the end says how many.
//
//===----------------------------------------------------------------------===//
#include "Sim.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdarg>
#include <cstdio>

using namespace bangsim;

namespace {

/// Orders lines across launches and devices as well as tasks.
std::mutex printfMutex;

llvm::raw_ostream &outputOf(const Launch &l) {
  return l.options.printfOut ? *l.options.printfOut : llvm::outs();
}

/// Prints one line of `task`, or counts it past the limit. Caller holds
/// printfMutex.
void emitLine(Task &task, llvm::StringRef line) {
  Launch &l = *task.launch;
  if (l.printfLines >= l.options.printfLimit) {
    ++l.printfDropped;
    return;
  }
  ++l.printfLines;
  outputOf(l) << "[cluster " << task.ctx.clusterId << " core "
              << task.ctx.coreId << "] " << line << '\n';
}

} // namespace

void bangsim::flushPrintf(Launch &l) {
  std::lock_guard lock(printfMutex);
  for (Task &t : l.tasks)
    if (!t.printfLine.empty()) {
      emitLine(t, t.printfLine);
      t.printfLine.clear();
    }
  outputOf(l).flush();
}

void bangsim::finishPrintf(Launch &l) {
  std::lock_guard lock(printfMutex);
  if (l.printfDropped > 0)
    outputOf(l) << "[bangsim] __bang_printf: " << l.printfDropped
                << " more line" << (l.printfDropped == 1 ? "" : "s")
                << " not printed (the limit is " << l.options.printfLimit
                << " per launch: --printf-limit)\n";
  outputOf(l).flush();
}

extern "C" void __bangsim_vprintf(const char *format, va_list args) {
  Task *t = currentTask();
  assert(t && "__bang_printf outside kernel code");
  chargePendingScalar(*t);
  va_list again;
  va_copy(again, args);
  char small[256];
  int n = std::vsnprintf(small, sizeof small, format, args);
  std::string text;
  if (n < 0) {
    text = "<__bang_printf: bad format>\n";
  } else if (size_t(n) < sizeof small) {
    text.assign(small, size_t(n));
  } else {
    text.resize(size_t(n) + 1);
    std::vsnprintf(text.data(), text.size(), format, again);
    text.resize(size_t(n));
  }
  va_end(again);
  // Whole lines go out now; the rest waits for its '\n' (or the task's end).
  t->printfLine += text;
  size_t end = t->printfLine.rfind('\n');
  if (end == std::string::npos)
    return;
  std::lock_guard lock(printfMutex);
  llvm::SmallVector<llvm::StringRef, 4> lines;
  llvm::StringRef(t->printfLine.data(), end)
      .split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  for (llvm::StringRef line : lines)
    emitLine(*t, line);
  t->printfLine.erase(0, end + 1);
}
