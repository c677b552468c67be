//===- DeviceTest.cpp - The simulated device through the host API ---------===//
//
// Faults leave the process and other buffers intact; the cost model gives
// the hand-computed cycles; async DMA overlaps compute in the timeline.
//
//===----------------------------------------------------------------------===//
#include "FaultMessage.h"
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

using namespace bangsim;

namespace {

/// A card with round numbers: 1 GHz, 8 B/cycle per core, 16 B/cycle in all,
/// 100 cycles of DMA latency, 64 B/cycle of ALU; scalar code nearly free.
/// The rest are the defaults: 64 B GDRAM blocks (an 800 B read moves 13 of
/// them, 832 B), writes at 0.9 of a read's rate, 128 B vector granules and
/// 8 cycles of vector start-up (test/unit/CostRulesTest.cpp pins each rule).
DeviceSpec roundSpec() {
  auto spec = parseDeviceSpec(R"({
    "name": "round", "clusters": 1, "cores_per_cluster": 4,
    "nram_kib": 64, "wram_kib": 64, "sram_kib": 256, "gdram_mib": 64,
    "clock_ghz": 1, "gdram_gbps": 16, "gdram_core_gbps": 8,
    "onchip_gbps": 64, "dma_latency_cycles": 100,
    "vector_bytes_per_cycle": {"alu": 64}, "scalar_ipc": 64})",
                              "round");
  EXPECT_TRUE(bool(spec));
  return *spec;
}

struct Fixture {
  explicit Fixture(const DeviceSpec &spec, llvm::StringRef source)
      : spec(spec) {
    std::string diags;
    llvm::raw_string_ostream os(diags);
    CompileOptions options;
    options.diagnostics = &os;
    auto m = Module::compileString("test.mlu", source, spec, options);
    if (!m) {
      ADD_FAILURE() << llvm::toString(m.takeError()) << "\n" << diags;
      return;
    }
    module = std::move(*m);
    auto d = Device::open(spec);
    EXPECT_TRUE(bool(d));
    device = std::move(*d);
  }

  llvm::Expected<LaunchStats> launch(llvm::StringRef kernel,
                                     std::vector<KernelArg> args,
                                     Dim3 dim = {1, 1, 1},
                                     FuncType type = FuncType::Block,
                                     bool trace = false) {
    auto k = module->findKernel(kernel);
    if (!k)
      return k.takeError();
    LaunchOptions options;
    options.trace = trace;
    return device->launch(**k, module->staticLayout(), dim, type, args,
                          options);
  }

  void *buffer(std::vector<uint8_t> bytes) {
    auto p = device->malloc(bytes.size());
    EXPECT_TRUE(bool(p));
    EXPECT_FALSE(bool(device->copyToDevice(*p, bytes.data(), bytes.size())));
    return *p;
  }

  std::vector<uint8_t> read(void *p, size_t n) {
    std::vector<uint8_t> out(n);
    EXPECT_FALSE(bool(device->copyFromDevice(out.data(), p, n)));
    return out;
  }

  DeviceSpec spec;
  std::unique_ptr<Module> module;
  std::unique_ptr<Device> device;
};

const char *const faultySource = R"(
__nram__ char tile[1024];
__mlu_global__ void copy(char *dst, char *src, int n) {
  __memcpy(tile, src, n, GDRAM2NRAM);
  __memcpy(dst, tile, n, NRAM2GDRAM);
}
)";

