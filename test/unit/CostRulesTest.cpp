//===- CostRulesTest.cpp - Each rule of the cost model, by hand -----------===//
//
// The cost model follows the rules mlu-ops publishes for the 370
// (docs/BANG-C-OPS-Develop-Guide.md §3.3.3, §3.3.5.1, §5.3.3, §5.3.4): the
// pipes of a core run in parallel, GDRAM moves whole aligned 64 B blocks, a
// partial write costs a read and a write of its block, strided access is
// slower than contiguous, a vector instruction works on whole 128 B
// granules after a start-up. Each test runs a micro-kernel on a card with
// round numbers and checks the cycles of its events against a value
// computed here by hand from those rules (docs/device.md states them).
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

using namespace bangsim;

namespace {

/// One core at 1 GHz with 64 B/cycle of GDRAM, 128 B/cycle on chip, 100
/// cycles of DMA start-up, 64 B blocks; a contiguous write runs at 0.8 of a
/// read, a strided read at 0.5, a strided write at 0.25. Vector: 128 B
/// granules, 10 cycles of start-up, 128 B/cycle for alu, 32 for div.
DeviceSpec rulesSpec() {
  auto spec = parseDeviceSpec(R"({
    "name": "rules", "clusters": 1, "cores_per_cluster": 1,
    "nram_kib": 64, "wram_kib": 64, "sram_kib": 256, "gdram_mib": 64,
    "clock_ghz": 1, "gdram_gbps": 64, "gdram_core_gbps": 64,
    "onchip_gbps": 128, "dma_latency_cycles": 100, "gdram_access_bytes": 64,
    "gdram_write_efficiency": 0.8, "gdram_strided_read_efficiency": 0.5,
    "gdram_strided_write_efficiency": 0.25,
    "vector_bytes_per_cycle": {"alu": 128, "div": 32},
    "vector_granule_bytes": 128, "compute_startup_cycles": 10,
    "scalar_ipc": 1})",
                              "rules");
  EXPECT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  return spec ? *spec : DeviceSpec();
}

const char *const source = R"(
__nram__ float a[2048];
__nram__ float b[2048];
__mlu_shared__ float s[2048];
__mlu_global__ void read_bytes(char *x, int offset, int n) {
  __memcpy(a, x + offset, n, GDRAM2NRAM);
}
__mlu_global__ void write_bytes(char *x, int offset, int n) {
  __memcpy(x + offset, a, n, NRAM2GDRAM);
}
__mlu_global__ void read_strided(char *x) {
  __memcpy(a, x, 128, GDRAM2NRAM, 128, 256, 7);
}
__mlu_global__ void write_strided(char *x) {
  __memcpy(x, a, 128, NRAM2GDRAM, 256, 128, 7);
}
__mlu_global__ void add(int n) { __bang_add(b, b, b, n); }
__mlu_global__ void divide(int n) { __bang_div(b, b, b, n); }
__mlu_global__ void copy_beside_add(float *x) {
  __memcpy_async(a, x, 6400, GDRAM2NRAM);
  __bang_add(b, b, b, 1024);
  __sync();
}
__mlu_global__ void io_beside_move(float *x) {
  __memcpy_async(a, x, 6400, GDRAM2NRAM);
  __memcpy_async(s, b, 6400, NRAM2SRAM);
  __sync();
}
__mlu_global__ void two_io(float *x) {
  __memcpy_async(a, x, 6400, GDRAM2NRAM);
  __memcpy_async(b, x, 6400, GDRAM2NRAM);
  __sync();
}
__mlu_global__ void loop_add(float *x, int n) {
  float acc = 1.0f;
  for (int i = 0; i < n; ++i)
    acc = acc + x[i & 7];
  x[8] = acc;
}
__mlu_global__ void loop_div(float *x, int n) {
  float acc = 1.0f;
  for (int i = 0; i < n; ++i)
    acc = acc / x[i & 7];
  x[8] = acc;
}
__mlu_global__ void loop_div_half(half *x, int n) {
  half acc = 1.0f;
  for (int i = 0; i < n; ++i)
    acc = acc / x[i & 7];
  x[8] = acc;
}
__mlu_global__ void add_then_store(float *x) {
  __bang_add(b, b, b, 1024);
  __memcpy(x, b, 64, NRAM2GDRAM);
}
)";

