//===- CompileLimits.cpp - --max-compile-seconds, --max-compile-memory ----===//
#include "tools/CompileLimits.h"

using namespace bangc::tools;

const char *const bangc::tools::CompileLimitsHelp =
    "  --max-compile-seconds=N\n"
    "                    end a compile that runs longer than N seconds\n"
    "                    (default 300; 0: no limit)\n"
    "  --max-compile-memory=MIB\n"
    "                    end a compile that adds more than MIB MiB to the\n"
    "                    process's resident memory (default 4096; 0: no\n"
    "                    limit)\n";

bool CompileLimits::parse(Args &args) {
  struct Limit {
    const char *option;
    uint64_t *value;
    uint64_t max;
    const char *unit;
  };
  // The largest values keep the watchdog's arithmetic far from overflow: a
  // year, a pebibyte.
  Limit limits[] = {
      {"--max-compile-seconds", &seconds, 365ull * 24 * 3600, "seconds"},
      {"--max-compile-memory", &memoryMiB, 1ull << 30, "MiB"}};
  if (args.done())
    return false;
  for (const Limit &l : limits) {
    llvm::StringRef arg = args.peek();
    if (arg != l.option && !arg.starts_with(std::string(l.option) + "="))
      continue;
    std::optional<std::string> v = args.value(l.option);
    if (!v)
      return true; // no value: args.error says so
    uint64_t n;
    if (llvm::StringRef(*v).getAsInteger(10, n) || n > l.max)
      args.error = "bad " + std::string(l.option) + " '" + *v + "': want " +
                   l.unit + " in [0, " + std::to_string(l.max) +
                   "] (0: no limit)";
    else
      *l.value = n;
    return true;
  }
  return false;
}
