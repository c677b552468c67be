//===- ParallelCodegen.cpp - Host objects from several threads ------------===//
#include "codegen/ParallelCodegen.h"
#include "codegen/Output.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/Threading.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <cstdlib>
#include <string>
#include <thread>

using namespace llvm;
using namespace bangc;

unsigned bangc::defaultCodegenPartitions() {
  if (const char *env = std::getenv("BANGC_CODEGEN_THREADS")) {
    unsigned n = 0;
    if (!StringRef(env).getAsInteger(10, n) && n > 0)
      return n;
  }
  unsigned cores = heavyweight_hardware_concurrency().compute_thread_count();
  return std::max(1u, std::min(cores, 4u));
}

Expected<std::vector<std::unique_ptr<MemoryBuffer>>>
bangc::emitObjects(Module &m, int optLevel, unsigned partitions) {
  std::vector<std::unique_ptr<MemoryBuffer>> objects;
  unsigned functions = 0;
  for (const Function &f : m)
    functions += !f.isDeclaration();
  if (partitions > 1 && functions < 2)
    partitions = 1;
  if (partitions <= 1) {
    auto object = emitObject(m, optLevel);
    if (!object)
      return object.takeError();
    objects.push_back(std::move(*object));
    return std::move(objects);
  }

  // Each partition crosses to its thread as bitcode: an LLVMContext is not
  // shared between threads.
  std::vector<SmallVector<char, 0>> bitcode;
  SplitModule(m, partitions, [&](std::unique_ptr<Module> part) {
    SmallVector<char, 0> bytes;
    raw_svector_ostream os(bytes);
    WriteBitcodeToFile(*part, os);
    bitcode.push_back(std::move(bytes));
  });
  size_t n = bitcode.size();
  objects.resize(n);
  std::vector<std::string> errors(n);
  auto compile = [&](size_t i) {
    LLVMContext context;
    MemoryBufferRef buffer(StringRef(bitcode[i].data(), bitcode[i].size()),
                           m.getModuleIdentifier());
    Expected<std::unique_ptr<Module>> part = parseBitcodeFile(buffer, context);
    if (!part) {
      errors[i] = toString(part.takeError());
      return;
    }
    auto object = emitObject(**part, optLevel);
    if (!object) {
      errors[i] = toString(object.takeError());
      return;
    }
    objects[i] = std::move(*object);
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < n; ++i)
    threads.emplace_back(compile, i);
  compile(0);
  for (std::thread &t : threads)
    t.join();
  for (const std::string &e : errors)
    if (!e.empty())
      return createStringError(inconvertibleErrorCode(), e);
  return std::move(objects);
}
