//===- DeviceCommand.cpp - bangc-sim device -------------------------------===//
#include "tools/Commands.h"
#include "tools/Args.h"

#include "bangsim/DeviceSpec.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace bangc::tools;

static const char *const help =
    "usage: bangc-sim device [--list | SPEC]\n"
    "\n"
    "With --list (the default), names the built-in devices. With SPEC (a\n"
    "built-in name or a JSON file), checks it and prints it as JSON.\n";

int bangc::tools::deviceMain(llvm::ArrayRef<const char *> argv) {
  Args args(argv);
  std::string spec;
  while (!args.done()) {
    if (args.flag("--help") || args.flag("-h")) {
      llvm::outs() << help;
      return 0;
    }
    if (args.flag("--list"))
      continue;
    if (auto v = args.positional()) {
      spec = *v;
      continue;
    }
    return usageError("device", "unknown option '" + args.peek() + "'");
  }
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
  llvm::outs() << bangsim::deviceSpecToJSON(*loaded) << "\n";
  return 0;
}
