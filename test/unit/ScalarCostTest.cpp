//===- ScalarCostTest.cpp - Simulated cycles of plain C++ kernel code -----===//
//
// The scalar-cost pass (codegen/ScalarCost.cpp) counts the instructions of
// each basic block of a kernel's unoptimised IR, and simrt charges the count
// at scalar_ipc instructions per cycle (simrt/lib/Cost.cpp). Other tests
// only compare counts they measured; this one runs a tiny kernel whose count
// is derived by hand from the pass's rules, for several trip counts, and
// checks the count and the cycles exactly. test/lit/passes/scalar-cost-
// counts.mlu pins the pass's count of each kind of instruction in IR.
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <vector>

using namespace bangsim;

namespace {

/// scalar_ipc 4: a count that is not a multiple of 4 gives fractional cycles.
DeviceSpec quarterSpec() {
  auto spec = parseDeviceSpec(R"({
    "name": "quarter", "clusters": 1, "cores_per_cluster": 1,
    "nram_kib": 64, "wram_kib": 64, "sram_kib": 256, "gdram_mib": 64,
    "clock_ghz": 1, "gdram_gbps": 16, "gdram_core_gbps": 8,
    "onchip_gbps": 64, "dma_latency_cycles": 100,
    "vector_bytes_per_cycle": {"alu": 64}, "scalar_ipc": 4})",
                              "quarter");
  EXPECT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  return spec ? *spec : DeviceSpec();
}

// The pass counts every instruction except PHIs, allocas, lifetime and
// debug markers, calls of intrinsics and of __bangsim_ctx, no-op casts,
// GEPs with constant indices, and loads and stores whose address is a local
// variable (an alloca). Before it runs, LowerBuiltins makes taskId a load
// from the task context and MemorySpaces makes `acc` an offset from the
// core's NRAM base, itself loaded from the context in the entry block.
const char *const source = R"(
__nram__ int acc[4];
__mlu_global__ void tiny(int *g, int n) {
  int s = g[0];
  for (int i = 0; i < n; ++i)
    s += g[i & 7] * 3;
  acc[taskId & 3] = s;
  g[1] = acc[taskId & 3];
}
)";

// Per block, in the order Clang emits them (the argument spills and the
// reloads of g, n, s and i are local: 0):
//   entry   load of the NRAM base from the context, load of g[0], br    3
//   header  icmp i < n, br                           (n + 1 times)      2
//   body    and i & 7, sext, GEP g + (i & 7) (variable index), load,
//           mul, add, br                             (n times)          7
//   latch   add i + 1, br                            (n times)          2
//   exit    br                                                          1
//   end     acc[taskId & 3] = s: load of taskId from the context, and,
//           sext, GEP (variable index), store = 5; the same for the
//           load of acc[taskId & 3] = 5; store to g[1] (constant GEP),
//           ret = 2                                                    12
// In all 3 + 2(n + 1) + 7n + 2n + 1 + 12 = 18 + 11n.
int64_t expectedInstructions(int n) { return 18 + 11 * int64_t(n); }

TEST(ScalarCost, TinyKernelCostsItsHandCountedInstructions) {
  DeviceSpec spec = quarterSpec();
  std::string diags;
  llvm::raw_string_ostream os(diags);
  CompileOptions options;
  options.diagnostics = &os;
  auto module = Module::compileString("tiny.mlu", source, spec, options);
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError()) << diags;
  auto device = Device::open(spec);
  ASSERT_TRUE(bool(device)) << llvm::toString(device.takeError());
  auto kernel = (*module)->findKernel("tiny");
  ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());

  std::vector<int> g = {5, 0, 2, 3, 4, 6, 7, 8};
  auto dg = (*device)->malloc(g.size() * sizeof(int));
  ASSERT_TRUE(bool(dg));
  for (int n : {0, 1, 10, 1001}) {
    ASSERT_FALSE(bool((*device)->copyToDevice(*dg, g.data(), 32)));
    auto stats = (*device)->launch(
        **kernel, (*module)->staticLayout(), Dim3{1, 1, 1}, FuncType::Block,
        {KernelArg::pointer(*dg), KernelArg::i32(n)});
    ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
    int64_t want = expectedInstructions(n);
    EXPECT_EQ(stats->scalarInstructions, want) << "n = " << n;
    // No DMA and no vector work: the scalar code is the whole time.
    EXPECT_DOUBLE_EQ(stats->cycles, double(want) / 4) << "n = " << n;

    // And the kernel did its work: g[1] = g[0] + 3 * sum of g[i & 7].
    int sum = g[0];
    for (int i = 0; i < n; ++i)
      sum += g[i & 7] * 3;
    int got[8];
    ASSERT_FALSE(bool((*device)->copyFromDevice(got, *dg, 32)));
    EXPECT_EQ(got[1], sum) << "n = " << n;
  }
}

} // namespace
