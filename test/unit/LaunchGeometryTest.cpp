//===- LaunchGeometryTest.cpp - Task builtins and on-chip capacity edges --===//
//
// Every task of 2-D and 3-D BLOCK and UNIONn launches writes all twelve
// builtin variables to its own slot, and each value is compared with the one
// the CNRT/BANG rules give: taskId = x + y * dimX + z * dimX * dimY,
// taskDim the product of the dims, task k of a wave on core k of the card,
// coreId and clusterId from the spec's cores per cluster, coreDim and
// clusterDim from the function type. Then the on-chip capacities at exactly
// their size and one byte over, where the device checks them at run time: a
// module's static NRAM/WRAM/SRAM against the card it is launched on, and a
// DMA that ends exactly at the end of NRAM, WRAM or SRAM. (The compile-time
// check is in test/lit/diagnostics/capacity-boundary-*.mlu.)
//
//===----------------------------------------------------------------------===//
#include "FaultMessage.h"
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

#include <array>
#include <string>
#include <vector>

using namespace bangsim;

namespace {

constexpr int NumBuiltins = 12;
const char *const builtinNames[NumBuiltins] = {
    "taskId",   "taskIdX",  "taskIdY", "taskIdZ", "taskDim",   "taskDimX",
    "taskDimY", "taskDimZ", "coreId",  "coreDim", "clusterId", "clusterDim"};

// The slot is indexed by taskId: a wrong taskId leaves slots unwritten (-1).
const char *const builtinsSource = R"(
__mlu_global__ void builtins(int *out) {
  int *slot = out + taskId * 12;
  slot[0] = taskId;
  slot[1] = taskIdX;
  slot[2] = taskIdY;
  slot[3] = taskIdZ;
  slot[4] = taskDim;
  slot[5] = taskDimX;
  slot[6] = taskDimY;
  slot[7] = taskDimZ;
  slot[8] = coreId;
  slot[9] = coreDim;
  slot[10] = clusterId;
  slot[11] = clusterDim;
}
)";

DeviceSpec builtinSpec(llvm::StringRef name) {
  auto spec = loadDeviceSpec(name);
  if (!spec) {
    ADD_FAILURE() << llvm::toString(spec.takeError());
    return defaultDeviceSpec();
  }
  return *spec;
}

std::unique_ptr<Device> openOrFail(const DeviceSpec &spec) {
  auto d = Device::open(spec);
  if (!d) {
    ADD_FAILURE() << llvm::toString(d.takeError());
    return nullptr;
  }
  return std::move(*d);
}

/// The builtins of the task at (x, y, z), from the documented rules alone.
/// Tasks run in waves of as many tasks as the card has cores for the
/// function type; the k-th task of a wave runs on core k, core c being core
/// c % coresPerCluster of cluster c / coresPerCluster.
std::array<int, NumBuiltins> expectedBuiltins(const DeviceSpec &spec, Dim3 dim,
                                              FuncType type, int x, int y,
                                              int z) {
  int dimX = dim.x, dimY = dim.y, dimZ = dim.z;
  int id = x + y * dimX + z * dimX * dimY;
  int unionSize = unionClusters(type); // 0 for BLOCK
  int cpc = spec.coresPerCluster;
  int wave = unionSize ? spec.clusters / unionSize * unionSize * cpc
                       : spec.clusters * cpc;
  int core = id % wave;
  return {id,
          x,
          y,
          z,
          dimX * dimY * dimZ,
          dimX,
          dimY,
          dimZ,
          core % cpc,
          unionSize ? cpc : 1,
          core / cpc,
          unionSize ? unionSize : 1};
}

