//===- DeviceSpecTest.cpp - Device specs: built-ins and bad files ---------===//
#include "bangsim/DeviceSpec.h"

#include "gtest/gtest.h"

#include "llvm/Support/JSON.h"

#include <cstring>
#include <set>

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

// A board is its chip at the board's clock (its GB/s rates unchanged).
TEST(DeviceSpec, BoardsClockTheirChip) {
  auto x8 = loadDeviceSpec("mlu370");
  auto s4 = loadDeviceSpec("mlu370-s4");
  ASSERT_TRUE(x8 && s4);
  EXPECT_EQ(x8->clockGHz, 1.3);
  EXPECT_EQ(s4->clockGHz, 1.0);
  EXPECT_EQ(bangArch(*s4), 372);
  s4->name = x8->name;
  s4->clockGHz = x8->clockGHz;
  EXPECT_EQ(deviceSpecToJSON(*s4), deviceSpecToJSON(*x8));
}

// cncc's arch names select built-in cards, for the host API as for the CLI;
// __BANG_ARCH__ follows the card (tiny and JSON specs: 372).
TEST(DeviceSpec, CnccArchNamesSelectCards) {
  const struct {
    const char *arch, *device;
    int number;
  } cases[] = {{"mtp_270", "mlu270", 270},   {"mtp_290", "mlu290", 290},
               {"mtp_372", "mlu370", 372},   {"mtp_592", "mlu590", 592},
               {"compute_20", "mlu270", 270}, {"compute_30", "mlu370", 372},
               {"compute_50", "mlu590", 592}};
  for (const auto &c : cases) {
    auto spec = loadDeviceSpec(c.arch);
    ASSERT_TRUE(bool(spec)) << c.arch << ": " << llvm::toString(spec.takeError());
    EXPECT_EQ(spec->name, c.device) << c.arch;
    EXPECT_EQ(bangArch(*spec), c.number) << c.arch;
  }
  EXPECT_EQ(deviceForBangArch("mtp_999"), "");
  EXPECT_EQ(deviceForBangArch("mlu370"), "");
  EXPECT_EQ(bangArch(*loadDeviceSpec("tiny")), 372);
  auto mlu290 = loadDeviceSpec("mlu290");
  ASSERT_TRUE(bool(mlu290));
  EXPECT_EQ(mlu290->numCores(), 64); // MLU290-M5: 64 cores
  EXPECT_EQ(mlu290->gdramBytes, int64_t(32) << 30);
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

// Numbers no device can have, one field at a time: each is refused with the
// field named, never accepted and never a crash later.
TEST(DeviceSpec, ImpossibleNumbersAreRefused) {
  const std::pair<const char *, const char *> cases[] = {
      {R"({"clusters": 0})", "'clusters' is 0"},
      {R"({"clusters": 1e300})", "'clusters' is 1e+300"},
      {R"({"cores_per_cluster": 17})", "'cores_per_cluster' is 17"},
      {R"({"cores_per_cluster": 2.5})", "whole number"},
      {R"({"nram_kib": 0})", "'nram_kib' is 0"},
      {R"({"nram_kib": -768})", "'nram_kib' is -768"},
      {R"({"nram_kib": 1e19})", "'nram_kib' is 1e+19"},
      {R"({"wram_kib": 70000})", "'wram_kib' is 70000"},
      {R"({"sram_kib": -1})", "'sram_kib' is -1"},
      {R"({"gdram_mib": 0})", "'gdram_mib' is 0"},
      {R"({"gdram_mib": 4294967296})", "'gdram_mib' is 4.29497e+09"},
      {R"({"clock_ghz": -1})", "'clock_ghz' is -1"},
      {R"({"clock_ghz": 1000})", "'clock_ghz' is 1000"},
      {R"({"gdram_gbps": 0})", "'gdram_gbps' is 0"},
      {R"({"gdram_core_gbps": 1e9})", "'gdram_core_gbps' is 1e+09"},
      {R"({"gdram_gbps": 10, "gdram_core_gbps": 20})",
       "'gdram_core_gbps' (20) exceeds 'gdram_gbps' (10)"},
      {R"({"onchip_gbps": 0})", "'onchip_gbps' is 0"},
      {R"({"dma_latency_cycles": -5})", "'dma_latency_cycles' is -5"},
      {R"({"nram_banks": 65})", "'nram_banks' is 65"},
      {R"({"gdram_access_bytes": 0})", "'gdram_access_bytes' is 0"},
      {R"({"vector_granule_bytes": 0})", "'vector_granule_bytes' is 0"},
      {R"({"compute_startup_cycles": -1})", "'compute_startup_cycles' is -1"},
      {R"({"gdram_write_efficiency": 1.5})", "'gdram_write_efficiency' is 1.5"},
      {R"({"gdram_strided_read_efficiency": 0})",
       "'gdram_strided_read_efficiency' is 0"},
      // The guide's order: contiguous write >= strided read >= strided write.
      {R"({"gdram_write_efficiency": 0.5, "gdram_strided_read_efficiency": 0.6,
          "gdram_strided_write_efficiency": 0.4})",
       "must keep the order"},
      {R"({"gdram_strided_write_efficiency": 0.85})", "must keep the order"},
      {R"({"nram_kib": 100, "nram_banks": 3})", "divide evenly"},
      {R"({"macs_per_cycle": 0})", "'macs_per_cycle' is 0"},
      {R"({"scalar_ipc": 0})", "'scalar_ipc' is 0"},
      {R"({"vector_bytes_per_cycle": {"alu": 0}})", "'alu' is 0"},
      {R"({"vector_bytes_per_cycle": {"alu": "fast"}})", "'alu' must be a number"},
      {R"({"vector_bytes_per_cycle": 5})", "must be an object"},
      {R"({"clusters": null})", "'clusters' must be a number"},
      {R"({"clusters": [4]})", "'clusters' must be a number"},
  };
  for (const auto &[json, expected] : cases) {
    std::string message = errorOf(json);
    EXPECT_NE(message.find(expected), std::string::npos)
        << json << " gave: " << message;
  }
}

