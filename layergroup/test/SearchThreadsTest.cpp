//===- SearchThreadsTest.cpp - planNet on any number of host threads ------===//
//
// planNet plans the rows of its group table (groups i..j for growing j) on
// every host thread (plan/Search.cpp, BANGC_HOST_THREADS): the groups it
// picks, their slicings and estimates, the count of groups it evaluated and
// the error for a layer that does not fit alone must be those of one
// thread, on any number.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

using namespace bangc::lg;

namespace {

/// Sets BANGC_HOST_THREADS for its lifetime.
class HostThreads {
public:
  explicit HostThreads(const char *n) {
    const char *old = std::getenv("BANGC_HOST_THREADS");
    had = old != nullptr;
    saved = old ? old : "";
    ::setenv("BANGC_HOST_THREADS", n, 1);
  }
  ~HostThreads() {
    if (had)
      ::setenv("BANGC_HOST_THREADS", saved.c_str(), 1);
    else
      ::unsetenv("BANGC_HOST_THREADS");
  }

private:
  bool had;
  std::string saved;
};

bangsim::DeviceSpec spec() {
  auto S = bangsim::loadDeviceSpec("mlu370");
  EXPECT_TRUE(bool(S));
  return *S;
}

using Summary =
    std::vector<std::tuple<int, int, int, int, int, int, double, int64_t>>;

/// What planNet decided: each group's layers, slicing, cycles and bytes.
Summary summary(const NetPlan &P) {
  Summary S;
  for (const GroupPlan &G : P.Groups)
    S.emplace_back(G.Info.First, G.Info.Last, G.NSecs, G.HSecs, G.WSecs,
                   G.FSecs, G.Cycles, G.ReadBytes + G.WriteBytes);
  return S;
}

TEST(SearchThreads, SamePlanOnEveryThreadCount) {
  Net N;
  int X = N.addInput("x", 3, 64, 64);
  X = N.relu(N.conv(X, 16, 3, 1, 1, "c1"), "r1");
  X = N.relu(N.conv(X, 16, 3, 1, 1, "c2"), "r2");
  X = N.maxPool(X, 2, 2, 0, "p1");
  X = N.relu(N.conv(X, 32, 3, 1, 1, "c3"), "r3");
  X = N.relu(N.conv(X, 32, 3, 1, 1, "c4"), "r4");
  X = N.maxPool(X, 2, 2, 0, "p2");
  X = N.relu(N.conv(X, 64, 3, 1, 1, "c5"), "r5");
  N.markOutput(X, "y");
  Summary Want;
  int64_t WantEvaluations = 0;
  {
    HostThreads One("1");
    auto P = planNet(N, spec(), 2);
    ASSERT_TRUE(bool(P)) << toString(P.takeError());
    Want = summary(*P);
    WantEvaluations = P->GroupEvaluations;
  }
  ASSERT_GT(Want.size(), 1u);
  for (const char *Threads : {"2", "3", "8"}) {
    HostThreads T(Threads);
    auto P = planNet(N, spec(), 2);
    ASSERT_TRUE(bool(P)) << toString(P.takeError());
    EXPECT_EQ(summary(*P), Want) << Threads << " threads";
    EXPECT_EQ(P->GroupEvaluations, WantEvaluations) << Threads << " threads";
  }
}

// Layers c1 and c2 do not fit alone (a 1 KiB WRAM holds no output channel
// of their weights): the error names c1, the first, on any thread count.
TEST(SearchThreads, FirstLayerThatDoesNotFitOnEveryThreadCount) {
  Net N;
  int X = N.addInput("x", 64, 6, 6);
  X = N.relu(X, "r0");
  X = N.relu(N.conv(X, 64, 3, 1, 1, "c1"), "r1");
  X = N.relu(N.conv(X, 64, 3, 1, 1, "c2"), "r2");
  N.markOutput(X, "y");
  bangsim::DeviceSpec Tiny = spec();
  Tiny.wramBytes = 1024;
  for (const char *Threads : {"1", "2", "3", "8"}) {
    HostThreads T(Threads);
    auto P = planNet(N, Tiny, 1);
    ASSERT_FALSE(bool(P)) << Threads << " threads";
    std::string Message = toString(P.takeError());
    EXPECT_NE(Message.find("layer 'c1' does not fit"), std::string::npos)
        << Threads << " threads: " << Message;
  }
}

/// The threads of this process now (/proc/self/status); 0 if unknown.
int processThreads() {
  FILE *F = std::fopen("/proc/self/status", "r");
  if (!F)
    return 0;
  char Line[256];
  int N = 0;
  while (std::fgets(Line, sizeof Line, F))
    if (std::sscanf(Line, "Threads: %d", &N) == 1)
      break;
  std::fclose(F);
  return N;
}

// The search starts no more threads than the table has rows: 1024 host
// threads plan a 2-layer net on at most 2 (plus this one and the sampler).
TEST(SearchThreads, NoMoreThreadsThanLayers) {
  Net N;
  int X = N.addInput("x", 3, 16, 16);
  X = N.relu(N.conv(X, 8, 3, 1, 1, "c1"), "r1");
  N.markOutput(X, "y");
  ASSERT_EQ(N.Layers.size(), 2u);
  int Before = processThreads();
  if (Before == 0)
    GTEST_SKIP() << "no /proc/self/status";
  std::atomic<bool> Done{false};
  std::atomic<int> Peak{0};
  std::thread Sampler([&] {
    while (!Done)
      Peak = std::max(Peak.load(), processThreads());
  });
  {
    HostThreads T("1024");
    for (int Run = 0; Run < 5; ++Run) {
      auto P = planNet(N, spec(), 1);
      EXPECT_TRUE(bool(P)) << (P ? "" : toString(P.takeError()));
    }
  }
  Done = true;
  Sampler.join();
  // The sampler and at most one search thread beside this one.
  EXPECT_LE(Peak.load(), Before + 2);
}

} // namespace
