//===- LaunchTest.cpp - Registration and launches through the CNRT runtime ===//
//
// Builds a device image as a .mlu's host compilation embeds it (the driver
// compiles a kernel source to one object, writeFatBinary wraps it),
// registers it the way Clang's generated constructor does, and launches
// through cudaLaunchKernel (what `k<<<dim, type, queue>>>(args)` calls) and
// cnrtInvokeKernel: results, simulated time on notifiers, configuration
// errors, and a device fault that cnrtQueueSync reports while the process
// and the device go on.
//
//===----------------------------------------------------------------------===//
#include "bangsim/CompileOptions.h"
#include "bangsim/DeviceSpec.h"
#include "driver/Compile.h"
#include "driver/FatBinary.h"

#include "cnrt.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

namespace {

const int devicesSet = setenv("BANGC_CNRT_DEVICES", "mlu370,tiny", 0);

const char *const Source = R"(
__mlu_global__ void vadd(float *a, float *b, float *c, int n) {
  for (int i = taskId; i < n; i += taskDim)
    c[i] = a[i] + b[i];
}
__mlu_global__ void scale(half *x, half f, int n, char flag) {
  for (int i = taskId; i < n; i += taskDim)
    x[i] = x[i] * f + (half)(float)flag;
}
__mlu_global__ void oob(float *x) {
  __nram__ float buf[64];
  __memcpy(buf, x, 64 * sizeof(float), GDRAM2NRAM);
  __memcpy(x + 1000000, buf, 64 * sizeof(float), NRAM2GDRAM);
}
)";

struct Wrapper {
  int32_t magic;
  int32_t version;
  const void *image;
  void *unused;
};

/// The stubs: any distinct host addresses do, as Clang's are. The names
/// registered are base names, which Module::findKernel takes as well as the
/// mangled symbols the host compilation registers.
char vaddStub, scaleStub, oobStub, unknownStub;

/// Compiles Source for `device` and registers it; returns the handle.
void **registerImage(const char *device, std::vector<char> &storage) {
  auto spec = bangsim::loadDeviceSpec(device);
  EXPECT_TRUE(bool(spec));
  bangsim::CompilerInvocation inv =
      bangsim::makeInvocation(bangsim::CompileOptions{}, *spec);
  llvm::LLVMContext context;
  auto module = bangsim::runFrontend("launch_test.mlu", llvm::StringRef(Source),
                                     inv, context);
  EXPECT_TRUE(bool(module)) << toString(module.takeError());
  EXPECT_FALSE(bool(bangsim::optimize(**module, inv)));
  llvm::SmallString<0> object;
  llvm::raw_svector_ostream os(object);
  EXPECT_FALSE(bool(bangsim::writeOutput(**module, bangsim::OutputKind::Object,
                                         inv, os)));
  bangsim::FatBinary fat{device, object.str(), "launch_test.mlu"};
  llvm::SmallVector<char, 0> bytes = bangsim::writeFatBinary(fat);
  storage.assign(bytes.begin(), bytes.end());
  static std::vector<Wrapper> wrappers(4);
  static int next = 0;
  Wrapper &w = wrappers[next++];
  w = {0x466243b1, 1, storage.data(), nullptr};
  return __cudaRegisterFatBinary(&w);
}

struct Launch : ::testing::Test {
  static std::vector<char> image370, imageTiny;
  static void SetUpTestSuite() {
    (void)devicesSet;
    void **h = registerImage("mlu370", image370);
    EXPECT_EQ(__cudaRegisterFunction(h, &vaddStub, (char *)"vadd", "vadd", -1, nullptr, nullptr,
                                     nullptr, nullptr, nullptr),
              0);
    EXPECT_EQ(__cudaRegisterFunction(h, &scaleStub,
                                     (char *)"scale", "scale", -1, nullptr,
                                     nullptr, nullptr, nullptr, nullptr),
              0);
    EXPECT_EQ(__cudaRegisterFunction(h, &oobStub, (char *)"oob", "oob", -1, nullptr, nullptr, nullptr,
                                     nullptr, nullptr),
              0);
    __cudaRegisterFatBinaryEnd(h);
  }
  void SetUp() override {
    ASSERT_EQ(cnrtSetDevice(0), cnrtSuccess);
    cnrtGetLastError();
  }
};
std::vector<char> Launch::image370, Launch::imageTiny;

