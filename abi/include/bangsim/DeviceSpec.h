//===- DeviceSpec.h - What a simulated card looks like --------*- C++ -*-===//
#ifndef BANGSIM_DEVICESPEC_H
#define BANGSIM_DEVICESPEC_H

#include "bangsim/KernelABI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace bangsim {

/// A card: its topology, memories and the numbers the cost model uses.
/// Read from JSON (see docs/device.md) or taken from a built-in profile.
struct DeviceSpec {
  std::string name;
  int clusters = 4;
  int coresPerCluster = 4;
  int64_t nramBytes = 512 * 1024;  ///< per core
  int64_t wramBytes = 1024 * 1024; ///< per core
  int64_t sramBytes = 2 * 1024 * 1024; ///< per cluster
  int64_t gdramBytes = int64_t(8) << 30;
  double clockGHz = 1.0;
  double gdramGBps = 100.0;     ///< whole card
  double gdramCoreGBps = 25.0;  ///< one core's DMA engine
  double onchipGBps = 256.0;    ///< NRAM/WRAM/SRAM copies, per core
  /// Start-up cycles of a DMA descriptor (each __memcpy).
  int64_t dmaLatencyCycles = 500;
  /// GDRAM moves whole blocks of this many bytes at aligned addresses: a
  /// read of part of a block reads all of it, a write of part of one costs
  /// a read and a write of the block.
  int64_t gdramAccessBytes = 64;
  /// GDRAM bandwidth of a contiguous write, a strided read and a strided
  /// write, as a fraction of a contiguous read's.
  double gdramWriteEfficiency = 0.9;
  double gdramStridedReadEfficiency = 0.8;
  double gdramStridedWriteEfficiency = 0.7;
  int nramBanks = 0;            ///< 0: no banks
  /// Vector throughput in bytes of destination per cycle, per op class.
  std::array<double, BANG_OP_NUM_CLASSES> vectorBytesPerCycle{};
  /// A vector instruction works on whole granules of this many bytes: less
  /// costs a whole one.
  int64_t vectorGranuleBytes = 128;
  /// Start-up cycles of each vector or tensor instruction.
  int64_t computeStartupCycles = 8;
  /// Multiply-accumulates per cycle of the matrix unit, for 16-bit types;
  /// float runs at a quarter of that.
  double macsPerCycle = 4096;
  /// Scalar instructions per cycle for plain C++ code in a kernel.
  double scalarIPC = 1.0;

  int numCores() const { return clusters * coresPerCluster; }
};

/// Names of the built-in profiles: "mlu270", "mlu290", "mlu370", "mlu590",
/// "tiny".
std::vector<std::string> builtinDeviceNames();

/// A built-in profile by name or by cncc arch name ("mtp_372", see
/// deviceForBangArch), or the spec in a JSON file at that path.
llvm::Expected<DeviceSpec> loadDeviceSpec(llvm::StringRef nameOrPath);

/// The built-in profile cncc's arch name selects: mtp_270, mtp_290, mtp_372,
/// mtp_592 (--bang-mlu-arch) and compute_20, compute_30, compute_50
/// (--bang-arch); empty for any other name.
std::string deviceForBangArch(llvm::StringRef cnccArch);

/// The spec's __BANG_ARCH__: 270, 290, 372 or 592 for the built-in cards by
/// name, 372 (the generation we simulate) for tiny and JSON specs.
int bangArch(const DeviceSpec &spec);

/// Parses a JSON spec; `origin` names the source in errors.
llvm::Expected<DeviceSpec> parseDeviceSpec(llvm::StringRef json,
                                           llvm::StringRef origin);

/// The default device when none is given: "mlu370".
const DeviceSpec &defaultDeviceSpec();

/// Where one constant of a spec comes from (bangsim/DeviceSpecSources.def):
/// its JSON key, whether no public source gives it, and the source.
struct SpecSource {
  const char *key;
  bool assumed;
  const char *source;
};

/// Every constant's source, in the table's order.
std::vector<SpecSource> deviceSpecSources();

/// The spec as JSON (for --device-info and for hashing).
std::string deviceSpecToJSON(const DeviceSpec &spec);

} // namespace bangsim

#endif // BANGSIM_DEVICESPEC_H
