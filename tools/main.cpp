//===- main.cpp - bangc-sim: the compiler and simulated device's driver ---===//
#include "tools/Commands.h"

#include "codegen/NativeDeviceLib.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace bangc::tools;

namespace {

/// A subcommand: its name, its one-line summary in the usage text, and its
/// entry point. The usage text and the dispatch both come from this table.
struct Command {
  const char *name;
  const char *summary;
  int (*main)(llvm::ArrayRef<const char *> argv);
};

const Command commands[] = {
#define BANGC_COMMAND(NAME, SUMMARY) {#NAME, SUMMARY, NAME##Main},
#include "tools/Commands.def"
};

void printUsage(llvm::raw_ostream &os) {
  os << "usage: bangc-sim COMMAND [options]\n"
        "\n"
        "A compiler and simulated device for BANG-C-like kernels.\n"
        "\n"
        "commands:\n";
  for (const Command &c : commands)
    os << llvm::formatv("  {0,-9} {1}\n", c.name, c.summary);
  os << "\n"
        "'bangc-sim COMMAND --help' describes a command.\n";
}

} // namespace

/// The version, and which form of the device library kernels use here.
static void printVersion() {
  llvm::outs() << "bangc-sim 0.1.0 (LLVM " LLVM_VERSION_STRING ")\n";
  const bangc::NativeDeviceLibrary &lib = bangc::nativeDeviceLibrary();
  if (lib.matchesHost())
    llvm::outs() << "device library: precompiled for this CPU (" << lib.cpu
                 << "); intrinsics inlined at -O3 or with "
                    "-finline-intrinsics\n";
  else
    llvm::outs() << "device library: precompiled for " << lib.cpu
                 << ", not this CPU; intrinsics are always inlined\n";
}

int main(int argc, const char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc < 2) {
    printUsage(llvm::errs());
    return 2;
  }
  llvm::StringRef command = argv[1];
  llvm::ArrayRef<const char *> rest(argv + 2, argv + argc);
  if (command == "--help" || command == "-h" || command == "help") {
    printUsage(llvm::outs());
    return 0;
  }
  if (command == "--version") {
    printVersion();
    return 0;
  }
  for (const Command &c : commands)
    if (command == c.name)
      return c.main(rest);
  llvm::WithColor::error(llvm::errs(), "bangc-sim")
      << "unknown command '" << command << "'\n";
  printUsage(llvm::errs());
  return 2;
}