/// k<<<dim, type, queue>>>(args...) as the host compilation lowers it.
cnrtRet_t chevron(const void *stub, cnrtDim3_t dim, cnrtFunctionType_t type,
                  cnrtQueue_t queue, void **args) {
  if (__cudaPushCallConfiguration(dim, type, queue) != 0)
    return cnrtErrorUnknown;
  cnrtDim3_t d, block;
  size_t shared;
  void *q;
  if (__cudaPopCallConfiguration(&d, &block, &shared, &q) != 0)
    return cnrtErrorUnknown;
  return cudaLaunchKernel(stub, d, block, args, shared, (cnrtQueue_t)q);
}

TEST_F(Launch, VectorAddThroughTheChevronABI) {
  const int n = 1000;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i)
    a[i] = float(i), b[i] = 0.25f * float(i);
  float *da, *db, *dc;
  ASSERT_EQ(cnrtMalloc((void **)&da, n * 4), cnrtSuccess);
  ASSERT_EQ(cnrtMalloc((void **)&db, n * 4), cnrtSuccess);
  ASSERT_EQ(cnrtMalloc((void **)&dc, n * 4), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(da, a.data(), n * 4, cnrtMemcpyHostToDev), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(db, b.data(), n * 4, cnrtMemcpyHostToDev), cnrtSuccess);
  cnrtQueue_t q;
  cnrtNotifier_t start, end;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&start), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&end), cnrtSuccess);
  int nn = n;
  void *args[] = {&da, &db, &dc, &nn};
  ASSERT_EQ(cnrtPlaceNotifier(start, q), cnrtSuccess);
  ASSERT_EQ(chevron(&vaddStub, {16, 1, 1}, cnrtFuncTypeUnion1, q, args),
            cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(end, q), cnrtSuccess);
  ASSERT_EQ(cnrtQueueSync(q), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(c.data(), dc, n * 4, cnrtMemcpyDevToHost), cnrtSuccess);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << i;
  float ms = 0;
  ASSERT_EQ(cnrtNotifierElapsedTime(start, end, &ms), cnrtSuccess);
  EXPECT_GT(ms, 0.0f); // simulated time of the launch
  EXPECT_LT(ms, 10.0f);
  // The same through cnrtInvokeKernel on the default queue, BLOCK tasks.
  ASSERT_EQ(cnrtMemset(dc, 0, n * 4), cnrtSuccess);
  ASSERT_EQ(cnrtInvokeKernel(&vaddStub, {3, 1, 1}, cnrtFuncTypeBlock, args, 0,
                             nullptr),
            cnrtSuccess);
  ASSERT_EQ(cnrtQueueSync(nullptr), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(c.data(), dc, n * 4, cnrtMemcpyDevToHost), cnrtSuccess);
  EXPECT_EQ(c[n - 1], a[n - 1] + b[n - 1]);
  cnrtNotifierDestroy(start);
  cnrtNotifierDestroy(end);
  cnrtQueueDestroy(q);
  cnrtFree(da);
  cnrtFree(db);
  cnrtFree(dc);
}

TEST_F(Launch, ArgumentsOfEveryWidth) {
  uint16_t host[8];
  for (int i = 0; i < 8; ++i)
    host[i] = 0x4000; // 2.0
  void *dx;
  ASSERT_EQ(cnrtMalloc(&dx, sizeof host), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(dx, host, sizeof host, cnrtMemcpyHostToDev),
            cnrtSuccess);
  uint16_t f = 0x4200; // 3.0
  int n = 8;
  char flag = 1;
  void *args[] = {&dx, &f, &n, &flag};
  ASSERT_EQ(cnrtInvokeKernel(&scaleStub, {1, 1, 1}, cnrtFuncTypeBlock, args, 0,
                             nullptr),
            cnrtSuccess);
  ASSERT_EQ(cnrtQueueSync(nullptr), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(host, dx, sizeof host, cnrtMemcpyDevToHost),
            cnrtSuccess);
  for (uint16_t h : host)
    EXPECT_EQ(h, 0x4700); // 2 * 3 + 1 = 7
  cnrtFree(dx);
}

