//===- FaultSuiteTest.cpp - One faulty kernel per fault class -------------===//
//
// Each case launches a kernel that misbehaves in one way and checks that
//  - the launch fails with a LaunchFault whose message names the kernel, the
//    task, the intrinsic, the address range or reason, and the source line;
//  - the host process goes on (this test keeps running);
//  - buffers around the faulting one (canaries allocated before and after
//    it, filled with a pattern) are byte-for-byte untouched;
//  - the same device then runs a correct kernel with correct results.
// The CLI side of the same faults (message and exit status 3) is in
// test/lit/faults/.
//
//===----------------------------------------------------------------------===//
#include "FaultMessage.h"
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

using namespace bangsim;

namespace {

const char *const faultySource = R"(
__nram__ float tile[256];
__wram__ float wtile[64];
__mlu_shared__ float stile[64];

__mlu_global__ void good(float *out, const float *in) {
  __memcpy(tile, in + taskId * 64, 64 * sizeof(float), GDRAM2NRAM);
  __bang_mul_scalar(tile, tile, 2.0f, 64);
  __memcpy(out + taskId * 64, tile, 64 * sizeof(float), NRAM2GDRAM);
}
__mlu_global__ void load_past_gdram(float *in, int n) {
  __memcpy(tile, in, n * sizeof(float), GDRAM2NRAM);
}
__mlu_global__ void store_past_gdram(float *out, int n) {
  __bang_write_value(tile, 256, 1.0f);
  __memcpy(out, tile, n * sizeof(float), NRAM2GDRAM);
}
__mlu_global__ void past_nram(float *in) {
  __memcpy((char *)tile + __MLU_NRAM_SIZE__ * 1024 - 16, in, 64, GDRAM2NRAM);
}
__mlu_global__ void past_wram(float *in) {
  __memcpy((char *)wtile + __MLU_WRAM_SIZE__ * 1024 - 16, in, 64, GDRAM2WRAM);
}
__mlu_global__ void past_sram(float *in) {
  __memcpy((char *)stile + __MLU_SRAM_SIZE__ * 1024 - 16, in, 64, GDRAM2SRAM);
}
__mlu_global__ void nram_overflow_at_run_time(int n) {
  // The count comes at run time: the operands run past the end of NRAM.
  __bang_add(tile, tile, tile, n);
}
__mlu_global__ void other_core_nram(float *in) {
  __memcpy((char *)tile + (taskId ? __MLU_NRAM_SIZE__ * 1024 + __MLU_WRAM_SIZE__ * 1024 : 0), in, 16,
           GDRAM2NRAM);
}
__mlu_global__ void wrong_direction(float *out, float *in) {
  __memcpy(out, in, 16, GDRAM2NRAM);
}
__mlu_global__ void strided_past_gdram(float *in) {
  __memcpy(tile, in, 16, GDRAM2NRAM, 16, 256, 4);
}
__mlu_global__ void negative_size(float *in, int n) {
  __memcpy(tile, in, n, GDRAM2NRAM);
}
__mlu_global__ void vector_on_gdram(float *in) {
  __bang_add(in, tile, tile, 16);
}
__mlu_global__ void dma_from_freed(float *in) {
  __memcpy(tile, in, 64, GDRAM2NRAM);
}
__mlu_global__ void atomic_on_freed(float *dst) {
  __bang_write_value(tile, 16, 1.0f);
  __bang_atomic_reduce_add(dst, tile, 16);
}
__mlu_global__ void unreached_barrier(float *in) {
  if (taskId == 2)
    return;
  __sync_cluster();
}
__mlu_global__ void mismatched_barriers(float *in) {
  if (coreId < 2)
    __sync_cluster();
  else
    __sync_all();
}
__mlu_global__ void wild_store(float *in) {
  float *wild = (float *)0x10;
  wild[taskId] = 1;
}
__mlu_global__ void never_ends(float *in) {
  while (in[0] == 0)
    __sync();
}
__mlu_global__ void scalar_store_past(float *out, int n) {
  out[n + taskId] = 1.0f;
}
__mlu_global__ void vector_other_core_nram(float *in) {
  __bang_add((float *)((char *)tile + (taskId ? __MLU_NRAM_SIZE__ * 1024 + __MLU_WRAM_SIZE__ * 1024 : 0)),
             tile, tile, 16);
}
__mlu_global__ void vector_straddles_nram_end(float *in) {
  float *last = (float *)((char *)tile + __MLU_NRAM_SIZE__ * 1024) - 16;
  __bang_write_zero(last, 16); // ends exactly at the end of NRAM: fine
  __bang_write_zero(last + 1, 16);
}
__mlu_global__ void cluster_copy_bad_cluster(float *in, int cluster) {
  if (taskId == 5)
    __memcpy(stile, stile + 16, 64, SRAM2SRAM, cluster);
}
__mlu_global__ void cluster_copy_not_sram2sram(float *in, int dir) {
  __memcpy(stile, tile, 64, (mluMemcpyDirection_t)dir, 0);
}
__mlu_global__ void cluster_copy_past_sram(float *in) {
  if (taskId == 4)
    __memcpy((char *)stile + __MLU_SRAM_SIZE__ * 1024 - 16, stile, 64, SRAM2SRAM, 0);
}
__mlu_global__ void cluster_copy_from_nram(float *in) {
  __memcpy(stile, tile, 64, SRAM2SRAM, 0);
}
// At the boundaries: each kernel below is launched with the arguments that
// reach exactly the limit (accepted) and then one step past it (refused).
__mlu_global__ void gdram_load_bytes(char *in, int offset, int bytes) {
  __memcpy(tile, in + offset, bytes, GDRAM2NRAM);
}
__mlu_global__ void nram_end_bytes(char *in, int bytes) {
  __memcpy((char *)tile + __MLU_NRAM_SIZE__ * 1024 - 16, in, bytes, GDRAM2NRAM);
}
__mlu_global__ void nram_end_source_bytes(char *out, int bytes) {
  __memcpy(out, (char *)tile + __MLU_NRAM_SIZE__ * 1024 - 16, bytes, NRAM2GDRAM);
}
__mlu_global__ void wram_end_bytes(char *in, int bytes) {
  __memcpy((char *)wtile + __MLU_WRAM_SIZE__ * 1024 - 16, in, bytes, GDRAM2WRAM);
}
__mlu_global__ void sram_end_bytes(char *in, int bytes) {
  __memcpy((char *)stile + __MLU_SRAM_SIZE__ * 1024 - 16, in, bytes, GDRAM2SRAM);
}
__mlu_global__ void unknown_direction(float *in, int dir) {
  __memcpy(tile, in, 0, (mluMemcpyDirection_t)dir);
}
__mlu_global__ void unknown_direction_async(float *in, int dir) {
  __memcpy_async(tile, in, 0, (mluMemcpyDirection_t)dir);
}
__mlu_global__ void cluster_copy_direction(float *in, int dir) {
  __memcpy(stile, stile + 16, 0, (mluMemcpyDirection_t)dir, 0);
}
__mlu_global__ void strided_segnum(float *in, int segnum) {
  __memcpy(tile, in, 16, GDRAM2NRAM, 16, 16, segnum);
}
__mlu_global__ void strided_to_gdram_end(float *in, int seg) {
  __memcpy(tile, in, seg, GDRAM2NRAM, 64, 336, 3);
}
__mlu_global__ void strided_back(char *in, int start, int stride) {
  __memcpy(tile, in + start, 16, GDRAM2NRAM, 16, stride, 3);
}
__mlu_global__ void cluster_copy_size(float *in, int bytes) {
  __memcpy(stile, stile + 16, bytes, SRAM2SRAM, 0);
}
__mlu_global__ void atomic_count(float *dst, int n) {
  __bang_write_value(tile, 256, 0.0f);
  __bang_atomic_reduce_add(dst, tile, n);
}
__mlu_global__ void scalar_load_past(float *in, int n) {
  tile[0] = in[n];
}
__mlu_global__ void scalar_store_nram_end(float *in, int back) {
  char *volatile nram = (char *)tile; // --check skips globals: not one now
  *(int *)(nram + __MLU_NRAM_SIZE__ * 1024 - back) = 1;
}
__mlu_global__ void barrier_after_end(float *in, int skip) {
  if (taskId == skip)
    return;
  __sync_cluster();
}
__mlu_global__ void sync_all_unreached(float *in, int skip) {
  if (taskId == skip)
    return;
  __sync_all();
}
__mlu_global__ void abi_op_class(float *in, int op) {
  __bangsim_compute(op, BANG_DT_F32, 1);
}
__mlu_global__ void abi_vector_size(float *in, int bytes) {
  __bangsim_check_vec(tile, bytes, BANG_IN_NRAM, BANG_WRITE);
}
)";

