//===- DeviceSpecTest.cpp - Device specs: built-ins and bad files ---------===//
#include "bangsim/DeviceSpec.h"

#include "gtest/gtest.h"

using namespace bangsim;

static std::string errorOf(llvm::StringRef json) {
  auto spec = parseDeviceSpec(json, "test.json");
  EXPECT_FALSE(bool(spec));
  return spec ? "" : llvm::toString(spec.takeError());
}

TEST(DeviceSpec, BuiltinsLoad) {
  for (const std::string &name : builtinDeviceNames()) {
    auto spec = loadDeviceSpec(name);
    ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
    EXPECT_EQ(spec->name, name);
    EXPECT_GT(spec->numCores(), 0);
  }
  auto tiny = loadDeviceSpec("tiny");
  ASSERT_TRUE(bool(tiny));
  EXPECT_EQ(tiny->nramBytes, 16 * 1024);
  EXPECT_EQ(tiny->numCores(), 4);
}

TEST(DeviceSpec, RoundTripsThroughJSON) {
  const DeviceSpec &spec = defaultDeviceSpec();
  auto again = parseDeviceSpec(deviceSpecToJSON(spec), "again");
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->nramBytes, spec.nramBytes);
  EXPECT_EQ(again->clusters, spec.clusters);
  EXPECT_DOUBLE_EQ(again->gdramGBps, spec.gdramGBps);
  EXPECT_DOUBLE_EQ(again->vectorBytesPerCycle[BANG_OP_DIV],
                   spec.vectorBytesPerCycle[BANG_OP_DIV]);
}

TEST(DeviceSpec, BadFilesAreClearErrors) {
  EXPECT_NE(errorOf("{").find("invalid JSON"), std::string::npos);
  EXPECT_NE(errorOf("[1]").find("must be an object"), std::string::npos);
  EXPECT_NE(errorOf(R"({"clusters": -1})").find("'clusters' is -1"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"clusters": "four"})").find("must be a number"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"nram_kib": 1.5})").find("whole number"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"nram_cores": 1})").find("unknown field 'nram_cores'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"vector_bytes_per_cycle": {"fma": 1}})")
                .find("unknown op class 'fma'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"clock_ghz": 0})").find("'clock_ghz' is 0"),
            std::string::npos);
  auto missing = loadDeviceSpec("/nonexistent/spec.json");
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("cannot read"),
            std::string::npos);
}
