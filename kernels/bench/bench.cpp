//===- bench.cpp - Figures for TinShift and BorderAlign -------------------===//
//
//   mluop_bench [--quick] [--json FILE] [--isolate] [tin_shift|border_align]
//
// On the mlu370 profile, for the shapes of the seeds (mlu-ops' TinShift
// cases, TIN on ResNet-50, BorderDet's three border_align shapes):
//  - simulated cycles, IO and compute efficiency of forward and backward;
//  - host time: tin_shift forward and backward against memcpy of the same
//    bytes (inputs of 64 MiB and more); border_align forward and backward
//    against a plain C++ implementation compiled -O3 -march=native, whose
//    results are compared with ours, with the simulator on one host thread
//    (like the plain loop) and on one per host core.
// Host times are medians of repeated runs. --quick runs fewer repetitions
// and skips the 360 MiB TinShift case. --json FILE writes the figures. An
// operator name runs only that operator's figures.
//
//===----------------------------------------------------------------------===//
#include "bench/BenchUtil.h"
#include "mlu_op.h"
#include "mlu_op_sim.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

void plainBorderAlignForward(const float *input, const float *boxes, float *out,
                             int32_t *arg, int N, int H, int W, int C, int K,
                             int P);
void plainBorderAlignBackward(const float *gradOut, const float *boxes,
                              const int32_t *arg, float *gradIn, int N, int H,
                              int W, int C, int K, int P);

namespace {

int runs = 5; ///< host-time repetitions
bool isolate = false; ///< --isolate: launches in a worker process

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

mluOpTensorDescriptor_t desc(mluOpDataType_t t, std::vector<int> dims,
                             mluOpTensorLayout_t layout = MLUOP_LAYOUT_ARRAY) {
  mluOpTensorDescriptor_t d;
  mluOpCreateTensorDescriptor(&d);
  mluOpSetTensorDescriptor(d, layout, t, int(dims.size()),
                           dims.data());
  return d;
}

void require(mluOpStatus_t s, const char *what) {
  if (s != MLUOP_STATUS_SUCCESS) {
    std::fprintf(stderr, "error: %s: %s\n", what, mluOpGetErrorString(s));
    std::exit(1);
  }
}

/// Where a launch stands against mlu-ops' performance acceptance standard,
/// and the pipe that bounds it: "IO bottleneck 72.0%: meets >= 60% (network
/// shapes); bound by io-dma".
std::string verdict(const bangsim::LaunchStats &st) {
  bangsim::AcceptanceVerdict v = bangsim::acceptanceVerdict(st);
  return llvm::formatv("{0} bottleneck {1:F1}%: {2}; bound by the {3} pipe",
                       v.ioBound ? "IO" : "compute", v.efficiency * 100,
                       v.meetsNetwork   ? "meets >= 60% (network shapes)"
                       : v.meetsGeneral ? "meets >= 30% (other shapes) only"
                                        : "below 30%",
                       bangsim::pipeName(st.boundPipe))
      .str();
}

llvm::json::Array shapeJson(std::vector<int> dims) {
  llvm::json::Array a;
  for (int d : dims)
    a.push_back(d);
  return a;
}

/// Median host time of `op` (one launch each) and the stats of its launch.
template <typename F>
double timeLaunches(mluOpHandle_t h, int reps, F op,
                    bangsim::LaunchStats &stats) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    op();
    stats = mluop::mergedLastLaunches(h);
    t.push_back(stats.hostSeconds);
  }
  return bench::median(t);
}

double memcpyTime(size_t bytes) {
  std::vector<char> a(bytes, 1), b(bytes);
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    double t0 = now();
    std::memcpy(b.data(), a.data(), bytes);
    t.push_back(now() - t0);
  }
  return bench::median(t);
}