constexpr size_t BufferBytes = 256 * sizeof(float);

/// A device with the faulty module (compiled with and without --check) and
/// buffers: `target` between two canaries, each filled with a pattern.
struct Bench {
  DeviceSpec spec = defaultDeviceSpec();
  std::unique_ptr<Module> module, checked;
  std::unique_ptr<Device> device;
  void *before = nullptr, *target = nullptr, *after = nullptr;
  void *in = nullptr, *out = nullptr; ///< for the good kernel

  void SetUp() {
    module = compile(false);
    checked = compile(true);
    auto d = Device::open(spec);
    ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
    device = std::move(*d);
    before = fill(alloc(), 0xA5);
    target = fill(alloc(), 0x00);
    after = fill(alloc(), 0x5A);
    in = alloc();
    out = alloc();
  }

  std::unique_ptr<Module> compile(bool check) {
    CompileOptions options;
    options.checkAccesses = check;
    return compileOrFail("faults.mlu", faultySource, spec, options);
  }

  void *alloc() {
    auto p = device->malloc(BufferBytes);
    EXPECT_TRUE(bool(p)) << llvm::toString(p.takeError());
    return p ? *p : nullptr;
  }

  void *fill(void *p, uint8_t byte) {
    std::vector<uint8_t> bytes(BufferBytes, byte);
    EXPECT_FALSE(bool(device->copyToDevice(p, bytes.data(), BufferBytes)));
    return p;
  }

