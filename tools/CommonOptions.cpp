//===- CommonOptions.cpp - Options shared by compile, run and op ----------===//
#include "tools/CommonOptions.h"

#include "bangsim/Stats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"

using namespace bangc::tools;

std::vector<Option> CommonOptions::options() {
  std::vector<Option> rows = {
      list("-I", "DIR", "add DIR to the include path", compile.includeDirs),
      list("-D", "NAME[=VALUE]", "define a macro", compile.defines)};
  for (int level = 0; level <= 3; ++level)
    rows.push_back(flag("-O" + std::to_string(level),
                        level == 0 ? "optimisation level (default -O2)" : "",
                        [this, level] { compile.optLevel = level; })
                       .labelled("-O0 -O1 -O2 -O3"));
  std::vector<Option> more = {
      flag("-g", "full debug info (line tables are always kept)",
           compile.debugInfo),
      custom("-std", "=STD", "the C++ standard (default c++17)",
             [this](llvm::StringRef v) {
               llvm::StringRef s = v;
               compile.languageStandard = v.str();
               if (!(s.consume_front("c++") || s.consume_front("gnu++")) ||
                   !llvm::is_contained(
                       {"11", "14", "17", "20", "2a", "2b", "23"}, s))
                 return "unknown C++ standard '" + v.str() +
                        "' for -std (c++11, c++14, c++17, c++20, gnu++17, "
                        "...)";
               return std::string();
             }),
      flag("--check", "also check every scalar load and store of kernels",
           compile.checkAccesses),
      flag("--check=race",
           "--check, and report data races: an access to what an async DMA "
           "of the task still moves (no __sync), two tasks on the same "
           "SRAM/GDRAM bytes with a write and no barrier; the launch runs "
           "to its end, then fails (exit 3) listing them (docs/device.md)",
           [this] {
             compile.checkAccesses = compile.checkRaces = checkRaces = true;
           }),
      flag("-finline-intrinsics",
           "inline every intrinsic's body into its call site (faster small "
           "calls, slower compile) or call the device library precompiled "
           "for this CPU (default: inline at -O3 only)",
           [this] { compile.inlineIntrinsics = true; })
          .labelled("-finline-intrinsics, -fno-inline-intrinsics"),
      flag("-fno-inline-intrinsics", "",
           [this] { compile.inlineIntrinsics = false; }),
      text("--device", "SPEC",
           "mlu370 (default), mlu270, mlu290, mlu590, tiny, a cncc arch "
           "(mtp_372) or a JSON spec file",
           device)};
  rows.insert(rows.end(), more.begin(), more.end());
  // cncc's options: the same device choice, by architecture name.
  for (const char *cnccOption : {"--bang-mlu-arch", "--bang-arch"})
    rows.push_back(
        custom(cnccOption, "",
               cnccOption == llvm::StringRef("--bang-arch")
                   ? ""
                   : "cncc's spelling of --device: mtp_270, mtp_290, "
                     "mtp_372, mtp_592; compute_20, compute_30, compute_50",
               [this, cnccOption](llvm::StringRef v) {
                 device = v.str();
                 if (bangsim::deviceForBangArch(v).empty())
                   return "unknown architecture '" + v.str() + "' for " +
                          cnccOption +
                          " (mtp_270, mtp_290, mtp_372, mtp_592, "
                          "compute_20, compute_30, compute_50)";
                 return std::string();
               })
            .labelled("--bang-mlu-arch=mtp_NNN, --bang-arch=compute_NN"));
  rows.push_back(custom(
      "-mllvm", "OPTION",
      "pass OPTION to LLVM (e.g. -time-passes, "
      "-print-after-all), as clang does",
      [](llvm::StringRef v) {
        std::string option = v.str();
        const char *argv[] = {"bangc-sim (-mllvm)", option.c_str()};
        if (!llvm::cl::ParseCommandLineOptions(2, argv, "", &llvm::errs()))
          return "bad LLVM option '" + option + "'";
        return std::string();
      }));
  std::vector<Option> limitRows = limits.options();
  rows.insert(rows.end(), limitRows.begin(), limitRows.end());
  return rows;
}

std::optional<bangsim::DeviceSpec> CommonOptions::loadDevice() const {
  auto spec = bangsim::loadDeviceSpec(device);
  if (spec)
    return *spec;
  llvm::WithColor::error(llvm::errs(), "bangc-sim")
      << llvm::toString(spec.takeError()) << "\n";
  return std::nullopt;
}

std::vector<Option> LaunchArgs::options(llvm::StringRef what) {
  // A year at most: it bounds the deadline's clock arithmetic; nan and inf
  // are not timeouts.
  constexpr double maxTimeout = 365.0 * 24 * 3600;
  return {
      custom("--trace", "FILE.json",
             "write a Chrome trace (open it in Perfetto)",
             [this](llvm::StringRef v) {
               tracePath = v.str();
               launch.trace = true;
               return std::string();
             }),
      flag("--profile", "print where the simulated time went", profile),
      text("--stats-json", "FILE", "write the launch statistics as JSON",
           statsPath),
      integer<unsigned>("--threads", "N",
                        "host threads running the simulated cores",
                        launch.hostThreads, 1, UINT32_MAX),
      custom("--timeout", "SECONDS",
             "stop a kernel that runs longer than this (wall clock: the "
             "launch's worker process is ended)",
             [this](llvm::StringRef v) {
               double value;
               if (v.getAsDouble(value) || !(value > 0) || value > maxTimeout)
                 return badValue("--timeout", v,
                                 "want seconds in (0, " +
                                     std::to_string(int64_t(maxTimeout)) + "]");
               launch.timeoutSeconds = value;
               return std::string();
             }),
      flag("--no-isolate",
           "run " + what.str() +
               " in this process, not in a worker process under a "
               "system-call filter (the default but with -g, so that a "
               "debugger sees the kernel; docs/isolation.md)",
           noIsolate)};
}

bool LaunchArgs::report(const bangsim::LaunchStats &stats) const {
  auto fail = [](const llvm::Twine &message) {
    llvm::WithColor::error(llvm::errs(), "bangc-sim") << message << "\n";
    return false;
  };
  if (profile)
    bangsim::printProfile(llvm::outs(), stats);
  if (!tracePath.empty())
    if (llvm::Error e = bangsim::writeChromeTrace(tracePath, stats))
      return fail(llvm::toString(std::move(e)));
  if (!statsPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(statsPath, ec);
    if (ec)
      return fail("cannot write '" + statsPath + "'");
    os << bangsim::statsToJSON(stats) << "\n";
  }
  return true;
}