llvm::json::Object tinShift(mluOpHandle_t h, const char *label, int N, int T,
                            int C, int HW, int G, bool half, bool forward,
                            bool hostRatio) {
  size_t e = half ? 2 : 4;
  size_t bytes = size_t(N) * T * C * HW * e;
  std::vector<char> host(bytes);
  std::mt19937 rng(1);
  for (size_t i = 0; i < bytes; i += 4096)
    host[i] = char(rng());
  std::vector<int32_t> shifts(size_t(N) * G);
  for (auto &s : shifts)
    s = int(rng() % 7) - 3;
  void *x, *y, *s;
  require(mluOpMalloc(h, &x, bytes), "malloc");
  require(mluOpMalloc(h, &y, bytes), "malloc");
  require(mluOpMalloc(h, &s, shifts.size() * 4), "malloc");
  mluOpMemcpyHostToDevice(h, x, host.data(), bytes);
  mluOpMemcpyHostToDevice(h, s, shifts.data(), shifts.size() * 4);
  auto xd = desc(half ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT, {N, T, C, HW});
  auto sd = desc(MLUOP_DTYPE_INT32, {N, G});
  auto run = [&] {
    require(forward ? mluOpTinShiftForward(h, xd, x, sd, s, xd, y)
                    : mluOpTinShiftBackward(h, xd, x, sd, s, xd, y),
            "tin_shift");
  };
  run(); // compiles on first use
  bangsim::LaunchStats st;
  double host_s = timeLaunches(h, hostRatio ? runs : 1, run, st);
  std::printf("tin_shift %-8s %-20s %s [%d,%d,%d,%d] G=%d: %.0f cycles, IO "
              "eff %5.1f%%  (%s)\n    %s\n",
              forward ? "forward" : "backward", label, half ? "half" : "float",
              N, T, C, HW, G, st.cycles, st.ioEfficiency * 100,
              mluOpGetLastPolicy(h), verdict(st).c_str());
  llvm::json::Object o{{"label", label},
                       {"direction", forward ? "forward" : "backward"},
                       {"dtype", half ? "half" : "float"},
                       {"shape", shapeJson({N, T, C, HW})},
                       {"groups", G},
                       {"bytes", int64_t(bytes)},
                       {"cycles", st.cycles},
                       {"io_efficiency", st.ioEfficiency},
                       {"compute_efficiency", st.computeEfficiency},
                       {"bound_pipe", bangsim::pipeName(st.boundPipe)},
                       {"acceptance", verdict(st)},
                       {"policy", std::string(mluOpGetLastPolicy(h))}};
  if (hostRatio) {
    double m = memcpyTime(bytes);
    std::printf("    host: launch %.1f ms = %.2f GB/s; memcpy of %.0f MiB "
                "%.1f ms = %.2f GB/s; ratio %.2f of memcpy's bandwidth\n",
                host_s * 1e3, bytes / host_s / 1e9, bytes / 1048576.0, m * 1e3,
                bytes / m / 1e9, m / host_s);
    o["host_s"] = host_s;
    o["memcpy_s"] = m;
  }
  mluOpFree(h, x);
  mluOpFree(h, y);
  mluOpFree(h, s);
  mluOpDestroyTensorDescriptor(xd);
  mluOpDestroyTensorDescriptor(sd);
  return o;
}

