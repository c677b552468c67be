//===- main.cpp - bangc-sim: the compiler and simulated device's driver ---===//
#include "tools/Commands.h"

#include "codegen/NativeDeviceLib.h"
#include "graph/GraphCommand.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace bangc::tools;

static const char *const usage =
    "usage: bangc-sim COMMAND [options]\n"
    "\n"
    "A compiler and simulated device for BANG-C-like kernels.\n"
    "\n"
    "commands:\n"
    "  compile   compile a .mlu file (LLVM IR, assembly, objects)\n"
    "  run       compile a .mlu file and run a kernel on the simulated device\n"
    "  graph     check, run, measure and draw Task IR networks\n"
    "  device    list the built-in devices or show a device spec\n"
    "\n"
    "'bangc-sim COMMAND --help' describes a command.\n";

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
    llvm::errs() << usage;
    return 2;
  }
  llvm::StringRef command = argv[1];
  llvm::ArrayRef<const char *> rest(argv + 2, argv + argc);
  if (command == "--help" || command == "-h" || command == "help") {
    llvm::outs() << usage;
    return 0;
  }
  if (command == "--version") {
    printVersion();
    return 0;
  }
  if (command == "compile")
    return compileMain(rest);
  if (command == "run")
    return runMain(rest);
  if (command == "device")
    return deviceMain(rest);
  if (command == "op") return opMain(rest);
  if (command == "graph")
    return bangc::graph::runGraphCommand(rest);
  llvm::WithColor::error(llvm::errs(), "bangc-sim")
      << "unknown command '" << command << "'\n"
      << usage;
  return 2;
}
