//===- Module.cpp - Compile BANG sources into launchable modules ----------===//
#include "bangsim/Module.h"

#include "CodegenOptions.h"
#include "CompileCache.h"
#include "CompileKey.h"

#include "codegen/JIT.h"
#include "codegen/NativeDeviceLib.h"
#include "codegen/Output.h"
#include "codegen/ParallelCodegen.h"
#include "codegen/Pipeline.h"
#include "frontend/Frontend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <cstdlib>
#include <optional>

using namespace bangsim;
using llvm::Expected;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Passes diagnostics through to `out` and keeps a copy, so that a cached
/// module prints its warnings again when it is loaded.
class TeeStream : public llvm::raw_ostream {
public:
  explicit TeeStream(llvm::raw_ostream &out) : out(out) { SetUnbuffered(); }
  std::string text;

private:
  void write_impl(const char *p, size_t n) override {
    out.write(p, n);
    text.append(p, n);
  }
  uint64_t current_pos() const override { return text.size(); }
  llvm::raw_ostream &out;
};

bool disabledByEnvironment() {
  const char *v = std::getenv("BANGC_CACHE_DISABLE");
  return v && *v && llvm::StringRef(v) != "0";
}

/// The files a compile read, as the cache records them.
struct InputRecorder {
  std::vector<CacheInput> inputs;
  std::string uncacheable; ///< why the result must not be stored

  /// By path, so that the same headers give the same entry.
  std::vector<CacheInput> sorted() const {
    std::vector<CacheInput> out = inputs;
    llvm::sort(out, [](const CacheInput &a, const CacheInput &b) {
      return a.path < b.path;
    });
    return out;
  }

  void record(llvm::StringRef path, llvm::StringRef contents) {
    llvm::SmallString<256> absolute(path);
    llvm::sys::fs::make_absolute(absolute);
    inputs.push_back({std::string(absolute), hashHex(contents)});
    scan(path, contents);
  }

  /// A result that depends on the clock is not stored (nor by ccache).
  void scan(llvm::StringRef path, llvm::StringRef contents) {
    for (llvm::StringRef macro : {"__DATE__", "__TIME__", "__TIMESTAMP__"})
      if (uncacheable.empty() && contents.contains(macro))
        uncacheable = (path + " uses " + macro).str();
  }
};

/// What the JIT links kernels against: simrt's runtime functions and, when
/// this host can run it, the precompiled device library.
const bangc::RuntimeSymbols &jitSymbols() {
  static const bangc::RuntimeSymbols symbols = [] {
    bangc::RuntimeSymbols all = runtimeSymbols();
    if (const bangc::NativeDeviceLibrary *lib =
            bangc::usableNativeDeviceLibrary())
      for (const bangc::NativeSymbol &s : lib->symbols)
        all.emplace_back(s.name, s.address);
    return all;
  }();
  return symbols;
}

} // namespace

std::string bangsim::compileCacheDirectory() {
  if (const char *dir = std::getenv("BANGC_CACHE_DIR"); dir && *dir)
    return dir;
  llvm::SmallString<256> path;
  if (!llvm::sys::path::cache_directory(path))
    return "";
  llvm::sys::path::append(path, "bangc-sim");
  return std::string(path);
}

std::string bangsim::describeCache(const CompileTimes &times) {
  switch (times.cacheOutcome) {
  case CacheOutcome::Disabled:
    return "cache off";
  case CacheOutcome::Hit:
    return "cache hit";
  case CacheOutcome::Miss:
    return "cache miss (stored)";
  case CacheOutcome::NotStored:
    return "cache miss (not stored: " + times.cacheNote + ")";
  }
  return "";
}

Module::Module() = default;
Module::~Module() = default;

using Objects = std::vector<std::unique_ptr<llvm::MemoryBuffer>>;

/// Frontend, optimisation and codegen of one source to host objects;
/// records where the time went and what the frontend read.
static Expected<Objects>
compileToObjects(llvm::StringRef name, std::optional<llvm::StringRef> source,
                 const DeviceSpec &spec, const CompileOptions &options,
                 llvm::raw_ostream *diagnostics, InputRecorder *recorder,
                 CompileTimes &times) {
  auto start = Clock::now();
  llvm::LLVMContext context;
  bangc::FrontendOptions fe;
  fe.includeDirs = options.includeDirs;
  fe.defines = options.defines;
  fe.optLevel = options.optLevel;
  fe.debugInfo = options.debugInfo;
  fe.device = spec;
  fe.diagnostics = diagnostics;
  if (recorder)
    fe.onInputFile = [recorder](llvm::StringRef path,
                                llvm::StringRef contents) {
      recorder->record(path, contents);
    };
  auto ir = bangc::compileToIR(name, source, fe, context);
  if (!ir)
    return ir.takeError();
  times.frontend = secondsSince(start);

  start = Clock::now();
  bangc::CodegenOptions cg = codegenOptions(options);
  cg.diagnostics = diagnostics;
  if (llvm::Error e = bangc::runBangPasses(**ir, cg))
    return std::move(e);
  times.optimize = secondsSince(start);

  start = Clock::now();
  auto objects = bangc::optimizeAndEmitObjects(
      **ir, cg, options.debugInfo, bangc::defaultCodegenPartitions());
  times.codegen = secondsSince(start);
  return objects;
}

