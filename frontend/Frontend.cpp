//===- Frontend.cpp - BANG source to LLVM IR through Clang ----------------===//
//
// Clang runs in process as a library. The clang driver builds the cc1
// command line (so the standard headers are found exactly as `clang++-19`
// finds them), a virtual file system serves the embedded prelude, and a
// CodeGenAction produces the module while the BANG checks look at the AST.
//
//===----------------------------------------------------------------------===//
#include "frontend/Frontend.h"
#include "frontend/BangChecks.h"
#include "frontend/KernelParams.h"
#include "frontend/SourceKind.h"

#include "bang/Embedded.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Pass.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/TargetParser/Host.h"

#ifndef BANGC_CLANG_PATH
#error "BANGC_CLANG_PATH must name the clang-19 executable"
#endif

using namespace bangc;
using llvm::Expected;

namespace {

/// The real file system with the embedded language headers (and an
/// in-memory source, if any) laid over it.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
makeFileSystem(llvm::StringRef sourcePath,
               std::optional<llvm::StringRef> contents) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const EmbeddedFile &file : embeddedHeaders()) {
    llvm::SmallString<128> path(embeddedIncludeDir());
    llvm::sys::path::append(path, file.path);
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBuffer(file.contents));
  }
  if (contents)
    memory->addFile(sourcePath, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(*contents, sourcePath));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  overlay->pushOverlay(memory);
  return overlay;
}

/// Which compilation of a source a Clang run is (docs/host-code.md).
enum class Side {
  DeviceOnly, ///< a device-only source: plain C++, all of it device code
  CudaDevice, ///< a host + device source's device side (CUDA device mode)
  CudaHost,   ///< a host + device source's host side (CUDA host mode)
  HostCxx,    ///< a host C++ source: no prelude, for the host
};

bool isCuda(Side side) {
  return side == Side::CudaDevice || side == Side::CudaHost;
}
bool isDevice(Side side) {
  return side == Side::DeviceOnly || side == Side::CudaDevice;
}

/// The clang driver's command line for compiling `source` with `options`:
/// for a device side, to IR that our CodeGenAction takes; for a host side,
/// to the object `output`, through Clang's own pipeline.
std::vector<std::string> driverArgs(llvm::StringRef source,
                                    const FrontendOptions &options, Side side,
                                    llvm::StringRef output = "/dev/null") {
  std::vector<std::string> args = {BANGC_CLANG_PATH, "-c", "-o", output.str()};
  bool cSource = side == Side::HostCxx && source.ends_with(".c");
  args.insert(args.end(),
              {"-x", cSource ? "c" : "c++",
               cSource ? "-std=c11" : "-std=" + options.languageStandard,
               "-O" + std::to_string(options.optLevel)});
  if (isDevice(side))
    args.insert(args.end(), {
      // One cc1 job; our CodeGenAction replaces its output.
      "-emit-llvm",
      // codegen/ owns the optimisation pipeline.
      "-Xclang", "-disable-llvm-passes",
      // Device code has no exceptions; clang then rejects `throw` and `try`.
      "-fno-exceptions",
      // Reproducible arithmetic: no silent contraction into FMAs, and half
      // rounds to binary16 after every operation.
      "-ffp-contract=off", "-Xclang", "-ffloat16-excess-precision=none",
      "-fno-math-errno"});
  else
    // Host code is ordinary C++ (exceptions and all); `half` still rounds
    // as on the device.
    args.insert(args.end(),
                {"-fPIC", "-Xclang", "-ffloat16-excess-precision=none"});
  args.insert(args.end(),
              {options.debugInfo ? "-g" : "-gline-tables-only", "-isystem",
               embeddedIncludeDir().str()});
  if (side != Side::HostCxx)
    args.insert(args.end(), {
      "-include", "bang/prelude.h",
      "-D__BANGC_SIM__=1",
      // What cncc predefines for --bang-mlu-arch: the architecture number
      // and the on-chip memory sizes in KiB (the prelude adds __BANG__).
      // Not MAX_NRAM_SIZE and the like: mlu-ops' kernels/kernel.h defines
      // those from these, and a predefined one would be "macro redefined"
      // there, an error under its -Werror.
      "-D__BANG_ARCH__=" + std::to_string(bangsim::bangArch(options.device)),
      "-D__MLU_NRAM_SIZE__=" + std::to_string(options.device.nramBytes / 1024),
      "-D__MLU_WRAM_SIZE__=" + std::to_string(options.device.wramBytes / 1024),
      "-D__MLU_SRAM_SIZE__=" + std::to_string(options.device.sramBytes / 1024),
    });
  if (options.colors)
    args.push_back("-fcolor-diagnostics");
  for (const std::string &dir : options.includeDirs)
    args.push_back("-I" + dir);
  for (const std::string &def : options.defines)
    args.push_back("-D" + def);
  args.push_back(source.str());
  return args;
}

