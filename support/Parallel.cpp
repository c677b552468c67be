//===- Parallel.cpp - Host work split over the host's cores ---------------===//
//
// The host-side setup of a network (weights drawn, rounded, packed and
// copied to GDRAM) is element-wise work over hundreds of megabytes; this
// file runs it on plain std::threads, one contiguous range per thread, so
// the split never changes a result. BANGC_HOST_THREADS overrides the
// hardware thread count (1: parallelFor runs on the calling thread, and
// the LayerGroup runner starts no compile thread of its own). The
// huge-page hint is here too: it serves the same large buffers
// (largeVector), so that filling them takes fewer page faults.
//
//===----------------------------------------------------------------------===//
#include "support/Parallel.h"

#include <algorithm>
#include <cstdlib>
#include <sys/mman.h>
#include <thread>

namespace bangc {

unsigned hostThreads() {
  if (const char *env = std::getenv("BANGC_HOST_THREADS"); env && *env) {
    char *end = nullptr;
    long n = std::strtol(env, &end, 10);
    if (*end == '\0' && n > 0)
      return unsigned(std::min(n, 1024L));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void parallelFor(int64_t n, int64_t grain,
                 llvm::function_ref<void(int64_t, int64_t)> fn,
                 unsigned threads) {
  if (n <= 0)
    return;
  grain = std::max<int64_t>(1, grain);
  int64_t parts =
      std::min<int64_t>(threads ? threads : hostThreads(), n / grain);
  if (parts <= 1) {
    fn(0, n);
    return;
  }
  // Equal contiguous ranges: part t is [n*t/parts, n*(t+1)/parts).
  auto range = [&](int64_t t) { return n / parts * t + n % parts * t / parts; };
  std::vector<std::thread> pool;
  pool.reserve(size_t(parts - 1));
  for (int64_t t = 1; t < parts; ++t)
    pool.emplace_back([&, t] { fn(range(t), range(t + 1)); });
  fn(0, range(1));
  for (std::thread &t : pool)
    t.join();
}

void adviseHugePages(void *p, size_t bytes) {
  constexpr uintptr_t Huge = uintptr_t(2) << 20;
  uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + Huge - 1) & ~(Huge - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(Huge - 1);
  if (end > begin)
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
}

} // namespace bangc
