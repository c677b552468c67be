//===- TinShiftCnrtTest.cpp - The op library with the CNRT runtime --------===//
//
// A handle of mluOpCreate shares the CNRT runtime's device: an operator
// takes cnrtMalloc memory, launches on the cnrtQueue_t of mluOpSetQueue
// (whose notifiers then measure it), and a kernel fault is both the
// operator's EXECUTION_FAILED and the queue's error at cnrtQueueSync, as a
// CNRT program sees it. TinShift is the operator used.
//
//===----------------------------------------------------------------------===//
#include "kernels/test/TestUtil.h"

#include "cnrt.h"

using namespace mluop_test;

namespace {

/// Device memory from cnrtMalloc holding `v`; freed with cnrtFree.
struct CnrtBuf {
  void *p = nullptr;
  size_t bytes;
  template <typename T>
  explicit CnrtBuf(const std::vector<T> &v) : bytes(v.size() * sizeof(T)) {
    EXPECT_EQ(cnrtMalloc(&p, bytes), cnrtSuccess);
    EXPECT_EQ(cnrtMemcpy(p, const_cast<T *>(v.data()), bytes,
                         cnrtMemcpyHostToDev),
              cnrtSuccess);
  }
  explicit CnrtBuf(size_t bytes) : bytes(bytes) {
    EXPECT_EQ(cnrtMalloc(&p, bytes), cnrtSuccess);
  }
  ~CnrtBuf() { EXPECT_EQ(cnrtFree(p), cnrtSuccess); }
  std::vector<float> floats() const {
    std::vector<float> v(bytes / 4);
    EXPECT_EQ(cnrtMemcpy(v.data(), p, bytes, cnrtMemcpyDevToHost), cnrtSuccess);
    return v;
  }
};

TEST(TinShiftCnrt, CnrtMemoryQueueAndNotifiers) {
  const int N = 2, T = 5, C = 4, HW = 3, G = 2;
  std::vector<float> x(N * T * C * HW);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i) + 0.5f;
  std::vector<int32_t> s = {1, -2, 0, 3};
  CnrtBuf in(x), shifts(s), out(x.size() * 4);
  cnrtQueue_t queue = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&queue), cnrtSuccess);
  mluOpHandle_t h = nullptr;
  ASSERT_EQ(mluOpCreate(&h), MLUOP_STATUS_SUCCESS);
  ASSERT_EQ(mluOpSetQueue(h, queue), MLUOP_STATUS_SUCCESS);
  cnrtQueue_t got = nullptr;
  ASSERT_EQ(mluOpGetQueue(h, &got), MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(got, queue);
  Desc xd(MLUOP_DTYPE_FLOAT, {N, T, C, HW}), sd(MLUOP_DTYPE_INT32, {N, G});
  cnrtNotifier_t start, end;
  ASSERT_EQ(cnrtNotifierCreate(&start), cnrtSuccess);
  ASSERT_EQ(cnrtNotifierCreate(&end), cnrtSuccess);
  ASSERT_EQ(cnrtPlaceNotifier(start, queue), cnrtSuccess);
  ASSERT_EQ(mluOpTinShiftForward(h, xd, in.p, sd, shifts.p, xd, out.p),
            MLUOP_STATUS_SUCCESS);
  ASSERT_EQ(cnrtPlaceNotifier(end, queue), cnrtSuccess);
  ASSERT_EQ(cnrtQueueSync(queue), cnrtSuccess);
  // out[n, t, c, :] = in[n, t - s, c, :], s = shifts[n, c / (C / G)].
  std::vector<float> y = out.floats(), want(x.size(), 0.f);
  for (int n = 0; n < N; ++n)
    for (int t = 0; t < T; ++t)
      for (int c = 0; c < C; ++c) {
        int src = t - s[n * G + c / (C / G)];
        for (int k = 0; k < HW && src >= 0 && src < T; ++k)
          want[((n * T + t) * C + c) * HW + k] =
              x[((n * T + src) * C + c) * HW + k];
      }
  EXPECT_EQ(y, want);
  // The notifiers measure the operator's simulated time on the queue.
  float ms = 0;
  ASSERT_EQ(cnrtNotifierElapsedTime(start, end, &ms), cnrtSuccess);
  ASSERT_EQ(mluop::lastLaunches(h).size(), 1u);
  EXPECT_GT(ms, 0.f);
  EXPECT_NEAR(ms, mluop::lastLaunches(h)[0].seconds * 1e3,
              1e-3 * ms + 1e-6);
  cnrtNotifierDestroy(start);
  cnrtNotifierDestroy(end);
  EXPECT_EQ(mluOpDestroy(h), MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(cnrtQueueDestroy(queue), cnrtSuccess);
}

TEST(TinShiftCnrt, FaultIsTheQueuesError) {
  // The output buffer is one element long: the kernel's store faults.
  const int N = 1, T = 4, C = 2, HW = 8, G = 1;
  std::vector<float> x(N * T * C * HW, 1.f);
  std::vector<int32_t> s = {1};
  CnrtBuf in(x), shifts(s), out(4);
  cnrtQueue_t queue = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&queue), cnrtSuccess);
  mluOpHandle_t h = nullptr;
  ASSERT_EQ(mluOpCreate(&h), MLUOP_STATUS_SUCCESS);
  ASSERT_EQ(mluOpSetQueue(h, queue), MLUOP_STATUS_SUCCESS);
  Desc xd(MLUOP_DTYPE_FLOAT, {N, T, C, HW}), sd(MLUOP_DTYPE_INT32, {N, G});
  LogCapture log;
  EXPECT_EQ(mluOpTinShiftForward(h, xd, in.p, sd, shifts.p, xd, out.p),
            MLUOP_STATUS_EXECUTION_FAILED);
  EXPECT_EQ(cnrtQueueSync(queue), cnrtErrorCndrvFuncCall);
  EXPECT_EQ(mluOpDestroy(h), MLUOP_STATUS_SUCCESS);
  cnrtQueueDestroy(queue);
}

