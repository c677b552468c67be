//===- ParallelTest.cpp - parallelFor and largeVector ---------------------===//
//
// Network setup trusts parallelFor to give bit-identical results for any
// thread count: that holds only if every item is visited exactly once,
// whatever the item count, grain and thread count, and these tests check
// it over counts below, at and above the threads. They also check that the
// work is really split (else the speed-up is silently gone) and that
// largeVector, which asks for huge pages before its first touch, still
// comes back zeroed.
//
//===----------------------------------------------------------------------===//
#include "support/Parallel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>

using namespace bangc;

namespace {

// Every item is visited exactly once, in ranges of at least the grain (the
// range is all of them when there are fewer), for thread counts below, at and
// above the items.
TEST(Parallel, CoversEveryItemOnce) {
  for (int64_t n : {0, 1, 7, 100, 1000, 12345})
    for (int64_t grain : {1, 3, 64, 5000})
      for (unsigned threads : {1u, 2u, 3u, 8u}) {
        std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
        std::mutex m;
        std::vector<std::pair<int64_t, int64_t>> ranges;
        parallelFor(
            n, grain,
            [&](int64_t b, int64_t e) {
              {
                std::lock_guard lock(m);
                ranges.push_back({b, e});
              }
              for (int64_t i = b; i < e; ++i)
                seen[size_t(i)]++;
            },
            threads);
        for (int64_t i = 0; i < n; ++i)
          ASSERT_EQ(seen[size_t(i)], 1) << n << " " << grain << " " << threads;
        if (n == 0)
          EXPECT_TRUE(ranges.empty());
        EXPECT_LE(ranges.size(), size_t(threads));
        std::sort(ranges.begin(), ranges.end());
        for (size_t r = 0; r < ranges.size(); ++r)
          EXPECT_GE(ranges[r].second - ranges[r].first, std::min(n, grain));
      }
}

// Several threads take part when there is enough work.
TEST(Parallel, SplitsWork) {
  std::atomic<int> calls{0};
  parallelFor(
      1000, 10, [&](int64_t, int64_t) { calls++; }, 4);
  EXPECT_EQ(calls, 4);
}

TEST(Parallel, LargeVectorIsZeroed) {
  std::vector<double> v = largeVector<double>(size_t(3) << 20);
  ASSERT_EQ(v.size(), size_t(3) << 20);
  for (double x : v)
    ASSERT_EQ(x, 0.0);
}

} // namespace