  bool holds(void *p, uint8_t byte) {
    std::vector<uint8_t> bytes(BufferBytes);
    EXPECT_FALSE(bool(device->copyFromDevice(bytes.data(), p, BufferBytes)));
    for (uint8_t b : bytes)
      if (b != byte)
        return false;
    return true;
  }

  llvm::Expected<LaunchStats> launch(Module &m, llvm::StringRef name,
                                     std::vector<KernelArg> args, Dim3 dim,
                                     FuncType type, LaunchOptions options) {
    return launchByName(*device, m, name, std::move(args), dim, type, options);
  }

  /// The device still computes: `good` doubles 4 x 64 floats.
  void expectDeviceWorks() {
    std::vector<float> x(256), y(256);
    for (int i = 0; i < 256; ++i)
      x[i] = float(i);
    ASSERT_FALSE(bool(device->copyToDevice(in, x.data(), BufferBytes)));
    auto stats = launch(*module, "good",
                        {KernelArg::pointer(out), KernelArg::pointer(in)},
                        {4, 1, 1}, FuncType::Block, {});
    ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
    ASSERT_FALSE(bool(device->copyFromDevice(y.data(), out, BufferBytes)));
    for (int i = 0; i < 256; ++i)
      ASSERT_EQ(y[i], 2.0f * float(i)) << "element " << i;
  }
};

using ArgsOf = std::function<std::vector<KernelArg>(Bench &)>;

struct FaultCase {
  const char *name;       ///< kernel, then "/variant" if it has several
  bool checked;           ///< compiled with --check
  Dim3 dim;
  FuncType type;
  double timeout;         ///< seconds, 0 for none
  /// Arguments; may free or prepare buffers first.
  ArgsOf args;
  std::vector<std::string> message; ///< substrings, in order
  bool targetUntouched;   ///< the faulting kernel must not write `target`
  /// Arguments that reach the limit exactly: each launch must not fault
  /// (run first; `target` is cleared again after them).
  std::vector<ArgsOf> accepted = {};
  unsigned hostThreads = 0; ///< 0: one per host core; 1 orders the tasks
};