/// Forward and backward of one shape: simulated figures, host time against
/// the plain C++ implementation, and agreement of the results.
llvm::json::Array borderAlign(mluOpHandle_t h, int N, int H, int W, int C4,
                              int K, int P) {
  int C = C4 / 4;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0, 1);
  std::vector<float> in(size_t(N) * H * W * C4), boxes(size_t(N) * K * 4);
  for (auto &v : in)
    v = u(rng) * 8 - 4;
  for (int i = 0; i < N * K; ++i) {
    float x1 = u(rng) * W * 0.8f, y1 = u(rng) * H * 0.8f;
    boxes[i * 4] = x1;
    boxes[i * 4 + 1] = y1;
    boxes[i * 4 + 2] = x1 + u(rng) * (W - x1);
    boxes[i * 4 + 3] = y1 + u(rng) * (H - y1);
  }
  size_t on = size_t(N) * K * 4 * C;
  std::vector<float> grad(on);
  for (auto &g : grad)
    g = u(rng) - 0.5f;
  void *x, *b, *o, *a, *g, *gi;
  require(mluOpMalloc(h, &x, in.size() * 4), "malloc");
  require(mluOpMalloc(h, &b, boxes.size() * 4), "malloc");
  require(mluOpMalloc(h, &o, on * 4), "malloc");
  require(mluOpMalloc(h, &a, on * 4), "malloc");
  require(mluOpMalloc(h, &g, on * 4), "malloc");
  require(mluOpMalloc(h, &gi, in.size() * 4), "malloc");
  mluOpMemcpyHostToDevice(h, x, in.data(), in.size() * 4);
  mluOpMemcpyHostToDevice(h, b, boxes.data(), boxes.size() * 4);
  mluOpMemcpyHostToDevice(h, g, grad.data(), on * 4);
  auto xd = desc(MLUOP_DTYPE_FLOAT, {N, H, W, C4}, MLUOP_LAYOUT_NHWC);
  auto bd = desc(MLUOP_DTYPE_FLOAT, {N, K, 4});
  auto od = desc(MLUOP_DTYPE_FLOAT, {N, K, 4, C}, MLUOP_LAYOUT_NHWC);
  auto ad = desc(MLUOP_DTYPE_INT32, {N, K, 4, C}, MLUOP_LAYOUT_NHWC);
  auto forward = [&] {
    require(mluOpBorderAlignForward(h, xd, x, bd, b, P, od, o, ad, a),
            "border_align forward");
  };
  auto backward = [&] {
    require(mluOpBorderAlignBackward(h, od, g, bd, b, ad, a, P, xd, gi),
            "border_align backward");
  };
  forward(); // compiles on first use
  backward();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  llvm::json::Array rows;
  for (bool fwd : {true, false}) {
    // Host time on one host thread (as the plain loop) and on all of them.
    bangsim::LaunchStats st;
    double ours[2];
    for (unsigned t : {1u, threads}) {
      bangsim::LaunchOptions options;
      options.hostThreads = t;
      options.isolate = isolate;
      mluop::setLaunchOptions(h, options);
      ours[t != 1] = fwd ? timeLaunches(h, runs, forward, st)
                         : timeLaunches(h, runs, backward, st);
    }
    bangsim::LaunchOptions defaults;
    defaults.isolate = isolate;
    mluop::setLaunchOptions(h, defaults);
    std::string policy = mluOpGetLastPolicy(h);
    // The plain implementation, and how many of its results ours matches.
    std::vector<float> out(on), gradIn(in.size());
    std::vector<int32_t> arg(on);
    std::vector<double> plain;
    if (!fwd) // the argmax of our forward, as the device's backward uses
      mluOpMemcpyDeviceToHost(h, arg.data(), a, on * 4);
    for (int i = 0; i < runs; ++i) {
      double t0 = now();
      if (fwd)
        plainBorderAlignForward(in.data(), boxes.data(), out.data(), arg.data(),
                                N, H, W, C, K, P);
      else
        plainBorderAlignBackward(grad.data(), boxes.data(), arg.data(),
                                 gradIn.data(), N, H, W, C, K, P);
      plain.push_back(now() - t0);
    }
    std::vector<float> &want = fwd ? out : gradIn;
    std::vector<float> got(want.size());
    mluOpMemcpyDeviceToHost(h, got.data(), fwd ? o : gi, got.size() * 4);
    size_t same = 0;
    for (size_t i = 0; i < got.size(); ++i)
      same += std::fabs(got[i] - want[i]) <= 1e-4f * (1 + std::fabs(want[i]));
    double p = bench::median(plain);
    std::printf("border_align %-8s float input [%d,%d,%d,%d] boxes [%d,%d,4] "
                "pool %d: %.0f cycles, IO eff %5.1f%%, compute eff %5.1f%%\n"
                "    host: launch %.2f ms on 1 thread, %.2f ms on %u; plain "
                "C++ -O3 -march=native %.2f ms (1 thread); ratio plain/ours "
                "%.2f (1 thread), %.2f (%u) (results agree: %zu/%zu)\n"
                "    (%s)\n    %s\n",
                fwd ? "forward" : "backward", N, H, W, C4, N, K, P, st.cycles,
                st.ioEfficiency * 100, st.computeEfficiency * 100,
                ours[0] * 1e3, ours[1] * 1e3, threads, p * 1e3, p / ours[0],
                p / ours[1], threads, same, got.size(), policy.c_str(),
                verdict(st).c_str());
    rows.push_back(
        llvm::json::Object{{"direction", fwd ? "forward" : "backward"},
                           {"input", shapeJson({N, H, W, C4})},
                           {"boxes", shapeJson({N, K, 4})},
                           {"pool_size", P},
                           {"cycles", st.cycles},
                           {"io_efficiency", st.ioEfficiency},
                           {"compute_efficiency", st.computeEfficiency},
                           {"bound_pipe", bangsim::pipeName(st.boundPipe)},
                           {"acceptance", verdict(st)},
                           {"host_s", ours[1]},
                           {"host_threads", int64_t(threads)},
                           {"host_1_thread_s", ours[0]},
                           {"plain_s", p},
                           {"agree", int64_t(same)},
                           {"elements", int64_t(got.size())},
                           {"policy", policy}});
  }
  for (void *ptr : {x, b, o, a, g, gi})
    mluOpFree(h, ptr);
  for (auto d : {xd, bd, od, ad})
    mluOpDestroyTensorDescriptor(d);
  return rows;
}

} // namespace

