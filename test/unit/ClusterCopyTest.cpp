//===- ClusterCopyTest.cpp - __memcpy to another cluster's SRAM -----------===//
//
// The inter-cluster form __memcpy(dst, src, bytes, SRAM2SRAM, dst_cluster)
// sends bytes from this cluster's SRAM to the same address in the SRAM of
// logical cluster dst_cluster of the union: each cluster passes a block to
// its neighbour in a ring, in UNION4, UNION2 (two unions side by side on
// the card), UNION1 and BLOCK launches. The faults are in FaultSuiteTest.
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <vector>

using namespace bangsim;

namespace {

constexpr int Ints = 16; ///< ints each cluster sends
constexpr int Sram2Sram = 11, Sram2Gdram = 8;

const char *const ringSource = R"(
__mlu_shared__ int mine[16];
__mlu_shared__ int got[16];
__mlu_global__ void ring(int *out, int async) {
  if (coreId == 0) {
    for (int i = 0; i < 16; ++i)
      mine[i] = clusterId * 100 + i;
    int next = (clusterId + 1) % clusterDim;
    if (async) {
      __memcpy_async(got, mine, sizeof(got), SRAM2SRAM, next);
      __sync();
    } else {
      __memcpy(got, mine, sizeof(got), SRAM2SRAM, next);
    }
  }
  __sync_all();
  __memcpy(out + taskId * 16, got, sizeof(got), SRAM2GDRAM);
}
__mlu_global__ void fill(int value) {
  if (coreId == 0)
    for (int i = 0; i < 16; ++i)
      got[i] = value;
}
__mlu_global__ void bad(int dir, int cluster, int src_offset) {
  if (taskId != 0)
    return;
  for (int i = 0; i < 16; ++i)
    mine[i] = 7;
  __memcpy(got, (char *)mine + src_offset, sizeof(got),
           (mluMemcpyDirection_t)dir, cluster);
}
__mlu_global__ void show(int *out) {
  if (coreId == 0)
    __memcpy(out + clusterId * 16, got, sizeof(got), SRAM2GDRAM);
}
__mlu_shared__ char big[2][6400];
__mlu_global__ void within(int to_cluster) {
  __memcpy(big[1], big[0], 6400, SRAM2SRAM);
  __memcpy(big[1], big[0], 6400, SRAM2SRAM, to_cluster);
}
)";

struct Ring {
  /// \p sramBytes: the spec's SRAM per cluster, if not the default.
  explicit Ring(int64_t sramBytes = 0) {
    if (sramBytes)
      spec.sramBytes = sramBytes;
    std::string diags;
    llvm::raw_string_ostream os(diags);
    CompileOptions options;
    options.diagnostics = &os;
    auto m = Module::compileString("ring.mlu", ringSource, spec, options);
    if (!m) {
      ADD_FAILURE() << llvm::toString(m.takeError()) << "\n" << diags;
      return;
    }
    module = std::move(*m);
    auto d = Device::open(spec);
    if (!d) {
      ADD_FAILURE() << llvm::toString(d.takeError());
      return;
    }
    device = std::move(*d);
  }

  llvm::Expected<LaunchStats> launch(llvm::StringRef kernel,
                                     std::vector<KernelArg> args, int tasks,
                                     FuncType type, bool trace = false) {
    auto k = module->findKernel(kernel);
    if (!k)
      return k.takeError();
    LaunchOptions options;
    options.trace = trace;
    return device->launch(**k, module->staticLayout(), {unsigned(tasks), 1, 1},
                          type, args, options);
  }

  DeviceSpec spec = defaultDeviceSpec();
  std::unique_ptr<Module> module;
  std::unique_ptr<Device> device;
};

/// The clusters of one union group for `type` (1 for BLOCK).
int unionSize(FuncType type) { return std::max(1, unionClusters(type)); }