TEST(Device, FaultLeavesOtherBuffersAndTheDeviceIntact) {
  Fixture f(defaultDeviceSpec(), faultySource);
  ASSERT_TRUE(f.module);
  std::vector<uint8_t> pattern(256), other(256, 0xAB);
  for (int i = 0; i < 256; ++i)
    pattern[i] = uint8_t(i);
  void *src = f.buffer(pattern);
  void *dst = f.buffer(std::vector<uint8_t>(256, 0));
  void *bystander = f.buffer(other);

  // 300 bytes out of 256-byte buffers: stops before a byte moves.
  auto stats = f.launch("copy", {KernelArg::pointer(dst),
                                 KernelArg::pointer(src), KernelArg::i32(300)});
  ASSERT_FALSE(bool(stats));
  std::string message = faultMessage(stats.takeError());
  EXPECT_NE(message.find("kernel 'copy' task 0"), std::string::npos) << message;
  EXPECT_NE(message.find("source"), std::string::npos) << message;
  EXPECT_NE(message.find("test.mlu:4:3"), std::string::npos) << message;
  EXPECT_EQ(f.read(dst, 256), std::vector<uint8_t>(256, 0));
  EXPECT_EQ(f.read(src, 256), pattern);
  EXPECT_EQ(f.read(bystander, 256), other);

  // The device still works.
  auto ok = f.launch("copy", {KernelArg::pointer(dst), KernelArg::pointer(src),
                              KernelArg::i32(256)});
  ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
  EXPECT_EQ(f.read(dst, 256), pattern);
  EXPECT_EQ(f.read(bystander, 256), other);
}

const char *const recursionSource = R"(
__mlu_func__ int deep(int n) {
  volatile char pad[4096];
  pad[n & 4095] = (char)n;
  return n > 0 ? deep(n - 1) + pad[n & 4095] : 0;
}
__mlu_global__ void recurse(int *out, int n) { out[taskId] = deep(n); }
)";

TEST(Device, LaunchesReuseTaskStacksWithTheirGuards) {
  // Task stacks outlive a launch (a pool per device): a stack overflow
  // still faults on the guard below each reused stack, and a task that
  // died on its stack leaves it fit for the next launch.
  Fixture f(defaultDeviceSpec(), recursionSource);
  ASSERT_TRUE(f.module);
  void *out = f.buffer(std::vector<uint8_t>(64, 0));
  for (int round = 0; round < 3; ++round) {
    auto ok = f.launch("recurse", {KernelArg::pointer(out), KernelArg::i32(64)},
                       {16, 1, 1});
    ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
    auto deep = f.launch(
        "recurse", {KernelArg::pointer(out), KernelArg::i32(5000)}, {16, 1, 1});
    ASSERT_FALSE(bool(deep)) << "round " << round;
    std::string message = faultMessage(deep.takeError());
    EXPECT_NE(message.find("stack overflow"), std::string::npos) << message;
  }
}

TEST(Device, UseOfAFreedBufferIsAFault) {
  Fixture f(defaultDeviceSpec(), faultySource);
  ASSERT_TRUE(f.module);
  void *src = f.buffer(std::vector<uint8_t>(64, 1));
  void *dst = f.buffer(std::vector<uint8_t>(64, 0));
  ASSERT_FALSE(bool(f.device->free(src)));
  auto stats = f.launch("copy", {KernelArg::pointer(dst),
                                 KernelArg::pointer(src), KernelArg::i32(64)});
  ASSERT_FALSE(bool(stats));
  std::string message = faultMessage(stats.takeError());
  EXPECT_NE(message.find("use of a freed buffer"), std::string::npos)
      << message;
  // Freeing twice is an error, not a crash.
  llvm::Error again = f.device->free(src);
  ASSERT_TRUE(bool(again));
  EXPECT_NE(llvm::toString(std::move(again)).find("already freed"),
            std::string::npos);
}

TEST(Device, HostCopiesAreChecked) {
  Fixture f(defaultDeviceSpec(), faultySource);
  ASSERT_TRUE(f.module);
  void *p = f.buffer(std::vector<uint8_t>(16, 0));
  std::vector<uint8_t> big(32, 1);
  llvm::Error e = f.device->copyToDevice(p, big.data(), big.size());
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("not inside one live GDRAM"),
            std::string::npos);
  auto huge = f.device->malloc(uint64_t(1) << 50);
  ASSERT_FALSE(bool(huge));
  EXPECT_NE(llvm::toString(huge.takeError()).find("out of GDRAM"),
            std::string::npos);
}