int main(int argc, char **argv) {
  bench::Args args(argc, argv);
  bool quick = args.quick;
  std::string json = args.json;
  auto wanted = [&](llvm::StringRef op) {
    return args.positional.empty() || llvm::is_contained(args.positional, op);
  };
  // --device SPEC: another card (bench/sensitivity.py varies mlu370's
  // assumed constants).
  std::string device = "mlu370";
  for (size_t i = 0; i < args.positional.size(); ++i)
    if (args.positional[i] == "--device" && i + 1 < args.positional.size()) {
      device = args.positional[i + 1];
      args.positional.erase(args.positional.begin() + i,
                            args.positional.begin() + i + 2);
      break;
    }
  // --isolate: every launch in a worker process (docs/isolation.md), to
  // measure what isolation costs.
  if (auto it = llvm::find(args.positional, "--isolate");
      it != args.positional.end()) {
    isolate = true;
    args.positional.erase(it);
  }
  for (const std::string &p : args.positional)
    if (p != "tin_shift" && p != "border_align") {
      std::fprintf(stderr, "usage: mluop_bench [--quick] [--json FILE] "
                           "[--device SPEC] [--isolate] "
                           "[tin_shift|border_align]\n");
      return 2;
    }
  runs = quick ? 3 : 5;
  mluOpHandle_t h;
  if (mluOpCreateWithDevice(&h, device.c_str()) != MLUOP_STATUS_SUCCESS)
    return 1;
  bangsim::LaunchOptions defaults;
  defaults.isolate = isolate;
  mluop::setLaunchOptions(h, defaults);
  llvm::json::Array tin, border;
  // mlu-ops' test shapes, TIN on ResNet-50 (res2, res5), and 64 MiB.
  if (wanted("tin_shift")) {
    tin.push_back(
        tinShift(h, "mlu-ops", 3, 15, 16, 45435, 4, true, true, true));
    if (!quick)
      tin.push_back(
          tinShift(h, "mlu-ops", 3, 15, 16, 262144, 4, true, false, true));
    for (bool fwd : {true, false}) {
      tin.push_back(tinShift(h, "TIN ResNet-50 res2", 2, 8, 256, 3136, 2, false,
                             fwd, false));
      tin.push_back(tinShift(h, "TIN ResNet-50 res5", 2, 8, 2048, 49, 2, false,
                             fwd, false));
      tin.push_back(
          tinShift(h, "64 MiB", 4, 8, 256, 2048, 2, false, fwd, true));
    }
  }
  // BorderDet's shapes (seed 003, section 3.7).
  if (wanted("border_align"))
    for (auto [N, H, W, C4, K] : {std::array<int, 5>{2, 7, 10, 1024, 70},
                                  {2, 25, 38, 1024, 950},
                                  {2, 10, 7, 512, 70}})
      for (llvm::json::Value &row : borderAlign(h, N, H, W, C4, K, 10))
        border.push_back(std::move(row));
  std::printf("compile time of the kernels: %.2f s\n",
              mluop::compileSeconds(h));
  mluOpDestroy(h);
  if (!bench::writeJson(
          json, llvm::json::Object{{"device", device},
                                   {"runs", runs},
                                   {"tin_shift", std::move(tin)},
                                   {"border_align", std::move(border)}}))
    return 1;
  return 0;
}