TEST(TinShiftCnrt, SetQueueChecksTheQueue) {
  mluOpHandle_t h = nullptr;
  ASSERT_EQ(mluOpCreate(&h), MLUOP_STATUS_SUCCESS);
  LogCapture log;
  cnrtQueue_t queue = nullptr;
  ASSERT_EQ(cnrtQueueCreate(&queue), cnrtSuccess);
  ASSERT_EQ(cnrtQueueDestroy(queue), cnrtSuccess);
  EXPECT_EQ(mluOpSetQueue(h, queue), MLUOP_STATUS_BAD_PARAM)
      << "a destroyed queue";
  EXPECT_EQ(mluOpSetQueue(h, nullptr), MLUOP_STATUS_SUCCESS);
  cnrtQueue_t got = reinterpret_cast<cnrtQueue_t>(1);
  EXPECT_EQ(mluOpGetQueue(h, &got), MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(got, nullptr);
  EXPECT_EQ(mluOpGetQueue(h, nullptr), MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(mluOpSetQueue(nullptr, nullptr), MLUOP_STATUS_BAD_PARAM);
  mluOpDestroy(h);
  // A handle with its own device takes no CNRT queue.
  mluOpHandle_t own = nullptr;
  ASSERT_EQ(mluOpCreateWithDevice(&own, "tiny"), MLUOP_STATUS_SUCCESS);
  ASSERT_EQ(cnrtQueueCreate(&queue), cnrtSuccess);
  EXPECT_EQ(mluOpSetQueue(own, queue), MLUOP_STATUS_BAD_PARAM);
  EXPECT_EQ(mluOpSetQueue(own, nullptr), MLUOP_STATUS_SUCCESS);
  mluOpDestroy(own);
  cnrtQueueDestroy(queue);
}

} // namespace
