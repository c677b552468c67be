//===- CompileMemoryTest.cpp - Repeated in-process compiles stay flat ----===//
//
// The host API compiles many modules in one process. Compiling and running
// the same kernel 200 times must not grow resident memory without bound: a
// leaked LLVMContext, JIT session or Clang instance per compile would add
// megabytes each time. RSS is read from /proc/self/statm after malloc_trim,
// so memory freed to the allocator does not count; the check is that the
// last 100 compiles grow RSS by far less than one compile's footprint each.
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <fstream>
#include <malloc.h>
#include <unistd.h>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BANGC_ASAN 1
#endif
#endif

using namespace bangsim;

namespace {

const char *const source = R"(
#define N 256
__nram__ float a[N], b[N];
__mlu_global__ void vadd(float *c, const float *x, const float *y) {
  int off = taskId * N;
  __memcpy(a, x + off, N * sizeof(float), GDRAM2NRAM);
  __memcpy(b, y + off, N * sizeof(float), GDRAM2NRAM);
  __bang_add(a, a, b, N);
  __memcpy(c + off, a, N * sizeof(float), NRAM2GDRAM);
}
)";

/// Resident bytes of this process, after giving free heap back to the OS.
long residentBytes() {
  malloc_trim(0);
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

/// Compiles the kernel, runs it on 4 cores and checks the sums.
void compileAndRun(const DeviceSpec &spec, Device &device, float *dx,
                   float *dy, float *dc) {
  std::string diags;
  llvm::raw_string_ostream os(diags);
  CompileOptions options;
  options.diagnostics = &os;
  options.useCache = false; // every compile runs Clang, LLVM and the JIT
  auto m = Module::compileString("vadd.mlu", source, spec, options);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError()) << diags;
  auto k = (*m)->findKernel("vadd");
  ASSERT_TRUE(bool(k)) << llvm::toString(k.takeError());
  std::vector<KernelArg> args = {KernelArg::pointer(dc), KernelArg::pointer(dx),
                                 KernelArg::pointer(dy)};
  auto stats = device.launch(**k, (*m)->staticLayout(), {4, 1, 1},
                             FuncType::Block, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  std::vector<float> c(4 * 256);
  ASSERT_FALSE(bool(device.copyFromDevice(c.data(), dc, c.size() * 4)));
  for (int i = 0; i < 4 * 256; ++i)
    ASSERT_EQ(c[i], float(i) + float(2 * i)) << "element " << i;
}

TEST(CompileMemory, TwoHundredCompilesKeepResidentMemoryFlat) {
  const DeviceSpec &spec = defaultDeviceSpec();
  auto d = Device::open(spec);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  Device &device = **d;
  std::vector<float> x(4 * 256), y(4 * 256);
  for (int i = 0; i < 4 * 256; ++i)
    x[i] = float(i), y[i] = float(2 * i);
  auto dx = device.malloc(x.size() * 4), dy = device.malloc(y.size() * 4),
       dc = device.malloc(x.size() * 4);
  ASSERT_TRUE(dx && dy && dc);
  ASSERT_FALSE(bool(device.copyToDevice(*dx, x.data(), x.size() * 4)));
  ASSERT_FALSE(bool(device.copyToDevice(*dy, y.data(), y.size() * 4)));

  const int total = 200, settle = 100;
  long first = 0, settled = 0;
  for (int i = 0; i < total; ++i) {
    compileAndRun(spec, device, static_cast<float *>(*dx),
                  static_cast<float *>(*dy), static_cast<float *>(*dc));
    if (HasFatalFailure())
      return;
    if (i == 0)
      first = residentBytes();
    if (i + 1 == settle)
      settled = residentBytes();
  }
  long last = residentBytes();
  double perCompile = double(last - settled) / (total - settle);
  std::printf("RSS: %.1f MiB after 1 compile, %.1f MiB after %d, %.1f MiB "
              "after %d; %.1f KiB per compile since\n",
              first / 1048576.0, settled / 1048576.0, settle,
              last / 1048576.0, total, perCompile / 1024);
#if defined(__SANITIZE_ADDRESS__) || defined(BANGC_ASAN)
  // AddressSanitizer holds freed memory in quarantine, so RSS says nothing
  // here; its leak check at exit does the job instead.
  GTEST_SKIP() << "RSS is not meaningful under AddressSanitizer";
#endif
  // A leaked module, context or JIT costs hundreds of KiB per compile; a
  // flat process stays within allocator noise.
  EXPECT_LT(perCompile, 16 * 1024.0)
      << "resident memory grows by " << perCompile / 1024
      << " KiB per compile";
}

} // namespace
