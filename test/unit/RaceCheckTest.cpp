//===- RaceCheckTest.cpp - --check=race through the C++ host API ---------===//
//
// LaunchOptions::checkRaces with and without CompileOptions::checkRaces:
// which races each combination sees (docs/device.md, "Race check"), that
// atomics of many tasks on one GDRAM word are no race, and that a race
// leaves the device usable. The race kinds and their messages are in
// test/lit/faults/races.test.
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <vector>

using namespace bangsim;

namespace {

const char *const source = R"(
// A vector operand and a scalar load of NRAM a DMA is still filling.
__mlu_global__ void vector_race(float *in, float *out) {
  __nram__ float buf[64];
  __memcpy_async(buf, in, 256, GDRAM2NRAM);
  __bang_add(buf, buf, buf, 64);
  __sync();
  __memcpy(out, buf, 256, NRAM2GDRAM);
}
__mlu_global__ void scalar_race(float *in, float *out) {
  __nram__ float buf[64];
  __memcpy_async(buf, in, 256, GDRAM2NRAM);
  float first = buf[0];
  __sync();
  out[0] = first;
}
// Every task adds into the same two floats.
__mlu_global__ void atomics(float *sum) {
  __nram__ float one[2];
  one[0] = one[1] = 1.0f;
  __bang_atomic_reduce_add(sum, one, 2);
}
)";

struct Fixture {
  explicit Fixture(bool compileForRaces) {
    std::string diags;
    llvm::raw_string_ostream os(diags);
    CompileOptions options;
    options.diagnostics = &os;
    options.checkAccesses = options.checkRaces = compileForRaces;
    auto m = Module::compileString("races.mlu", source, spec, options);
    if (!m) {
      ADD_FAILURE() << llvm::toString(m.takeError()) << "\n" << diags;
      return;
    }
    module = std::move(*m);
    device = std::move(*Device::open(spec));
    in = *device->malloc(256);
    out = *device->malloc(256);
    std::vector<float> values(64, 1.5f);
    EXPECT_FALSE(bool(device->copyToDevice(in, values.data(), 256)));
  }

  /// The launch's fault message, or "" if it succeeded.
  std::string launch(const char *kernel, bool checkRaces, int tasks = 1,
                     FuncType type = FuncType::Block,
                     std::vector<KernelArg> args = {}) {
    if (args.empty())
      args = {KernelArg::pointer(in), KernelArg::pointer(out)};
    LaunchOptions options;
    options.checkRaces = checkRaces;
    auto stats =
        device->launch(**module->findKernel(kernel), module->staticLayout(),
                       {unsigned(tasks), 1, 1}, type, args, options);
    if (stats)
      return "";
    std::string message;
    llvm::handleAllErrors(stats.takeError(), [&](const llvm::ErrorInfoBase &e) {
      message = e.message();
    });
    EXPECT_FALSE(message.empty());
    return message;
  }

  DeviceSpec spec = defaultDeviceSpec();
  std::unique_ptr<Module> module;
  std::unique_ptr<Device> device;
  void *in = nullptr, *out = nullptr;
};

TEST(RaceCheck, OffByDefault) {
  Fixture f(true);
  ASSERT_TRUE(f.module);
  EXPECT_EQ(f.launch("vector_race", false), "");
  EXPECT_EQ(f.launch("scalar_race", false), "");
}

TEST(RaceCheck, CompiledForRacesSeesVectorAndScalarAccesses) {
  Fixture f(true);
  ASSERT_TRUE(f.module);
  std::string vector = f.launch("vector_race", true);
  EXPECT_NE(vector.find("race: __bang_add reads NRAM of core 0"),
            std::string::npos)
      << vector;
  EXPECT_NE(vector.find("races.mlu:6:3 in vector_race, in __bang_add"),
            std::string::npos)
      << vector;
  EXPECT_NE(vector.find("races.mlu:5:3 in vector_race, in __memcpy_async"),
            std::string::npos)
      << vector;
  std::string scalar = f.launch("scalar_race", true);
  EXPECT_NE(scalar.find("race: scalar load reads NRAM of core 0"),
            std::string::npos)
      << scalar;
  // The device stays usable: the same launch without the check runs.
  EXPECT_EQ(f.launch("scalar_race", false), "");
}

TEST(RaceCheck, LaunchOptionAloneSeesIntrinsicsNotScalars) {
  Fixture f(false);
  ASSERT_TRUE(f.module);
  EXPECT_NE(f.launch("vector_race", true).find("race: __bang_add"),
            std::string::npos);
  EXPECT_EQ(f.launch("scalar_race", true), "");
}

TEST(RaceCheck, AtomicsOfManyTasksAreNoRace) {
  Fixture f(true);
  ASSERT_TRUE(f.module);
  std::vector<float> zero(2, 0.0f), sum(2);
  ASSERT_FALSE(bool(f.device->copyToDevice(f.out, zero.data(), 8)));
  EXPECT_EQ(f.launch("atomics", true, 16, FuncType::Union1,
                     {KernelArg::pointer(f.out)}),
            "");
  ASSERT_FALSE(bool(f.device->copyFromDevice(sum.data(), f.out, 8)));
  EXPECT_EQ(sum[0], 16.0f);
  EXPECT_EQ(sum[1], 16.0f);
}

} // namespace
