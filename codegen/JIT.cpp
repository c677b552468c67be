//===- JIT.cpp - Run compiled kernel modules in this process --------------===//
//
// Links a module's host objects into this process with ORC's LLJIT. Two
// tools see the kernels too (docs/workbench.md): a module with DWARF (line
// tables are always kept; -g adds variables) is registered with the
// debugger JIT interface (gdb and lldb read it), and with BANGC_PERF_MAP=1
// every function linked is appended to /tmp/perf-<pid>.map, the map
// `perf report` reads for JIT code.
//
// A kernel object's undefined symbols resolve from the runtime and device
// library the caller passes and from the allow-list of DeviceExterns.h, never
// from this process: an object that names anything else (`system`,
// `environ`, `fopen`, ...: the frontend refuses such calls, this is the
// second line) is refused before it is linked, naming the symbols.
//
// A module's writable data (the file-scope variables of device code) is
// shared memory, as GDRAM buffers are: an isolated launch's worker process,
// forked from this one (simrt/lib/Isolate.cpp), then reads and writes the
// same variables a launch in this process does.
//
//===----------------------------------------------------------------------===//
#include "codegen/JIT.h"
#include "codegen/DeviceExterns.h"
#include "codegen/Pipeline.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/JITLink/JITLink.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace bangc;

