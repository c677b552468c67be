//===- JITSymbolsTest.cpp - The JIT links kernels against device code only ===//
//
// Defence in depth behind the frontend's rule (docs/language.md, "What
// device code may call"): an object that reaches past the frontend and names
// a host symbol (`system`, `environ`) is refused when it is loaded, naming
// the symbol, and the C math library still links. The objects are made by
// compiling a kernel and then adding the reference to its IR, as a bypass of
// the frontend would.
//
//===----------------------------------------------------------------------===//
#include "codegen/JIT.h"
#include "codegen/ParallelCodegen.h"
#include "codegen/Pipeline.h"
#include "frontend/Frontend.h"

#include "bangsim/Device.h"

#include "llvm/IR/IRBuilder.h"

#include "gtest/gtest.h"

#include <string>

namespace {

const char *const source = R"(
__mlu_global__ void k(float *y) { y[taskId] = 1.0f; }
)";

/// Compiles `source`, adds a function `escape` that uses `symbol` (calls it
/// if `call`, else loads from it), and loads the objects into the JIT.
/// Returns the error message, or empty if it loaded.
std::string loadWithReference(llvm::StringRef symbol, bool call) {
  llvm::LLVMContext context;
  bangc::FrontendOptions fe;
  auto m = bangc::compileToIR("jit.mlu", llvm::StringRef(source), fe, context);
  if (!m)
    return "compile: " + llvm::toString(m.takeError());
  llvm::Module &module = **m;
  llvm::Type *f32 = llvm::Type::getFloatTy(context);
  auto *escape = llvm::Function::Create(
      llvm::FunctionType::get(f32, {f32}, false),
      llvm::GlobalValue::ExternalLinkage, "escape", module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", escape));
  if (call) {
    llvm::FunctionCallee callee = module.getOrInsertFunction(
        symbol, llvm::FunctionType::get(f32, {f32}, false));
    b.CreateRet(b.CreateCall(callee, {escape->getArg(0)}));
  } else {
    llvm::Constant *var = module.getOrInsertGlobal(symbol, f32);
    b.CreateRet(b.CreateLoad(f32, var));
  }
  if (llvm::Error e = bangc::optimizeModule(module, bangc::CodegenOptions()))
    return "optimize: " + llvm::toString(std::move(e));
  auto objects = bangc::emitObjects(module, 2, 1);
  if (!objects)
    return "emit: " + llvm::toString(objects.takeError());
  auto jit = bangc::JITModule::createFromObjects(std::move(*objects),
                                                 bangsim::runtimeSymbols());
  if (!jit)
    return llvm::toString(jit.takeError());
  return "";
}

TEST(JITSymbols, RefusesAHostFunction) {
  std::string error = loadWithReference("system", /*call=*/true);
  EXPECT_NE(error.find("kernel module refers to 'system', which is not "
                       "device code"),
            std::string::npos)
      << error;
}

TEST(JITSymbols, RefusesAHostVariable) {
  std::string error = loadWithReference("environ", /*call=*/false);
  EXPECT_NE(error.find("refers to 'environ'"), std::string::npos) << error;
}

TEST(JITSymbols, LinksTheCMathLibrary) {
  EXPECT_EQ(loadWithReference("expf", /*call=*/true), "");
  EXPECT_EQ(loadWithReference("sincosf", /*call=*/true), "");
}

} // namespace
