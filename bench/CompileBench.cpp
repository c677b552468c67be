//===- CompileBench.cpp - Compile latency per kernel file -----------------===//
//
//   bangc-bench-compile [--quick] [--json FILE] FILE.mlu...
//
// For each file, medians of repeated runs on this machine:
//  - cold: Module::compileFile without the compile cache (frontend,
//    optimisation, codegen, linking), in process; with where the time went;
//    runs alternate with the clang++ ones below, and with cold runs on one
//    thread (otherwise the module is split by kernel, or its codegen split,
//    over the host's cores);
//  - warm: the same with a populated compile cache in a fresh directory
//    (hashing, lookup, linking the stored object);
//  - clang++-19 -O2 -c of the same file, the prelude force-included as
//    bangc-sim does, as a process;
//  - the start-up of each process alone (`bangc-sim --version`,
//    `clang++-19 --version`), which the clang figure includes.
// Prints a Markdown table; --json FILE writes the figures.
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"
#include "bench/BenchUtil.h"
#include "codegen/ParallelCodegen.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace bangsim;

namespace {

void run(const std::string &command) {
  if (std::system(command.c_str()) != 0) {
    llvm::errs() << "error: " << command << " failed\n";
    std::exit(1);
  }
}

std::unique_ptr<Module> compile(llvm::StringRef file,
                                const CompileOptions &options) {
  auto m = Module::compileFile(file, defaultDeviceSpec(), options);
  if (!m) {
    llvm::errs() << "error: " << file << ": " << llvm::toString(m.takeError())
                 << "\n";
    std::exit(1);
  }
  return std::move(*m);
}

struct Figures {
  std::string file;
  double cold = 0, coldOneThread = 0, warm = 0, clang = 0;
  CompileTimes coldTimes; ///< of the median cold run
};

/// The same source as plain C++ for clang++-19, the prelude force-included
/// with the device's sizes (cncc's __MLU_*_SIZE__, in KiB) as bangc-sim does.
std::string clangCommand(const std::string &file) {
  const DeviceSpec &spec = defaultDeviceSpec();
  return llvm::formatv(
      "{0}++ -std=c++17 -O2 -c -x c++ -isystem {1} -isystem {2} -isystem {3} "
      "-include bang/prelude.h -D__MLU_NRAM_SIZE__={4} -D__MLU_WRAM_SIZE__={5} "
      "-D__MLU_SRAM_SIZE__={6} -D__BANGC_SIM__=1 -Xclang "
      "-ffloat16-excess-precision=none -fno-exceptions {7} -o /dev/null",
      BANGC_CLANG, BANGC_SOURCE_DIR "/lang/include",
      BANGC_BINARY_DIR "/lang/include", BANGC_SOURCE_DIR "/abi/include",
      spec.nramBytes / 1024, spec.wramBytes / 1024, spec.sramBytes / 1024,
      file);
}

Figures measure(const std::string &file, const std::string &cacheDir,
                int reps) {
  Figures f;
  f.file = file;
  // Cold and clang++ alternate, so that both see the same machine.
  CompileOptions off;
  off.useCache = false;
  std::string command = clangCommand(file);
  std::vector<std::pair<double, CompileTimes>> cold;
  std::vector<double> clang, oneThread;
  for (int i = 0; i < reps; ++i) {
    std::unique_ptr<Module> m;
    double t = bench::seconds([&] { m = compile(file, off); });
    cold.push_back({t, m->times()});
    clang.push_back(bench::seconds([&] { run(command); }));
    // Codegen on one thread (bangc::emitObjects splits it over the cores).
    ::setenv("BANGC_CODEGEN_THREADS", "1", 1);
    oneThread.push_back(bench::seconds([&] { m = compile(file, off); }));
    ::unsetenv("BANGC_CODEGEN_THREADS");
  }
  f.coldOneThread = bench::median(oneThread);
  std::sort(cold.begin(), cold.end(),
            [](auto &a, auto &b) { return a.first < b.first; });
  f.cold = cold[cold.size() / 2].first;
  f.coldTimes = cold[cold.size() / 2].second;
  f.clang = bench::median(clang);

  CompileOptions on;
  on.cacheDir = cacheDir;
  compile(file, on); // populates the cache
  std::vector<double> warm;
  for (int i = 0; i < reps; ++i) {
    std::unique_ptr<Module> m;
    double t = bench::seconds([&] { m = compile(file, on); });
    if (m->times().cacheOutcome != CacheOutcome::Hit) {
      llvm::errs() << "error: " << file << ": expected a cache hit, got "
                   << describeCache(m->times()) << "\n";
      std::exit(1);
    }
    warm.push_back(t);
  }
  f.warm = bench::median(warm);
  return f;
}

double startup(const std::string &command, int reps) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i)
    t.push_back(bench::seconds([&] { run(command + " > /dev/null"); }));
  return bench::median(t);
}