namespace {

/// True if one of the objects carries DWARF (compiled with -g).
bool hasDebugInfo(const std::vector<std::unique_ptr<MemoryBuffer>> &objects) {
  for (const std::unique_ptr<MemoryBuffer> &object : objects) {
    auto file = object::ObjectFile::createObjectFile(object->getMemBufferRef());
    if (!file) {
      consumeError(file.takeError());
      continue;
    }
    for (const object::SectionRef &section : (*file)->sections()) {
      Expected<StringRef> name = section.getName();
      if (name && *name == ".debug_info")
        return true;
      if (!name)
        consumeError(name.takeError());
    }
  }
  return false;
}

/// Refuses objects that need a symbol from outside `available` (the
/// runtime's, the device externs') and the objects themselves, naming every
/// such symbol; the JIT would otherwise fail with less to go on, or (with a
/// process symbol generator) run it.
Error checkUndefinedSymbols(
    const std::vector<std::unique_ptr<MemoryBuffer>> &objects,
    const StringSet<> &available) {
  StringSet<> defined;
  std::vector<std::string> undefined;
  for (int pass = 0; pass < 2; ++pass)
    for (const std::unique_ptr<MemoryBuffer> &object : objects) {
      auto file =
          object::ObjectFile::createObjectFile(object->getMemBufferRef());
      if (!file)
        return file.takeError();
      for (const object::SymbolRef &symbol : (*file)->symbols()) {
        Expected<uint32_t> flags = symbol.getFlags();
        Expected<StringRef> name = symbol.getName();
        if (!flags || !name) {
          consumeError(flags.takeError());
          consumeError(name.takeError());
          continue;
        }
        if (name->empty())
          continue;
        bool isUndefined = *flags & object::SymbolRef::SF_Undefined;
        if (pass == 0 && !isUndefined)
          defined.insert(*name);
        if (pass == 1 && isUndefined && !defined.contains(*name) &&
            !available.contains(*name) && *name != "_GLOBAL_OFFSET_TABLE_" &&
            llvm::find(undefined, *name) == undefined.end())
          undefined.push_back(name->str());
      }
    }
  if (undefined.empty())
    return Error::success();
  std::string list;
  for (const std::string &name : undefined)
    list += (list.empty() ? "'" : ", '") + name + "'";
  return createStringError(
      inconvertibleErrorCode(),
      "kernel module refers to %s, which %s not device code: a kernel may "
      "call only the runtime, the device library and the C math and memory "
      "functions (docs/language.md, \"What device code may call\"); refusing "
      "to load it",
      list.c_str(), undefined.size() == 1 ? "is" : "are");
}

bool perfMapWanted() {
  const char *value = std::getenv("BANGC_PERF_MAP");
  return value && *value && StringRef(value) != "0";
}

/// A linker plugin that runs one function on each linked graph after its
/// fixups (addresses final, contents written), before it is finalised.
class PostFixupPlugin : public orc::ObjectLinkingLayer::Plugin {
public:
  using Pass = Error (*)(jitlink::LinkGraph &);
  explicit PostFixupPlugin(Pass pass) : pass(pass) {}
  void modifyPassConfig(orc::MaterializationResponsibility &,
                        jitlink::LinkGraph &,
                        jitlink::PassConfiguration &config) override {
    config.PostFixupPasses.push_back(
        [p = pass](jitlink::LinkGraph &graph) { return p(graph); });
  }
  Error notifyFailed(orc::MaterializationResponsibility &) override {
    return Error::success();
  }
  Error notifyRemovingResources(orc::JITDylib &, orc::ResourceKey) override {
    return Error::success();
  }
  void notifyTransferringResources(orc::JITDylib &, orc::ResourceKey,
                                   orc::ResourceKey) override {}

private:
  Pass pass;
};

/// Appends "START SIZE NAME" (hex) for every function of each linked graph
/// to /tmp/perf-<pid>.map, the format perf's JIT map support reads.
Error writePerfMap(jitlink::LinkGraph &graph) {
  static std::mutex lock;
  std::lock_guard<std::mutex> guard(lock);
  std::string path = "/tmp/perf-" + std::to_string(::getpid()) + ".map";
  std::FILE *map = std::fopen(path.c_str(), "a");
  if (!map)
    return Error::success(); // a profile without names, not a failure
  for (jitlink::Symbol *symbol : graph.defined_symbols())
    if (symbol->isCallable() && symbol->hasName() && symbol->getSize())
      std::fprintf(map, "%llx %llx %s\n",
                   (unsigned long long)symbol->getAddress().getValue(),
                   (unsigned long long)symbol->getSize(),
                   symbol->getName().str().c_str());
  std::fclose(map);
  return Error::success();
}

/// Remaps the pages of each linked graph's writable data as shared memory
/// (MAP_SHARED), keeping their contents, before the graph is finalised.
Error shareWritableData(jitlink::LinkGraph &graph) {
  // Every writable block of standard lifetime is in the graph's one
  // read-write segment, which the memory manager page-aligns: the pages
  // that hold them hold nothing else.
  // A fresh anonymous mapping is zero, as zero-fill blocks and the gaps
  // between blocks are: only initialised blocks are kept and written back
  // (a large zero-filled __mlu_device__ array is never copied).
  uint64_t lo = ~uint64_t(0), hi = 0;
  std::vector<std::pair<uint64_t, std::string>> initialised;
  for (jitlink::Section &section : graph.sections()) {
    if (section.getMemLifetime() != orc::MemLifetime::Standard ||
        section.getMemProt() != (orc::MemProt::Read | orc::MemProt::Write))
      continue;
    for (jitlink::Block *block : section.blocks()) {
      if (!block->getSize())
        continue;
      uint64_t start = block->getAddress().getValue();
      lo = std::min(lo, start);
      hi = std::max(hi, start + block->getSize());
      if (!block->isZeroFill())
        initialised.emplace_back(
            start, std::string(reinterpret_cast<const char *>(start),
                               size_t(block->getSize())));
    }
  }
  if (lo >= hi)
    return Error::success();
  uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
  lo = lo / page * page;
  hi = (hi + page - 1) / page * page;
  void *p = ::mmap(reinterpret_cast<void *>(lo), hi - lo,
                   PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (p == MAP_FAILED)
    return createStringError(inconvertibleErrorCode(),
                             "cannot map a kernel module's data as shared "
                             "memory: %s",
                             std::strerror(errno));
  for (const auto &[start, bytes] : initialised)
    std::memcpy(reinterpret_cast<void *>(start), bytes.data(), bytes.size());
  return Error::success();
}

} // namespace

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
  StringSet<> available;
  for (const auto &[name, address] : runtime)
    available.insert(name);
  for (unsigned i = 0; i < bangDeviceExternCount; ++i)
    available.insert(bangDeviceExterns[i].name);
  if (Error e = checkUndefinedSymbols(objects, available))
    return std::move(e);
  // No process symbols (LLJIT links them by default) and no platform (whose
  // start-up support would look in the process too): what a kernel reaches
  // outside itself is exactly `runtime` and the device externs.
  auto jit = orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(*host)
                 .setNumCompileThreads(0)
                 .setLinkProcessSymbolsByDefault(false)
                 // Debugger support wants the process JITDylib to exist:
                 // give it one that holds nothing.
                 .setProcessSymbolsJITDylibSetup(
                     [](orc::LLJIT &j) -> Expected<orc::JITDylibSP> {
                       return &j.getExecutionSession().createBareJITDylib(
                           "<Process Symbols>");
                     })
                 .setPlatformSetUp(orc::setUpInactivePlatform)
                 .create();
  if (!jit)
    return jit.takeError();
  auto *linker =
      dyn_cast<orc::ObjectLinkingLayer>(&(*jit)->getObjLinkingLayer());
  if (!linker)
    return createStringError(inconvertibleErrorCode(),
                             "the JIT links objects without JITLink");
  linker->addPlugin(std::make_unique<PostFixupPlugin>(shareWritableData));
  if (perfMapWanted())
    linker->addPlugin(std::make_unique<PostFixupPlugin>(writePerfMap));
  // Only objects with DWARF are worth registering (the registration copies
  // them): with the line tables always kept, that is every module, for about
  // 0.3 ms of a 5 ms cache-hit load of examples/vector_add.mlu.
  if (hasDebugInfo(objects))
    if (Error e = orc::enableDebuggerSupport(**jit))
      return std::move(e);
  orc::JITDylib &dylib = (*jit)->getMainJITDylib();
  orc::SymbolMap symbols;
  for (unsigned i = 0; i < bangDeviceExternCount; ++i)
    symbols[(*jit)->mangleAndIntern(bangDeviceExterns[i].name)] = {
        orc::ExecutorAddr::fromPtr(bangDeviceExterns[i].address),
        JITSymbolFlags::Exported};
  for (const auto &[name, address] : runtime) // the runtime's take precedence
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
