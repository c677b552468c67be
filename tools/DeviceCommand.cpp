//===- DeviceCommand.cpp - bangc-sim device -------------------------------===//
#include "tools/Commands.h"
#include "tools/Args.h"

#include "bangsim/DeviceSpec.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace bangc::tools;

static const char *const head =
    "usage: bangc-sim device [--list | [--sources] SPEC]\n"
    "\n"
    "With --list (the default), names the built-in devices. With SPEC (a\n"
    "built-in name or a JSON file), checks it and prints it as JSON, and\n"
    "names on stderr the constants no public source gives (assumptions).\n"
    "\n";

namespace {

struct DeviceCommand {
  std::string spec;
  bool sources = false;

  CommandLine commandLine() {
    CommandLine cmd{"device", head, ""};
    cmd.groups = {
        {"",
         {flag("--list", "name the built-in devices (the default)", [] {}),
          flag("--sources",
               "print each constant of SPEC with its value and its source "
               "instead (the document and section, or ASSUMED)",
               sources)}}};
    cmd.positional = [this](llvm::StringRef v) {
      spec = v.str();
      return std::string();
    };
    return cmd;
  }

  int check() const { return -1; }

  int run() const;
};

} // namespace

int bangc::tools::deviceParse(llvm::ArrayRef<const char *> argv) {
  return parseOnly<DeviceCommand>(argv);
}

int bangc::tools::deviceMain(llvm::ArrayRef<const char *> argv) {
  return parseAndRun<DeviceCommand>(argv);
}

int DeviceCommand::run() const {
  if (spec.empty()) {
    for (const std::string &name : bangsim::builtinDeviceNames())
      llvm::outs() << name << "\n";
    return 0;
  }
  auto loaded = bangsim::loadDeviceSpec(spec);
  if (!loaded) {
    llvm::WithColor::error(llvm::errs(), "bangc-sim")
        << llvm::toString(loaded.takeError()) << "\n";
    return 1;
  }
  std::vector<bangsim::SpecSource> table = bangsim::deviceSpecSources();
  if (sources) {
    // The values as the JSON form prints them, by key.
    auto json = llvm::json::parse(bangsim::deviceSpecToJSON(*loaded));
    const llvm::json::Object *obj = json ? json->getAsObject() : nullptr;
    if (!json)
      llvm::consumeError(json.takeError());
    llvm::outs() << "constants of " << loaded->name
                 << " (sources are the mlu370's: abi/include/bangsim/"
                    "DeviceSpec.def)\n";
    for (const bangsim::SpecSource &s : table) {
      llvm::StringRef key = s.key, sub;
      std::tie(key, sub) = key.split('.');
      std::string value = "?";
      if (const llvm::json::Value *v = obj ? obj->get(key) : nullptr) {
        if (const llvm::json::Object *o = v->getAsObject())
          v = o->get(sub);
        if (std::optional<double> d = v ? v->getAsNumber() : std::nullopt)
          value = llvm::formatv("{0}", llvm::format("%g", *d)).str();
      }
      llvm::outs() << llvm::formatv("  {0,-32} {1,-8} {2}{3}\n", s.key, value,
                                    s.assumed ? "ASSUMED: " : "", s.source);
    }
    return 0;
  }
  llvm::outs() << bangsim::deviceSpecToJSON(*loaded) << "\n";
  std::string assumed;
  for (const bangsim::SpecSource &s : table)
    if (s.assumed)
      assumed += (assumed.empty() ? "" : ", ") + std::string(s.key);
  llvm::WithColor::note(llvm::errs(), "bangc-sim")
      << "assumed (no public source): " << assumed
      << "; `bangc-sim device --sources " << spec << "` for every source\n";
  return 0;
}
