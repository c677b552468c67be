//===- Output.cpp - Write modules as .ll, .bc, .s or .o -------------------===//
#include "codegen/Output.h"
#include "codegen/Pipeline.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LegacyPassManager.h"

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