/// The physical cluster whose block physical cluster `cluster` receives: its
/// predecessor in the ring of its own union group.
int sender(int cluster, int clustersPerUnion) {
  int first = cluster - cluster % clustersPerUnion;
  int logical = cluster - first;
  return first + (logical + clustersPerUnion - 1) % clustersPerUnion;
}

struct RingCase {
  FuncType type;
  int tasks;
  bool async;
};

std::ostream &operator<<(std::ostream &os, const RingCase &c) {
  return os << funcTypeName(c.type).str() << " x " << c.tasks
            << (c.async ? " async" : "");
}

class ClusterRing : public ::testing::TestWithParam<RingCase> {};

TEST_P(ClusterRing, EachClusterGetsItsNeighboursBlock) {
  const RingCase &c = GetParam();
  Ring r;
  ASSERT_TRUE(r.module && r.device);
  int cpc = r.spec.coresPerCluster;
  auto out = r.device->malloc(c.tasks * Ints * sizeof(int));
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  auto stats =
      r.launch("ring", {KernelArg::pointer(*out), KernelArg::i32(c.async)},
               c.tasks, c.type);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());

  std::vector<int> got(c.tasks * Ints);
  ASSERT_FALSE(bool(
      r.device->copyFromDevice(got.data(), *out, got.size() * sizeof(int))));
  // Cores 0..cpc-1 of a wave are cluster 0, and so on: task t runs on
  // physical cluster (t mod the card's cores) / cpc.
  for (int t = 0; t < c.tasks; ++t) {
    int cluster = t % r.spec.numCores() / cpc;
    int from = sender(cluster, unionSize(c.type));
    for (int i = 0; i < Ints; ++i)
      ASSERT_EQ(got[t * Ints + i], from * 100 + i)
          << "task " << t << " (cluster " << cluster << "), int " << i;
  }
  // One block per cluster of the launch, counted as SRAM2SRAM; the only
  // GDRAM traffic is the copy out.
  int clusters = c.tasks / cpc;
  int64_t block = Ints * sizeof(int);
  EXPECT_EQ(stats->bytesByDirection[Sram2Sram], clusters * block);
  EXPECT_EQ(stats->bytesByDirection[Sram2Gdram], c.tasks * block);
  EXPECT_EQ(stats->gdramReadBytes, 0);
  EXPECT_EQ(stats->gdramWriteBytes, c.tasks * block);
}

INSTANTIATE_TEST_SUITE_P(
    Launches, ClusterRing,
    ::testing::Values(RingCase{FuncType::Union4, 16, false},
                      RingCase{FuncType::Union4, 16, true},
                      RingCase{FuncType::Union4, 32, false}, // two waves
                      RingCase{FuncType::Union2, 16, false},
                      RingCase{FuncType::Union1, 8, false}),
    [](const auto &info) {
      return std::string(funcTypeName(info.param.type)) + "x" +
             std::to_string(info.param.tasks) +
             (info.param.async ? "Async" : "");
    });

// SRAM of a size that is not a multiple of the page: each cluster's SRAM
// starts where the memory map says (a kernel's view and the checks agreed
// only for page multiples, so cluster 1 wrote into cluster 0's padding).
TEST(ClusterCopy, SramSizeNotAPageMultiple) {
  Ring r(14 * 1024);
  ASSERT_TRUE(r.module && r.device);
  int tasks = r.spec.numCores(), cpc = r.spec.coresPerCluster;
  auto out = r.device->malloc(tasks * Ints * sizeof(int));
  ASSERT_TRUE(bool(out));
  auto stats = r.launch("ring", {KernelArg::pointer(*out), KernelArg::i32(0)},
                        tasks, FuncType::Union4);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  std::vector<int> got(tasks * Ints);
  ASSERT_FALSE(bool(
      r.device->copyFromDevice(got.data(), *out, got.size() * sizeof(int))));
  for (int t = 0; t < tasks; ++t)
    for (int i = 0; i < Ints; ++i)
      ASSERT_EQ(got[t * Ints + i], sender(t / cpc, 4) * 100 + i)
          << "task " << t << ", int " << i;
}