/// The cc1 arguments the driver would run for `args`, or none if the driver
/// reported an error.
std::optional<std::vector<std::string>>
cc1Args(const std::vector<std::string> &args, clang::DiagnosticsEngine &diags,
        llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs) {
  clang::driver::Driver driver(BANGC_CLANG_PATH,
                               llvm::sys::getDefaultTargetTriple(), diags,
                               "bangc-sim", fs);
  driver.setCheckInputsExist(false);
  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  std::unique_ptr<clang::driver::Compilation> compilation(
      driver.BuildCompilation(argv));
  if (!compilation || diags.hasErrorOccurred())
    return std::nullopt;
  const clang::driver::JobList &jobs = compilation->getJobs();
  if (jobs.size() != 1)
    return std::nullopt;
  const llvm::opt::ArgStringList &cc1 = jobs.begin()->getArguments();
  return std::vector<std::string>(cc1.begin(), cc1.end());
}

/// Turns the C++ cc1 command line of a host + device source into its CUDA
/// one: the input is CUDA, the aux triple is the host's own (the device is
/// the host CPU too), and the device side compiles with -fcuda-is-device;
/// the host side embeds `deviceImage`.
void makeCudaArgs(std::vector<std::string> &cc1, Side side,
                  llvm::StringRef deviceImage) {
  std::string triple;
  for (size_t i = 0; i + 1 < cc1.size(); ++i) {
    if (cc1[i] == "-triple")
      triple = cc1[i + 1];
    if (cc1[i] == "-x" && cc1[i + 1] == "c++")
      cc1[i + 1] = "cuda";
  }
  std::vector<std::string> extra = {
      "-aux-triple", triple,
      // Clang lowers <<<>>> to __cudaPushCallConfiguration (not the old
      // cudaConfigureCall) and registers with __cudaRegisterFatBinaryEnd
      // from CUDA 10.1 on; the SDK version says which.
      "-target-sdk-version=12.5",
      // __bang_printf(const char *, ...) is a device function.
      "-fcuda-allow-variadic-functions"};
  if (side == Side::CudaDevice)
    extra.push_back("-fcuda-is-device");
  else
    extra.insert(extra.end(), {"-fcuda-include-gpubinary", deviceImage.str()});
  cc1.insert(cc1.begin() + 1, extra.begin(), extra.end());
}

/// EmitLLVMOnlyAction with the BANG checks looking at the same AST.
class BangCodeGenAction : public clang::EmitLLVMOnlyAction {
public:
  BangCodeGenAction(llvm::LLVMContext *context, const FrontendOptions &options,
                    llvm::StringRef memorySource)
      : EmitLLVMOnlyAction(context), options(options),
        memorySource(memorySource) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &ci,
                    llvm::StringRef inFile) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(createBangChecks(ci, options.device));
    consumers.push_back(EmitLLVMOnlyAction::CreateASTConsumer(ci, inFile));
    // After CodeGen: it reads how CodeGen passed each kernel parameter.
    if (clang::CodeGenerator *codegen = getCodeGenerator())
      consumers.push_back(createKernelParamsRecorder(ci, *codegen));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

  /// Reports the files read, while the source manager still holds them.
  void EndSourceFileAction() override {
    EmitLLVMOnlyAction::EndSourceFileAction();
    clang::CompilerInstance &ci = getCompilerInstance();
    if (!options.onInputFile || !ci.hasSourceManager() ||
        ci.getDiagnostics().hasErrorOccurred())
      return;
    clang::SourceManager &sm = ci.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      llvm::StringRef path = it->first.getName();
      if (path.starts_with(embeddedIncludeDir()) || path == memorySource)
        continue;
      if (std::optional<llvm::StringRef> data =
              it->second->getBufferDataIfLoaded())
        options.onInputFile(path, *data);
    }
  }

private:
  const FrontendOptions &options;
  llvm::StringRef memorySource; ///< the in-memory source's path, if any
};