// The range of every number a spec gives, as docs/device.md states them
// (bangsim/DeviceSpec.def's LO and HI columns): a value past the top is
// refused naming both ends.
TEST(DeviceSpec, EveryNumberHasItsRange) {
  const struct {
    const char *key;
    const char *range;
  } cases[] = {
      {"clusters", "[1, 64]"},
      {"cores_per_cluster", "[1, 16]"},
      {"nram_kib", "[1, 65536]"},
      {"wram_kib", "[0, 65536]"},
      {"sram_kib", "[0, 262144]"},
      {"gdram_mib", "[1, 1.04858e+06]"},
      {"clock_ghz", "[0.001, 100]"},
      {"gdram_gbps", "[0.001, 100000]"},
      {"gdram_core_gbps", "[0.001, 100000]"},
      {"onchip_gbps", "[0.001, 1e+06]"},
      {"dma_latency_cycles", "[0, 1e+07]"},
      {"gdram_access_bytes", "[1, 4096]"},
      {"gdram_write_efficiency", "[0.001, 1]"},
      {"gdram_strided_read_efficiency", "[0.001, 1]"},
      {"gdram_strided_write_efficiency", "[0.001, 1]"},
      {"nram_banks", "[0, 64]"},
      {"vector_granule_bytes", "[1, 1.04858e+06]"},
      {"compute_startup_cycles", "[0, 1e+06]"},
      {"macs_per_cycle", "[1, 1e+07]"},
      {"scalar_ipc", "[0.001, 64]"},
  };
  for (const auto &c : cases) {
    std::string message = errorOf("{\"" + std::string(c.key) + "\": 1e30}");
    EXPECT_NE(message.find("'" + std::string(c.key) + "' is 1e+30, outside " +
                           c.range),
              std::string::npos)
        << c.key << " gave: " << message;
  }
  for (const char *rate :
       {"move", "alu", "mul", "div", "cvt", "act", "reduce", "atomic"}) {
    std::string message = errorOf(R"({"vector_bytes_per_cycle": {")" +
                                  std::string(rate) + R"(": 1e30}})");
    EXPECT_NE(message.find("'" + std::string(rate) +
                           "' is 1e+30, outside [0.001, 1e+06]"),
              std::string::npos)
        << rate << " gave: " << message;
  }
  // The matrix unit's rate is macs_per_cycle, not a vector class.
  EXPECT_NE(errorOf(R"({"vector_bytes_per_cycle": {"mac": 1}})")
                .find("unknown op class 'mac'"),
            std::string::npos);
}

namespace {
/// The JSON keys of a spec, with "vector_bytes_per_cycle.CLASS" for each
/// class.
std::set<std::string> jsonKeys(const DeviceSpec &spec) {
  std::set<std::string> keys;
  auto json = llvm::json::parse(deviceSpecToJSON(spec));
  EXPECT_TRUE(bool(json));
  if (!json) {
    llvm::consumeError(json.takeError());
    return keys;
  }
  for (const auto &kv : *json->getAsObject()) {
    if (const llvm::json::Object *sub = kv.second.getAsObject()) {
      for (const auto &c : *sub)
        keys.insert(kv.first.str() + "." + c.first.str());
      continue;
    }
    keys.insert(kv.first.str());
  }
  keys.erase("name");
  return keys;
}
} // namespace

// Issue 24: every constant of a spec has a source or is marked assumed, in
// bangsim/DeviceSpec.def, and the table names no key a spec lacks.
TEST(DeviceSpec, EveryConstantHasASource) {
  std::set<std::string> keys = jsonKeys(defaultDeviceSpec()), tabled;
  for (const SpecSource &s : deviceSpecSources()) {
    EXPECT_TRUE(tabled.insert(s.key).second) << s.key << " twice";
    EXPECT_TRUE(keys.count(s.key)) << s.key << " is not a field of a spec";
    EXPECT_GT(std::strlen(s.source), 0u) << s.key;
  }
  for (const std::string &k : keys)
    EXPECT_TRUE(tabled.count(k)) << k << " has no source in DeviceSpec.def";
}