TEST(Device, LaunchArgumentsAreChecked) {
  Fixture f(defaultDeviceSpec(), faultySource);
  ASSERT_TRUE(f.module);
  auto stats = f.launch("copy", {KernelArg::i32(1)});
  ASSERT_FALSE(bool(stats));
  EXPECT_NE(llvm::toString(stats.takeError()).find("takes 3 arguments"),
            std::string::npos);
  auto union8 = f.launch("copy", {KernelArg::pointer(nullptr),
                                  KernelArg::pointer(nullptr),
                                  KernelArg::i32(0)},
                         {32, 1, 1}, FuncType::Union8);
  ASSERT_FALSE(bool(union8));
  EXPECT_NE(llvm::toString(union8.takeError()).find("needs 8 clusters"),
            std::string::npos);
}

const char *const costSource = R"(
__nram__ float a[200];
__nram__ float b[64];
__mlu_global__ void sync_then_add(float *x) {
  __memcpy(a, x, 800, GDRAM2NRAM);
  __bang_add(b, b, b, 64);
}
__mlu_global__ void async_and_add(float *x) {
  __memcpy_async(a, x, 800, GDRAM2NRAM);
  __bang_add(b, b, b, 64);
  __sync();
}
__mlu_global__ void scalar_then_copy(float *x, int n) {
  for (int i = 0; i < n; ++i)
    b[i & 63] += 1.0f;
  __memcpy_async(a, x, 800, GDRAM2NRAM);
  __sync();
}
)";

TEST(CostModel, SynchronousCopyBlocksAsyncOverlaps) {
  Fixture f(roundSpec(), costSource);
  ASSERT_TRUE(f.module);
  void *x = f.buffer(std::vector<uint8_t>(800, 0));
  auto sync = f.launch("sync_then_add", {KernelArg::pointer(x)});
  auto async = f.launch("async_and_add", {KernelArg::pointer(x)});
  ASSERT_TRUE(bool(sync)) << llvm::toString(sync.takeError());
  ASSERT_TRUE(bool(async)) << llvm::toString(async.takeError());
  // DMA: 100 latency + 832 B / 8 B per cycle = 204; add: 8 start-up +
  // 256 B / 64 = 12.
  double scalarSync = double(sync->scalarInstructions) / 64;
  double scalarAsync = double(async->scalarInstructions) / 64;
  EXPECT_NEAR(sync->cycles, 216 + scalarSync, 1e-9);
  EXPECT_GE(async->cycles, 204);
  EXPECT_LE(async->cycles, 204 + scalarAsync + 1e-9);
  EXPECT_LT(async->cycles, sync->cycles);
  EXPECT_EQ(sync->gdramReadBytes, 800);
  EXPECT_EQ(sync->opsByClass[BANG_OP_ALU], 64);
}

TEST(CostModel, ScalarCodeDelaysTheNextCopy) {
  // Scalar work is on the compute clock before the copy it precedes is
  // issued: the copy starts after the loop's cycles, not at 0.
  Fixture f(roundSpec(), costSource);
  ASSERT_TRUE(f.module);
  void *x = f.buffer(std::vector<uint8_t>(800, 0));
  auto stats = f.launch("scalar_then_copy",
                        {KernelArg::pointer(x), KernelArg::i32(20000)},
                        {1, 1, 1}, FuncType::Block, /*trace=*/true);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  double scalar = double(stats->scalarInstructions) / 64;
  ASSERT_GT(scalar, 1000); // the loop dominates; the rest is a few cycles
  ASSERT_EQ(stats->events.size(), 1u);
  const TraceEvent &copy = stats->events[0];
  EXPECT_TRUE(copy.dma);
  EXPECT_NEAR(copy.start, scalar, 1.0);
  EXPECT_NEAR(copy.cycles, 204, 1e-9);
  EXPECT_NEAR(stats->cycles, scalar + 204, 1.0);
}