TEST_F(Launch, ConfigurationErrorsFailAtOnce) {
  float *d;
  ASSERT_EQ(cnrtMalloc((void **)&d, 64), cnrtSuccess);
  int n = 1;
  void *args[] = {&d, &d, &d, &n};
  EXPECT_EQ(chevron(&unknownStub, {1, 1, 1}, cnrtFuncTypeBlock, nullptr, args),
            cnrtErrorNoKernel);
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorNoKernel);
  EXPECT_EQ(chevron(&vaddStub, {0, 1, 1}, cnrtFuncTypeBlock, nullptr, args),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(chevron(&vaddStub, {3, 1, 1}, cnrtFuncTypeUnion1, nullptr, args),
            cnrtErrorArgsInvalid); // not a multiple of 4 cores
  EXPECT_EQ(chevron(&vaddStub, {64, 1, 1}, cnrtFuncTypeUnion16, nullptr, args),
            cnrtErrorArgsInvalid); // 8 clusters on mlu370
  EXPECT_EQ(chevron(&vaddStub, {1, 1, 1}, cnrtFunctionType_t(3), nullptr, args),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtInvokeKernel(&vaddStub, {1, 1, 1}, cnrtFuncTypeBlock, nullptr,
                             0, nullptr),
            cnrtErrorArgsInvalid);
  cnrtQueue_t dead;
  ASSERT_EQ(cnrtQueueCreate(&dead), cnrtSuccess);
  ASSERT_EQ(cnrtQueueDestroy(dead), cnrtSuccess);
  EXPECT_EQ(chevron(&vaddStub, {1, 1, 1}, cnrtFuncTypeBlock, dead, args),
            cnrtErrorInvalidResourceHandle);
  // The image was built for mlu370; device 1 is tiny.
  ASSERT_EQ(cnrtSetDevice(1), cnrtSuccess);
  EXPECT_EQ(chevron(&vaddStub, {1, 1, 1}, cnrtFuncTypeBlock, nullptr, args),
            cnrtErrorNoModule);
  ASSERT_EQ(cnrtSetDevice(0), cnrtSuccess);
  // A pop without a push.
  cnrtDim3_t dim, block;
  size_t shared;
  void *q;
  EXPECT_NE(__cudaPopCallConfiguration(&dim, &block, &shared, &q), 0);
  cnrtFree(d);
}

TEST_F(Launch, AFaultIsReportedBySyncAndTheDeviceGoesOn) {
  float *d;
  ASSERT_EQ(cnrtMalloc((void **)&d, 64 * sizeof(float)), cnrtSuccess);
  cnrtQueue_t q;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  void *args[] = {&d};
  testing::internal::CaptureStderr();
  EXPECT_EQ(chevron(&oobStub, {1, 1, 1}, cnrtFuncTypeBlock, q, args),
            cnrtSuccess);
  EXPECT_EQ(cnrtQueueSync(q), cnrtErrorCndrvFuncCall);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("kernel 'oob' faulted on device 0"), std::string::npos)
      << err;
  EXPECT_EQ(cnrtQueueSync(q), cnrtSuccess); // reported once
  // The device still runs kernels.
  float *e;
  ASSERT_EQ(cnrtMalloc((void **)&e, 4 * sizeof(float)), cnrtSuccess);
  int n = 4;
  void *vargs[] = {&e, &e, &e, &n};
  EXPECT_EQ(chevron(&vaddStub, {4, 1, 1}, cnrtFuncTypeBlock, q, vargs),
            cnrtSuccess);
  EXPECT_EQ(cnrtQueueSync(q), cnrtSuccess);
  cnrtQueueDestroy(q);
  cnrtFree(d);
  cnrtFree(e);
}

TEST_F(Launch, UnregisteredImagesLoseTheirKernels) {
  std::vector<char> storage;
  void **h = registerImage("tiny", storage);
  char stub;
  ASSERT_EQ(__cudaRegisterFunction(h, &stub, (char *)"oob", "oob",
                                   -1, nullptr, nullptr, nullptr, nullptr,
                                   nullptr),
            0);
  float *d;
  ASSERT_EQ(cnrtSetDevice(1), cnrtSuccess);
  ASSERT_EQ(cnrtMalloc((void **)&d, 64 * sizeof(float)), cnrtSuccess);
  void *args[] = {&d};
  __cudaUnregisterFatBinary(h);
  EXPECT_EQ(cnrtInvokeKernel(&stub, {1, 1, 1}, cnrtFuncTypeBlock, args, 0,
                             nullptr),
            cnrtErrorNoKernel);
  // A bad wrapper registers an image whose launches fail cleanly.
  int32_t junk[8] = {};
  void **bad = __cudaRegisterFatBinary(junk);
  char badStub;
  ASSERT_EQ(__cudaRegisterFunction(bad, &badStub, (char *)"k", "k", -1,
                                   nullptr, nullptr, nullptr, nullptr, nullptr),
            0);
  EXPECT_EQ(cnrtInvokeKernel(&badStub, {1, 1, 1}, cnrtFuncTypeBlock, args, 0,
                             nullptr),
            cnrtErrorNoModule);
  cnrtFree(d);
}

} // namespace
