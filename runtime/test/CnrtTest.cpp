//===- CnrtTest.cpp - The CNRT runtime: every function, its error paths ---===//
//
// Each test calls the C API as a host program does and checks results and
// return codes against CNRT's documented behaviour; bad arguments must give
// the CNRT error, never a crash. The process runs two devices (mlu370 and
// tiny) unless BANGC_CNRT_DEVICES says otherwise.
//
//===----------------------------------------------------------------------===//
#include "bangsim/Cnrt.h"
#include "bangsim/DeviceSpec.h"
#include "bangsim/Module.h"

#include "CCallers.h"
#include "cn_api.h"
#include "cnrt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Before main: the runtime reads the device list once, at its first call.
const int devicesSet = setenv("BANGC_CNRT_DEVICES", "mlu370,tiny", 0);

bangsim::DeviceSpec specOf(const char *name) {
  auto spec = bangsim::loadDeviceSpec(name);
  EXPECT_TRUE(bool(spec));
  return spec ? *spec : bangsim::DeviceSpec{};
}

struct Cnrt : ::testing::Test {
  void SetUp() override {
    (void)devicesSet;
    ASSERT_EQ(cnrtSetDevice(0), cnrtSuccess);
    cnrtGetLastError();
  }
};

// --- Errors ----------------------------------------------------------------
/// An int no enumerator of the API's enums has: C callers may pass it.
constexpr int OutOfRange = 0x7fffffff;