struct Rules : ::testing::Test {
  void SetUp() override {
    spec = rulesSpec();
    std::string diags;
    llvm::raw_string_ostream os(diags);
    CompileOptions options;
    options.diagnostics = &os;
    auto m = Module::compileString("rules.mlu", source, spec, options);
    ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError()) << diags;
    module = std::move(*m);
    auto d = Device::open(spec);
    ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
    device = std::move(*d);
    auto p = device->malloc(1 << 16);
    ASSERT_TRUE(bool(p));
    gdram = *p;
    ASSERT_EQ(reinterpret_cast<uintptr_t>(gdram) % 64, 0u);
  }

  /// The events of one launch of \p kernel.
  std::vector<TraceEvent> run(const char *kernel, std::vector<KernelArg> args,
                              LaunchStats *out = nullptr) {
    auto k = module->findKernel(kernel);
    EXPECT_TRUE(bool(k)) << kernel;
    if (!k) {
      llvm::consumeError(k.takeError());
      return {};
    }
    LaunchOptions options;
    options.trace = true;
    auto stats = device->launch(**k, module->staticLayout(), {1, 1, 1},
                                FuncType::Block, args, options);
    EXPECT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
    if (!stats)
      return {};
    if (out)
      *out = *stats;
    return stats->events;
  }

  /// The cycles of the one event of \p kernel.
  double cycles(const char *kernel, std::vector<KernelArg> args) {
    std::vector<TraceEvent> events = run(kernel, args);
    EXPECT_EQ(events.size(), 1u) << kernel;
    return events.empty() ? -1 : events[0].cycles;
  }

  double readCycles(int offset, int n) {
    return cycles("read_bytes", {KernelArg::pointer(gdram),
                                 KernelArg::i32(offset), KernelArg::i32(n)});
  }
  double writeCycles(int offset, int n) {
    return cycles("write_bytes", {KernelArg::pointer(gdram),
                                  KernelArg::i32(offset), KernelArg::i32(n)});
  }

  DeviceSpec spec;
  std::unique_ptr<Module> module;
  std::unique_ptr<Device> device;
  void *gdram = nullptr;
};

// Develop-Guide §5.3.3: a read moves at least 64 B.
TEST_F(Rules, ReadUnder64BytesMovesAWholeBlock) {
  EXPECT_NEAR(readCycles(0, 64), 100 + 64.0 / 64, 0.01);  // 101
  EXPECT_NEAR(readCycles(0, 16), 100 + 64.0 / 64, 0.01);  // 16 B: still 101
  EXPECT_NEAR(readCycles(0, 65), 100 + 128.0 / 64, 0.01); // 2 blocks: 102
}

// Develop-Guide §5.3.3: reads need 64 B alignment; 64 B at offset 32 touch
// two blocks.
TEST_F(Rules, MisalignedReadMovesEveryBlockItTouches) {
  EXPECT_NEAR(readCycles(32, 64), 100 + 128.0 / 64, 0.01);    // 102
  EXPECT_NEAR(readCycles(32, 4096), 100 + 4160.0 / 64, 0.01); // 65 blocks
  EXPECT_NEAR(readCycles(0, 4096), 100 + 4096.0 / 64, 0.01);  // 64 blocks
}

// Develop-Guide §5.3.3: a write of x < 64 B costs a 64 B read and a 64 B
// write. Writes run at 0.8 x 64 = 51.2 B/cycle.
TEST_F(Rules, WriteUnder64BytesCostsAReadAndAWrite) {
  EXPECT_NEAR(writeCycles(0, 64), 100 + 64 / 51.2, 0.01);  // 101.25
  EXPECT_NEAR(writeCycles(0, 16), 100 + 128 / 51.2, 0.01); // 102.5
  // 64 B at offset 32: two partial blocks, each read and written.
  EXPECT_NEAR(writeCycles(32, 64), 100 + 256 / 51.2, 0.01); // 105
  // 96 B at offset 0: one whole block, one partial.
  EXPECT_NEAR(writeCycles(0, 96), 100 + 192 / 51.2, 0.01); // 103.75
}

// Develop-Guide §5.3.3: contiguous read > contiguous write > strided read >
// strided write. 8 segments of 128 B (aligned, 2 blocks each) 256 B apart
// in GDRAM, against the same 1024 B contiguous.
TEST_F(Rules, StridedCostsMoreThanContiguous) {
  double contiguousRead = readCycles(0, 1024);
  double contiguousWrite = writeCycles(0, 1024);
  double stridedRead = cycles("read_strided", {KernelArg::pointer(gdram)});
  double stridedWrite = cycles("write_strided", {KernelArg::pointer(gdram)});
  EXPECT_NEAR(contiguousRead, 100 + 1024 / 64.0, 0.01);  // 116
  EXPECT_NEAR(contiguousWrite, 100 + 1024 / 51.2, 0.01); // 120
  EXPECT_NEAR(stridedRead, 100 + 1024 / 32.0, 0.01);     // 132
  EXPECT_NEAR(stridedWrite, 100 + 1024 / 16.0, 0.01);    // 164
  EXPECT_LT(contiguousRead, contiguousWrite);
  EXPECT_LT(contiguousWrite, stridedRead);
  EXPECT_LT(stridedRead, stridedWrite);
}