Expected<std::unique_ptr<Module>>
Module::compileSource(llvm::StringRef name,
                      std::optional<llvm::StringRef> source,
                      const DeviceSpec &spec, const CompileOptions &options) {
  std::unique_ptr<Module> m(new Module());
  CompileTimes &times = m->compileTimes;
  llvm::raw_ostream &diagOut =
      options.diagnostics ? *options.diagnostics : llvm::errs();

  // The cache: the key, then a lookup; anything wrong there is a miss.
  std::optional<CompileCache> cache;
  std::string key;
  if (options.useCache && !disabledByEnvironment()) {
    auto start = Clock::now();
    std::string dir =
        options.cacheDir.empty() ? compileCacheDirectory() : options.cacheDir;
    std::unique_ptr<llvm::MemoryBuffer> file;
    if (!source)
      if (auto read = llvm::MemoryBuffer::getFile(name, /*IsText=*/false,
                                                  /*RequiresNullTerminator=*/
                                                  false))
        file = std::move(*read);
    // An unreadable file is not looked up: the frontend reports it.
    if (!dir.empty() && (source || file)) {
      cache.emplace(dir);
      key = compileKey(name, source ? *source : file->getBuffer(), !source,
                       spec, options);
      if (std::optional<CacheEntry> entry = cache->lookup(key)) {
        times.cache = secondsSince(start);
        auto loadStart = Clock::now();
        auto jit = bangc::JITModule::createFromObjects(
            std::move(entry->objects), jitSymbols());
        if (jit) {
          times.jit = secondsSince(loadStart);
          times.cacheOutcome = CacheOutcome::Hit;
          diagOut << entry->diagnostics;
          m->jit = std::move(*jit);
          m->collectKernels();
          return std::move(m);
        }
        // An object that does not load is recompiled and replaced.
        llvm::consumeError(jit.takeError());
      }
      times.cache = secondsSince(start);
    }
  }

  TeeStream tee(diagOut);
  InputRecorder recorder;
  if (source) // not read from disk, so not reported by the frontend
    recorder.scan(name, *source);
  auto objects = compileToObjects(name, source, spec, options,
                                  cache ? &tee : options.diagnostics,
                                  cache ? &recorder : nullptr, times);
  if (!objects)
    return objects.takeError();
  // The JIT takes its own copies; the cache stores these bytes.
  Objects copies;
  std::vector<llvm::StringRef> bytes;
  for (const std::unique_ptr<llvm::MemoryBuffer> &object : *objects) {
    copies.push_back(llvm::MemoryBuffer::getMemBufferCopy(
        object->getBuffer(), object->getBufferIdentifier()));
    bytes.push_back(object->getBuffer());
  }
  auto start = Clock::now();
  auto jit =
      bangc::JITModule::createFromObjects(std::move(copies), jitSymbols());
  if (!jit)
    return jit.takeError();
  times.jit = secondsSince(start);
  m->jit = std::move(*jit);
  m->collectKernels();

  if (cache) {
    start = Clock::now();
    times.cacheOutcome = CacheOutcome::NotStored;
    if (!recorder.uncacheable.empty()) {
      times.cacheNote = recorder.uncacheable;
    } else if (llvm::Error e =
                   cache->store(key, recorder.sorted(), bytes, tee.text)) {
      times.cacheNote = llvm::toString(std::move(e));
    } else {
      times.cacheOutcome = CacheOutcome::Miss;
    }
    times.cache += secondsSince(start);
  }
  return std::move(m);
}

Expected<std::unique_ptr<Module>>
Module::compileFile(llvm::StringRef path, const DeviceSpec &spec,
                    const CompileOptions &options) {
  return compileSource(path, std::nullopt, spec, options);
}

Expected<std::unique_ptr<Module>>
Module::compileString(llvm::StringRef name, llvm::StringRef source,
                      const DeviceSpec &spec, const CompileOptions &options) {
  return compileSource(name, source, spec, options);
}

void Module::collectKernels() {
  const BangModuleDesc &desc = jit->descriptor();
  for (int i = 0; i < desc.numKernels; ++i) {
    const BangKernelDesc &k = desc.kernels[i];
    kernelList.push_back(Kernel{k.name, k.pretty, k.signature, k.entry,
                                k.file ? k.file : "", k.line});
  }
  for (int s = 0; s < 3; ++s)
    layout.bytes[s] = desc.staticBytes[s];
  layout.inits.assign(desc.inits, desc.inits + desc.numInits);
}

Expected<const Kernel *> Module::findKernel(llvm::StringRef name) const {
  for (const Kernel &k : kernelList)
    if (k.name == name || k.pretty == name)
      return &k;
  const Kernel *found = nullptr;
  std::string candidates;
  for (const Kernel &k : kernelList) {
    llvm::StringRef base = llvm::StringRef(k.pretty).split('<').first;
    candidates += (candidates.empty() ? "" : ", ") + k.pretty;
    if (base != name)
      continue;
    if (found)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "kernel name '%s' is ambiguous; name one of: %s", name.str().c_str(),
          candidates.c_str());
    found = &k;
  }
  if (found)
    return found;
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(), "no kernel '%s' in the module%s%s",
      name.str().c_str(), candidates.empty() ? " (it has no kernels)" : "; it has: ",
      candidates.c_str());
}