TEST_F(Cnrt, ErrorNamesAndStringsComeFromTheTable) {
  EXPECT_STREQ(cnrtGetErrorName(cnrtSuccess), "cnrtSuccess");
  EXPECT_STREQ(cnrtGetErrorName(cnrtErrorNoDevice), "cnrtErrorNoDevice");
  EXPECT_STREQ(cnrtGetErrorName(cnrtErrorCndrvFuncCall),
               "cnrtErrorCndrvFuncCall");
  EXPECT_EQ(int(cnrtErrorNoDevice), 100004);
  EXPECT_EQ(int(cnrtErrorArgsInvalid), 100006);
  EXPECT_EQ(int(cnrtErrorNoMem), 100100);
  EXPECT_EQ(int(cnrtErrorCndrvFuncCall), 632015);
  EXPECT_STREQ(cnrtGetErrorStr(cnrtErrorNoMem), "out of MLU device memory");
  EXPECT_STREQ(cnrtGetErrorName(cnrtRet_t(12345)), "cnrtErrorUnknown");
  EXPECT_STREQ(cnrtGetErrorStr(cnrtRet_t(12345)), "unknown error code");
  // Beyond the enum's range: UBSan (-fsanitize=enum) checks the switch.
  EXPECT_STREQ(cCnrtGetErrorName(OutOfRange), "cnrtErrorUnknown");
  EXPECT_STREQ(cCnrtGetErrorStr(OutOfRange), "unknown error code");
  // Every row has a distinct name and a description.
  std::vector<std::string> names;
#define CNRT_RET(name, value, description)                                     \
  EXPECT_STREQ(cnrtGetErrorName(name), #name);                                 \
  EXPECT_STRNE(cnrtGetErrorStr(name), "");                                     \
  names.push_back(#name);
#include "cnrt_ret.def"
  EXPECT_GT(names.size(), 30u);
}

TEST_F(Cnrt, CnDrvErrorNames) {
  const char *s = nullptr;
  ASSERT_EQ(cnGetErrorName(CN_OPS_ERROR_NOT_SUPPORTED, &s), CN_SUCCESS);
  EXPECT_STREQ(s, "CN_OPS_ERROR_NOT_SUPPORTED");
  ASSERT_EQ(cnGetErrorString(CN_ERROR_NO_DEVICE, &s), CN_SUCCESS);
  EXPECT_STREQ(s, "no MLU device was found");
  EXPECT_EQ(cnGetErrorName(CNresult(42), &s), CN_ERROR_INVALID_VALUE);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(cCnGetErrorName(OutOfRange, &s), CN_ERROR_INVALID_VALUE);
  EXPECT_EQ(cCnGetErrorString(OutOfRange, &s), CN_ERROR_INVALID_VALUE);
  EXPECT_EQ(cnGetErrorString(CN_SUCCESS, nullptr), CN_ERROR_INVALID_VALUE);
}

TEST_F(Cnrt, LastErrorIsRecordedPeekedAndReset) {
  EXPECT_EQ(cnrtPeekAtLastError(), cnrtSuccess);
  EXPECT_EQ(cnrtSetDevice(99), cnrtErrorDeviceInvalid);
  int d = -1;
  EXPECT_EQ(cnrtGetDevice(&d), cnrtSuccess); // success keeps the error
  EXPECT_EQ(cnrtPeekAtLastError(), cnrtErrorDeviceInvalid);
  EXPECT_EQ(cnrtPeekAtLastError(), cnrtErrorDeviceInvalid);
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorDeviceInvalid);
  EXPECT_EQ(cnrtGetLastError(), cnrtSuccess);
}

TEST_F(Cnrt, LibVersion) {
  int a = 0, b = 0, c = 0;
  ASSERT_EQ(cnrtGetLibVersion(&a, &b, &c), cnrtSuccess);
  EXPECT_EQ(a * 10000 + b * 100 + c, CNRT_VERSION);
  EXPECT_EQ(cnrtGetLibVersion(nullptr, &b, &c), cnrtErrorArgsInvalid);
  ASSERT_EQ(cnGetLibVersion(&a, &b, &c), CN_SUCCESS);
  EXPECT_EQ(a, CN_MAJOR_VERSION);
}

// --- Devices ---------------------------------------------------------------
TEST_F(Cnrt, DeviceCountAndSelection) {
  unsigned n = 0;
  ASSERT_EQ(cnrtGetDeviceCount(&n), cnrtSuccess);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(cnrtGetDeviceCount(nullptr), cnrtErrorArgsInvalid);
  int d = -1;
  ASSERT_EQ(cnrtSetDevice(1), cnrtSuccess);
  ASSERT_EQ(cnrtGetDevice(&d), cnrtSuccess);
  EXPECT_EQ(d, 1);
  EXPECT_EQ(cnrtSetDevice(2), cnrtErrorDeviceInvalid);
  EXPECT_EQ(cnrtSetDevice(-1), cnrtErrorDeviceInvalid);
  ASSERT_EQ(cnrtGetDevice(&d), cnrtSuccess);
  EXPECT_EQ(d, 1);
  EXPECT_EQ(cnrtGetDevice(nullptr), cnrtErrorArgsInvalid);
}

TEST_F(Cnrt, AttributesComeFromTheDeviceSpec) {
  bangsim::DeviceSpec mlu370 = specOf("mlu370"), tiny = specOf("tiny");
  int v = 0;
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrClusterCount, 0), cnrtSuccess);
  EXPECT_EQ(v, mlu370.clusters);
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrClusterCount, 1), cnrtSuccess);
  EXPECT_EQ(v, tiny.clusters);
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrMcorePerCluster, 0),
            cnrtSuccess);
  EXPECT_EQ(v, mlu370.coresPerCluster);
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrNramSizePerMcore, 0),
            cnrtSuccess);
  EXPECT_EQ(v, mlu370.nramBytes);
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrWramSizePerMcore, 0),
            cnrtSuccess);
  EXPECT_EQ(v, mlu370.wramBytes);
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrSramSizePerMcore, 0),
            cnrtSuccess);
  EXPECT_EQ(v, mlu370.sramBytes);
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrISAVersion, 0), cnrtSuccess);
  EXPECT_EQ(v, 372);
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrComputeCapabilityMajor, 0),
            cnrtSuccess);
  EXPECT_EQ(v, 3);
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrTotalMemSize, 0), cnrtSuccess);
  EXPECT_EQ(v, mlu370.gdramBytes >> 20);
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrIpuClockRate, 0), cnrtSuccess);
  EXPECT_EQ(v, int(mlu370.clockGHz * 1e6 + 0.5));
  ASSERT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrMaxClusterCountPerUnionTask, 1),
            cnrtSuccess);
  EXPECT_LE(v, tiny.clusters);
  EXPECT_GE(v, 1);
  // Not modelled, unknown, bad device, bad pointer.
  EXPECT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrMemClockRate, 0),
            cnrtErrorNotSupport);
  EXPECT_EQ(cnrtDeviceGetAttribute(&v, cnrtDeviceAttr_t(0x7777), 0),
            cnrtErrorNoAttribute);
  EXPECT_EQ(cnrtDeviceGetAttribute(&v, cnrtAttrClusterCount, 5),
            cnrtErrorDeviceInvalid);
  EXPECT_EQ(cnrtDeviceGetAttribute(nullptr, cnrtAttrClusterCount, 0),
            cnrtErrorArgsInvalid);
}

