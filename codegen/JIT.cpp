//===- JIT.cpp - Run compiled kernel modules in this process --------------===//
#include "codegen/JIT.h"
#include "codegen/Pipeline.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace bangc;

JITModule::~JITModule() = default;

Expected<std::unique_ptr<JITModule>>
JITModule::make(const RuntimeSymbols &runtime, int optLevel,
                function_ref<Error(orc::LLJIT &)> add) {
  // Make sure the native target is initialised.
  auto tm = createHostTargetMachine(optLevel);
  if (!tm)
    return tm.takeError();
  auto jtmb = orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    return jtmb.takeError();
  jtmb->setCodeGenOptLevel((*tm)->getOptLevel());
  auto jit = orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*jtmb))
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
  if (Error e = add(**jit))
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

Expected<std::unique_ptr<JITModule>>
JITModule::create(std::unique_ptr<Module> m, std::unique_ptr<LLVMContext> ctx,
                  int optLevel, const RuntimeSymbols &runtime) {
  return make(runtime, optLevel, [&](orc::LLJIT &jit) {
    return jit.addIRModule(
        orc::ThreadSafeModule(std::move(m), std::move(ctx)));
  });
}

Expected<std::unique_ptr<JITModule>>
JITModule::createFromObject(std::unique_ptr<MemoryBuffer> object,
                            const RuntimeSymbols &runtime) {
  return make(runtime, 2, [&](orc::LLJIT &jit) {
    return jit.addObjectFile(std::move(object));
  });
}
