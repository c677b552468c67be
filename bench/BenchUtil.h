//===- BenchUtil.h - What every bench program shares -----------*- C++ -*-===//
//
// Medians of repeated runs, wall-clock timing, and the command line every
// bench takes from bench/run: [--quick] [--json FILE].
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_BENCH_BENCHUTIL_H
#define BANGC_BENCH_BENCHUTIL_H

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

namespace bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// Wall-clock seconds `f` takes.
template <typename F> double seconds(F &&f) {
  auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// --quick (a short run for CI), --json FILE (figures for bench/run), and
/// the other words in order.
struct Args {
  bool quick = false;
  std::string json;
  std::vector<std::string> positional;
  Args(int argc, char **argv) {
    for (int i = 1; i < argc; ++i) {
      if (std::strcmp(argv[i], "--quick") == 0)
        quick = true;
      else if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc)
        json = argv[++i];
      else
        positional.push_back(argv[i]);
    }
  }
};

/// Writes `value` as indented JSON to `path` (nothing when `path` is empty);
/// false, after saying why, when the file cannot be written.
inline bool writeJson(const std::string &path, llvm::json::Value value) {
  if (path.empty())
    return true;
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "error: cannot write " << path << ": " << ec.message()
                 << "\n";
    return false;
  }
  os << llvm::formatv("{0:2}", value) << "\n";
  return true;
}

} // namespace bench

#endif // BANGC_BENCH_BENCHUTIL_H
