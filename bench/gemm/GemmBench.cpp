//===- GemmBench.cpp - Matrix intrinsics' host speed against OpenBLAS -----===//
//
// The matrix intrinsics are what a simulated network spends its host time
// in, so their host speed is measured against a tuned GEMM on the same
// machine in the same run:
//
//   1. __bang_matmul and __bang_conv (fp32) on NRAM/WRAM tiles, one task
//      per simulated core, against OpenBLAS cblas_sgemm with as many threads
//      on the same shapes (a conv as the GEMM it is: M = output pixels,
//      K = kh*kw*ci, N = co; sgemm alone, and im2col + sgemm);
//   2. the convolutions of a graph (the CC blocks of examples/graphs/
//      vgg16_convs.json: VGG-16 at 224x224, batch 1, stride 1, same padding)
//      as im2col + OpenBLAS sgemm, against the wall-clock time of
//      `bangc-sim graph GRAPH --layer-group --run` (the whole command, the
//      compile cache warm: run with BANGC_CACHE_DIR set to a usable cache).
//
// GFLOP/s count 2 flops per multiply-accumulate. Each figure is the fastest
// of repeated runs, ours and OpenBLAS's alternating: on a machine shared
// with other work the fastest run is the least disturbed one.
// OpenBLAS is only the comparison here: the device library has its own
// kernel (lang/devicelib/Gemm.h).
//
//   bangc-bench-gemm [--quick] [--json FILE] [--threads N] [GRAPH.json]
//
//===----------------------------------------------------------------------===//
#include "bench/BenchUtil.h"

#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// OpenBLAS's CBLAS, declared here so that the bench does not depend on
// which cblas.h the system's alternatives point at.
extern "C" {
void cblas_sgemm(int order, int transA, int transB, int m, int n, int k,
                 float alpha, const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc);
void openblas_set_num_threads(int n);
}

using namespace bangsim;

namespace {

constexpr int CblasRowMajor = 101, CblasNoTrans = 111;

/// The host's 1-minute load average (/proc/loadavg), or -1.
double loadAverage() {
  double load = -1;
  if (FILE *f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &load) != 1)
      load = -1;
    std::fclose(f);
  }
  return load;
}

double fastest(const std::vector<double> &v) {
  return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}

/// C[m][n] = A[m][k] B[k][n], row-major.
void sgemm(float *c, const float *a, const float *b, int m, int k, int n) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b,
              n, 0.0f, c, n);
}

/// One convolution's shape: a stride-1 kh x kw kernel over an ih x iw x ci
/// tile (padding pad on every side) to co channels.
struct Conv {
  int ci, ih, iw, kh, kw, co, pad;
  int oh() const { return ih + 2 * pad - kh + 1; }
  int ow() const { return iw + 2 * pad - kw + 1; }
  long long m() const { return (long long)oh() * ow(); }
  long long k() const { return (long long)kh * kw * ci; }
  double flops() const { return 2.0 * m() * k() * co; }
};

/// col[oh*ow][kh*kw*ci] of an HWC input, zero outside it.
void im2col(float *col, const float *in, const Conv &c) {
  int oh = c.oh(), ow = c.ow();
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      float *row = col + ((long long)y * ow + x) * c.k();
      for (int ky = 0; ky < c.kh; ++ky)
        for (int kx = 0; kx < c.kw; ++kx) {
          int sy = y + ky - c.pad, sx = x + kx - c.pad;
          float *dst = row + ((long long)ky * c.kw + kx) * c.ci;
          if (sy < 0 || sy >= c.ih || sx < 0 || sx >= c.iw)
            std::memset(dst, 0, sizeof(float) * c.ci);
          else
            std::memcpy(dst, in + ((long long)sy * c.iw + sx) * c.ci,
                        sizeof(float) * c.ci);
        }
    }
}

/// NRAM and WRAM buffers every kernel carves its operands from.
constexpr int NramFloats = 180 * 1024, WramFloats = 240 * 1024;

struct MatmulShape {
  int m, k, n;
};
const MatmulShape matmuls[] = {
    {256, 256, 256}, {128, 512, 256}, {64, 1152, 128}, {96, 640, 320}};
