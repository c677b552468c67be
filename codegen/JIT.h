//===- JIT.h - Run compiled kernel modules in this process ----*- C++ -*-===//
#ifndef BANGC_JIT_H
#define BANGC_JIT_H

#include "bangsim/KernelABI.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm::orc {
class LLJIT;
}

namespace bangc {

/// Addresses of the runtime functions a kernel module calls (simrt's).
using RuntimeSymbols = std::vector<std::pair<std::string, void *>>;

/// One kernel module, compiled to machine code by ORC's LLJIT and kept
/// alive as long as this object.
class JITModule {
public:
  /// Links the relocatable host objects of one module (bangc::emitObjects',
  /// or the compile cache's) into this process. Symbols the module needs
  /// come from `runtime` and the device externs (DeviceExterns.h) only: an
  /// object that needs any other (`system`, `environ`) is an error naming
  /// them, before anything is linked.
  static llvm::Expected<std::unique_ptr<JITModule>>
  createFromObjects(std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
                    const RuntimeSymbols &runtime);
  ~JITModule();

  const BangModuleDesc &descriptor() const { return *desc; }

private:
  JITModule() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  const BangModuleDesc *desc = nullptr;
};

} // namespace bangc

#endif // BANGC_JIT_H
