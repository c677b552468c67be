//===- SpineBench.cpp - Figures for the simulated device ------------------===//
//
// Measures, in one run on this machine:
//  1. the simulated IO efficiency of a large GDRAM->NRAM->GDRAM copy kernel,
//     and its host time against memcpy of the same bytes;
//  2. simulator scaling: the same 16-core launch of a compute-heavy kernel
//     (bench/kernels/hundred_lines.mlu's affine_act, sigmoid) run by 1 and
//     by 2 host threads.
// Medians of repeated runs. Prints a Markdown table; --json FILE also writes
// the figures as JSON. (Compile latency is bangc-bench-compile's.)
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"
#include "bench/BenchUtil.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace bangsim;

namespace {

template <typename T> T check(llvm::Expected<T> v) {
  if (!v) {
    llvm::errs() << "error: " << llvm::toString(v.takeError()) << "\n";
    std::exit(1);
  }
  return std::move(*v);
}

void check(llvm::Error e) {
  if (e) {
    llvm::errs() << "error: " << llvm::toString(std::move(e)) << "\n";
    std::exit(1);
  }
}

struct CopyFigures {
  double ioEfficiency = 0, simSeconds = 0, hostSeconds = 0, memcpySeconds = 0;
  double cycles = 0;
  uint64_t bytes = 0;
};

CopyFigures copyKernel(uint64_t bytes, int reps) {
  CopyFigures f;
  const DeviceSpec &spec = defaultDeviceSpec();
  auto device = check(Device::open(spec));
  auto module = check(
      Module::compileFile(BANGC_SOURCE_DIR "/bench/kernels/copy.mlu", spec));
  const Kernel *kernel = check(module->findKernel("copy"));
  void *src = check(device->malloc(bytes));
  void *dst = check(device->malloc(bytes));
  check(device->memset(src, 7, bytes));
  std::vector<double> host, copies;
  LaunchStats stats;
  for (int i = 0; i < reps; ++i) {
    stats = check(
        device->launch(*kernel, module->staticLayout(),
                       {uint32_t(spec.numCores()), 1, 1}, FuncType::Union1,
                       {KernelArg::pointer(src), KernelArg::pointer(dst),
                        KernelArg::i64(int64_t(bytes))}));
    host.push_back(stats.hostSeconds);
    copies.push_back(bench::seconds([&] { std::memcpy(dst, src, bytes); }));
  }
  f.bytes = bytes;
  f.ioEfficiency = stats.ioEfficiency;
  f.simSeconds = stats.seconds;
  f.cycles = stats.cycles;
  f.hostSeconds = bench::median(host);
  f.memcpySeconds = bench::median(copies);
  return f;
}

struct ScalingFigures {
  int64_t elements = 0;
  unsigned tasks = 0;
  double oneThread = 0, twoThreads = 0;
  double cycles = 0;
};

/// The same launch (the card's cores as one UNION1 job) on 1 and 2 host
/// threads; runs alternate so that both see the same machine.
ScalingFigures scaling(int64_t elements, int reps) {
  ScalingFigures f;
  const DeviceSpec &spec = defaultDeviceSpec();
  auto device = check(Device::open(spec));
  auto module = check(Module::compileFile(
      BANGC_SOURCE_DIR "/bench/kernels/hundred_lines.mlu", spec));
  const Kernel *kernel = check(module->findKernel("affine_act<float>"));
  uint64_t bytes = uint64_t(elements) * sizeof(float);
  void *out = check(device->malloc(bytes));
  void *in = check(device->malloc(bytes));
  void *scale = check(device->malloc(bytes));
  void *shift = check(device->malloc(bytes));
  std::vector<float> host(elements);
  for (int64_t i = 0; i < elements; ++i)
    host[i] = float(i % 113) * 0.03f - 1.5f;
  for (void *p : {in, scale, shift})
    check(device->copyToDevice(p, host.data(), bytes));
  std::vector<double> times[2];
  for (int i = 0; i < reps; ++i)
    for (unsigned threads : {1u, 2u}) {
      LaunchOptions options;
      options.hostThreads = threads;
      LaunchStats stats = check(
          device->launch(*kernel, module->staticLayout(),
                         {uint32_t(spec.numCores()), 1, 1}, FuncType::Union1,
                         {KernelArg::pointer(out), KernelArg::pointer(in),
                          KernelArg::pointer(scale), KernelArg::pointer(shift),
                          KernelArg::i32(int32_t(elements)), KernelArg::i32(1)},
                         options));
      times[threads - 1].push_back(stats.hostSeconds);
      f.cycles = stats.cycles;
    }
  f.elements = elements;
  f.tasks = unsigned(spec.numCores());
  f.oneThread = bench::median(times[0]);
  f.twoThreads = bench::median(times[1]);
  return f;
}

} // namespace

int main(int argc, char **argv) {
  bench::Args args(argc, argv);
  bool quick = args.quick;
  std::string json = args.json;
  CopyFigures c = copyKernel(
      quick ? (uint64_t(64) << 20) : (uint64_t(256) << 20), quick ? 3 : 5);
  ScalingFigures s =
      scaling(quick ? (int64_t(1) << 23) : (int64_t(1) << 24), quick ? 3 : 5);
  llvm::outs() << llvm::formatv(
      "| figure | bangc-sim | reference | ratio |\n|---|---|---|---|\n"
      "| copy kernel, {0} MiB GDRAM->NRAM->GDRAM, 16 cores: simulated IO "
      "efficiency | {1:F1}% | 100% | {2:F3} |\n"
      "| copy kernel host time | {3:F1} ms | memcpy of the same bytes: {4:F1} "
      "ms | {5:F2} (memcpy / ours) |\n"
      "| affine_act<float> (sigmoid), {6} elements, {7} tasks UNION1, host "
      "time on 2 threads | {8:F1} ms | on 1 thread: {9:F1} ms | {10:F2}x "
      "speed-up |\n",
      c.bytes >> 20, c.ioEfficiency * 100, c.ioEfficiency, c.hostSeconds * 1e3,
      c.memcpySeconds * 1e3, c.memcpySeconds / c.hostSeconds, s.elements,
      s.tasks, s.twoThreads * 1e3, s.oneThread * 1e3,
      s.oneThread / s.twoThreads);
  if (!bench::writeJson(
          json,
          llvm::json::Object{
              {"copy", llvm::json::Object{{"bytes", int64_t(c.bytes)},
                                          {"io_efficiency", c.ioEfficiency},
                                          {"sim_s", c.simSeconds},
                                          {"simulated_cycles", c.cycles},
                                          {"host_s", c.hostSeconds},
                                          {"memcpy_s", c.memcpySeconds}}},
              {"scaling",
               llvm::json::Object{{"kernel", "affine_act<float>"},
                                  {"elements", s.elements},
                                  {"tasks", int64_t(s.tasks)},
                                  {"simulated_cycles", s.cycles},
                                  {"host_s_1_thread", s.oneThread},
                                  {"host_s_2_threads", s.twoThreads}}},
          }))
    return 1;
  return 0;
}