TEST_F(Cnrt, DeviceProperties) {
  cnrtDeviceProp_t p;
  ASSERT_EQ(cnrtGetDeviceProperties(&p, 1), cnrtSuccess);
  bangsim::DeviceSpec tiny = specOf("tiny");
  EXPECT_EQ(std::string(p.name), tiny.name);
  EXPECT_EQ(p.clusterCount, tiny.clusters);
  EXPECT_EQ(p.McorePerCluster, tiny.coresPerCluster);
  EXPECT_EQ(p.NramSizePerMcore, tiny.nramBytes);
  EXPECT_EQ(p.totalGlobalMemSize, uint64_t(tiny.gdramBytes));
  EXPECT_EQ(cnrtGetDeviceProperties(&p, 2), cnrtErrorDeviceInvalid);
  EXPECT_EQ(cnrtGetDeviceProperties(nullptr, 0), cnrtErrorArgsInvalid);
}

// --- Memory ----------------------------------------------------------------
TEST_F(Cnrt, MallocMemcpyRoundTrip) {
  std::vector<float> in(1000), out(1000, -1.0f);
  for (int i = 0; i < 1000; ++i)
    in[i] = float(i) * 0.5f;
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(cnrtMalloc(&a, 4000), cnrtSuccess);
  ASSERT_EQ(cnrtMalloc(&b, 4000), cnrtSuccess);
  EXPECT_TRUE(bangsim::cnrt::isDeviceMemory(a, 4000));
  EXPECT_FALSE(bangsim::cnrt::isDeviceMemory(a, 4001));
  ASSERT_EQ(cnrtMemcpy(a, in.data(), 4000, cnrtMemcpyHostToDev), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(b, a, 4000, cnrtMemcpyDevToDev), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(out.data(), b, 4000, cnrtMemcpyDevToHost), cnrtSuccess);
  EXPECT_EQ(in, out);
  // An offset inside an allocation, and the direction inferred.
  float x = 7.0f, y = 0;
  ASSERT_EQ(cnrtMemcpy(static_cast<char *>(a) + 400, &x, 4,
                       cnrtMemcpyNoDirection),
            cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(&y, static_cast<char *>(a) + 400, 4,
                       cnrtMemcpyNoDirection),
            cnrtSuccess);
  EXPECT_EQ(y, 7.0f);
  ASSERT_EQ(cnrtMemcpy(&y, &x, 4, cnrtMemcpyHostToHost), cnrtSuccess);
  EXPECT_EQ(y, 7.0f);
  EXPECT_EQ(cnrtFree(a), cnrtSuccess);
  EXPECT_EQ(cnrtFree(b), cnrtSuccess);
}

TEST_F(Cnrt, MemcpyErrorsNeverTouchMemory) {
  void *a = nullptr;
  ASSERT_EQ(cnrtMalloc(&a, 64), cnrtSuccess);
  char host[128] = {};
  // Past the end, wrong direction, host pointer as device side.
  EXPECT_EQ(cnrtMemcpy(a, host, 65, cnrtMemcpyHostToDev), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMemcpy(static_cast<char *>(a) + 60, host, 8,
                       cnrtMemcpyHostToDev),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMemcpy(host, host + 64, 8, cnrtMemcpyDevToHost),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMemcpy(host, a, 8, cnrtMemcpyHostToDev), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMemcpy(a, host, 8, cnrtMemTransDir_t(17)),
            cnrtErrorMemcpyDirectionInvalid);
  EXPECT_EQ(cnrtMemcpy(nullptr, host, 8, cnrtMemcpyHostToHost),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMemcpy(nullptr, nullptr, 0, cnrtMemcpyHostToDev), cnrtSuccess);
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtFree(a), cnrtSuccess);
  // After the free the buffer is gone.
  EXPECT_EQ(cnrtMemcpy(a, host, 8, cnrtMemcpyHostToDev), cnrtErrorArgsInvalid);
}

TEST_F(Cnrt, MallocAndFreeErrors) {
  void *a = nullptr;
  EXPECT_EQ(cnrtMalloc(nullptr, 64), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMalloc(&a, 0), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMalloc(&a, size_t(1) << 62), cnrtErrorNoMem);
  EXPECT_EQ(cnrtFree(nullptr), cnrtSuccess);
  ASSERT_EQ(cnrtMalloc(&a, 64), cnrtSuccess);
  EXPECT_EQ(cnrtFree(static_cast<char *>(a) + 8), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtFree(a), cnrtSuccess);
  EXPECT_EQ(cnrtFree(a), cnrtErrorArgsInvalid); // double free
  int local;
  EXPECT_EQ(cnrtFree(&local), cnrtErrorArgsInvalid);
}