std::string relative(llvm::StringRef file) {
  llvm::StringRef root = BANGC_SOURCE_DIR "/";
  return file.starts_with(root) ? file.drop_front(root.size()).str()
                                : file.str();
}

} // namespace

int main(int argc, char **argv) {
  bench::Args args(argc, argv);
  bool quick = args.quick;
  std::string json = args.json;
  std::vector<std::string> files = args.positional;
  if (files.empty()) {
    llvm::errs() << "usage: bangc-bench-compile [--quick] [--json FILE] "
                    "FILE.mlu...\n";
    return 2;
  }
  int reps = quick ? 3 : 7;
  llvm::SmallString<128> cacheDir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("bangc-bench-cache", cacheDir)) {
    llvm::errs() << "error: no temporary directory: " << ec.message() << "\n";
    return 1;
  }
  // Load the shared libraries and initialise LLVM before timing anything.
  CompileOptions warmUp;
  warmUp.useCache = false;
  compile(files.front(), warmUp);
  std::vector<Figures> all;
  for (const std::string &file : files)
    all.push_back(measure(file, std::string(cacheDir), reps));
  double oursStartup =
      startup(std::string(BANGC_BINARY_DIR "/bin/bangc-sim --version"), reps);
  double clangStartup = startup(std::string(BANGC_CLANG "++ --version"), reps);
  llvm::sys::fs::remove_directories(cacheDir);

  llvm::outs()
      << "| kernel file | cold (frontend + BANG passes + optimise and "
         "codegen + jit) | cold, 1 thread | warm (cache hit) | "
         "clang++-19 -O2 -c | cold / clang |\n|---|---|---|---|---|---|\n";
  llvm::json::Array rows;
  for (const Figures &f : all) {
    const CompileTimes &t = f.coldTimes;
    llvm::outs() << llvm::formatv(
        "| {0} | {1:F1} ms ({2:F1} + {3:F1} + {4:F1} + {5:F1}) | {6:F1} ms | "
        "{7:F2} ms | {8:F1} ms | {9:F2} |\n",
        relative(f.file), f.cold * 1e3, t.frontend * 1e3, t.optimize * 1e3,
        t.codegen * 1e3, t.jit * 1e3, f.coldOneThread * 1e3, f.warm * 1e3,
        f.clang * 1e3, f.cold / f.clang);
    rows.push_back(llvm::json::Object{
        {"file", relative(f.file)},
        {"cold_s", f.cold},
        {"cold_frontend_s", t.frontend},
        {"cold_optimize_s", t.optimize},
        {"cold_codegen_s", t.codegen},
        {"cold_jit_s", t.jit},
        {"cold_codegen_1_thread_s", f.coldOneThread},
        {"warm_s", f.warm},
        {"clang_O2_c_s", f.clang},
    });
  }
  llvm::outs() << llvm::formatv(
      "\nProcess start-up alone: bangc-sim --version {0:F1} ms, "
      "clang++-19 --version {1:F1} ms (the clang++ figures include it; ours "
      "are in process).\n",
      oursStartup * 1e3, clangStartup * 1e3);
  if (!bench::writeJson(json, llvm::json::Object{
                                  {"reps", reps},
                                  {"codegen_threads",
                                   int64_t(bangc::defaultCodegenPartitions())},
                                  {"kernels", std::move(rows)},
                                  {"startup_bangc_sim_s", oursStartup},
                                  {"startup_clang_s", clangStartup},
                              }))
    return 1;
  return 0;
}
