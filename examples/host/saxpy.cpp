// saxpy.cpp: a host program using the bangsim library, as a CNRT program
// would use the driver: open a device, allocate and fill buffers, compile a
// kernel from a string, launch it, read results and statistics back.
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include <cstdio>
#include <vector>

static const char *const source = R"(
#define TILE 1024
__nram__ float nx[TILE];
__nram__ float ny[TILE];
__mlu_global__ void saxpy(const float *x, float *y, float a, int n) {
  for (int start = taskId * TILE; start < n; start += taskDim * TILE) {
    int len = n - start < TILE ? n - start : TILE;
    __memcpy(nx, x + start, len * sizeof(float), GDRAM2NRAM);
    __memcpy(ny, y + start, len * sizeof(float), GDRAM2NRAM);
    __bang_fusion(FUSION_FMA, ny, nx, a, ny, len, len);
    __memcpy(y + start, ny, len * sizeof(float), NRAM2GDRAM);
  }
}
)";

template <typename T> static T check(llvm::Expected<T> value) {
  if (!value) {
    std::fprintf(stderr, "error: %s\n", llvm::toString(value.takeError()).c_str());
    std::exit(1);
  }
  return std::move(*value);
}

static void check(llvm::Error e) {
  if (e) {
    std::fprintf(stderr, "error: %s\n", llvm::toString(std::move(e)).c_str());
    std::exit(1);
  }
}

int main() {
  const int n = 10000;
  const bangsim::DeviceSpec &spec = bangsim::defaultDeviceSpec();
  auto device = check(bangsim::Device::open(spec));
  auto module = check(bangsim::Module::compileString("saxpy.mlu", source, spec));
  const bangsim::Kernel *kernel = check(module->findKernel("saxpy"));

  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  void *dx = check(device->malloc(n * sizeof(float)));
  void *dy = check(device->malloc(n * sizeof(float)));
  check(device->copyToDevice(dx, x.data(), n * sizeof(float)));
  check(device->copyToDevice(dy, y.data(), n * sizeof(float)));
  auto stats = check(device->launch(
      *kernel, module->staticLayout(), {16, 1, 1}, bangsim::FuncType::Union1,
      {bangsim::KernelArg::pointer(dx), bangsim::KernelArg::pointer(dy),
       bangsim::KernelArg::f32(2.0f), bangsim::KernelArg::i32(n)}));
  check(device->copyFromDevice(y.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    if (y[i] != 2.0f * float(i) + 1.0f) {
      std::printf("wrong: y[%d] = %g\n", i, y[i]);
      return 1;
    }
  std::printf("saxpy correct: %d elements, %.0f simulated cycles, IO "
              "efficiency %.1f%%\n",
              n, stats.cycles, stats.ioEfficiency * 100);
  return 0;
}