// Tiles of VGG-16's layers as a grouped run cuts them (no padding: the tile
// is padded in NRAM; conv4 and conv5 split into 16 and 8 output channels
// per task), and a first layer with 3 input channels.
const Conv convs[] = {{64, 18, 18, 3, 3, 64, 0},  {128, 18, 18, 3, 3, 128, 0},
                      {256, 16, 16, 3, 3, 16, 0}, {512, 16, 16, 3, 3, 8, 0},
                      {256, 10, 10, 3, 3, 96, 0}, {3, 34, 34, 3, 3, 64, 0}};

std::string kernelSource() {
  std::string s = "__nram__ float nbuf[" + std::to_string(NramFloats) +
                  "];\n__wram__ float wbuf[" + std::to_string(WramFloats) +
                  "];\n";
  char buf[512];
  for (const MatmulShape &t : matmuls) {
    std::snprintf(buf, sizeof buf,
                  "__mlu_global__ void mm_%d_%d_%d(const float *x, int reps) "
                  "{\n  __memcpy(nbuf, x, %d * 4, GDRAM2NRAM);\n  "
                  "__memcpy(wbuf, x, %d * 4, GDRAM2WRAM);\n  for (int r = 0; "
                  "r < reps; ++r)\n    __bang_matmul(nbuf + %d, nbuf, wbuf, "
                  "%d, %d, %d);\n}\n",
                  t.m, t.k, t.n, t.m * t.k, t.k * t.n, t.m * t.k, t.m, t.k,
                  t.n);
    s += buf;
  }
  for (const Conv &c : convs) {
    std::snprintf(buf, sizeof buf,
                  "__mlu_global__ void conv_%d_%d_%d(const float *x, int reps) "
                  "{\n  __memcpy(nbuf, x, %d * 4, GDRAM2NRAM);\n  "
                  "__memcpy(wbuf, x, %lld * 4, GDRAM2WRAM);\n  for (int r = 0; "
                  "r < reps; ++r)\n    __bang_conv(nbuf + %d, nbuf, wbuf, %d, "
                  "%d, %d, %d, %d, 1, 1, %d);\n}\n",
                  c.ci, c.ih, c.co, c.ih * c.iw * c.ci, c.k() * c.co,
                  c.ih * c.iw * c.ci, c.ci, c.ih, c.iw, c.kh, c.kw, c.co);
    s += buf;
  }
  return s;
}