/// Launches `builtins` with `dim` and `type` on `specName` and compares every
/// builtin of every task with expectedBuiltins.
void checkBuiltins(llvm::StringRef specName, Dim3 dim, FuncType type) {
  DeviceSpec spec = builtinSpec(specName);
  std::string label =
      llvm::formatv("{0} {1}x{2}x{3} on {4}", funcTypeName(type), dim.x, dim.y,
                    dim.z, specName);
  SCOPED_TRACE(label);
  auto module = compileOrFail("builtins.mlu", builtinsSource, spec, {});
  auto device = openOrFail(spec);
  if (!module || !device)
    return;
  size_t ints = dim.count() * NumBuiltins;
  std::vector<int> host(ints, -1);
  auto out = device->malloc(ints * sizeof(int));
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  ASSERT_FALSE(bool(device->copyToDevice(*out, host.data(), ints * 4)));
  auto stats = launchByName(*device, *module, "builtins",
                            {KernelArg::pointer(*out)}, dim, type);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  ASSERT_FALSE(bool(device->copyFromDevice(host.data(), *out, ints * 4)));

  int wrong = 0;
  for (int z = 0; z < int(dim.z); ++z)
    for (int y = 0; y < int(dim.y); ++y)
      for (int x = 0; x < int(dim.x); ++x) {
        auto want = expectedBuiltins(spec, dim, type, x, y, z);
        const int *got = &host[size_t(want[0]) * NumBuiltins];
        for (int b = 0; b < NumBuiltins; ++b) {
          if (got[b] == want[b])
            continue;
          if (++wrong > 12)
            continue; // enough to name the builtin
          ADD_FAILURE() << builtinNames[b] << " of the task at (x " << x
                        << ", y " << y << ", z " << z << "), taskId " << want[0]
                        << ": got " << got[b] << ", want " << want[b];
        }
      }
  EXPECT_EQ(wrong, 0) << "wrong builtin values in " << label;
}

TEST(LaunchGeometry, Block3DOverTwoWaves) {
  // 24 tasks on 16 cores: the second wave starts again at core 0.
  checkBuiltins("mlu370", {4, 3, 2}, FuncType::Block);
}

TEST(LaunchGeometry, Block2D) {
  checkBuiltins("mlu370", {5, 3, 1}, FuncType::Block);
}

TEST(LaunchGeometry, Union1_3D) {
  checkBuiltins("mlu370", {4, 3, 2}, FuncType::Union1);
}

TEST(LaunchGeometry, Union1_2D) {
  checkBuiltins("mlu370", {4, 5, 1}, FuncType::Union1);
}

TEST(LaunchGeometry, Union2_3DOverTwoWaves) {
  checkBuiltins("mlu370", {8, 2, 2}, FuncType::Union2);
}

TEST(LaunchGeometry, Union4_3D) {
  checkBuiltins("mlu370", {16, 1, 2}, FuncType::Union4);
}

// Two cores per cluster: nothing may assume four.
TEST(LaunchGeometry, TinyBlock3D) {
  checkBuiltins("tiny", {3, 2, 2}, FuncType::Block);
}

TEST(LaunchGeometry, TinyUnion1_3D) {
  checkBuiltins("tiny", {2, 3, 2}, FuncType::Union1);
}

TEST(LaunchGeometry, TinyUnion2_3D) {
  checkBuiltins("tiny", {4, 3, 2}, FuncType::Union2);
}

//===----------------------------------------------------------------------===//
// On-chip capacity at run time
//===----------------------------------------------------------------------===//

struct Space {
  const char *qualifier; ///< the declaration's memory-space qualifier
  const char *name;      ///< as the device's messages name it
  const char *load;      ///< the GDRAM -> space direction
  const char *store;     ///< the space -> GDRAM direction
  int64_t DeviceSpec::*bytes;
};

const Space spaces[] = {
    {"__nram__", "NRAM", "GDRAM2NRAM", "NRAM2GDRAM", &DeviceSpec::nramBytes},
    {"__wram__", "WRAM", "GDRAM2WRAM", "WRAM2GDRAM", &DeviceSpec::wramBytes},
    {"__mlu_shared__", "SRAM", "GDRAM2SRAM", "SRAM2GDRAM",
     &DeviceSpec::sramBytes},
};

/// A kernel with `bytes` bytes of static `space` that copies `n` bytes from
/// `in` to the buffer's last `n` bytes (moved `shift` bytes on) and back to
/// `out`.
std::string lastBytesSource(const Space &space, int64_t bytes) {
  return llvm::formatv(R"(
{0} char buf[{1}];
__mlu_global__ void last(char *out, const char *in, int n, int shift) {{
  __memcpy(buf + {1} - n + shift, in, n, {2});
  __memcpy(out, buf + {1} - n + shift, n, {3});
}
)",
                       space.qualifier, bytes, space.load, space.store);
}

