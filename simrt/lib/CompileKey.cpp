//===- CompileKey.cpp - What a compiled module depends on -----------------===//
#include "CompileKey.h"
#include "CodegenOptions.h"
#include "CompileCache.h"

#include "codegen/HostTarget.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace bangsim;
using llvm::StringRef;

namespace {

std::string exact(double v) {
  return llvm::formatv("{0}", llvm::format("%a", v)).str();
}

std::string absolute(StringRef path) {
  llvm::SmallString<256> out(path);
  llvm::sys::fs::make_absolute(out);
  return std::string(out);
}

/// The host CPU and its features: the object is compiled for them.
const std::string &hostTarget() {
  static const std::string target =
      bangc::hostCPU() + " " + bangc::hostFeatures();
  return target;
}

} // namespace

std::string bangsim::compileKey(StringRef name, StringRef source, bool fromFile,
                                const DeviceSpec &spec,
                                const CompileOptions &options) {
  KeyBuilder k;
  k.add("bangc-sim compile key 1").add(compilerId()).add(LLVM_VERSION_STRING);
  k.add(hostTarget());
  // The device: the JSON form (which grows with the spec) and every field
  // exactly (the JSON rounds).
  k.add(deviceSpecToJSON(spec)).add(spec.name).add(spec.clusters);
  k.add(spec.coresPerCluster).add(spec.nramBytes).add(spec.wramBytes);
  k.add(spec.sramBytes).add(spec.gdramBytes).add(exact(spec.clockGHz));
  k.add(exact(spec.gdramGBps)).add(exact(spec.gdramCoreGBps));
  k.add(exact(spec.onchipGBps)).add(spec.dmaLatencyCycles).add(spec.nramBanks);
  for (double v : spec.vectorBytesPerCycle)
    k.add(exact(v));
  k.add(exact(spec.macsPerCycle)).add(exact(spec.scalarIPC));
  // The options. Include directories as given (they appear in __FILE__)
  // and absolute (where headers are searched).
  k.add(int64_t(options.includeDirs.size()));
  for (const std::string &dir : options.includeDirs)
    k.add(dir).add(absolute(dir));
  k.add(int64_t(options.defines.size()));
  for (const std::string &def : options.defines)
    k.add(def);
  k.add(options.optLevel).add(options.debugInfo).add(options.checkAccesses);
  // Inlined intrinsic bodies, or calls into the native device library.
  k.add(bangc::inlinesIntrinsics(codegenOptions(options)));
  // The driver reads these to find headers.
  for (const char *var : {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH"}) {
    const char *value = std::getenv(var);
    k.add(value ? StringRef(value) : StringRef("\n(unset)"));
  }
  // The source: its name as given, where it is (quoted includes are found
  // next to it), and its bytes.
  k.add(fromFile ? "file" : "string").add(name).add(absolute(name));
  k.add(source);
  return k.final();
}