/// The CC blocks (convolutions) of a Task IR graph, as stride-1 same-padded
/// convolutions; empty (after saying why) if the file cannot be read.
std::vector<Conv> graphConvs(const std::string &path) {
  std::vector<Conv> out;
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) {
    llvm::errs() << "error: cannot read " << path << "\n";
    return out;
  }
  auto json = llvm::json::parse((*buf)->getBuffer());
  if (!json) {
    llvm::errs() << "error: " << path << ": "
                 << llvm::toString(json.takeError()) << "\n";
    return out;
  }
  const llvm::json::Array *blocks =
      json->getAsObject() ? json->getAsObject()->getArray("blocks") : nullptr;
  if (!blocks)
    return out;
  for (const llvm::json::Value &b : *blocks) {
    const llvm::json::Object *o = b.getAsObject();
    if (!o || o->getString("type") != "CC")
      continue;
    const llvm::json::Object *sh = o->getObject("shape");
    auto get = [&](const char *k) {
      return (int)sh->getInteger(k).value_or(1);
    };
    int ky = get("ky");
    out.push_back({get("r"), get("iy"), get("ix"), ky, get("kx"), get("f"),
                   (ky - 1) / 2});
  }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  bench::Args args(argc, argv);
  int runs = args.quick ? 3 : 7;
  int threads = 2;
  std::string graph =
      std::string(BANGC_SOURCE_DIR) + "/examples/graphs/vgg16_convs.json";
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (args.positional[i] == "--threads" && i + 1 < args.positional.size())
      threads = std::stoi(args.positional[++i]);
    else
      graph = args.positional[i];
  }
  const DeviceSpec &spec = defaultDeviceSpec();
  auto device = Device::open(spec);
  auto module = Module::compileString("gemm.mlu", kernelSource(), spec);
  if (!device || !module) {
    llvm::errs() << "error: cannot set up the bench\n";
    return 1;
  }
  std::vector<float> host(WramFloats);
  for (int i = 0; i < WramFloats; ++i)
    host[i] = float(i % 97) * 0.01f - 0.3f;
  auto x = (*device)->malloc(host.size() * sizeof(float));
  if (!x || (*device)->copyToDevice(*x, host.data(), host.size() * 4)) {
    llvm::errs() << "error: cannot set up the bench's device buffer\n";
    return 1;
  }
  // Seconds of one launch of `tasks` tasks, each calling the intrinsic
  // `reps` times; negative on failure.
  auto launch = [&](llvm::StringRef kernel, int tasks, int reps) -> double {
    auto k = (*module)->findKernel(kernel);
    if (!k) {
      llvm::errs() << llvm::toString(k.takeError()) << "\n";
      return -1;
    }
    auto stats = (*device)->launch(
        **k, (*module)->staticLayout(), {(uint32_t)tasks, 1, 1},
        FuncType::Block, {KernelArg::pointer(*x), KernelArg::i32(reps)});
    if (!stats) {
      llvm::errs() << llvm::toString(stats.takeError()) << "\n";
      return -1;
    }
    return stats->hostSeconds;
  };
  llvm::json::Array rows;
  llvm::outs() << "| intrinsic, shape (M x K x N) | threads | ours GFLOP/s | "
                  "OpenBLAS sgemm GFLOP/s | ours/sgemm | im2col + sgemm "
                  "GFLOP/s |\n|---|---|---|---|---|---|\n";
  // One row: `kernel` against sgemm (and im2col + sgemm for a conv).
  auto row = [&](const std::string &what, const std::string &kernel, int m,
                 int k, int n, const Conv *conv) -> bool {
    double flops = 2.0 * m * k * n;
    // Enough calls per launch (about 0.2 GFLOP per task, 0.05 with --quick)
    // that the launch itself is noise.
    int reps = std::max(2, (int)((args.quick ? 5e7 : 2e8) / flops));
    std::vector<float> a((size_t)m * k, 0.5f), b((size_t)k * n, 0.25f),
        c((size_t)m * n), col;
    std::vector<float> in;
    if (conv) {
      in.assign((size_t)conv->ih * conv->iw * conv->ci, 0.5f);
      col.resize((size_t)m * k);
    }
    for (int t : {1, threads}) {
      std::vector<double> ours, blas, blasCol;
      openblas_set_num_threads(t);
      for (int r = 0; r < runs; ++r) {
        double s = launch(kernel, t, reps);
        if (s < 0)
          return false;
        ours.push_back(s / reps);
        blas.push_back(bench::seconds([&] {
                         for (int i = 0; i < reps; ++i)
                           sgemm(c.data(), a.data(), b.data(), m, k, n);
                       }) /
                       reps);
        if (conv)
          blasCol.push_back(bench::seconds([&] {
                              for (int i = 0; i < reps; ++i) {
                                im2col(col.data(), in.data(), *conv);
                                sgemm(c.data(), col.data(), b.data(), m, k, n);
                              }
                            }) /
                            reps);
      }
      // ours: t tasks side by side, each calling the intrinsic reps times.
      double o = flops * t / fastest(ours) / 1e9;
      double p = flops / fastest(blas) / 1e9;
      double pc = conv ? flops / fastest(blasCol) / 1e9 : 0;
      llvm::outs() << llvm::formatv("| {0} {1}x{2}x{3} | {4} | {5:F1} | {6:F1} "
                                    "| {7:F2} | {8} |\n",
                                    what, m, k, n, t, o, p, o / p,
                                    conv ? llvm::formatv("{0:F1}", pc).str()
                                         : std::string("-"));
      rows.push_back(llvm::json::Object{{"what", what},
                                        {"m", m},
                                        {"k", k},
                                        {"n", n},
                                        {"threads", t},
                                        {"ours_gflops", o},
                                        {"sgemm_gflops", p},
                                        {"im2col_sgemm_gflops", pc}});
    }
    return true;
  };
  for (const MatmulShape &t : matmuls)
    if (!row("__bang_matmul", llvm::formatv("mm_{0}_{1}_{2}", t.m, t.k, t.n),
             t.m, t.k, t.n, nullptr))
      return 1;
  for (const Conv &c : convs)
    if (!row(llvm::formatv("__bang_conv ci={0} {1}x{2} co={3}", c.ci, c.ih,
                           c.iw, c.co),
             llvm::formatv("conv_{0}_{1}_{2}", c.ci, c.ih, c.co), (int)c.m(),
             (int)c.k(), c.co, &c))
      return 1;

  // The graph's convolutions as im2col + sgemm, on `threads` threads.
  std::vector<Conv> layers = graphConvs(graph);
  if (layers.empty()) {
    llvm::errs() << "error: no convolutions in " << graph << "\n";
    return 1;
  }
  double gflop = 0;
  size_t inMax = 0, colMax = 0, wMax = 0, outMax = 0;
  for (const Conv &c : layers) {
    gflop += c.flops() / 1e9;
    inMax = std::max(inMax, (size_t)c.ih * c.iw * c.ci);
    colMax = std::max(colMax, (size_t)(c.m() * c.k()));
    wMax = std::max(wMax, (size_t)(c.k() * c.co));
    outMax = std::max(outMax, (size_t)(c.m() * c.co));
  }
  std::vector<float> in(inMax, 0.5f), col(colMax), w(wMax, 0.01f), out(outMax);
  openblas_set_num_threads(threads);
  // The grouped run of the whole graph (plan, weights, compile from the
  // compile cache after a first run, simulate), wall-clock, alternating
  // with im2col + sgemm so both see the same machine.
  std::string sim = std::string(BANGC_BINARY_DIR) + "/bin/bangc-sim";
  // (bangc-sim runs tasks on one host thread per core: 2 here.)
  std::string cmd =
      sim + " graph " + graph + " --layer-group --run > /dev/null";
  bool grouped = std::system((cmd + " 2>&1").c_str()) == 0; // warms the cache
  if (!grouped)
    llvm::errs() << "warning: '" << cmd << "' failed: no grouped run time\n";
  std::vector<double> times, groupedTimes;
  for (int r = 0; r < (args.quick ? 1 : 5); ++r) {
    times.push_back(bench::seconds([&] {
      for (const Conv &c : layers) {
        im2col(col.data(), in.data(), c);
        sgemm(out.data(), col.data(), w.data(), (int)c.m(), (int)c.k(), c.co);
      }
    }));
    if (grouped)
      groupedTimes.push_back(
          bench::seconds([&] { grouped = std::system(cmd.c_str()) == 0; }));
  }
  double t = fastest(times), g = fastest(groupedTimes);
  // Both figures follow the machine's load (OpenBLAS and the simulated
  // cores each want every host core): say what it was.
  double load = loadAverage();
  llvm::outs() << llvm::formatv(
      "\n{0}: {1} convolutions, {2:F1} GFLOP: im2col + OpenBLAS sgemm on {3} "
      "threads {4:F3} s ({5:F1} GFLOP/s)\n",
      graph, layers.size(), gflop, threads, t, gflop / t);
  if (grouped)
    llvm::outs() << llvm::formatv(
        "bangc-sim graph --layer-group --run: {0:F3} s, {1:F2}x im2col + "
        "sgemm (load average {2:F2})\n",
        g, g / t, load);
  if (!bench::writeJson(args.json,
                        llvm::json::Object{{"rows", std::move(rows)},
                                           {"graph", graph},
                                           {"graph_gflop", gflop},
                                           {"graph_im2col_sgemm_seconds", t},
                                           {"graph_grouped_run_seconds", g},
                                           {"load_average", load},
                                           {"threads", threads}}))
    return 1;
  return 0;
}