TEST_F(Cnrt, MemsetVariants) {
  void *a = nullptr;
  ASSERT_EQ(cnrtMalloc(&a, 64), cnrtSuccess);
  uint8_t bytes[64];
  ASSERT_EQ(cnrtMemset(a, 0x5a, 64), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(bytes, a, 64, cnrtMemcpyDevToHost), cnrtSuccess);
  for (uint8_t b : bytes)
    EXPECT_EQ(b, 0x5a);
  ASSERT_EQ(cnrtMemsetD8(a, 0x11, 8), cnrtSuccess);
  ASSERT_EQ(cnrtMemsetD32(static_cast<char *>(a) + 8, 0xdeadbeef, 2),
            cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(bytes, a, 64, cnrtMemcpyDevToHost), cnrtSuccess);
  uint32_t w;
  std::memcpy(&w, bytes + 12, 4);
  EXPECT_EQ(bytes[7], 0x11);
  EXPECT_EQ(w, 0xdeadbeefu);
  EXPECT_EQ(bytes[16], 0x5a);
  cnrtQueue_t q;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_EQ(cnrtMemsetAsync(a, 1, 64, q), cnrtSuccess);
  ASSERT_EQ(cnrtMemsetD8Async(a, 2, 1, q), cnrtSuccess);
  ASSERT_EQ(cnrtMemsetD32Async(static_cast<char *>(a) + 4, 3, 1, q),
            cnrtSuccess);
  ASSERT_EQ(cnrtQueueSync(q), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(bytes, a, 64, cnrtMemcpyDevToHost), cnrtSuccess);
  EXPECT_EQ(bytes[0], 2);
  EXPECT_EQ(bytes[1], 1);
  EXPECT_EQ(bytes[4], 3);
  EXPECT_EQ(bytes[5], 0);
  // Errors: past the end, misaligned D32, host memory, null.
  EXPECT_EQ(cnrtMemset(a, 0, 65), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMemsetD32(static_cast<char *>(a) + 2, 0, 1),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMemset(bytes, 0, 4), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMemset(nullptr, 0, 4), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtMemsetD32(a, 0, SIZE_MAX / 2), cnrtErrorArgsInvalid);
  ASSERT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
  EXPECT_EQ(cnrtMemsetAsync(a, 0, 4, q), cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtFree(a), cnrtSuccess);
}

TEST_F(Cnrt, MemGetInfoFollowsAllocations) {
  size_t free0 = 0, total = 0, free1 = 0;
  ASSERT_EQ(cnrtMemGetInfo(&free0, &total), cnrtSuccess);
  EXPECT_EQ(total, size_t(specOf("mlu370").gdramBytes));
  void *a = nullptr;
  ASSERT_EQ(cnrtMalloc(&a, 1 << 20), cnrtSuccess);
  ASSERT_EQ(cnrtMemGetInfo(&free1, &total), cnrtSuccess);
  EXPECT_EQ(free0 - free1, size_t(1) << 20);
  EXPECT_EQ(cnrtFree(a), cnrtSuccess);
  EXPECT_EQ(cnrtMemGetInfo(nullptr, &total), cnrtErrorArgsInvalid);
}

TEST_F(Cnrt, PointerAttributes) {
  void *a = nullptr, *h = nullptr;
  ASSERT_EQ(cnrtSetDevice(1), cnrtSuccess);
  ASSERT_EQ(cnrtMalloc(&a, 256), cnrtSuccess);
  ASSERT_EQ(cnrtHostMalloc(&h, 100), cnrtSuccess);
  cnrtPointerAttributes_t attr;
  ASSERT_EQ(cnrtPointerGetAttributes(&attr, static_cast<char *>(a) + 16),
            cnrtSuccess);
  EXPECT_EQ(attr.type, cnrtMemTypeDevice);
  EXPECT_EQ(attr.device, 1);
  EXPECT_EQ(attr.size, 256u);
  EXPECT_EQ(attr.deviceBasePointer, a);
  ASSERT_EQ(cnrtPointerGetAttributes(&attr, h), cnrtSuccess);
  EXPECT_EQ(attr.type, cnrtMemTypeHost);
  int local = 0;
  ASSERT_EQ(cnrtPointerGetAttributes(&attr, &local), cnrtSuccess);
  EXPECT_EQ(attr.type, cnrtMemTypeUnregistered);
  ASSERT_EQ(cnrtPointerGetAttributes(&attr, static_cast<char *>(a) + 256),
            cnrtSuccess);
  EXPECT_EQ(attr.type, cnrtMemTypeUnregistered); // one past the end
  EXPECT_EQ(cnrtPointerGetAttributes(nullptr, a), cnrtErrorArgsInvalid);
  // Host memory is not device memory for copies.
  EXPECT_EQ(cnrtMemcpy(h, &local, 4, cnrtMemcpyHostToDev),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtFree(h), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtFreeHost(a), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtFreeHost(h), cnrtSuccess);
  EXPECT_EQ(cnrtFree(a), cnrtSuccess);
  EXPECT_EQ(cnrtHostMalloc(&h, 0), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtHostMalloc(nullptr, 8), cnrtErrorArgsInvalid);
}

