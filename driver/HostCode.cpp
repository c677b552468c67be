//===- HostCode.cpp - Host + device compiles and the executable link ------===//
#include "driver/HostCode.h"
#include "driver/Compile.h"
#include "driver/FatBinary.h"

#include "bang/CompileFailed.h"
#include "codegen/Pipeline.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#ifndef BANGC_CLANG_PATH
#error "BANGC_CLANG_PATH must name the clang-19 executable"
#endif
#ifndef BANGC_LLVM_LIB_DIR
#error "BANGC_LLVM_LIB_DIR must name the directory of libLLVM.so"
#endif

using namespace bangsim;

llvm::Expected<llvm::SmallVector<char, 0>>
bangsim::compileDeviceImage(llvm::StringRef source,
                            const CompilerInvocation &inv) {
  llvm::LLVMContext context;
  auto module = runFrontend(source, std::nullopt, inv, context);
  if (!module)
    return module.takeError();
  if (llvm::Error e = optimize(**module, inv))
    return std::move(e);
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  if (llvm::Error e = writeOutput(**module, OutputKind::Object, inv, os))
    return std::move(e);
  FatBinary fat;
  fat.device = inv.device().name;
  fat.object = llvm::StringRef(object.data(), object.size());
  fat.sourceName = source;
  return writeFatBinary(fat);
}

llvm::Error bangsim::compileHostAndDeviceObject(llvm::StringRef source,
                                                const CompilerInvocation &inv,
                                                llvm::StringRef output) {
  auto image = compileDeviceImage(source, inv);
  if (!image)
    return image.takeError();
  // Clang reads the image from a file (-fcuda-include-gpubinary).
  llvm::SmallString<128> imagePath;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "bangc-device", "fatbin", fd, imagePath))
    return llvm::createStringError(ec, "cannot create a temporary file: %s",
                                   ec.message().c_str());
  auto remove = llvm::make_scope_exit([&] { llvm::sys::fs::remove(imagePath); });
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(image->data(), image->size());
    if (os.has_error())
      return llvm::createStringError(os.error(), "cannot write '%s'",
                                     imagePath.c_str());
  }
  bangc::initializeHostTarget();
  return bangc::compileHostObject(source, inv.frontend, imagePath, output);
}

llvm::Error bangsim::compileHostObject(llvm::StringRef source,
                                       const CompilerInvocation &inv,
                                       llvm::StringRef output) {
  bangc::initializeHostTarget(); // Clang's codegen needs the host target
  return bangc::compileHostObject(source, inv.frontend, "", output);
}

std::string bangsim::runtimeLibraryDir() {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable("bangc-sim", &anchor);
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(dir, "lib");
  return std::string(dir);
}

llvm::Error bangsim::linkExecutable(llvm::ArrayRef<std::string> objects,
                                    llvm::StringRef output,
                                    llvm::StringRef libDir,
                                    llvm::ArrayRef<std::string> linkArgs) {
  llvm::SmallString<256> runtime(libDir);
  llvm::sys::path::append(runtime, "libbangsim_cnrt.a");
  if (!llvm::sys::fs::exists(runtime))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "cannot link: no CNRT runtime library at '%s'", runtime.c_str());
  std::vector<std::string> args = {BANGC_CLANG_PATH, "--driver-mode=g++"};
  args.insert(args.end(), objects.begin(), objects.end());
  args.insert(args.end(), linkArgs.begin(), linkArgs.end());
  // The runtime on the simulator's shared library; the runtime itself also
  // calls LLVM's support library, a DSO of its own.
  args.insert(args.end(),
              {"-o", output.str(), std::string(runtime), "-L" + libDir.str(),
               "-lbangsim", "-Wl,-rpath," + libDir.str(),
               "-L" BANGC_LLVM_LIB_DIR, "-lLLVM",
               "-Wl,-rpath," BANGC_LLVM_LIB_DIR, "-lpthread"});
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(BANGC_CLANG_PATH, argv, std::nullopt, {},
                                     0, 0, &message);
  if (rc != 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "link of '%s' failed%s%s",
        output.str().c_str(), message.empty() ? "" : ": ", message.c_str());
  return llvm::Error::success();
}

