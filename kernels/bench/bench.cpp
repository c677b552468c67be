//===- bench.cpp - Figures for TinShift and BorderAlign -------------------===//
//
//   mluop_bench [--quick]
//
// Prints, on the mlu370 profile: simulated IO (and compute) efficiency of
// tin_shift on mlu-ops' shapes and TIN-on-ResNet-50 shapes, host time of
// tin_shift against memcpy of the same bytes (inputs of 64 MiB and more),
// border_align's efficiencies on the seed's three network shapes, and its
// host time against a plain C++ implementation (-O3 -march=native).
//
//===----------------------------------------------------------------------===//
#include "mlu_op.h"
#include "mlu_op_sim.h"

#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

void plainBorderAlignForward(const float *input, const float *boxes,
                             float *out, int32_t *arg, int N, int H, int W,
                             int C, int K, int P);

namespace {

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

mluOpTensorDescriptor_t desc(mluOpDataType_t t, std::vector<int> dims) {
  mluOpTensorDescriptor_t d;
  mluOpCreateTensorDescriptor(&d);
  mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_ARRAY, t, int(dims.size()),
                           dims.data());
  return d;
}

void tinShift(mluOpHandle_t h, const char *label, int N, int T, int C, int HW,
              int G, bool half, bool forward, bool hostRatio) {
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
  mluOpMalloc(h, &x, bytes);
  mluOpMalloc(h, &y, bytes);
  mluOpMalloc(h, &s, shifts.size() * 4);
  mluOpMemcpyHostToDevice(h, x, host.data(), bytes);
  mluOpMemcpyHostToDevice(h, s, shifts.data(), shifts.size() * 4);
  auto xd = desc(half ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT, {N, T, C, HW});
  auto sd = desc(MLUOP_DTYPE_INT32, {N, G});
  auto run = [&] {
    return forward ? mluOpTinShiftForward(h, xd, x, sd, s, xd, y)
                   : mluOpTinShiftBackward(h, xd, x, sd, s, xd, y);
  };
  run(); // compiles on first use
  double best = 1e9;
  mluOpQueue_t q;
  mluOpGetQueue(h, &q);
  bangsim::LaunchStats st;
  for (int i = 0; i < (hostRatio ? 3 : 1); ++i) {
    run();
    st = mluop::lastLaunches(q).back();
    best = std::min(best, st.hostSeconds);
  }
  std::printf("tin_shift %-8s %-26s %s [%d,%d,%d,%d] G=%d: IO eff %5.1f%%  "
              "(%s)\n",
              forward ? "forward" : "backward", label, half ? "half" : "float",
              N, T, C, HW, G, st.ioEfficiency * 100, mluOpGetLastPolicy(h));
  if (hostRatio) {
    std::vector<char> a(bytes, 1), b(bytes);
    double mbest = 1e9;
    for (int i = 0; i < 3; ++i) {
      double t0 = now();
      std::memcpy(b.data(), a.data(), bytes);
      mbest = std::min(mbest, now() - t0);
    }
    std::printf("    host: launch %.1f ms = %.2f GB/s; memcpy of %.0f MiB "
                "%.1f ms = %.2f GB/s; ratio %.2f of memcpy's bandwidth\n",
                best * 1e3, bytes / best / 1e9, bytes / 1048576.0, mbest * 1e3,
                bytes / mbest / 1e9, mbest / best);
  }
  mluOpFree(h, x);
  mluOpFree(h, y);
  mluOpFree(h, s);
  mluOpDestroyTensorDescriptor(xd);
  mluOpDestroyTensorDescriptor(sd);
}

void borderAlign(mluOpHandle_t h, int N, int H, int W, int C4, int K, int P) {
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
  void *x, *b, *o, *a;
  mluOpMalloc(h, &x, in.size() * 4);
  mluOpMalloc(h, &b, boxes.size() * 4);
  mluOpMalloc(h, &o, on * 4);
  mluOpMalloc(h, &a, on * 4);
  mluOpMemcpyHostToDevice(h, x, in.data(), in.size() * 4);
  mluOpMemcpyHostToDevice(h, b, boxes.data(), boxes.size() * 4);
  auto xd = desc(MLUOP_DTYPE_FLOAT, {N, H, W, C4});
  auto bd = desc(MLUOP_DTYPE_FLOAT, {N, K, 4});
  auto od = desc(MLUOP_DTYPE_FLOAT, {N, K, 4, C});
  auto ad = desc(MLUOP_DTYPE_INT32, {N, K, 4, C});
  mluOpBorderAlignForward(h, xd, x, bd, b, P, od, o, ad, a); // compile
  mluOpQueue_t q;
  mluOpGetQueue(h, &q);
  double best = 1e9;
  bangsim::LaunchStats st;
  for (int i = 0; i < 3; ++i) {
    mluOpBorderAlignForward(h, xd, x, bd, b, P, od, o, ad, a);
    st = mluop::lastLaunches(q).back();
    best = std::min(best, st.hostSeconds);
  }
  std::vector<float> out(on);
  std::vector<int32_t> arg(on);
  double pbest = 1e9;
  for (int i = 0; i < 3; ++i) {
    double t0 = now();
    plainBorderAlignForward(in.data(), boxes.data(), out.data(), arg.data(), N,
                            H, W, C, K, P);
    pbest = std::min(pbest, now() - t0);
  }
  std::vector<float> dev(on);
  mluOpMemcpyDeviceToHost(h, dev.data(), o, on * 4);
  size_t same = 0;
  for (size_t i = 0; i < on; ++i)
    same += std::fabs(dev[i] - out[i]) <= 1e-5f * (1 + std::fabs(out[i]));
  std::printf("border_align forward float input [%d,%d,%d,%d] boxes [%d,%d,4] "
              "pool %d: IO eff %5.1f%%, compute eff %5.1f%%, %.0f cycles\n"
              "    host: launch %.2f ms, plain C++ -O3 -march=native %.2f ms, "
              "ratio plain/ours %.2f (outputs agree: %zu/%zu)\n    (%s)\n",
              N, H, W, C4, N, K, P, st.ioEfficiency * 100,
              st.computeEfficiency * 100, st.cycles, best * 1e3, pbest * 1e3,
              pbest / best, same, on, mluOpGetLastPolicy(h));
  mluOpFree(h, x);
  mluOpFree(h, b);
  mluOpFree(h, o);
  mluOpFree(h, a);
  for (auto d : {xd, bd, od, ad})
    mluOpDestroyTensorDescriptor(d);
}

} // namespace

int main(int argc, char **argv) {
  bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  mluOpHandle_t h;
  if (mluOpCreateWithDevice(&h, "mlu370") != MLUOP_STATUS_SUCCESS)
    return 1;
  tinShift(h, "mlu-ops", 3, 15, 16, 45435, 4, true, true, false);
  tinShift(h, "mlu-ops", 3, 15, 16, 262144, 4, true, false, !quick);
  tinShift(h, "TIN ResNet-50 res2", 2, 8, 256, 3136, 2, false, true, false);
  tinShift(h, "TIN ResNet-50 res5", 2, 8, 2048, 49, 2, false, true, false);
  if (!quick)
    tinShift(h, "64 MiB", 4, 8, 256, 2048, 2, false, true, true);
  borderAlign(h, 2, 7, 10, 1024, 70, 10);
  borderAlign(h, 2, 25, 38, 1024, 950, 10);
  borderAlign(h, 2, 10, 7, 512, 70, 10);
  std::printf("compile time of the cached kernels: %.2f s\n",
              mluop::compileSeconds(h));
  mluOpDestroy(h);
  return 0;
}