// A BLOCK task's union is its own cluster: every core of cluster 0 sends to
// logical cluster 0, so each reads its own cluster's block.
TEST(ClusterCopy, BlockTaskSendsToItsOwnCluster) {
  Ring r;
  ASSERT_TRUE(r.module && r.device);
  auto out = r.device->malloc(Ints * sizeof(int));
  ASSERT_TRUE(bool(out));
  auto stats = r.launch("ring", {KernelArg::pointer(*out), KernelArg::i32(0)},
                        1, FuncType::Block);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  std::vector<int> got(Ints);
  ASSERT_FALSE(
      bool(r.device->copyFromDevice(got.data(), *out, Ints * sizeof(int))));
  for (int i = 0; i < Ints; ++i)
    EXPECT_EQ(got[i], i);
}

// A faulting copy stops before a byte moves: the destination cluster's SRAM
// keeps what it held (SRAM keeps its contents from one launch to the next).
TEST(ClusterCopy, AFaultWritesNothing) {
  Ring r;
  ASSERT_TRUE(r.module && r.device);
  int clusters = r.spec.clusters, tasks = r.spec.numCores();
  auto out = r.device->malloc(clusters * Ints * sizeof(int));
  ASSERT_TRUE(bool(out));
  const int NramToSram = 10;
  const int cases[][3] = {
      {NramToSram, 1, 0},                         // not SRAM2SRAM
      {Sram2Sram, clusters, 0},                   // no such cluster
      {Sram2Sram, -1, 0},                         // no such cluster
      {Sram2Sram, 1, int(r.spec.sramBytes) - 32}, // source past its SRAM
  };
  for (const auto &c : cases) {
    auto filled =
        r.launch("fill", {KernelArg::i32(-1)}, tasks, FuncType::Union4);
    ASSERT_TRUE(bool(filled)) << llvm::toString(filled.takeError());
    auto faulted = r.launch(
        "bad",
        {KernelArg::i32(c[0]), KernelArg::i32(c[1]), KernelArg::i32(c[2])},
        tasks, FuncType::Union4);
    ASSERT_FALSE(bool(faulted)) << "dir " << c[0] << " cluster " << c[1];
    llvm::consumeError(faulted.takeError());
    auto shown =
        r.launch("show", {KernelArg::pointer(*out)}, tasks, FuncType::Union4);
    ASSERT_TRUE(bool(shown)) << llvm::toString(shown.takeError());
    std::vector<int> got(clusters * Ints);
    ASSERT_FALSE(bool(
        r.device->copyFromDevice(got.data(), *out, got.size() * sizeof(int))));
    EXPECT_EQ(got, std::vector<int>(got.size(), -1))
        << "dir " << c[0] << " cluster " << c[1] << " offset " << c[2];
  }
}

// The copy is on chip: it costs what a copy within the cluster costs.
TEST(ClusterCopy, CostsTheSameAsACopyWithinTheCluster) {
  Ring r;
  ASSERT_TRUE(r.module && r.device);
  auto stats = r.launch("within", {KernelArg::i32(1)}, 8, FuncType::Union2,
                        /*trace=*/true);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  double onchip =
      r.spec.dmaLatencyCycles + 6400 / (r.spec.onchipGBps / r.spec.clockGHz);
  int dmaEvents = 0;
  for (const TraceEvent &e : stats->events) {
    if (!e.dma)
      continue;
    ++dmaEvents;
    EXPECT_NEAR(e.cycles, onchip, 1e-6) << e.name;
    EXPECT_EQ(e.bytes, 6400);
  }
  EXPECT_EQ(dmaEvents, 16);
  EXPECT_EQ(stats->bytesByDirection[Sram2Sram], 16 * 6400);
  EXPECT_EQ(stats->gdramReadBytes + stats->gdramWriteBytes, 0);
}

} // namespace
