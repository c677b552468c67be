//===- Parallel.h - Host work split over the host's cores -------*- C++ -*-===//
//
// Setting up a network on the host (weights drawn, rounded, packed and
// copied to the simulated device's GDRAM) touches hundreds of megabytes
// before the first kernel runs; on one thread that took as long as the
// simulated VGG-16 itself. parallelFor splits such element-wise loops over
// the host's hardware threads. Every item is computed by exactly one call
// and no item depends on how [0, n) is split, so results are bit-identical
// for every thread count. adviseHugePages asks for transparent huge pages
// on a large buffer before its first touch, so filling it takes one page
// fault per 2 MiB instead of per 4 KiB (a hint: a host without THP, or
// with it off, works the same, only slower).
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_SUPPORT_PARALLEL_H
#define BANGC_SUPPORT_PARALLEL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bangc {

/// The host's hardware threads (at least 1), or BANGC_HOST_THREADS when
/// that is a positive number.
unsigned hostThreads();

/// Calls fn(begin, end) on disjoint ranges that cover [0, n), each at least
/// \p grain items (one range if n is smaller), on up to \p threads threads (0:
/// the host's), this one included; returns when every call has. fn must be safe
/// to run concurrently on disjoint ranges.
void parallelFor(int64_t n, int64_t grain,
                 llvm::function_ref<void(int64_t begin, int64_t end)> fn,
                 unsigned threads = 0);

/// Advises transparent huge pages for the whole 2 MiB pages inside
/// [p, p + bytes). Best done before the range is first written.
void adviseHugePages(void *p, size_t bytes);

/// \p n value-initialised elements whose fresh storage was advised huge
/// pages (adviseHugePages) before it was first written.
template <typename T> std::vector<T> largeVector(size_t n) {
  std::vector<T> v;
  v.reserve(n);
  adviseHugePages(v.data(), n * sizeof(T));
  v.resize(n);
  return v;
}

} // namespace bangc

#endif // BANGC_SUPPORT_PARALLEL_H
