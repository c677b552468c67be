//===- Output.cpp - Write modules as .ll, .bc, .s or .o -------------------===//
#include "codegen/Output.h"
#include "codegen/Pipeline.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"

using namespace llvm;
using namespace bangc;

Error bangc::writeModule(Module &m, OutputKind kind, int optLevel,
                         raw_pwrite_stream &os) {
  switch (kind) {
  case OutputKind::LLVMText:
    m.print(os, nullptr);
    return Error::success();
  case OutputKind::LLVMBitcode:
    WriteBitcodeToFile(m, os);
    return Error::success();
  case OutputKind::Assembly:
  case OutputKind::Object:
    break;
  }
  auto tm = createHostTargetMachine(optLevel);
  if (!tm)
    return tm.takeError();
  m.setDataLayout((*tm)->createDataLayout());
  legacy::PassManager pm;
  CodeGenFileType type = kind == OutputKind::Assembly
                             ? CodeGenFileType::AssemblyFile
                             : CodeGenFileType::ObjectFile;
  if ((*tm)->addPassesToEmitFile(pm, os, nullptr, type))
    return createStringError(inconvertibleErrorCode(),
                             "the host target cannot emit this file type");
  pm.run(m);
  return Error::success();
}

Expected<std::unique_ptr<MemoryBuffer>> bangc::emitObject(Module &m,
                                                          int optLevel) {
  SmallVector<char, 0> bytes;
  raw_svector_ostream os(bytes);
  if (Error e = writeModule(m, OutputKind::Object, optLevel, os))
    return std::move(e);
  return std::make_unique<SmallVectorMemoryBuffer>(
      std::move(bytes), m.getModuleIdentifier() + ".o",
      /*RequiresNullTerminator=*/false);
}
