//===- Frontend.h - BANG source to LLVM IR through Clang ------*- C++ -*-===//
#ifndef BANGC_FRONTEND_H
#define BANGC_FRONTEND_H

#include "bang/CompileFailed.h"
#include "bangsim/DeviceSpec.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bangc {

struct FrontendOptions {
  std::vector<std::string> includeDirs; ///< -I
  std::vector<std::string> defines;     ///< -D, as "NAME" or "NAME=VALUE"
  int optLevel = 2;                     ///< -O0..-O3
  bool debugInfo = false;               ///< -g (line tables are always on)
  std::string languageStandard = "c++17"; ///< -std= of C++ sources
  bangsim::DeviceSpec device = bangsim::defaultDeviceSpec();
  /// Where clang-style diagnostics go; stderr when null.
  llvm::raw_ostream *diagnostics = nullptr;
  /// Colour diagnostics (as clang does on a terminal).
  bool colors = false;
  /// When set, called after a successful compile once for every file read
  /// from the real file system (the source file, headers, system headers),
  /// with the path as Clang opened it and the bytes Clang read. Embedded
  /// language headers and in-memory sources are not reported. The compile
  /// cache keys its entries on these.
  std::function<void(llvm::StringRef path, llvm::StringRef contents)>
      onInputFile;
};


/// Compiles `fileName` (or, if `contents` is given, that text under that
/// name) to an LLVM module: Clang parses and checks the C++ with the BANG
/// prelude force-included, then the BANG checks run. No LLVM optimisation
/// runs here; codegen owns the pipeline.
llvm::Expected<std::unique_ptr<llvm::Module>>
compileToIR(llvm::StringRef fileName, std::optional<llvm::StringRef> contents,
            const FrontendOptions &options, llvm::LLVMContext &context);

/// Whether the file (or `contents`) is a host + device source, whose device
/// side compileToIR compiles in CUDA device mode (docs/host-code.md).
bool isHostAndDeviceFile(llvm::StringRef fileName,
                         std::optional<llvm::StringRef> contents = std::nullopt);

/// The host compilation of `fileName` to the object file `output`, with
/// Clang's own -O<n> pipeline for the host CPU. With a `deviceImage` (the
/// path of a device image file, docs/host-code.md) `fileName` is a host +
/// device source: its host side in CUDA host mode, the image embedded and
/// registered at start-up. Without one it is a C or C++ host source, with
/// the language headers (cnrt.h) on its include path.
llvm::Error compileHostObject(llvm::StringRef fileName,
                              const FrontendOptions &options,
                              llvm::StringRef deviceImage,
                              llvm::StringRef output);

} // namespace bangc

#endif // BANGC_FRONTEND_H
