//===- CommonOptions.cpp - Options shared by compile, run and op ----------===//
#include "tools/CommonOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"

using namespace bangc::tools;

const char *const bangc::tools::CommonOptionsHelp =
    "  -I DIR            add DIR to the include path\n"
    "  -D NAME[=VALUE]   define a macro\n"
    "  -O0 -O1 -O2 -O3   optimisation level (default -O2)\n"
    "  -g                full debug info (line tables are always kept)\n"
    "  -std=STD          the C++ standard (default c++17)\n"
    "  --check           also check every scalar load and store of kernels\n"
    "  --check=race      --check, and report data races: an access to what\n"
    "                    an async DMA of the task still moves (no __sync),\n"
    "                    two tasks on the same SRAM/GDRAM bytes with a write\n"
    "                    and no barrier; the launch runs to its end, then\n"
    "                    fails (exit 3) listing them (docs/device.md)\n"
    "  -finline-intrinsics, -fno-inline-intrinsics\n"
    "                    inline every intrinsic's body into its call site\n"
    "                    (faster small calls, slower compile) or call the\n"
    "                    device library precompiled for this CPU (default:\n"
    "                    inline at -O3 only)\n"
    "  --device SPEC     mlu370 (default), mlu270, mlu290, mlu590, tiny, a\n"
    "                    cncc arch (mtp_372) or a JSON spec file\n"
    "  --bang-mlu-arch=mtp_NNN, --bang-arch=compute_NN\n"
    "                    cncc's spelling of --device: mtp_270, mtp_290,\n"
    "                    mtp_372, mtp_592; compute_20, compute_30, compute_50\n"
    "  -mllvm OPTION     pass OPTION to LLVM (e.g. -time-passes,\n"
    "                    -print-after-all), as clang does\n";

bool CommonOptions::parse(Args &args) {
  if (limits.parse(args))
    return true;
  if (auto v = args.value("-I", true)) {
    compile.includeDirs.push_back(*v);
    return true;
  }
  if (auto v = args.value("-D", true)) {
    compile.defines.push_back(*v);
    return true;
  }
  for (int level = 0; level <= 3; ++level)
    if (args.flag("-O" + std::to_string(level))) {
      compile.optLevel = level;
      return true;
    }
  if (auto v = args.value("-std")) {
    llvm::StringRef s(*v);
    if (!(s.consume_front("c++") || s.consume_front("gnu++")) ||
        !llvm::is_contained({"11", "14", "17", "20", "2a", "2b", "23"}, s))
      args.error = "unknown C++ standard '" + *v +
                   "' for -std (c++11, c++14, c++17, c++20, gnu++17, ...)";
    compile.languageStandard = *v;
    return true;
  }
  if (args.flag("-g")) {
    compile.debugInfo = true;
    return true;
  }
  if (args.flag("--check")) {
    compile.checkAccesses = true;
    return true;
  }
  if (args.flag("--check=race")) {
    compile.checkAccesses = compile.checkRaces = checkRaces = true;
    return true;
  }
  if (args.flag("-finline-intrinsics")) {
    compile.inlineIntrinsics = true;
    return true;
  }
  if (args.flag("-fno-inline-intrinsics")) {
    compile.inlineIntrinsics = false;
    return true;
  }
  if (auto v = args.value("-mllvm")) {
    const char *argv[] = {"bangc-sim (-mllvm)", v->c_str()};
    if (!llvm::cl::ParseCommandLineOptions(2, argv, "", &llvm::errs()))
      args.error = "bad LLVM option '" + *v + "'";
    return true;
  }
  if (auto v = args.value("--device")) {
    device = *v;
    return true;
  }
  // cncc's options: the same device choice, by architecture name.
  for (const char *cnccOption : {"--bang-mlu-arch", "--bang-arch"}) {
    auto v = args.value(cnccOption);
    if (!v)
      continue;
    if (bangsim::deviceForBangArch(*v).empty())
      args.error = "unknown architecture '" + *v + "' for " + cnccOption +
                   " (mtp_270, mtp_290, mtp_372, mtp_592, compute_20, "
                   "compute_30, compute_50)";
    device = *v;
    return true;
  }
  return false;
}

std::string bangc::tools::parseTimeout(llvm::StringRef text, double &seconds) {
  constexpr double MaxTimeout = 365.0 * 24 * 3600;
  double value;
  if (text.getAsDouble(value) || !(value > 0) || value > MaxTimeout)
    return ("bad --timeout '" + text + "': want seconds in (0, " +
            std::to_string(int64_t(MaxTimeout)) + "]")
        .str();
  seconds = value;
  return "";
}

std::optional<bangsim::DeviceSpec> CommonOptions::loadDevice() const {
  auto spec = bangsim::loadDeviceSpec(device);
  if (spec)
    return *spec;
  llvm::WithColor::error(llvm::errs(), "bangc-sim")
      << llvm::toString(spec.takeError()) << "\n";
  return std::nullopt;
}
