//===- CompileCommand.cpp - bangc-sim compile -----------------------------===//
#include "tools/Commands.h"
#include "tools/CommonOptions.h"
#include "tools/CompileWatchdog.h"

#include "driver/Compile.h"
#include "driver/CompileActivity.h"
#include "driver/HostCode.h"

#include "bang/CompileFailed.h"

#include "llvm/IR/PassTimingInfo.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace bangc;
using namespace bangc::tools;

static const char *const head =
    "usage: bangc-sim compile FILE.mlu [options]\n"
    "       bangc-sim compile FILE.mlu|FILE.cpp|FILE.o... -o PROGRAM "
    "[options]\n"
    "\n"
    "Compiles a BANG kernel file for the host CPU. With no output option it\n"
    "checks and optimises the program and writes nothing.\n"
    "\n"
    "A .mlu that holds host code (a <<<>>> launch or main) compiles as cncc\n"
    "compiles it (docs/host-code.md): -c writes a host object with its\n"
    "device code embedded; without -c, the .mlu files, host C/C++ files\n"
    "(.c .cc .cpp .cxx) and objects given link into PROGRAM with the CNRT\n"
    "runtime. -S and -emit-llvm write its device side.\n"
    "\n";

namespace {

struct CompileCommand {
  CommonOptions common;
  std::string input, output, passes;
  std::vector<std::string> inputs; ///< every input, `input` the first
  std::vector<std::string> linkArgs; ///< -L DIR, -l NAME
  bool emitLLVM = false, assembly = false, object = false, syntaxOnly = false;

  CommandLine commandLine() {
    std::vector<Option> rows = {
        flag("-emit-llvm", "write LLVM IR (.ll; .bc with -c)", emitLLVM)
            .labelled("-emit-llvm, --emit-llvm"),
        flag("--emit-llvm", "", emitLLVM),
        flag("-S", "write host assembly (.s)", assembly),
        flag("-c", "write a host object file (.o)", object),
        text("-o", "FILE", "output file ('-' for standard output)", output,
             ArgForm::Joined),
        list("-L", "DIR", "library directory and library for the link",
             linkArgs, "-L")
            .labelled("-L DIR, -l NAME"),
        list("-l", "NAME", "", linkArgs, "-l"),
        text("--passes", "=LIST",
             "run only these passes after the frontend (for testing "
             "passes), e.g. bang-find-kernels",
             passes),
        flag("-fsyntax-only", "run the frontend and its checks only",
             syntaxOnly)};
    for (Option &row : common.options())
      rows.push_back(std::move(row));
    CommandLine cmd{"compile", head, ""};
    cmd.groups = {{"", std::move(rows)}};
    cmd.positional = [this](llvm::StringRef v) {
      if (input.empty())
        input = v.str();
      inputs.push_back(v.str());
      return std::string();
    };
    return cmd;
  }

  int check() {
    if (input.empty())
      return usageError("compile", "no input file");
    if (assembly && emitLLVM && object)
      return usageError("compile", "-S and -c together");
    if (inputs.size() > 1 && (assembly || emitLLVM || syntaxOnly ||
                              !passes.empty() || output.empty()))
      return usageError("compile", "more than one input file (only -c or a "
                                   "link, -o PROGRAM, takes several)");
    if (inputs.size() > 1 && object && !output.empty())
      return usageError("compile", "-o with -c and more than one input file");
    return -1;
  }

  /// Whether this command is a host build (docs/host-code.md): host
  /// objects with -c, or a link, rather than one device-side output.
  bool hostBuild() const {
    if (assembly || emitLLVM || syntaxOnly || !passes.empty())
      return false;
    return bangsim::isHostBuild(inputs, object, !output.empty());
  }

  std::optional<OutputKind> kind() const {
    if (emitLLVM)
      return object ? OutputKind::LLVMBitcode : OutputKind::LLVMText;
    if (assembly)
      return OutputKind::Assembly;
    if (object || !output.empty())
      return OutputKind::Object;
    return std::nullopt;
  }

  std::string outputPath(OutputKind k) const {
    if (!output.empty())
      return output;
    const char *ext[] = {".ll", ".bc", ".s", ".o"};
    llvm::SmallString<128> path(llvm::sys::path::filename(input));
    llvm::sys::path::replace_extension(path, ext[int(k)]);
    return std::string(path);
  }

  int run() {
    CompileWatchdog watchdog(common.limits);
    // All of it is a compile (a host build's link too): bounded by
    // --max-compile-seconds and --max-compile-memory.
    bangsim::CompileScope compiling(input);
    std::optional<bangsim::DeviceSpec> spec = common.loadDevice();
    if (!spec)
      return 1;
    if (!llvm::sys::fs::exists(input)) {
      llvm::WithColor::error(llvm::errs(), "bangc-sim")
          << "no such file: '" << input << "'\n";
      return 1;
    }
    bangsim::CompilerInvocation inv =
        bangsim::makeInvocation(common.compile, *spec);
    if (hostBuild()) {
      if (llvm::Error e =
              bangsim::buildHost(inputs, object, output, inv, linkArgs))
        return reportCompileError(std::move(e));
      return 0;
    }
    llvm::LLVMContext context;
    auto module = bangsim::runFrontend(input, std::nullopt, inv, context);
    if (!module)
      return reportCompileError(module.takeError());
    if (syntaxOnly)
      return 0;
    if (llvm::Error e = bangsim::optimize(**module, inv, passes))
      return reportCompileError(std::move(e));
    std::optional<OutputKind> k = kind();
    if (!k)
      return 0;
    std::error_code ec;
    std::string path = outputPath(*k);
    llvm::ToolOutputFile out(path, ec,
                             *k == OutputKind::LLVMText || *k == OutputKind::Assembly
                                 ? llvm::sys::fs::OF_Text
                                 : llvm::sys::fs::OF_None);
    if (ec) {
      llvm::WithColor::error(llvm::errs(), "bangc-sim")
          << "cannot write '" << path << "': " << ec.message() << "\n";
      return 1;
    }
    if (llvm::Error err = bangsim::writeOutput(**module, *k, inv, out.os()))
      return reportCompileError(std::move(err));
    // A write error (a full disk, /dev/full) is a clear error here, not
    // LLVM's fatal "IO failure" when the stream is destroyed.
    out.os().close();
    if (std::error_code wec = out.os().error()) {
      out.os().clear_error();
      llvm::WithColor::error(llvm::errs(), "bangc-sim")
          << "cannot write '" << path << "': " << wec.message() << "\n";
      // Only a regular file is removed: never a device such as /dev/full.
      if (!llvm::sys::fs::is_regular_file(path))
        out.keep();
      return 1;
    }
    out.keep();
    llvm::reportAndResetTimings(); // codegen's -mllvm -time-passes, if on
    return 0;
  }
};

} // namespace

int bangc::tools::reportCompileError(llvm::Error e) {
  int code = 1;
  llvm::handleAllErrors(
      std::move(e),
      [&](const CompileFailed &failed) {
        if (failed.summarized)
          return;
        llvm::errs() << failed.numErrors
                     << (failed.numErrors == 1 ? " error" : " errors")
                     << " generated.\n";
      },
      [&](const llvm::ErrorInfoBase &other) {
        llvm::WithColor::error(llvm::errs(), "bangc-sim") << other.message()
                                                          << "\n";
      });
  return code;
}

int bangc::tools::compileParse(llvm::ArrayRef<const char *> argv) {
  return parseOnly<CompileCommand>(argv);
}

int bangc::tools::compileMain(llvm::ArrayRef<const char *> argv) {
  return parseAndRun<CompileCommand>(argv);
}