std::ostream &operator<<(std::ostream &os, const FaultCase &c) {
  return os << c.name;
}

/// The kernel a case launches: its name up to any "/variant".
std::string kernelOf(const FaultCase &c) {
  llvm::StringRef name(c.name);
  return name.split('/').first.str();
}

KernelArg ptr(void *p) { return KernelArg::pointer(p); }

/// `target`, then the given int arguments.
ArgsOf targetAnd(std::vector<int> ints) {
  return [ints](Bench &b) {
    std::vector<KernelArg> args{ptr(b.target)};
    for (int v : ints)
      args.push_back(KernelArg::i32(v));
    return args;
  };
}

const Dim3 one{1, 1, 1}, four{4, 1, 1};
const FuncType block = FuncType::Block, union1 = FuncType::Union1;

const FaultCase cases[] = {
    {"load_past_gdram", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target), KernelArg::i32(257)}; },
     {"kernel 'load_past_gdram' task 0 (core 0 of cluster 0)",
      "__memcpy GDRAM2NRAM: source [0x", "(1028 bytes) is out of bounds of "
      "GDRAM buffer", "of 1024 bytes", "faults.mlu:12:3"},
     true, {targetAnd({256})}},
    {"store_past_gdram", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target), KernelArg::i32(257)}; },
     {"__memcpy NRAM2GDRAM: destination [0x", "(1028 bytes) is out of bounds",
      "faults.mlu:16:3"},
     true},
    {"past_nram", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"__memcpy GDRAM2NRAM: destination [0x", "(64 bytes) is out of bounds of "
      "NRAM of core 0", "faults.mlu:19:3"},
     true},
    {"past_wram", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"__memcpy GDRAM2WRAM: destination [0x", "out of bounds of WRAM",
      "faults.mlu:22:3"},
     true},
    {"past_sram", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"__memcpy GDRAM2SRAM: destination [0x", "out of bounds of SRAM",
      "faults.mlu:25:3"},
     true},
    {"nram_overflow_at_run_time", false, one, block, 0,
     [](Bench &) { return std::vector{KernelArg::i32(1 << 20)}; },
     {"__bang_add: ", "out of bounds of NRAM", "faults.mlu:29:3"}, true},
    {"other_core_nram", false, {2, 1, 1}, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"task 1 (core 1 of cluster 0): __memcpy GDRAM2NRAM: destination",
      "not this task's own NRAM", "faults.mlu:32:3"},
     true},
    {"wrong_direction", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target), ptr(b.in)}; },
     {"__memcpy GDRAM2NRAM: destination [0x", "must be in NRAM but is in GDRAM",
      "faults.mlu:36:3"},
     true},
    {"strided_past_gdram", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"__memcpy GDRAM2NRAM: source [0x", "(1040 bytes) is out of bounds",
      "faults.mlu:39:3"},
     true},
    {"negative_size", false, one, block, 0, targetAnd({-1}),
     {"__memcpy GDRAM2NRAM: negative size: -1 bytes per segment, segnum 0",
      "faults.mlu:42:3"},
     true, {targetAnd({0})}},
    {"vector_on_gdram", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"__bang_add: destination [0x", "must be in NRAM but is in GDRAM",
      "faults.mlu:45:3"},
     true},
    {"dma_from_freed", false, one, block, 0,
     [](Bench &b) {
       void *gone = b.alloc();
       EXPECT_FALSE(bool(b.device->free(gone)));
       return std::vector{ptr(gone)};
     },
     {"__memcpy GDRAM2NRAM: source [0x", "freed", "faults.mlu:48:3"}, true},
    {"atomic_on_freed", false, one, block, 0,
     [](Bench &b) {
       void *gone = b.alloc();
       EXPECT_FALSE(bool(b.device->free(gone)));
       return std::vector{ptr(gone)};
     },
     {"__bang_atomic_reduce_add: destination [0x", "freed", "faults.mlu:52:3"},
     true},
    {"unreached_barrier", false, four, union1, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"kernel 'unreached_barrier'", "unreached barrier", "__sync_cluster()",
      "but task 2 (core 2 of cluster 0) ended without reaching it"},
     true},
    {"mismatched_barriers", false, four, union1, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"kernel 'mismatched_barriers'", "unreached barrier: every living task waits"}, true},
    {"wild_store", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"kernel 'wild_store' task 0", "invalid memory access at 0x10",
      "segmentation fault"},
     true},
    {"never_ends", false, one, block, 0.3,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"kernel 'never_ends': stopped after the --timeout of 0.3 s"}, true,
     // in[0] != 0: the same kernel ends well within its timeout
     {[](Bench &b) { return std::vector{ptr(b.before)}; }}},
    {"vector_other_core_nram", false, {2, 1, 1}, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"task 1 (core 1 of cluster 0): __bang_add: destination",
      "not this task's own NRAM", "faults.mlu:77:3"},
     true},
    {"vector_straddles_nram_end", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"__bang_write_zero: destination [0x", "(64 bytes) is out of bounds of "
      "NRAM of core 0", "faults.mlu:83:3"},
     true},
    {"cluster_copy_bad_cluster", false, {16, 1, 1}, FuncType::Union4, 0,
     [](Bench &b) { return std::vector{ptr(b.target), KernelArg::i32(4)}; },
     {"task 5 (core 1 of cluster 1): __memcpy SRAM2SRAM to cluster 4: "
      "destination [0x", "(64 bytes): cluster 4 is not in this task's union, "
      "whose clusters are 0..3 (clusterDim 4)", "faults.mlu:87:5"},
     true, {targetAnd({3}), targetAnd({0})}},
    {"cluster_copy_bad_cluster/negative", false, {16, 1, 1}, FuncType::Union4,
     0, targetAnd({-1}),
     {"task 5 (core 1 of cluster 1): __memcpy SRAM2SRAM to cluster -1: "
      "destination [0x", "(64 bytes): cluster -1 is not in this task's union, "
      "whose clusters are 0..3 (clusterDim 4)", "faults.mlu:87:5"},
     true},
    {"cluster_copy_not_sram2sram", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target), KernelArg::i32(10)}; },
     {"__memcpy NRAM2SRAM to cluster 0: destination [0x", "(64 bytes), "
      "source [0x", "(64 bytes): only SRAM2SRAM copies take a destination "
      "cluster", "faults.mlu:90:3"},
     true},
    {"cluster_copy_past_sram", false, {8, 1, 1}, FuncType::Union2, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"task 4 (core 0 of cluster 1): __memcpy SRAM2SRAM to cluster 0: "
      "destination [0x", "(64 bytes) is out of bounds of SRAM of cluster 1",
      "faults.mlu:94:5"},
     true},
    {"cluster_copy_from_nram", false, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target)}; },
     {"__memcpy SRAM2SRAM to cluster 0: source [0x",
      "(64 bytes) must be in SRAM but is in NRAM of core 0", "faults.mlu:97:3"},
     true},
    {"scalar_store_past", true, one, block, 0,
     [](Bench &b) { return std::vector{ptr(b.target), KernelArg::i32(256)}; },
     {"kernel 'scalar_store_past' task 0", "scalar store of 4 bytes at 0x",
      "is outside",
      "faults.mlu:74:"},
     true, {targetAnd({255})}},
    // Each case below is at a boundary: `accepted` reaches the limit
    // exactly, the faulting arguments go one step (one byte) past it.
    {"gdram_load_bytes", false, one, block, 0, targetAnd({0, 1025}),
     {"kernel 'gdram_load_bytes' task 0 (core 0 of cluster 0): __memcpy "
      "GDRAM2NRAM: source [0x", "(1025 bytes) is out of bounds of GDRAM "
      "buffer #", "of 1024 bytes", "faults.mlu:102:3"},
     true, {targetAnd({0, 1024}), targetAnd({1023, 1})}},
    {"gdram_load_bytes/last_byte", false, one, block, 0, targetAnd({1023, 2}),
     {"__memcpy GDRAM2NRAM: source [0x", "(2 bytes) is out of bounds of GDRAM "
      "buffer #", "of 1024 bytes", "faults.mlu:102:3"},
     true, {targetAnd({1023, 1})}},
    {"nram_end_bytes", false, one, block, 0, targetAnd({17}),
     {"__memcpy GDRAM2NRAM: destination [0x", "(17 bytes) is out of bounds of "
      "NRAM of core 0", "faults.mlu:105:3"},
     true, {targetAnd({16})}},
    {"nram_end_source_bytes", false, one, block, 0, targetAnd({17}),
     {"__memcpy NRAM2GDRAM: source [0x", "(17 bytes) is out of bounds of NRAM "
      "of core 0", "faults.mlu:108:3"},
     true, {targetAnd({16})}},
    {"wram_end_bytes", false, one, block, 0, targetAnd({17}),
     {"__memcpy GDRAM2WRAM: destination [0x", "(17 bytes) is out of bounds of "
      "WRAM of core 0", "faults.mlu:111:3"},
     true, {targetAnd({16})}},
    {"sram_end_bytes", false, one, block, 0, targetAnd({17}),
     {"__memcpy GDRAM2SRAM: destination [0x", "(17 bytes) is out of bounds of "
      "SRAM of cluster 0", "faults.mlu:114:3"},
     true, {targetAnd({16})}},
    {"unknown_direction", false, one, block, 0, targetAnd({14}),
     {"kernel 'unknown_direction' task 0 (core 0 of cluster 0): __memcpy: "
      "unknown direction 14", "faults.mlu:117:3"},
     true, {targetAnd({0}), targetAnd({13})}},
    {"unknown_direction/negative", false, one, block, 0, targetAnd({-1}),
     {"__memcpy: unknown direction -1", "faults.mlu:117:3"}, true},
    {"unknown_direction_async", false, one, block, 0, targetAnd({14}),
     {"__memcpy_async: unknown direction 14", "faults.mlu:120:3"}, true,
     {targetAnd({13})}},
    {"cluster_copy_direction", false, one, block, 0, targetAnd({14}),
     {"__memcpy: unknown direction 14", "faults.mlu:123:3"}, true,
     {targetAnd({11})}},
    {"cluster_copy_direction/last_known", false, one, block, 0,
     targetAnd({13}),
     {"__memcpy SRAM2WRAM to cluster 0: destination [0x", "(0 bytes), source "
      "[0x", "(0 bytes): only SRAM2SRAM copies take a destination cluster",
      "faults.mlu:123:3"},
     true},
    {"strided_segnum", false, one, block, 0, targetAnd({-1}),
     {"__memcpy GDRAM2NRAM: negative size: 16 bytes per segment, segnum -1",
      "faults.mlu:126:3"},
     true, {targetAnd({0})}},
    // Segments at 0, 336, 672 and 1008: 16 bytes each end exactly at 1024.
    {"strided_to_gdram_end", false, one, block, 0, targetAnd({17}),
     {"__memcpy GDRAM2NRAM: source [0x", "(1025 bytes) is out of bounds of "
      "GDRAM buffer", "faults.mlu:129:3"},
     true, {targetAnd({16})}},
    // Segments 256 bytes apart going down from `start`: the last one starts
    // at start - 768, the first byte of the buffer at start 768.
    {"strided_back", false, one, block, 0, targetAnd({767, -256}),
     {"__memcpy GDRAM2NRAM: source [0x", "(784 bytes)", "faults.mlu:132:3"},
     true, {targetAnd({768, -256})}},
    {"cluster_copy_size", false, one, block, 0, targetAnd({-1}),
     {"__memcpy SRAM2SRAM to cluster 0: negative size: -1 bytes",
      "faults.mlu:135:3"},
     true, {targetAnd({0}), targetAnd({64})}},
    {"atomic_count", false, one, block, 0, targetAnd({-1}),
     {"__bang_atomic_reduce_add: negative count -1", "faults.mlu:139:3"}, true,
     {targetAnd({0})}},
    {"atomic_count/past_end", false, one, block, 0, targetAnd({257}),
     {"__bang_atomic_reduce_add: destination [0x", "(1028 bytes) is out of "
      "bounds of GDRAM buffer", "faults.mlu:139:3"},
     true, {targetAnd({256})}},
    {"scalar_load_past", true, one, block, 0, targetAnd({256}),
     {"kernel 'scalar_load_past' task 0", "scalar load of 4 bytes at 0x",
      "is outside every device buffer", "faults.mlu:142:"},
     true, {targetAnd({255})}},
    {"scalar_store_nram_end", true, one, block, 0, targetAnd({3}),
     {"scalar store of 4 bytes at 0x", "is outside its region: it is in NRAM "
      "of core 0", "faults.mlu:146:"},
     true, {targetAnd({4})}},
    // One host thread runs the tasks in order: task 0 ends first.
    {"barrier_after_end", false, four, union1, 0, targetAnd({0}),
     {"kernel 'barrier_after_end': unreached barrier: task 1 waits at "
      "__sync_cluster() but another task of the group has already ended "
      "without reaching it", "faults.mlu:151:3"},
     true, {targetAnd({-1})}, 1},
    {"barrier_after_end/last", false, four, union1, 0, targetAnd({3}),
     {"kernel 'barrier_after_end': unreached barrier: tasks 0, 1, 2 wait at "
      "__sync_cluster() but task 3 (core 3 of cluster 0) ended without "
      "reaching it", "faults.mlu:151:3"},
     true, {}, 1},
    {"sync_all_unreached", false, four, union1, 0, targetAnd({2}),
     {"kernel 'sync_all_unreached': unreached barrier: tasks 0, 1 wait at "
      "__sync_all() but task 2 (core 2 of cluster 0) ended without reaching "
      "it", "faults.mlu:156:3"},
     true, {targetAnd({-1})}, 1},
    // The ABI's entry points called straight from kernel code.
    {"abi_op_class", false, one, block, 0, targetAnd({BANG_OP_NUM_CLASSES}),
     {"kernel 'abi_op_class' task 0 (core 0 of cluster 0): internal error: "
      "unknown op class"},
     true, {targetAnd({0}), targetAnd({BANG_OP_NUM_CLASSES - 1})}},
    {"abi_op_class/negative", false, one, block, 0, targetAnd({-1}),
     {"internal error: unknown op class"}, true},
    {"abi_vector_size", false, one, block, 0, targetAnd({-1}),
     {"kernel 'abi_vector_size' task 0 (core 0 of cluster 0): ",
      "negative size (-1 bytes)"},
     true, {targetAnd({0})}},
};