/// One Clang run over `fileName` (or `contents` under that name) for
/// `side`, executing the action `makeAction` builds; `deviceImage` is the
/// file a host side embeds. Diagnostics go where `options` says. Fails with
/// CompileFailed after printing them.
llvm::Error runClang(
    llvm::StringRef fileName, std::optional<llvm::StringRef> contents,
    const FrontendOptions &options, Side side, llvm::StringRef output,
    llvm::StringRef deviceImage,
    llvm::function_ref<bool(clang::CompilerInstance &, llvm::StringRef)>
        execute) {
  llvm::SmallString<256> sourcePath(fileName);
  if (contents)
    llvm::sys::fs::make_absolute(sourcePath);
  auto fs = makeFileSystem(sourcePath, contents);

  llvm::raw_ostream &diagOS = options.diagnostics ? *options.diagnostics
                                                  : llvm::errs();
  auto diagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  diagOpts->ShowColors = options.colors;
  auto *printer = new clang::TextDiagnosticPrinter(diagOS, diagOpts.get());
  auto diags = clang::CompilerInstance::createDiagnostics(diagOpts.get(),
                                                          printer, true);

  std::optional<std::vector<std::string>> cc1 = cc1Args(
      driverArgs(contents ? llvm::StringRef(sourcePath) : fileName, options,
                 side, output),
      *diags, fs);
  if (!cc1)
    return llvm::make_error<CompileFailed>(
        std::max(1u, diags->getClient()->getNumErrors()));
  if (isCuda(side))
    makeCudaArgs(*cc1, side, deviceImage);

  clang::CompilerInstance ci;
  std::vector<const char *> cc1Argv;
  for (const std::string &a : *cc1)
    cc1Argv.push_back(a.c_str());
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, cc1Argv, *diags,
                                                 BANGC_CLANG_PATH))
    return llvm::make_error<CompileFailed>(
        std::max(1u, diags->getClient()->getNumErrors()));
  // The driver asks for -disable-free, which leaks in a long-lived process.
  invocation->getFrontendOpts().DisableFree = false;
  invocation->getCodeGenOpts().DisableFree = false;
  // The kernel parameter recorder (KernelParams.h) reads the AST after
  // CodeGen: keep it until the action ends.
  invocation->getCodeGenOpts().ClearASTBeforeBackend = false;
  // Clang's CodeGen sets LLVM's -time-passes flag from its own option: keep
  // what the user asked for with -mllvm -time-passes.
  invocation->getCodeGenOpts().TimePasses = llvm::TimePassesIsEnabled;
  invocation->getCodeGenOpts().TimePassesPerRun = llvm::TimePassesPerRun;
  ci.setInvocation(std::move(invocation));
  ci.setDiagnostics(diags.get());
  ci.setVerboseOutputStream(diagOS); // "N errors generated." goes there too
  ci.createFileManager(fs);

  bool ok = execute(ci, contents ? llvm::StringRef(sourcePath) : "");
  unsigned errors = diags->getClient()->getNumErrors();
  if (!ok || errors || diags->hasErrorOccurred())
    return llvm::make_error<CompileFailed>(std::max(1u, errors),
                                           /*summarized=*/true);
  return llvm::Error::success();
}

/// Whether the source is a host + device one (reads it if not in memory).
bool hostAndDevice(llvm::StringRef fileName,
                   std::optional<llvm::StringRef> contents) {
  if (contents)
    return isHostAndDeviceSource(*contents);
  auto buffer = llvm::MemoryBuffer::getFile(fileName);
  return buffer && isHostAndDeviceSource((*buffer)->getBuffer());
}

} // namespace

bool bangc::isHostAndDeviceFile(llvm::StringRef fileName,
                                std::optional<llvm::StringRef> contents) {
  return hostAndDevice(fileName, contents);
}

Expected<std::unique_ptr<llvm::Module>>
bangc::compileToIR(llvm::StringRef fileName,
                   std::optional<llvm::StringRef> contents,
                   const FrontendOptions &options, llvm::LLVMContext &context) {
  Side side = hostAndDevice(fileName, contents) ? Side::CudaDevice
                                                : Side::DeviceOnly;
  std::unique_ptr<llvm::Module> module;
  if (llvm::Error e = runClang(
          fileName, contents, options, side, "/dev/null", "",
          [&](clang::CompilerInstance &ci, llvm::StringRef memorySource) {
            BangCodeGenAction action(&context, options, memorySource);
            bool ok = ci.ExecuteAction(action);
            module = action.takeModule();
            return ok;
          }))
    return std::move(e);
  if (!module)
    return llvm::make_error<CompileFailed>(1);
  return std::move(module);
}

llvm::Error bangc::compileHostObject(llvm::StringRef fileName,
                                     const FrontendOptions &options,
                                     llvm::StringRef deviceImage,
                                     llvm::StringRef output) {
  Side side = deviceImage.empty() ? Side::HostCxx : Side::CudaHost;
  return runClang(fileName, std::nullopt, options, side, output, deviceImage,
                  [&](clang::CompilerInstance &ci, llvm::StringRef) {
                    clang::EmitObjAction action;
                    return ci.ExecuteAction(action);
                  });
}
