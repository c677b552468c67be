//===- SpecFuzzer.cpp - libFuzzer target: the device-spec reader ----------===//
//
// Each input is a device-spec JSON file (`--device FILE.json`, `bangc-sim
// device FILE`): parsed, its numbers checked, or an error; never a crash
// (a JSON nested 200000 deep once overflowed the stack). What it accepts
// must print as JSON that reads back.
//
//===----------------------------------------------------------------------===//
#include "bangsim/DeviceSpec.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto spec = bangsim::parseDeviceSpec(bytes, "fuzz.json");
  if (!spec) {
    llvm::consumeError(spec.takeError());
    return 0;
  }
  // The JSON form (what `bangc-sim device` prints, and what the compile
  // cache's key hashes) of an accepted spec must be accepted again.
  std::string json = bangsim::deviceSpecToJSON(*spec);
  auto again = bangsim::parseDeviceSpec(json, "again.json");
  if (!again) {
    llvm::errs() << "accepted spec does not read back: "
                 << llvm::toString(again.takeError()) << "\n"
                 << json << "\n";
    std::abort();
  }
  return 0;
}