class FaultSuite : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FaultSuite, StopsWithItsMessageAndTouchesNothingElse) {
  const FaultCase &c = GetParam();
  Bench b;
  ASSERT_NO_FATAL_FAILURE(b.SetUp());
  ASSERT_TRUE(b.module && b.checked);
  LaunchOptions options;
  options.timeoutSeconds = c.timeout;
  options.hostThreads = c.hostThreads;
  Module &m = c.checked ? *b.checked : *b.module;
  for (size_t i = 0; i < c.accepted.size(); ++i) {
    auto ok =
        b.launch(m, kernelOf(c), c.accepted[i](b), c.dim, c.type, options);
    ASSERT_TRUE(bool(ok)) << "accepted arguments #" << i << " faulted:\n"
                          << faultMessage(ok.takeError());
  }
  b.fill(b.target, 0x00);
  std::string message =
      faultMessage(b.launch(m, kernelOf(c), c.args(b), c.dim, c.type, options));
  ASSERT_TRUE(holdsInOrder(message, c.message));
  EXPECT_TRUE(b.holds(b.before, 0xA5)) << "the buffer before was written";
  EXPECT_TRUE(b.holds(b.after, 0x5A)) << "the buffer after was written";
  if (c.targetUntouched)
    EXPECT_TRUE(b.holds(b.target, 0x00)) << "the faulting buffer was written";
  b.expectDeviceWorks();
}

INSTANTIATE_TEST_SUITE_P(EveryClass, FaultSuite, ::testing::ValuesIn(cases),
                         [](const auto &info) {
                           std::string name = info.param.name;
                           std::replace(name.begin(), name.end(), '/', '_');
                           return name;
                         });

} // namespace