TEST(CostModel, CoresShareTheCardsBandwidth) {
  Fixture f(roundSpec(), costSource);
  ASSERT_TRUE(f.module);
  void *x = f.buffer(std::vector<uint8_t>(800, 0));
  auto one = f.launch("sync_then_add", {KernelArg::pointer(x)}, {1, 1, 1});
  auto four = f.launch("sync_then_add", {KernelArg::pointer(x)}, {4, 1, 1});
  ASSERT_TRUE(bool(one) && bool(four));
  // One core: 8 B/cycle (its own limit). Four: 16/4 = 4 B/cycle each, so
  // the copy of 832 B takes 100 + 208 = 308 cycles, then the add 12.
  double scalar = double(four->scalarInstructions) / 4 / 64;
  EXPECT_NEAR(four->cycles, 320 + scalar, 1e-9);
  EXPECT_NEAR(one->cycles - double(one->scalarInstructions) / 64, 216, 1e-9);
  EXPECT_EQ(four->gdramReadBytes, 4 * 800);
  EXPECT_EQ(four->cores.size(), 4u);
}

const char *const scalarSource = R"(
__nram__ float b[64];
__mlu_global__ void tail_loop(float *x, int n) {
  __memcpy(b, x, 256, GDRAM2NRAM);
  for (int i = 0; i < n; ++i)
    b[i % 64] += 1.0f;
}
)";

// Plain C++ work is counted per executed block (linear in the trip count)
// and charged even after the last runtime call: a task's end charges it.
TEST(CostModel, ScalarWorkAfterTheLastCallIsCharged) {
  Fixture f(roundSpec(), scalarSource);
  ASSERT_TRUE(f.module);
  void *x = f.buffer(std::vector<uint8_t>(256, 0));
  auto run = [&](int n) {
    auto stats =
        f.launch("tail_loop", {KernelArg::pointer(x), KernelArg::i32(n)});
    EXPECT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
    return stats ? *stats : LaunchStats();
  };
  LaunchStats none = run(0), half = run(500), full = run(1000);
  int64_t perHalf = half.scalarInstructions - none.scalarInstructions;
  EXPECT_GE(perHalf, 500 * 3); // compare, load, add, store, increment...
  EXPECT_EQ(full.scalarInstructions - none.scalarInstructions, 2 * perHalf);
  // DMA: 100 latency + 256 B / 8 B per cycle; then the loop at IPC 64.
  EXPECT_NEAR(full.cycles, 132 + double(full.scalarInstructions) / 64, 1e-9);
}

const char *const costRulesSource = R"(
__wram__ float w[200];
__nram__ float a[200];
__nram__ float b[64];
__mlu_global__ void wram_to_gdram(float *x) {
  __memcpy(x, w, 800, WRAM2GDRAM);
}
__mlu_global__ void dma_then_sync(float *x) {
  __memcpy_async(a, x, 800, GDRAM2NRAM);
  __sync();
  __bang_add(b, b, b, 64);
}
__mlu_global__ void dma_then_barrier(float *x) {
  if (taskId == 0)
    __memcpy_async(a, x, 800, GDRAM2NRAM);
  __sync_cluster();
  __bang_add(b, b, b, 64);
  __sync();
}
)";

// WRAM2GDRAM goes over GDRAM: the core's 8 B/cycle, not the 64 B/cycle of
// on-chip moves. 800 B write 12 whole blocks and a half one, which costs a
// read and a write: 14 blocks, 896 B at 0.9 x 8 B/cycle, + 100 latency =
// 224.44 cycles (on chip: 112.5).
TEST(CostModel, WramToGdramMovesAtTheGdramRate) {
  Fixture f(roundSpec(), costRulesSource);
  ASSERT_TRUE(f.module);
  void *x = f.buffer(std::vector<uint8_t>(800, 0));
  auto stats = f.launch("wram_to_gdram", {KernelArg::pointer(x)}, {1, 1, 1},
                        FuncType::Block, /*trace=*/true);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  ASSERT_EQ(stats->events.size(), 1u);
  EXPECT_TRUE(stats->events[0].dma);
  EXPECT_NEAR(stats->events[0].cycles, 100 + 896 / 7.2, 1e-9)
      << "WRAM2GDRAM is not costed at the GDRAM rate";
  EXPECT_EQ(stats->gdramWriteBytes, 800);
}