namespace {

/// How an input takes part in a host build.
enum class InputKind { Mlu, HostSource, Object };

InputKind inputKind(llvm::StringRef path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  if (ext == ".c" || ext == ".cc" || ext == ".cpp" || ext == ".cxx" ||
      ext == ".C")
    return InputKind::HostSource;
  if (ext == ".o" || ext == ".a" || ext == ".so")
    return InputKind::Object;
  return InputKind::Mlu;
}

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A device-only source's object, as `compile -c` has always written it.
llvm::Error writeDeviceObject(llvm::StringRef in, const CompilerInvocation &inv,
                              llvm::StringRef out) {
  llvm::LLVMContext context;
  auto module = runFrontend(in, std::nullopt, inv, context);
  if (!module)
    return module.takeError();
  if (llvm::Error e = optimize(**module, inv))
    return e;
  std::error_code ec;
  llvm::raw_fd_ostream os(out, ec);
  if (ec)
    return error("cannot write '" + out + "': " + ec.message());
  return writeOutput(**module, OutputKind::Object, inv, os);
}

} // namespace

bool bangsim::isHostBuild(llvm::ArrayRef<std::string> inputs,
                          bool objectsOnly, bool hasOutput) {
  if (inputs.empty())
    return false;
  if (inputs.size() > 1 || inputKind(inputs[0]) != InputKind::Mlu)
    return true;
  return (objectsOnly || hasOutput) && bangc::isHostAndDeviceFile(inputs[0]);
}

llvm::Error bangsim::buildHost(llvm::ArrayRef<std::string> inputs,
                               bool objectsOnly, llvm::StringRef output,
                               const CompilerInvocation &inv,
                               llvm::ArrayRef<std::string> linkArgs) {
  if (!objectsOnly && output.empty())
    return error("a link needs -o PROGRAM");
  std::vector<std::string> objects;
  std::vector<std::string> temporaries;
  auto cleanup = llvm::make_scope_exit([&] {
    for (const std::string &t : temporaries)
      llvm::sys::fs::remove(t);
  });
  for (const std::string &in : inputs) {
    InputKind k = inputKind(in);
    if (k == InputKind::Object) {
      if (objectsOnly)
        return error("'" + in + "' is already an object (-c)");
      objects.push_back(in);
      continue;
    }
    if (!llvm::sys::fs::exists(in))
      return error("no such file: '" + in + "'");
    std::string out;
    if (objectsOnly) {
      if (!output.empty()) {
        out = output.str();
      } else {
        llvm::SmallString<128> path(llvm::sys::path::filename(in));
        llvm::sys::path::replace_extension(path, ".o");
        out = std::string(path);
      }
    } else {
      llvm::SmallString<128> tmp;
      if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
              llvm::sys::path::stem(in), "o", tmp))
        return error("cannot create a temporary file: " + ec.message());
      out = std::string(tmp);
      temporaries.push_back(out);
    }
    llvm::Error err = llvm::Error::success();
    if (k == InputKind::HostSource)
      err = compileHostObject(in, inv, out);
    else if (bangc::isHostAndDeviceFile(in))
      err = compileHostAndDeviceObject(in, inv, out);
    else if (objectsOnly)
      err = writeDeviceObject(in, inv, out);
    else
      err = error("'" + in +
                  "' holds no host code (no <<<>>> launch, no main), so it "
                  "cannot be linked; compile it with -c, or load it with the "
                  "host API");
    if (err)
      return err;
    objects.push_back(out);
  }
  if (objectsOnly)
    return llvm::Error::success();
  return linkExecutable(objects, output, runtimeLibraryDir(), linkArgs);
}