// --- Queues and notifiers --------------------------------------------------
TEST_F(Cnrt, QueueLifecycle) {
  cnrtQueue_t q = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(cnrtQueueQuery(q), cnrtSuccess);
  EXPECT_EQ(cnrtQueueSync(q), cnrtSuccess);
  EXPECT_EQ(cnrtQueueSync(nullptr), cnrtSuccess); // the default queue
  char in[16] = "queued copy", out[16] = {};
  void *a = nullptr;
  ASSERT_EQ(cnrtMalloc(&a, 16), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpyAsync(a, in, 16, q, cnrtMemcpyHostToDev), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpyAsync(out, a, 16, nullptr, cnrtMemcpyDevToHost),
            cnrtSuccess);
  ASSERT_EQ(cnrtQueueSync(q), cnrtSuccess);
  EXPECT_STREQ(out, "queued copy");
  auto dq = bangsim::cnrt::queueDevice(q);
  ASSERT_TRUE(bool(dq));
  EXPECT_EQ(*dq, 0);
  ASSERT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
  EXPECT_EQ(cnrtQueueDestroy(q), cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtQueueSync(q), cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtQueueQuery(q), cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtMemcpyAsync(a, in, 16, q, cnrtMemcpyHostToDev),
            cnrtErrorInvalidResourceHandle);
  EXPECT_FALSE(bool(bangsim::cnrt::queueDevice(q)));
  EXPECT_EQ(cnrtQueueCreate(nullptr), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtQueueDestroy(nullptr), cnrtErrorInvalidResourceHandle);
  // The older names.
  ASSERT_EQ(cnrtCreateQueue(&q), cnrtSuccess);
  EXPECT_EQ(cnrtSyncQueue(q), cnrtSuccess);
  EXPECT_EQ(cnrtDestroyQueue(q), cnrtSuccess);
  EXPECT_EQ(cnrtFree(a), cnrtSuccess);
}

TEST_F(Cnrt, AFaultIsReportedOnceBySync) {
  cnrtQueue_t q;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  bangsim::cnrt::recordFault(q, "test fault");
  EXPECT_EQ(cnrtQueueQuery(q), cnrtErrorCndrvFuncCall);
  EXPECT_EQ(cnrtQueueSync(q), cnrtErrorCndrvFuncCall);
  EXPECT_EQ(cnrtQueueSync(q), cnrtSuccess);
  EXPECT_EQ(cnrtGetLastError(), cnrtErrorCndrvFuncCall);
  bangsim::cnrt::recordFault(q, "test fault");
  EXPECT_EQ(cnrtSyncDevice(), cnrtErrorCndrvFuncCall);
  EXPECT_EQ(cnrtSyncDevice(), cnrtSuccess);
  EXPECT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
}

TEST_F(Cnrt, NotifiersMeasureSimulatedTime) {
  cnrtQueue_t q;
  cnrtNotifier_t start, end;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&start), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&end), cnrtSuccess);
  float ms = -1;
  // Not placed yet: CNDrv fails.
  EXPECT_EQ(cnrtNotifierElapsedTime(start, end, &ms), cnrtErrorCndrvFuncCall);
  ASSERT_EQ(cnrtPlaceNotifier(start, q), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(end, q), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierElapsedTime(start, end, &ms), cnrtSuccess);
  EXPECT_EQ(ms, 0.0f);
  // A launch of 2.5 simulated milliseconds between the two.
  bangsim::LaunchStats stats;
  stats.seconds = 2.5e-3;
  ASSERT_EQ(cnrtPlaceNotifier(start, q), cnrtSuccess);
  bangsim::cnrt::recordLaunch(q, stats);
  ASSERT_EQ(cnrtPlaceNotifier(end, nullptr), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierElapsedTime(start, end, &ms), cnrtSuccess);
  EXPECT_NEAR(ms, 2.5f, 1e-4);
  EXPECT_EQ(cnrtWaitNotifier(end), cnrtSuccess);
  EXPECT_EQ(cnrtQueryNotifier(end), cnrtSuccess);
  EXPECT_EQ(cnrtQueueWaitNotifier(end, q, 0), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierElapsedTime(start, end, nullptr),
            cnrtErrorArgsInvalid);
  // On another device.
  ASSERT_EQ(cnrtSetDevice(1), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(end, nullptr), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierElapsedTime(start, end, &ms), cnrtErrorDevice);
  ASSERT_EQ(cnrtSetDevice(0), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierDestroy(start), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierDestroy(end), cnrtSuccess);
  EXPECT_EQ(cnrtNotifierDestroy(end), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtPlaceNotifier(end, q), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtWaitNotifier(end), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtQueryNotifier(nullptr), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtQueueWaitNotifier(end, q, 0), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
}

