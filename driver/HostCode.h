//===- HostCode.h - Host + device compiles and the executable link -*- C++ -*-===//
//
// What `bangc-sim compile` does with host code, as cncc does it
// (docs/host-code.md): a .mlu that holds host code compiles twice, its
// device side through our pipeline into a device image, its host side with
// Clang's CUDA host mode into a host object that embeds the image; a C/C++
// host source compiles to an object with the language headers (cnrt.h) on
// its include path; the objects link into an executable with the CNRT
// runtime library.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_DRIVER_HOSTCODE_H
#define BANGSIM_DRIVER_HOSTCODE_H

#include "driver/CompilerInvocation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace bangsim {

/// The device image of a host + device source (docs/host-code.md): its
/// device side compiled whole to one object, with the device's name.
llvm::Expected<llvm::SmallVector<char, 0>>
compileDeviceImage(llvm::StringRef source, const CompilerInvocation &inv);

/// A host + device source to the host object `output`: host code, kernel
/// stubs, the registration constructor and the device image.
llvm::Error compileHostAndDeviceObject(llvm::StringRef source,
                                       const CompilerInvocation &inv,
                                       llvm::StringRef output);

/// A C or C++ host source to the object `output`.
llvm::Error compileHostObject(llvm::StringRef source,
                              const CompilerInvocation &inv,
                              llvm::StringRef output);

/// Links host objects into the executable `output` with the CNRT runtime
/// library found in `libDir` (the installed or build tree's lib/), running
/// the system linker through clang. `linkArgs` (-L DIR, -l NAME, as cncc
/// takes them) come after the objects and before the runtime.
llvm::Error linkExecutable(llvm::ArrayRef<std::string> objects,
                           llvm::StringRef output, llvm::StringRef libDir,
                           llvm::ArrayRef<std::string> linkArgs = {});

/// The lib/ directory beside the running executable's bin/.
std::string runtimeLibraryDir();

/// Whether `bangc-sim compile` of `inputs` (-c: `objectsOnly`; -o given:
/// `hasOutput`) is a host build: several inputs, a host source or object,
/// or one .mlu holding host code with -c or -o.
bool isHostBuild(llvm::ArrayRef<std::string> inputs, bool objectsOnly,
                 bool hasOutput);

/// The host build of `inputs`: .mlu files (host + device sources to host
/// objects; with -c, device-only ones to their device object), C/C++ host
/// sources (.c .cc .cpp .cxx .C) to objects, objects (.o .a .so) as they
/// are. With `objectsOnly` (-c) each object is written to `output` (one
/// input) or to its base name with .o; otherwise they link into the
/// executable `output`.
llvm::Error buildHost(llvm::ArrayRef<std::string> inputs, bool objectsOnly,
                      llvm::StringRef output, const CompilerInvocation &inv,
                      llvm::ArrayRef<std::string> linkArgs = {});

} // namespace bangsim

#endif // BANGSIM_DRIVER_HOSTCODE_H