// A module compiled for a big card and launched on a card with exactly its
// static bytes runs and its buffer's last byte works; one byte less on the
// card refuses the launch.
TEST(LaunchGeometry, StaticBytesAtExactlyTheCardsCapacity) {
  for (const Space &space : spaces) {
    SCOPED_TRACE(space.name);
    DeviceSpec big = defaultDeviceSpec();
    int64_t bytes = 12345; // not a multiple of any alignment
    auto module =
        compileOrFail("last.mlu", lastBytesSource(space, bytes), big, {});
    if (!module)
      continue;
    EXPECT_EQ(module->staticLayout().bytes[&space - spaces], bytes);

    DeviceSpec exact = big;
    exact.*space.bytes = bytes;
    auto device = openOrFail(exact);
    if (!device)
      continue;
    std::vector<char> data(16);
    for (size_t i = 0; i < data.size(); ++i)
      data[i] = char(i + 1);
    auto in = device->malloc(16), out = device->malloc(16);
    ASSERT_TRUE(in && out);
    ASSERT_FALSE(bool(device->copyToDevice(*in, data.data(), 16)));
    auto stats =
        launchByName(*device, *module, "last",
                     {KernelArg::pointer(*out), KernelArg::pointer(*in),
                      KernelArg::i32(16), KernelArg::i32(0)},
                     {1, 1, 1}, FuncType::Block);
    EXPECT_TRUE(bool(stats))
        << "a module with exactly the card's " << space.name
        << " was refused: " << llvm::toString(stats.takeError());
    std::vector<char> back(16, 0);
    ASSERT_FALSE(bool(device->copyFromDevice(back.data(), *out, 16)));
    EXPECT_EQ(back, data);

    DeviceSpec smaller = big;
    smaller.*space.bytes = bytes - 1;
    auto small = openOrFail(smaller);
    if (!small)
      continue;
    auto refused =
        launchByName(*small, *module, "last",
                     {KernelArg::pointer(*out), KernelArg::pointer(*in),
                      KernelArg::i32(16), KernelArg::i32(0)},
                     {1, 1, 1}, FuncType::Block);
    ASSERT_FALSE(bool(refused)) << "a module with one byte more " << space.name
                                << " than the card launched";
    EXPECT_TRUE(
        holdsInOrder(llvm::toString(refused.takeError()),
                     {"kernel 'last': its module has " + std::to_string(bytes) +
                          " bytes of static " + space.name,
                      "more than the " + std::to_string(bytes - 1) +
                          " bytes the device '" + smaller.name + "' has"}));
  }
}

// A DMA that ends exactly at the end of the card's NRAM, WRAM or SRAM is in
// bounds; one byte further is a fault naming the space.
TEST(LaunchGeometry, DmaEndingAtTheEndOfEachSpace) {
  DeviceSpec spec = builtinSpec("tiny");
  for (const Space &space : spaces) {
    SCOPED_TRACE(space.name);
    int64_t cap = spec.*space.bytes;
    // The whole space is the buffer, so `buf + cap - n` ends at its end.
    auto module =
        compileOrFail("last.mlu", lastBytesSource(space, cap), spec, {});
    auto device = openOrFail(spec);
    if (!module || !device)
      continue;
    std::vector<char> data(64);
    for (size_t i = 0; i < data.size(); ++i)
      data[i] = char(100 + i);
    auto in = device->malloc(64), out = device->malloc(64);
    ASSERT_TRUE(in && out);
    ASSERT_FALSE(bool(device->copyToDevice(*in, data.data(), 64)));

    auto args = [&](int shift) {
      return std::vector{KernelArg::pointer(*out), KernelArg::pointer(*in),
                         KernelArg::i32(64), KernelArg::i32(shift)};
    };
    auto ok = launchByName(*device, *module, "last", args(0), {1, 1, 1},
                           FuncType::Block);
    EXPECT_TRUE(bool(ok)) << "a DMA of the last 64 bytes of " << space.name
                          << " faulted: " << faultMessage(ok.takeError());
    std::vector<char> back(64, 0);
    ASSERT_FALSE(bool(device->copyFromDevice(back.data(), *out, 64)));
    EXPECT_EQ(back, data);

    auto over = launchByName(*device, *module, "last", args(1), {1, 1, 1},
                             FuncType::Block);
    EXPECT_TRUE(
        holdsInOrder(faultMessage(std::move(over)),
                     {std::string("__memcpy ") + space.load, "destination",
                      std::string("out of bounds of ") + space.name}));
  }
}

} // namespace