TEST_F(Cnrt, NotifierFlags) {
  cnrtNotifier_t a, b;
  ASSERT_EQ(cnrtNotifierCreateWithFlags(&a, CNRT_NOTIFIER_DISABLE_TIMING_ALL),
            cnrtSuccess);
  ASSERT_EQ(cnrtCreateNotifier(&b), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(a, nullptr), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(b, nullptr), cnrtSuccess);
  float ms;
  EXPECT_EQ(cnrtNotifierElapsedTime(a, b, &ms), cnrtErrorArgsInvalid);
  cnrtNotifier_t c;
  EXPECT_EQ(cnrtNotifierCreateWithFlags(&c, 0x100), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtNotifierCreateWithFlags(&c, CNRT_NOTIFIER_INTERPROCESS),
            cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtNotifierCreate(nullptr), cnrtErrorArgsInvalid);
  EXPECT_EQ(cnrtNotifierDestroy(a), cnrtSuccess);
  EXPECT_EQ(cnrtDestroyNotifier(b), cnrtSuccess);
}

TEST_F(Cnrt, DeviceResetFreesTheDevicesResources) {
  ASSERT_EQ(cnrtSetDevice(1), cnrtSuccess);
  void *a = nullptr;
  cnrtQueue_t q;
  ASSERT_EQ(cnrtMalloc(&a, 64), cnrtSuccess);
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_EQ(cnrtSetDevice(0), cnrtSuccess);
  void *keep = nullptr;
  ASSERT_EQ(cnrtMalloc(&keep, 64), cnrtSuccess);
  ASSERT_EQ(cnrtSetDevice(1), cnrtSuccess);
  ASSERT_EQ(cnrtDeviceReset(), cnrtSuccess);
  cnrtPointerAttributes_t attr;
  ASSERT_EQ(cnrtPointerGetAttributes(&attr, a), cnrtSuccess);
  EXPECT_NE(attr.type, cnrtMemTypeDevice);
  EXPECT_EQ(cnrtQueueSync(q), cnrtErrorInvalidResourceHandle);
  EXPECT_EQ(cnrtFree(a), cnrtErrorArgsInvalid);
  EXPECT_TRUE(bangsim::cnrt::isDeviceMemory(keep, 64)); // device 0 untouched
  // The device works again after the reset.
  ASSERT_EQ(cnrtMalloc(&a, 64), cnrtSuccess);
  EXPECT_EQ(cnrtFree(a), cnrtSuccess);
  ASSERT_EQ(cnrtSetDevice(0), cnrtSuccess);
  EXPECT_EQ(cnrtFree(keep), cnrtSuccess);
}

TEST_F(Cnrt, CppAccessToDevices) {
  auto dev = bangsim::cnrt::device(1);
  ASSERT_TRUE(bool(dev));
  EXPECT_EQ((*dev)->spec().name, specOf("tiny").name);
  EXPECT_FALSE(bool(bangsim::cnrt::device(7)));
  llvm::consumeError(bangsim::cnrt::device(7).takeError());
}

