//===- Compile.cpp - The compile driver: source to host objects -----------===//
//
// The steps of a compile and the whole compile of one source through the
// compile cache (moved here from simrt's Module.cpp, which now only links
// the objects and collects the kernels).
//
//===----------------------------------------------------------------------===//
#include "driver/Compile.h"
#include "driver/CompileActivity.h"
#include "driver/CompileCache.h"
#include "driver/CompileKey.h"

#include "codegen/ParallelCodegen.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <cstdlib>

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

Expected<std::unique_ptr<llvm::Module>> bangsim::runFrontend(
    llvm::StringRef name, std::optional<llvm::StringRef> source,
    const CompilerInvocation &inv, llvm::LLVMContext &context) {
  return bangc::compileToIR(name, source, inv.frontend, context);
}

llvm::Error bangsim::optimize(llvm::Module &m, const CompilerInvocation &inv,
                              llvm::StringRef passes) {
  if (passes.empty())
    return bangc::optimizeModule(m, inv.codegen);
  return bangc::runPassPipeline(m, passes, inv.codegen);
}

llvm::Error bangsim::writeOutput(llvm::Module &m, OutputKind kind,
                                 const CompilerInvocation &inv,
                                 llvm::raw_pwrite_stream &os) {
  return bangc::writeModule(m, kind, inv.codegen.optLevel, os);
}

Expected<Objects>
bangsim::compileToObjects(llvm::StringRef name,
                          std::optional<llvm::StringRef> source,
                          const CompilerInvocation &inv, CompileTimes &times) {
  auto start = Clock::now();
  llvm::LLVMContext context;
  auto ir = runFrontend(name, source, inv, context);
  if (!ir)
    return ir.takeError();
  times.frontend = secondsSince(start);

  start = Clock::now();
  if (llvm::Error e = bangc::runBangPasses(**ir, inv.codegen))
    return std::move(e);
  times.optimize = secondsSince(start);

  start = Clock::now();
  auto objects =
      bangc::optimizeAndEmitObjects(**ir, inv.codegen, inv.keepDebugInfo(),
                                    bangc::defaultCodegenPartitions());
  times.codegen = secondsSince(start);
  return objects;
}

llvm::Error bangsim::compileCached(llvm::StringRef name,
                                   std::optional<llvm::StringRef> source,
                                   const DeviceSpec &spec,
                                   const CompileOptions &options,
                                   CompileTimes &times, ObjectLoader load) {
  CompileScope running(name); // bounded by bangc-sim's compile limits
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
      // A directory others can write is refused, and said so: its entries
      // could be anyone's code (docs/cache.md).
      if (llvm::Error e = cache->checkTrusted()) {
        times.cacheNote = llvm::toString(std::move(e));
        times.cacheOutcome = CacheOutcome::NotStored;
        diagOut << "warning: not using the compile cache '" << dir
                << "': " << times.cacheNote
                << " (chmod go-w it, or set BANGC_CACHE_DIR)\n";
        cache.reset();
      }
    }
    if (cache) {
      key = compileKey(name, source ? *source : file->getBuffer(), !source,
                       spec, options);
      if (std::optional<CacheEntry> entry = cache->lookup(key)) {
        times.cache = secondsSince(start);
        auto loadStart = Clock::now();
        llvm::Error loaded = load(std::move(entry->objects));
        if (!loaded) {
          times.jit = secondsSince(loadStart);
          times.cacheOutcome = CacheOutcome::Hit;
          diagOut << entry->diagnostics;
          return llvm::Error::success();
        }
        // An object that does not load is recompiled and replaced.
        llvm::consumeError(std::move(loaded));
      }
      times.cache = secondsSince(start);
    }
  }

  TeeStream tee(diagOut);
  InputRecorder recorder;
  if (source) // not read from disk, so not reported by the frontend
    recorder.scan(name, *source);
  CompilerInvocation inv = makeInvocation(options, spec);
  if (cache) {
    inv.frontend.diagnostics = inv.codegen.diagnostics = &tee;
    inv.frontend.onInputFile = [&recorder](llvm::StringRef path,
                                           llvm::StringRef contents) {
      recorder.record(path, contents);
    };
  }
  auto objects = compileToObjects(name, source, inv, times);
  if (!objects)
    return objects.takeError();
  // The loader takes its own copies; the cache stores these bytes.
  Objects copies;
  std::vector<llvm::StringRef> bytes;
  for (const std::unique_ptr<llvm::MemoryBuffer> &object : *objects) {
    copies.push_back(llvm::MemoryBuffer::getMemBufferCopy(
        object->getBuffer(), object->getBufferIdentifier()));
    bytes.push_back(object->getBuffer());
  }
  auto start = Clock::now();
  if (llvm::Error e = load(std::move(copies)))
    return e;
  times.jit = secondsSince(start);

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
  return llvm::Error::success();
}