// __sync() waits for the task's asynchronous copy (100 + 832 / 8 = 204
// cycles): the __bang_add after it starts at 204, and ends 12 cycles later.
TEST(CostModel, SyncWaitsForOutstandingDma) {
  Fixture f(roundSpec(), costRulesSource);
  ASSERT_TRUE(f.module);
  void *x = f.buffer(std::vector<uint8_t>(800, 0));
  auto stats = f.launch("dma_then_sync", {KernelArg::pointer(x)}, {1, 1, 1},
                        FuncType::Block, /*trace=*/true);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  ASSERT_EQ(stats->events.size(), 2u);
  const TraceEvent &add = stats->events[1];
  EXPECT_FALSE(add.dma);
  EXPECT_GE(add.start, 204 - 1e-9)
      << "the __bang_add after __sync() starts before the copy has ended";
  EXPECT_NEAR(add.cycles, 12, 1e-9);
}

// A barrier waits for every task's outstanding DMA, not only its compute:
// task 0's asynchronous copy (100 + 832 / 8 = 204 cycles) ends before any
// task's __bang_add after the __sync_cluster starts.
TEST(CostModel, BarrierWaitsForOutstandingDma) {
  Fixture f(roundSpec(), costRulesSource);
  ASSERT_TRUE(f.module);
  void *x = f.buffer(std::vector<uint8_t>(800, 0));
  auto stats = f.launch("dma_then_barrier", {KernelArg::pointer(x)},
                        {4, 1, 1}, FuncType::Union1, /*trace=*/true);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  int adds = 0;
  for (const TraceEvent &e : stats->events) {
    if (e.dma)
      continue;
    ++adds;
    EXPECT_GE(e.start, 204 - 1e-9)
        << "core " << e.core << "'s " << e.name
        << " starts before the DMA the barrier waits for has ended";
  }
  EXPECT_EQ(adds, 4);
}

const char *const pingPongSource = R"(
#define N 256
__nram__ float buf[2][N];
__nram__ float acc[N];
__mlu_global__ void ping_pong(float *x, int tiles) {
  __bang_write_zero(acc, N);
  __memcpy_async(buf[0], x, N * sizeof(float), GDRAM2NRAM);
  __sync();
  for (int i = 0; i < tiles; ++i) {
    if (i + 1 < tiles)
      __memcpy_async(buf[(i + 1) % 2], x + (i + 1) * N, N * sizeof(float),
                     GDRAM2NRAM);
    for (int r = 0; r < 8; ++r)
      __bang_add(acc, acc, buf[i % 2], N);
    __sync();
  }
  __memcpy(x, acc, N * sizeof(float), NRAM2GDRAM);
}
)";

TEST(Trace, PingPongOverlapsDmaAndCompute) {
  Fixture f(roundSpec(), pingPongSource);
  ASSERT_TRUE(f.module);
  std::vector<float> data(8 * 256, 1.0f);
  std::vector<uint8_t> bytes(data.size() * 4);
  std::memcpy(bytes.data(), data.data(), bytes.size());
  void *x = f.buffer(bytes);
  auto stats = f.launch("ping_pong", {KernelArg::pointer(x), KernelArg::i32(8)},
                        {1, 1, 1}, FuncType::Block, /*trace=*/true);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  int overlaps = 0;
  for (const TraceEvent &d : stats->events)
    for (const TraceEvent &c : stats->events)
      if (d.dma && !c.dma && d.core == c.core &&
          c.start < d.start + d.cycles && d.start < c.start + c.cycles)
        ++overlaps;
  EXPECT_GT(overlaps, 0);
  std::vector<uint8_t> out = f.read(x, 256 * 4);
  float first;
  std::memcpy(&first, out.data(), 4);
  EXPECT_EQ(first, 64.0f); // 8 tiles x 8 adds of 1.0
}

} // namespace
