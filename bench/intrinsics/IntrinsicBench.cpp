//===- IntrinsicBench.cpp - Intrinsic throughput against plain C++ loops --===//
//
// For each intrinsic family, a kernel calls the intrinsic REPS times on NRAM
// arrays of N elements; the same work runs as a plain C++ loop compiled
// with -O3 -march=native on host arrays of the same size. Both are timed in
// this run on this machine; the ratio is plain time / intrinsic time (at
// least 1.0 means no slower). Medians of repeated runs. The kernels are
// compiled twice: as at -O2 (calling the device library precompiled for this
// CPU) and with every intrinsic inlined (-finline-intrinsics, -O3's
// default). Prints a Markdown table; --json FILE also writes the figures.
//
//   bangc-bench-intrinsics [--quick] [--json FILE]
//
//===----------------------------------------------------------------------===//
#include "PlainLoops.h"
#include "bench/BenchUtil.h"

#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <vector>

using namespace bangsim;

namespace {

constexpr int N = 32768; // elements per call: 128 KiB of float per array
constexpr int Reps = 2000;

// Each kernel first loads its operands from GDRAM, as a real kernel does:
// NRAM pages that were never written are the host's shared zero page, and
// reading many of them at once costs AMD CPUs about 1.4x (linear aliasing
// in the L1 way predictor), which once made every binary op look 20% slower
// than the plain loop reading initialised host arrays.
const char *const source = R"(
#define N 32768
__nram__ float a[N + 48];
__nram__ float b[N + 80];
__nram__ float c[N];
#define LOAD __memcpy(a, x, N * sizeof(float), GDRAM2NRAM); __memcpy(b, y, N * sizeof(float), GDRAM2NRAM)
#define KERNEL(NAME, BODY) \
  __mlu_global__ void NAME(const float *x, const float *y, int reps) { LOAD; for (int r = 0; r < reps; ++r) { BODY; } }
KERNEL(add, __bang_add(c, a, b, N))
KERNEL(mul, __bang_mul(c, a, b, N))
KERNEL(fma, __bang_fusion(FUSION_FMA, c, a, 0.5f, b, N, N))
KERNEL(lt, __bang_lt(c, a, b, N))
KERNEL(tohalf, __bang_float2half_rn((half *)c, a, N))
KERNEL(relu, __bang_active_relu(c, a, N))
KERNEL(exp, __bang_active_exp(c, a, N))
KERNEL(sum, __bang_reduce_sum(c + r % 16, a, N))
__wram__ float ones[64];
KERNEL(rotate90, __bang_rotate90(c, a, 128, 256))
KERNEL(mirror, __bang_mirror(c, a, 128, 256))
KERNEL(pad, __bang_pad(c, a, 1, 127, 255, 1, 0, 0, 1))
KERNEL(interleave, __bang_move(c, a, 4, 8, 4, N / 2))
KERNEL(broadcast, __memcpy(c, a, 256, NRAM2NRAM, 256, 3, 1024, N / 256 - 1, 0, 3, 256, N / 256 - 1))
KERNEL(incseq, __bang_incseq((int *)c, N))
KERNEL(srl, __bang_srl((unsigned *)c, (const unsigned *)a, 7u, N))
KERNEL(expand, __bang_expand_channel_mul(c, a, ones, b, N / 64, 64))
KERNEL(toint_rd, __bang_float2int32_rd((int *)c, a, N, 0))
KERNEL(tobf16, __bang_float2bfloat16_rn((bfloat16_t *)c, a, N))
KERNEL(fsm_cycle, __bang_fusion(FUSION_FSM, c, a, b, 0.5f, N, 64))
KERNEL(filter, __bang_filter(c, a, b, N))
KERNEL(count, ((int *)c)[r % 16] = __bang_count(b, N))
KERNEL(gt_bits, __bang_gt_bitindex(c, a, b, N))
)";

} // namespace