TEST_F(Cnrt, CppLaunchSharesMemoryClockAndFaults) {
  const char *src = R"(
__mlu_global__ void twice(float *x, int n) {
  for (int i = taskId; i < n; i += taskDim)
    x[i] = 2.0f * x[i];
}
__mlu_global__ void oob(float *x) {
  __nram__ float buf[64];
  __memcpy(buf, x, 64 * sizeof(float), GDRAM2NRAM);
  __memcpy(x + 1000000, buf, 64 * sizeof(float), NRAM2GDRAM);
})";
  auto module =
      bangsim::Module::compileString("interop.mlu", src, specOf("mlu370"));
  ASSERT_TRUE(bool(module)) << toString(module.takeError());
  auto twice = (*module)->findKernel("twice");
  auto oob = (*module)->findKernel("oob");
  ASSERT_TRUE(twice && oob);
  float host[64];
  for (int i = 0; i < 64; ++i)
    host[i] = float(i);
  float *d = nullptr;
  ASSERT_EQ(cnrtMalloc((void **)&d, sizeof host), cnrtSuccess);
  ASSERT_EQ(cnrtMemcpy(d, host, sizeof host, cnrtMemcpyHostToDev), cnrtSuccess);
  cnrtQueue_t q;
  cnrtNotifier_t start, end;
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&start), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&end), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(start, q), cnrtSuccess);
  auto stats = bangsim::cnrt::launch(
      q, **twice, (*module)->staticLayout(), {4, 1, 1},
      bangsim::FuncType::Block,
      {bangsim::KernelArg::pointer(d), bangsim::KernelArg::i32(64)});
  ASSERT_TRUE(bool(stats)) << toString(stats.takeError());
  ASSERT_EQ(cnrtPlaceNotifier(end, q), cnrtSuccess);
  float ms = 0;
  ASSERT_EQ(cnrtNotifierElapsedTime(start, end, &ms), cnrtSuccess);
  EXPECT_NEAR(ms, float(stats->seconds * 1e3), 1e-6);
  EXPECT_GT(ms, 0.0f);
  ASSERT_EQ(cnrtMemcpy(host, d, sizeof host, cnrtMemcpyDevToHost), cnrtSuccess);
  EXPECT_EQ(host[63], 126.0f);
  // A fault: returned, printed, and left on the queue for cnrtQueueSync.
  testing::internal::CaptureStderr();
  auto fault = bangsim::cnrt::launch(q, **oob, (*module)->staticLayout(),
                                     {1, 1, 1}, bangsim::FuncType::Block,
                                     {bangsim::KernelArg::pointer(d)});
  std::string err = testing::internal::GetCapturedStderr();
  ASSERT_FALSE(bool(fault));
  EXPECT_TRUE(fault.errorIsA<bangsim::LaunchFault>());
  llvm::consumeError(fault.takeError());
  EXPECT_NE(err.find("kernel 'oob' faulted on device 0"), std::string::npos)
      << err;
  EXPECT_EQ(cnrtQueueSync(q), cnrtErrorCndrvFuncCall);
  // A configuration error is not a fault and leaves the queue clean.
  auto bad = bangsim::cnrt::launch(q, **twice, (*module)->staticLayout(),
                                   {0, 1, 1}, bangsim::FuncType::Block,
                                   {bangsim::KernelArg::pointer(d),
                                    bangsim::KernelArg::i32(64)});
  ASSERT_FALSE(bool(bad));
  EXPECT_FALSE(bad.errorIsA<bangsim::LaunchFault>());
  llvm::consumeError(bad.takeError());
  EXPECT_EQ(cnrtQueueSync(q), cnrtSuccess);
  auto cur = bangsim::cnrt::currentDevice();
  ASSERT_TRUE(bool(cur));
  EXPECT_EQ((*cur)->spec().name, specOf("mlu370").name);
  cnrtNotifierDestroy(start);
  cnrtNotifierDestroy(end);
  cnrtQueueDestroy(q);
  cnrtFree(d);
}

