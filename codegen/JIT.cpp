//===- JIT.cpp - Run compiled kernel modules in this process --------------===//
#include "codegen/JIT.h"
#include "codegen/Pipeline.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/MemoryBuffer.h"

#include <optional>

using namespace llvm;
using namespace bangc;

JITModule::~JITModule() = default;

Expected<std::unique_ptr<JITModule>>
JITModule::createFromObjects(std::vector<std::unique_ptr<MemoryBuffer>> objects,
                             const RuntimeSymbols &runtime) {
  initializeHostTarget();
  // The host does not change: detect it once (CPU features take cpuid).
  static const std::optional<orc::JITTargetMachineBuilder> host =
      []() -> std::optional<orc::JITTargetMachineBuilder> {
    auto detected = orc::JITTargetMachineBuilder::detectHost();
    if (!detected) {
      consumeError(detected.takeError());
      return std::nullopt;
    }
    return std::move(*detected);
  }();
  if (!host)
    return createStringError(inconvertibleErrorCode(),
                             "cannot detect the host for the JIT");
  auto jit = orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(*host)
                 .setNumCompileThreads(0)
                 .create();
  if (!jit)
    return jit.takeError();
  orc::JITDylib &dylib = (*jit)->getMainJITDylib();
  orc::SymbolMap symbols;
  for (const auto &[name, address] : runtime)
    symbols[(*jit)->mangleAndIntern(name)] = {
        orc::ExecutorAddr::fromPtr(address), JITSymbolFlags::Exported};
  if (Error e = dylib.define(orc::absoluteSymbols(std::move(symbols))))
    return std::move(e);
  for (std::unique_ptr<MemoryBuffer> &object : objects)
    if (Error e = (*jit)->addObjectFile(std::move(object)))
      return std::move(e);
  auto descAddr = (*jit)->lookup(BANGSIM_MODULE_DESC_SYMBOL);
  if (!descAddr)
    return descAddr.takeError();
  std::unique_ptr<JITModule> out(new JITModule());
  out->desc = descAddr->toPtr<const BangModuleDesc *>();
  out->jit = std::move(*jit);
  if (out->desc->abiVersion != BANGSIM_ABI_VERSION)
    return createStringError(inconvertibleErrorCode(),
                             "kernel module built for ABI version %d, this "
                             "simulator speaks %d",
                             out->desc->abiVersion, BANGSIM_ABI_VERSION);
  return std::move(out);
}
