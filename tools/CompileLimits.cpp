//===- CompileLimits.cpp - --max-compile-seconds, --max-compile-memory ----===//
#include "tools/CompileLimits.h"

using namespace bangc::tools;

std::vector<Option> CompileLimits::options(llvm::StringRef note) {
  std::string prefix = note.empty() ? "" : note.str() + " ";
  // The largest values keep the watchdog's arithmetic far from overflow: a
  // year, a pebibyte.
  constexpr uint64_t maxSeconds = 365ull * 24 * 3600, maxMiB = 1ull << 30;
  std::vector<Option> rows = {
      integer<uint64_t>("--max-compile-seconds", "=N",
                        prefix + "end a compile that runs longer than N "
                                 "seconds (default 300; 0: no limit)",
                        seconds, 0, maxSeconds,
                        "want seconds in [0, " + std::to_string(maxSeconds) +
                            "] (0: no limit)"),
      integer<uint64_t>("--max-compile-memory", "=MIB",
                        prefix + "end a compile that adds more than MIB MiB "
                                 "to the process's resident memory (default "
                                 "4096; 0: no limit)",
                        memoryMiB, 0, maxMiB,
                        "want MiB in [0, " + std::to_string(maxMiB) +
                            "] (0: no limit)")};
  for (Option &row : rows)
    row.handle = [this, read = row.handle](llvm::StringRef v) {
      given = true;
      return read(v);
    };
  return rows;
}