// --- CNDrv -------------------------------------------------------------------
TEST_F(Cnrt, CnDrvDevicesAndContexts) {
  bangsim::DeviceSpec mlu370 = specOf("mlu370");
  int n = 0;
  ASSERT_EQ(cnInit(0), CN_SUCCESS);
  EXPECT_EQ(cnInit(1), CN_ERROR_INVALID_VALUE);
  ASSERT_EQ(cnDeviceGetCount(&n), CN_SUCCESS);
  EXPECT_EQ(n, 2);
  CNdev dev;
  ASSERT_EQ(cnDeviceGet(&dev, 0), CN_SUCCESS);
  EXPECT_EQ(cnDeviceGet(&dev, 2), CN_ERROR_INVALID_DEVICE);
  int v = 0;
  ASSERT_EQ(cnDeviceGetAttribute(&v, CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT, 0),
            CN_SUCCESS);
  EXPECT_EQ(v, mlu370.clusters);
  EXPECT_EQ(cnDeviceGetAttribute(&v, CN_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0),
            CN_OPS_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(cnDeviceGetAttribute(&v, CNdevice_attribute(3333), 0),
            CN_ERROR_INVALID_VALUE);
  EXPECT_EQ(cnDeviceGetAttribute(&v, CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT, 9),
            CN_ERROR_INVALID_DEVICE);
  char name[8];
  ASSERT_EQ(cnDeviceGetName(name, sizeof name, 0), CN_SUCCESS);
  EXPECT_EQ(std::string(name), mlu370.name.substr(0, 7));
  cn_uint64_t total = 0;
  ASSERT_EQ(cnDeviceTotalMem(&total, 0), CN_SUCCESS);
  EXPECT_EQ(total, cn_uint64_t(mlu370.gdramBytes));

  CNcontext ctx = nullptr, shared = nullptr;
  ASSERT_EQ(cnCtxGetCurrent(&ctx), CN_SUCCESS);
  ASSERT_EQ(cnCtxGetDevice(&dev), CN_SUCCESS);
  EXPECT_EQ(dev, 0u);
  ASSERT_EQ(cnSharedContextAcquire(&shared, 0), CN_SUCCESS);
  EXPECT_EQ(ctx, shared);
  EXPECT_EQ(cnSharedContextRelease(0), CN_SUCCESS);
  CNctxConfigParam p;
  ASSERT_EQ(cnGetCtxConfigParam(ctx, CN_CTX_CONFIG_VISIBLE_CLUSTER_NUM, &p),
            CN_SUCCESS);
  EXPECT_EQ(p.visibleClusterNumber, cn_uint64_t(mlu370.clusters));
  ASSERT_EQ(cnGetCtxConfigParam(ctx, CN_CTX_CONFIG_UNION_LIMIT, &p),
            CN_SUCCESS);
  EXPECT_EQ(p.unionLimit, CN_KERNEL_CLASS_UNION16);
  p.unionLimit = CN_KERNEL_CLASS_UNION2;
  ASSERT_EQ(cnSetCtxConfigParam(ctx, CN_CTX_CONFIG_UNION_LIMIT, &p),
            CN_SUCCESS);
  ASSERT_EQ(cnGetCtxConfigParam(ctx, CN_CTX_CONFIG_UNION_LIMIT, &p),
            CN_SUCCESS);
  EXPECT_EQ(p.unionLimit, CN_KERNEL_CLASS_UNION2);
  p.unionLimit = KernelClass(3);
  EXPECT_EQ(cnSetCtxConfigParam(ctx, CN_CTX_CONFIG_UNION_LIMIT, &p),
            CN_ERROR_INVALID_VALUE);
  int tasks = 0;
  ASSERT_EQ(cnGetCtxMaxParallelUnionTasks(ctx, CN_KERNEL_CLASS_BLOCK, &tasks),
            CN_SUCCESS);
  EXPECT_EQ(tasks, mlu370.numCores());
  ASSERT_EQ(cnGetCtxMaxParallelUnionTasks(ctx, CN_KERNEL_CLASS_UNION2, &tasks),
            CN_SUCCESS);
  EXPECT_EQ(tasks, mlu370.clusters / 2);
  // Bad handles and arguments.
  CNcontext bogus = reinterpret_cast<CNcontext>(&p);
  EXPECT_EQ(cnGetCtxConfigParam(bogus, CN_CTX_CONFIG_UNION_LIMIT, &p),
            CN_CONTEXT_ERROR_INVALID);
  EXPECT_EQ(cnGetCtxMaxParallelUnionTasks(ctx, KernelClass(5), &tasks),
            CN_ERROR_INVALID_VALUE);
  EXPECT_EQ(cCnGetCtxMaxParallelUnionTasks(ctx, OutOfRange, &tasks),
            CN_ERROR_INVALID_VALUE);
  EXPECT_EQ(cCnGetCtxConfigParam(ctx, OutOfRange, &p), CN_ERROR_INVALID_VALUE);
  EXPECT_EQ(cCnSetCtxConfigParam(ctx, OutOfRange, &p), CN_ERROR_INVALID_VALUE);
  EXPECT_EQ(cnCtxSetCurrent(bogus), CN_CONTEXT_ERROR_INVALID);
  EXPECT_EQ(cnCtxGetCurrent(nullptr), CN_ERROR_INVALID_VALUE);

  cnrtQueue_t q;
  ASSERT_EQ(cnrtSetDevice(1), cnrtSuccess);
  ASSERT_EQ(cnrtQueueCreate(&q), cnrtSuccess);
  ASSERT_EQ(cnrtSetDevice(0), cnrtSuccess);
  CNcontext qctx = nullptr;
  ASSERT_EQ(cnQueueGetContext((CNqueue)q, &qctx), CN_SUCCESS);
  ASSERT_EQ(cnCtxSetCurrent(qctx), CN_SUCCESS);
  ASSERT_EQ(cnCtxGetDevice(&dev), CN_SUCCESS);
  EXPECT_EQ(dev, 1u);
  EXPECT_EQ(cnQueueSync((CNqueue)q), CN_SUCCESS);
  ASSERT_EQ(cnrtQueueDestroy(q), cnrtSuccess);
  EXPECT_EQ(cnQueueGetContext((CNqueue)q, &qctx), CN_QUEUE_ERROR_INVALID);
  void *h = nullptr;
  ASSERT_EQ(cnMallocHost(&h, 32), CN_SUCCESS);
  EXPECT_EQ(cnFreeHost(h), CN_SUCCESS);
  EXPECT_EQ(cnFreeHost(h), CN_MEMORY_ERROR_INVALID_ADDRESS);
}

} // namespace
