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

/// Bytes per cycle of the vector unit, by BangOpClass.
using VectorRates = std::array<double, BANG_OP_NUM_CLASSES>;

/// A card: its topology, memories and the numbers the cost model uses.
/// Read from JSON (see docs/device.md) or taken from a built-in profile.
/// The fields, their JSON keys, ranges and sources are the rows of
/// bangsim/DeviceSpec.def.
struct DeviceSpec {
#define BANGSIM_DEVICE_FIELD(FIELD, TYPE, DEFAULT, ...) TYPE FIELD = DEFAULT;
#include "bangsim/DeviceSpec.def"

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

/// Where one constant of a spec comes from (bangsim/DeviceSpec.def): its
/// JSON key ("vector_bytes_per_cycle.div" for a rate), whether no public
/// source gives it, and the source.
struct SpecSource {
  std::string key;
  bool assumed;
  const char *source;
};

/// Every constant's source, in the table's order.
std::vector<SpecSource> deviceSpecSources();

/// The spec as JSON (for --device-info and for hashing).
std::string deviceSpecToJSON(const DeviceSpec &spec);

} // namespace bangsim

#endif // BANGSIM_DEVICESPEC_H
