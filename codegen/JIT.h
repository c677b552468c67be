//===- JIT.h - Run compiled kernel modules in this process ----*- C++ -*-===//
#ifndef BANGC_JIT_H
#define BANGC_JIT_H

#include "bangsim/KernelABI.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

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
  /// Compiles `m` (already optimised) for the host. Symbols the module
  /// needs come from `runtime` first, then from this process (libm, libc).
  static llvm::Expected<std::unique_ptr<JITModule>>
  create(std::unique_ptr<llvm::Module> m,
         std::unique_ptr<llvm::LLVMContext> ctx, int optLevel,
         const RuntimeSymbols &runtime);
  /// The same, from a relocatable object file (the compile cache's).
  static llvm::Expected<std::unique_ptr<JITModule>>
  createFromObject(std::unique_ptr<llvm::MemoryBuffer> object,
                   const RuntimeSymbols &runtime);
  ~JITModule();

  const BangModuleDesc &descriptor() const { return *desc; }

private:
  JITModule() = default;
  static llvm::Expected<std::unique_ptr<JITModule>>
  make(const RuntimeSymbols &runtime, int optLevel,
       llvm::function_ref<llvm::Error(llvm::orc::LLJIT &)> add);
  std::unique_ptr<llvm::orc::LLJIT> jit;
  const BangModuleDesc *desc = nullptr;
};

} // namespace bangc

#endif // BANGC_JIT_H
