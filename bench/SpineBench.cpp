//===- SpineBench.cpp - Figures for the compiler spine and the device -----===//
//
// Measures, in one run on this machine, as ratios:
//  1. compile latency: cold compile-and-JIT of a ~100-line kernel through
//     bangc-sim's host API, against `clang++-19 -O2 -c` of the same file;
//  2. the simulated IO efficiency of a large GDRAM->NRAM->GDRAM copy kernel,
//     and its host time against memcpy of the same bytes.
// Medians of repeated runs. Prints a Markdown table; --json FILE also writes
// the figures as JSON.
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace bangsim;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename F> double seconds(F &&f) {
  auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

template <typename T> T check(llvm::Expected<T> v) {
  if (!v) {
    llvm::errs() << "error: " << llvm::toString(v.takeError()) << "\n";
    std::exit(1);
  }
  return std::move(*v);
}

struct Figures {
  double compileCold = 0, clangO2 = 0;
  double ioEfficiency = 0, simSeconds = 0, hostSeconds = 0, memcpySeconds = 0;
  uint64_t bytes = 0;
};

void compileLatency(Figures &f, int reps) {
  std::string file = BANGC_SOURCE_DIR "/bench/kernels/hundred_lines.mlu";
  const DeviceSpec &spec = defaultDeviceSpec();
  std::vector<double> ours, clang;
  for (int i = 0; i < reps; ++i)
    ours.push_back(seconds([&] { check(Module::compileFile(file, spec)); }));
  // The same source as a plain C++ file for clang++-19: the prelude is
  // force-included exactly as bangc-sim does.
  std::string command = llvm::formatv(
      "{0}++ -std=c++17 -O2 -c -x c++ -isystem {1} -isystem {2} -include "
      "bang/prelude.h -DMAX_NRAM_SIZE=786432 -Xclang "
      "-ffloat16-excess-precision=none {3} -o /dev/null",
      BANGC_CLANG, BANGC_SOURCE_DIR "/lang/include",
      BANGC_BINARY_DIR "/lang/include -isystem " BANGC_SOURCE_DIR
                       "/simrt/include",
      file);
  for (int i = 0; i < reps; ++i)
    clang.push_back(seconds([&] {
      if (std::system(command.c_str()) != 0) {
        llvm::errs() << "error: " << command << " failed\n";
        std::exit(1);
      }
    }));
  f.compileCold = median(ours);
  f.clangO2 = median(clang);
}

void copyKernel(Figures &f, uint64_t bytes, int reps) {
  const DeviceSpec &spec = defaultDeviceSpec();
  auto device = check(Device::open(spec));
  auto module = check(Module::compileFile(
      BANGC_SOURCE_DIR "/bench/kernels/copy.mlu", spec));
  const Kernel *kernel = check(module->findKernel("copy"));
  void *src = check(device->malloc(bytes));
  void *dst = check(device->malloc(bytes));
  if (llvm::Error e = device->memset(src, 7, bytes)) {
    llvm::errs() << llvm::toString(std::move(e)) << "\n";
    std::exit(1);
  }
  std::vector<double> host, copies;
  LaunchStats stats;
  for (int i = 0; i < reps; ++i) {
    stats = check(device->launch(
        *kernel, module->staticLayout(), {uint32_t(spec.numCores()), 1, 1},
        FuncType::Union1,
        {KernelArg::pointer(src), KernelArg::pointer(dst),
         KernelArg::i64(int64_t(bytes))}));
    host.push_back(stats.hostSeconds);
    copies.push_back(seconds([&] { std::memcpy(dst, src, bytes); }));
  }
  f.bytes = bytes;
  f.ioEfficiency = stats.ioEfficiency;
  f.simSeconds = stats.seconds;
  f.hostSeconds = median(host);
  f.memcpySeconds = median(copies);
}

} // namespace

int main(int argc, char **argv) {
  bool quick = false;
  std::string json;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc)
      json = argv[++i];
  }
  Figures f;
  compileLatency(f, quick ? 3 : 7);
  copyKernel(f, quick ? (uint64_t(64) << 20) : (uint64_t(256) << 20),
             quick ? 3 : 5);
  llvm::outs() << llvm::formatv(
      "| figure | bangc-sim | reference | ratio |\n|---|---|---|---|\n"
      "| cold compile + JIT of bench/kernels/hundred_lines.mlu | {0:F1} ms | "
      "clang++-19 -O2 -c: {1:F1} ms | {2:F2} (ours / clang) |\n"
      "| copy kernel, {3} MiB GDRAM->NRAM->GDRAM, 16 cores: simulated IO "
      "efficiency | {4:F1}% | 100% | {5:F3} |\n"
      "| copy kernel host time | {6:F1} ms | memcpy of the same bytes: {7:F1} "
      "ms | {8:F2} (memcpy / ours) |\n",
      f.compileCold * 1e3, f.clangO2 * 1e3, f.compileCold / f.clangO2,
      f.bytes >> 20, f.ioEfficiency * 100, f.ioEfficiency, f.hostSeconds * 1e3,
      f.memcpySeconds * 1e3, f.memcpySeconds / f.hostSeconds);
  if (!json.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(json, ec);
    os << llvm::formatv(
        "{{\"compile_cold_s\": {0}, \"clang_O2_s\": {1}, \"copy_bytes\": {2}, "
        "\"copy_io_efficiency\": {3}, \"copy_sim_s\": {4}, \"copy_host_s\": "
        "{5}, \"memcpy_s\": {6}}\n",
        f.compileCold, f.clangO2, f.bytes, f.ioEfficiency, f.simSeconds,
        f.hostSeconds, f.memcpySeconds);
  }
  return 0;
}