// Develop-Guide §5.3.4: a vector instruction works on 128 B per cycle, less
// costs a whole cycle, and it has a start-up (10 cycles here).
TEST_F(Rules, VectorWorkUnder128BytesCostsAWholeGranule) {
  EXPECT_NEAR(cycles("add", {KernelArg::i32(16)}), 10 + 1, 0.01); // 64 B
  EXPECT_NEAR(cycles("add", {KernelArg::i32(32)}), 10 + 1, 0.01); // 128 B
  EXPECT_NEAR(cycles("add", {KernelArg::i32(33)}), 10 + 2, 0.01); // 132 B
  EXPECT_NEAR(cycles("add", {KernelArg::i32(1024)}), 10 + 32, 0.01);
  // A slower class: div at 32 B/cycle takes 4 cycles a granule.
  EXPECT_NEAR(cycles("divide", {KernelArg::i32(16)}), 10 + 4, 0.01);
  EXPECT_NEAR(cycles("divide", {KernelArg::i32(64)}), 10 + 8, 0.01);
}

// Develop-Guide §3.3.3, §3.3.5.1 (E): an asynchronous copy on the IO pipe
// runs beside vector work on the VFU; __sync() waits for both.
TEST_F(Rules, AsyncCopyOverlapsComputeOnSeparatePipes) {
  LaunchStats stats;
  std::vector<TraceEvent> events =
      run("copy_beside_add", {KernelArg::pointer(gdram)}, &stats);
  ASSERT_EQ(events.size(), 2u);
  const TraceEvent &copy = events[0], &add = events[1];
  EXPECT_EQ(copy.pipe, PipeIO);
  EXPECT_EQ(add.pipe, PipeVector);
  EXPECT_NEAR(copy.cycles, 100 + 6400 / 64.0, 0.01); // 200
  EXPECT_NEAR(add.cycles, 10 + 32, 0.01);            // 4096 B: 42
  // The add starts while the copy runs (a few cycles of scalar issue
  // between them), and the launch lasts about as long as the copy alone.
  EXPECT_LT(add.start, copy.start + 10);
  EXPECT_LT(stats.cycles, copy.start + 200 + 10);
  EXPECT_NEAR(stats.pipeBusy[PipeIO], 200, 0.01);
  EXPECT_NEAR(stats.pipeBusy[PipeVector], 42, 0.01);
  EXPECT_EQ(stats.boundPipe, PipeIO);
}

// Develop-Guide §3.3.3: MLUv03's IO-DMA and Move-DMA are independent. An
// NRAM2SRAM copy (100 + 6400 / 128 = 150) runs beside a GDRAM2NRAM one
// (200); two GDRAM copies queue on the one IO pipe.
TEST_F(Rules, MoveDmaRunsBesideIoDma) {
  LaunchStats beside, queued;
  std::vector<TraceEvent> e =
      run("io_beside_move", {KernelArg::pointer(gdram)}, &beside);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].pipe, PipeIO);
  EXPECT_EQ(e[1].pipe, PipeMove);
  EXPECT_NEAR(e[0].cycles, 200, 0.01);
  EXPECT_NEAR(e[1].cycles, 150, 0.01);
  EXPECT_LT(e[1].start, e[0].start + 10);
  EXPECT_LT(beside.cycles, e[0].start + 200 + 10);

  std::vector<TraceEvent> q =
      run("two_io", {KernelArg::pointer(gdram)}, &queued);
  ASSERT_EQ(q.size(), 2u);
  EXPECT_NEAR(q[1].start, q[0].start + 200, 0.01);
  EXPECT_GE(queued.cycles, 400);
}

// Develop-Guide §5.3.4: a scalar float32 add costs 2 cycles, a divide 16
// (float16: 8). Two loops alike but for the operator: per iteration the
// divide costs 14 cycles more (half: 6), at scalar_ipc 1.
TEST_F(Rules, ScalarDivideCostsWhatTheGuideLists) {
  LaunchStats add, div, half;
  auto args = [&](int n) {
    return std::vector<KernelArg>{KernelArg::pointer(gdram), KernelArg::i32(n)};
  };
  for (int n : {100, 1000}) {
    run("loop_add", args(n), &add);
    run("loop_div", args(n), &div);
    run("loop_div_half", args(n), &half);
    EXPECT_EQ(div.scalarInstructions - add.scalarInstructions, 14 * n);
    EXPECT_NEAR(div.cycles - add.cycles, 14.0 * n, 0.01 * 14 * n);
    EXPECT_NEAR(div.pipeBusy[PipeScalar] - add.pipeBusy[PipeScalar], 14.0 * n,
                0.01);
    EXPECT_EQ(div.scalarInstructions - half.scalarInstructions, 8 * n);
  }
}

// Develop-Guide §3.3.5.1 (D): a synchronous store (`st` without `async`)
// waits for the compute before it: it starts when the add has ended.
TEST_F(Rules, SynchronousCopyWaitsForCompute) {
  std::vector<TraceEvent> e =
      run("add_then_store", {KernelArg::pointer(gdram)});
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].pipe, PipeVector);
  EXPECT_EQ(e[1].pipe, PipeIO);
  EXPECT_NEAR(e[1].start, e[0].start + 42, 0.01);
  EXPECT_NEAR(e[1].cycles, 100 + 64 / 51.2, 0.01);
}

} // namespace