int main(int argc, char **argv) {
  bench::Args args(argc, argv);
  bool quick = args.quick;
  std::string json = args.json;
  int runs = quick ? 3 : 7;
  int reps = quick ? Reps / 4 : Reps;
  const DeviceSpec &spec = defaultDeviceSpec();
  auto device = Device::open(spec);
  auto module = Module::compileString("intrinsics.mlu", source, spec);
  CompileOptions inlining;
  inlining.inlineIntrinsics = true;
  auto inlined =
      Module::compileString("intrinsics.mlu", source, spec, inlining);
  if (!device || !module || !inlined) {
    llvm::errs() << "error: cannot set up the bench\n";
    return 1;
  }
  std::vector<float> a(N), b(N), c(N);
  std::vector<_Float16> h(N);
  for (int i = 0; i < N; ++i) {
    a[i] = float(i % 97) * 0.01f - 0.3f;
    b[i] = float(i % 89) * 0.02f;
  }
  auto x = (*device)->malloc(N * sizeof(float));
  auto y = (*device)->malloc(N * sizeof(float));
  if (!x || !y || (*device)->copyToDevice(*x, a.data(), N * sizeof(float)) ||
      (*device)->copyToDevice(*y, b.data(), N * sizeof(float))) {
    llvm::errs() << "error: cannot set up the bench's device buffers\n";
    return 1;
  }
  volatile float sink = 0;
  struct Family {
    const char *kernel, *what;
    std::function<void()> plain;
  };
  std::vector<Family> families = {
      {"add", "__bang_add f32",
       [&] { plainAdd(c.data(), a.data(), b.data(), N); }},
      {"mul", "__bang_mul f32",
       [&] { plainMul(c.data(), a.data(), b.data(), N); }},
      {"fma", "__bang_fusion FMA f32",
       [&] { plainFma(c.data(), a.data(), 0.5f, b.data(), N); }},
      {"lt", "__bang_lt f32",
       [&] { plainLt(c.data(), a.data(), b.data(), N); }},
      {"tohalf", "__bang_float2half_rn",
       [&] { plainToHalf(h.data(), a.data(), N); }},
      {"relu", "__bang_active_relu f32",
       [&] { plainRelu(c.data(), a.data(), N); }},
      {"exp", "__bang_active_exp f32",
       [&] { plainExp(c.data(), a.data(), N); }},
      {"sum", "__bang_reduce_sum f32",
       [&] { sink = sink + plainSum(a.data(), N); }},
      {"rotate90", "__bang_rotate90 f32 128x256",
       [&] { plainRotate90(c.data(), a.data(), 128, 256); }},
      {"mirror", "__bang_mirror f32 128x256",
       [&] { plainMirror(c.data(), a.data(), 128, 256); }},
      {"pad", "__bang_pad f32 127x255 to 128x256",
       [&] { plainPad(c.data(), a.data(), 127, 255, 1, 0, 128, 256); }},
      {"interleave", "__bang_move strided (4 B segments)",
       [&] { plainInterleave(c.data(), a.data(), N / 2); }},
      {"broadcast", "__memcpy 3-level NRAM2NRAM (256 B segments)",
       [&] { plainBroadcastRows(c.data(), a.data(), N / 256, 4, 64); }},
      {"incseq", "__bang_incseq int32",
       [&] { plainIncseq((int *)c.data(), N); }},
      {"srl", "__bang_srl uint32",
       [&] {
         plainSrl((unsigned *)c.data(), (const unsigned *)a.data(), 7u, N);
       }},
      {"expand", "__bang_expand_channel_mul f32 512x64",
       [&] { plainExpandMul(c.data(), a.data(), b.data(), N / 64, 64); }},
      // Families F4, F6, F9 (issue 18).
      {"toint_rd", "__bang_float2int32_rd (ties away)",
       [&] { plainToIntRound((int *)c.data(), a.data(), N); }},
      {"tobf16", "__bang_float2bfloat16_rn",
       [&] { plainToBf16((unsigned short *)c.data(), a.data(), N); }},
      {"fsm_cycle", "__bang_fusion FSM, b repeating every 64",
       [&] { plainFsmCycle(c.data(), a.data(), b.data(), 0.5f, N, 64); }},
      {"filter", "__bang_filter f32",
       [&] { sink = sink + plainFilter(c.data(), a.data(), b.data(), N); }},
      {"count", "__bang_count f32",
       [&] { sink = sink + plainCount(b.data(), N); }},
      {"gt_bits", "__bang_gt_bitindex f32",
       [&] {
         plainGtBits((unsigned char *)c.data(), a.data(), b.data(), N);
       }},
  };
  llvm::json::Array rows;
  // One timed launch of `kernel` of `m`; a negative time on failure.
  auto launch = [&](Module &m, llvm::StringRef kernel) -> double {
    auto k = m.findKernel(kernel);
    if (!k) {
      llvm::errs() << llvm::toString(k.takeError()) << "\n";
      return -1;
    }
    auto stats = (*device)->launch(
        **k, m.staticLayout(), {1, 1, 1}, FuncType::Block,
        {KernelArg::pointer(*x), KernelArg::pointer(*y), KernelArg::i32(reps)});
    if (!stats) {
      llvm::errs() << llvm::toString(stats.takeError()) << "\n";
      return -1;
    }
    return stats->hostSeconds;
  };
  llvm::outs() << "| intrinsic | ours (ns/elem) | inlined (ns/elem) | plain "
                  "-O3 -march=native (ns/elem) | plain/ours | plain/inlined "
                  "|\n|---|---|---|---|---|---|\n";
  for (Family &f : families) {
    std::vector<double> ours, inline_, plain;
    for (int r = 0; r < runs; ++r) {
      ours.push_back(launch(**module, f.kernel));
      inline_.push_back(launch(**inlined, f.kernel));
      if (ours.back() < 0 || inline_.back() < 0)
        return 1;
      plain.push_back(bench::seconds([&] {
        for (int i = 0; i < reps; ++i)
          f.plain();
      }));
    }
    double perElem = 1e9 / (double(reps) * N);
    double o = bench::median(ours) * perElem,
           in = bench::median(inline_) * perElem,
           p = bench::median(plain) * perElem;
    llvm::outs() << llvm::formatv(
        "| {0} | {1:F3} | {2:F3} | {3:F3} | {4:F2} | {5:F2} |\n", f.what, o, in,
        p, p / o, p / in);
    rows.push_back(llvm::json::Object{{"intrinsic", f.what},
                                      {"ours_ns_per_elem", o},
                                      {"inlined_ns_per_elem", in},
                                      {"plain_ns_per_elem", p}});
  }
  if (!bench::writeJson(json,
                        llvm::json::Object{{"elements", N},
                                           {"calls", reps},
                                           {"runs", runs},
                                           {"families", std::move(rows)}}))
    return 1;
  return 0;
}
