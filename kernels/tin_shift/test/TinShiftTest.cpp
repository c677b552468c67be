//===- TinShiftTest.cpp - mluOpTinShiftForward / Backward -----------------===//
#include "kernels/test/TestUtil.h"

#include "kernels/tin_shift/TinShiftPolicy.h"

#include <cmath>
#include <fstream>
#include <sstream>

using namespace mluop_test;

namespace {

/// The reference: out[n,t,c,:] = in[n,t-s,c,:] (dir=+1) or in[n,t+s,c,:]
/// (dir=-1, the adjoint), else zero. Works on raw element bits.
template <typename E>
std::vector<E> referenceShift(const std::vector<E> &in,
                              const std::vector<int32_t> &shifts, int N, int T,
                              int C, int HW, int G, int dir) {
  std::vector<E> out(in.size(), E(0));
  for (int n = 0; n < N; ++n)
    for (int t = 0; t < T; ++t)
      for (int c = 0; c < C; ++c) {
        int64_t s = int64_t(dir) * shifts[n * G + c / (C / G)];
        int64_t src = t - s;
        if (src < 0 || src >= T)
          continue;
        for (int h = 0; h < HW; ++h)
          out[((int64_t(n) * T + t) * C + c) * HW + h] =
              in[((int64_t(n) * T + src) * C + c) * HW + h];
      }
  return out;
}

mluOpDataType_t dtypeOf(size_t bytes) {
  return bytes == 2 ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
}

/// Runs forward (dir +1) or backward (dir -1) on element bits E (uint16_t
/// for half, uint32_t for float); returns the output bits.
template <typename E>
std::vector<E> runShift(mluOpHandle_t h, const std::vector<E> &in,
                        const std::vector<int32_t> &shifts, int N, int T,
                        int C, int HW, int G, int dir,
                        mluOpStatus_t *status = nullptr) {
  Desc xd(dtypeOf(sizeof(E)), {N, T, C, HW});
  Desc sd(MLUOP_DTYPE_INT32, {N, G});
  Buf x(h, in), s(h, shifts), y(h, in.size() * sizeof(E));
  mluOpStatus_t st =
      dir > 0 ? mluOpTinShiftForward(h, xd, x.p, sd, s.p, xd, y.p)
              : mluOpTinShiftBackward(h, xd, x.p, sd, s.p, xd, y.p);
  if (status)
    *status = st;
  else
    EXPECT_EQ(st, MLUOP_STATUS_SUCCESS) << mluOpGetLastPolicy(h);
  return y.get<E>();
}

std::vector<float> asFloats(const std::vector<uint32_t> &b) {
  std::vector<float> f(b.size());
  std::memcpy(f.data(), b.data(), b.size() * 4);
  return f;
}
std::vector<uint32_t> asBits(const std::vector<float> &f) { return bitsOf(f); }

int regimeOf(mluOpHandle_t h) {
  std::string p = mluOpGetLastPolicy(h);
  auto at = p.find("regime ");
  return at == std::string::npos ? 0 : p[at + 7] - '0';
}

} // namespace

TEST(TinShift, SeedExample) {
  // seed 001 section 1.2: input [1, 6, 6, 1], shifts [-1, 0, 2]: 3 groups of
  // 2 channels; values 1..36.
  mluOpHandle_t h = handleFor("mlu370");
  std::vector<float> x(36);
  for (int i = 0; i < 36; ++i)
    x[i] = float(i + 1);
  std::vector<int32_t> s = {-1, 0, 2};
  auto y = asFloats(runShift(h, asBits(x), s, 1, 6, 6, 1, 3, 1));
  // Group 0 (channels 0, 1) moves one step earlier, group 2 two steps later.
  for (int t = 0; t < 6; ++t)
    for (int c = 0; c < 6; ++c) {
      int shift = s[c / 2];
      int src = t - shift;
      float want = src >= 0 && src < 6 ? x[src * 6 + c] : 0.f;
      EXPECT_EQ(y[t * 6 + c], want) << "t=" << t << " c=" << c;
    }
  EXPECT_EQ(y[0 * 6 + 0], 7.f);  // t0 c0 <- t1
  EXPECT_EQ(y[5 * 6 + 0], 0.f);  // t5 c0 <- t6: zero
  EXPECT_EQ(y[0 * 6 + 4], 0.f);  // t0 c4 <- t-2: zero
  EXPECT_EQ(y[2 * 6 + 4], 5.f);  // t2 c4 <- t0
  EXPECT_EQ(regimeOf(h), 1);
}

TEST(TinShift, MmcvGroundTruth) {
  std::optional<llvm::json::Value> truth = readGroundTruth("tin_shift.json");
  ASSERT_TRUE(truth && truth->getAsObject());
  auto numbers = [&](llvm::StringRef key) {
    return flatNumbers(truth->getAsObject()->get(key), key.str());
  };
  auto inputs = numbers("inputs"), shifts = numbers("shifts"),
       outputs = numbers("outputs"), grads = numbers("grads");
  const int N = 2, T = 4, C = 8, HW = 2, G = 4;
  const size_t elems = N * T * C * HW;
  ASSERT_EQ(inputs.size(), elems);
  ASSERT_EQ(shifts.size(), 2u * N * G);
  ASSERT_EQ(outputs.size(), 2 * elems);
  ASSERT_EQ(grads.size(), 2 * elems);
  mluOpHandle_t h = handleFor("mlu370");
  std::vector<float> x(inputs.begin(), inputs.end());
  std::vector<float> ones(elems, 1.f);
  for (int k = 0; k < 2; ++k) {
    std::vector<int32_t> s(shifts.begin() + k * N * G,
                           shifts.begin() + (k + 1) * N * G);
    auto y = asFloats(runShift(h, asBits(x), s, N, T, C, HW, G, 1));
    for (size_t i = 0; i < elems; ++i)
      EXPECT_NEAR(y[i], outputs[k * elems + i],
                  1e-3 * std::fabs(outputs[k * elems + i]) + 1e-6)
          << "case " << k << " element " << i;
    // mmcv's grads are backward(ones) with mmcv's same-direction shift,
    // i.e. forward(ones); ours is the adjoint: forward(ones) with -shifts.
    auto mmcvGrad = asFloats(runShift(h, asBits(ones), s, N, T, C, HW, G, 1));
    std::vector<int32_t> neg(s);
    for (int32_t &v : neg)
      v = -v;
    auto ourGrad = asFloats(runShift(h, asBits(ones), s, N, T, C, HW, G, -1));
    auto flipped = asFloats(runShift(h, asBits(ones), neg, N, T, C, HW, G, 1));
    for (size_t i = 0; i < elems; ++i) {
      EXPECT_EQ(mmcvGrad[i], float(grads[k * elems + i])) << i;
      EXPECT_EQ(ourGrad[i], flipped[i]) << i;
    }
  }
}

TEST(TinShift, MmcvBackwardConventionIsSelectable) {
  // mluop::setTinShiftBackwardShiftsLikeForward: mluOpTinShiftBackward then
  // shifts the gradient like the data, as mmcv's and mlu-ops' kernels, and
  // gives mmcv's grads (backward of ones) directly; off again, the adjoint.
  std::optional<llvm::json::Value> truth = readGroundTruth("tin_shift.json");
  ASSERT_TRUE(truth && truth->getAsObject());
  auto numbers = [&](llvm::StringRef key) {
    return flatNumbers(truth->getAsObject()->get(key), key.str());
  };
  auto shifts = numbers("shifts"), grads = numbers("grads");
  const int N = 2, T = 4, C = 8, HW = 2, G = 4;
  const size_t elems = N * T * C * HW;
  ASSERT_EQ(grads.size(), 2 * elems);
  mluOpHandle_t h = handleFor("mlu370");
  std::vector<float> ones(elems, 1.f);
  for (int k = 0; k < 2; ++k) {
    std::vector<int32_t> s(shifts.begin() + k * N * G,
                           shifts.begin() + (k + 1) * N * G);
    mluop::setTinShiftBackwardShiftsLikeForward(h, true);
    auto mmcv = asFloats(runShift(h, asBits(ones), s, N, T, C, HW, G, -1));
    mluop::setTinShiftBackwardShiftsLikeForward(h, false);
    auto adjoint = asFloats(runShift(h, asBits(ones), s, N, T, C, HW, G, -1));
    size_t differ = 0;
    for (size_t i = 0; i < elems; ++i) {
      EXPECT_EQ(mmcv[i], float(grads[k * elems + i])) << k << " " << i;
      differ += adjoint[i] != mmcv[i];
    }
    EXPECT_GT(differ, 0u) << "the two conventions agree on case " << k;
  }
}

namespace {
struct Shape {
  int N, T, C, HW, G;
};

template <typename E>
void randomCase(mluOpHandle_t h, const Shape &sh, uint64_t seed,
                int wantRegime) {
  Rng rng(seed);
  size_t n = size_t(sh.N) * sh.T * sh.C * sh.HW;
  std::vector<E> x(n);
  for (size_t i = 0; i < n; ++i) {
    float v = rng.uniform(-8, 8);
    int pick = rng.range(0, 99);
    if (pick == 0)
      v = NAN;
    else if (pick == 1)
      v = INFINITY;
    else if (pick == 2)
      v = -INFINITY;
    else if (pick == 3)
      v = -0.0f;
    if constexpr (sizeof(E) == 2)
      x[i] = bangc::floatToHalf(v);
    else
      std::memcpy(&x[i], &v, 4);
  }
  std::vector<int32_t> s(sh.N * sh.G);
  for (int32_t &v : s) {
    int pick = rng.range(0, 9);
    v = pick == 0 ? rng.range(sh.T, sh.T + 5) * (rng.range(0, 1) ? 1 : -1)
        : pick == 1 ? (rng.range(0, 1) ? INT32_MAX : INT32_MIN + 1)
                    : rng.range(-sh.T + 1, sh.T - 1);
  }
  for (int dir : {1, -1}) {
    auto got = runShift(h, x, s, sh.N, sh.T, sh.C, sh.HW, sh.G, dir);
    auto want = referenceShift(x, s, sh.N, sh.T, sh.C, sh.HW, sh.G, dir);
    ASSERT_EQ(got.size(), want.size());
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i)
      bad += got[i] != want[i];
    EXPECT_EQ(bad, 0u) << "dir " << dir << " shape [" << sh.N << ", " << sh.T
                       << ", " << sh.C << ", " << sh.HW << "] G=" << sh.G
                       << ": " << mluOpGetLastPolicy(h);
    if (wantRegime)
      EXPECT_EQ(regimeOf(h), wantRegime) << mluOpGetLastPolicy(h);
  }
}
} // namespace

TEST(TinShift, RandomFloatAndHalfBitExact) {
  mluOpHandle_t h = handleFor("mlu370");
  Rng rng(7);
  for (int i = 0; i < 12; ++i) {
    Shape sh;
    sh.N = rng.range(1, 3);
    sh.T = rng.range(1, 9);
    sh.G = rng.range(1, 4);
    sh.C = sh.G * rng.range(1, 5);
    sh.HW = rng.range(1, 300);
    randomCase<uint32_t>(h, sh, 100 + i, 0);
    randomCase<uint16_t>(h, sh, 200 + i, 0);
  }
}

// The tiny device (16 KiB NRAM = 4096 floats) forces each regime.
TEST(TinShift, RegimeChannelsOnTiny) {
  mluOpHandle_t h = handleFor("tiny");
  randomCase<uint32_t>(h, {2, 5, 12, 40, 3}, 1, 1); // 5*40 = 200 <= 4096
  randomCase<uint16_t>(h, {1, 7, 8, 100, 2}, 2, 1);
}

TEST(TinShift, RegimeSplitTOnTiny) {
  mluOpHandle_t h = handleFor("tiny");
  randomCase<uint32_t>(h, {2, 11, 4, 1000, 2}, 3, 2); // 11000 > 4096 >= 1000
  randomCase<uint16_t>(h, {1, 9, 3, 3000, 3}, 4, 2);  // 8192 halves
}

TEST(TinShift, RegimeSplitHWOnTiny) {
  mluOpHandle_t h = handleFor("tiny");
  randomCase<uint32_t>(h, {1, 4, 2, 9000, 1}, 5, 3); // 9000 > 4096
  randomCase<uint16_t>(h, {2, 3, 2, 10000, 2}, 6, 3);
}

// The regime boundaries of docs/ops.md on the tiny device (16 KiB NRAM:
// 4096 floats, 8192 halves): regime 1 while T*HW fits (up to and including
// T*HW == capacity), regime 2 while one HW row fits, regime 3 past that;
// each chosen chunk fits in NRAM.
namespace {

bangsim::DeviceSpec tinySpec() {
  llvm::Expected<bangsim::DeviceSpec> spec = bangsim::loadDeviceSpec("tiny");
  EXPECT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  return spec ? *spec : bangsim::DeviceSpec();
}

/// The policy for [N, T, C, HW], G groups, checked against the regime rule
/// and the NRAM capacity `cap` (elements) of its chunk.
mluop::TinShiftPolicy policyFor(int64_t N, int64_t T, int64_t C, int64_t HW,
                                int64_t G, int64_t elemBytes) {
  bangsim::DeviceSpec spec = tinySpec();
  mluop::TinShiftPolicy p =
      mluop::chooseTinShiftPolicy(spec, N, T, C, HW, G, elemBytes);
  const int64_t cap = spec.nramBytes / elemBytes;
  std::string what = "[" + std::to_string(N) + ", " + std::to_string(T) + ", " +
                     std::to_string(C) + ", " + std::to_string(HW) +
                     "] G=" + std::to_string(G) +
                     " cap=" + std::to_string(cap) + ": " + p.describe();
  int want = T * HW <= cap ? 1 : HW <= cap ? 2 : 3;
  EXPECT_EQ(p.regime, want) << what;
  int64_t staged = p.regime == 1   ? p.cChunk * T * HW
                   : p.regime == 2 ? p.tChunk * HW
                                   : p.hwChunk;
  EXPECT_LE(staged, cap) << "chunk overflows NRAM: " << what;
  EXPECT_GE(p.cChunk, 1) << what;
  EXPECT_GE(p.tChunk, 1) << what;
  EXPECT_GE(p.hwChunk, 1) << what;
  return p;
}

} // namespace

TEST(TinShiftPolicy, ChannelsUpToTheExactFit) {
  // Floats: T*HW == 4096 is regime 1 with whole channels.
  mluop::TinShiftPolicy p = policyFor(1, 4, 2, 1024, 1, 4);
  EXPECT_EQ(p.regime, 1) << "T*HW == NRAM capacity must stage whole channels: "
                         << p.describe();
  EXPECT_EQ(p.cChunk, 1) << p.describe();
  EXPECT_EQ(p.tChunk, 4) << p.describe();
  EXPECT_EQ(p.hwChunk, 1024) << p.describe();
  EXPECT_EQ(p.items, 2) << p.describe();
  EXPECT_EQ(policyFor(1, 5, 2, 819, 1, 4).regime, 1); // 4095: one under
  p = policyFor(1, 17, 2, 241, 1, 4);                 // 4097: one over
  EXPECT_EQ(p.regime, 2) << p.describe();
  // Halves: the same bytes hold twice the elements.
  EXPECT_EQ(policyFor(1, 8, 2, 1024, 1, 2).regime, 1); // 8192 halves
  EXPECT_EQ(policyFor(1, 8, 2, 1024, 1, 4).regime, 2); // 8192 floats
  EXPECT_EQ(policyFor(1, 8193, 1, 1, 1, 2).regime, 2);
  // Two channels fit exactly: c_chunk may reach 2, never 3.
  p = policyFor(2, 4, 8, 512, 2, 4);
  EXPECT_EQ(p.regime, 1) << p.describe();
  EXPECT_LE(p.cChunk, 2) << p.describe();
}

TEST(TinShiftPolicy, SplitTUpToAFullRow) {
  mluop::TinShiftPolicy p = policyFor(1, 2, 2, 4096, 1, 4); // HW == cap
  EXPECT_EQ(p.regime, 2) << "HW == NRAM capacity must stage whole rows: "
                         << p.describe();
  EXPECT_EQ(p.tChunk, 1) << p.describe();
  EXPECT_EQ(p.hwChunk, 4096) << p.describe();
  EXPECT_EQ(policyFor(1, 2, 2, 4095, 1, 4).regime, 2); // one under
  p = policyFor(1, 2, 2, 4097, 1, 4);                  // one over
  EXPECT_EQ(p.regime, 3) << p.describe();
  // The row is cut into at least two pieces that cover it.
  EXPECT_GE(p.items, 1 * 2 * 2 * 2) << p.describe();
  EXPECT_EQ(p.items % (2 * 2), 0) << p.describe();
  EXPECT_GE((p.items / 4) * p.hwChunk, 4097) << p.describe();
  EXPECT_EQ(policyFor(1, 1, 1, 8192, 1, 2).regime, 1); // T=1: one row fits
  EXPECT_EQ(policyFor(1, 2, 1, 8192, 1, 2).regime, 2);
  EXPECT_EQ(policyFor(1, 2, 1, 8193, 1, 2).regime, 3);
}

TEST(TinShiftPolicy, EveryShapeAroundTheBoundaries) {
  // For each T, HW on both sides of T*HW == capacity (HW = cap / T - 1,
  // cap / T, cap / T + 1: exact when T divides it) and HW at capacity - 1,
  // capacity, capacity + 1, both element sizes; policyFor checks the regime
  // rule and the chunk bound.
  for (int64_t elem : {2, 4}) {
    const int64_t cap = 16384 / elem;
    for (int64_t T = 1; T <= 40; ++T)
      for (int64_t d : {-1, 0, 1}) {
        if (cap / T + d >= 1)
          policyFor(2, T, 6, cap / T + d, 3, elem);
        policyFor(1, T, 4, cap + d, 2, elem);
      }
  }
}

// At the two exact fits the kernel still moves every element where the
// reference does (whole NRAM used by one chunk).
TEST(TinShift, ExactFitsOnTiny) {
  mluOpHandle_t h = handleFor("tiny");
  randomCase<uint32_t>(h, {2, 4, 3, 1024, 3}, 11, 1); // T*HW == 4096 floats
  randomCase<uint16_t>(h, {1, 8, 2, 1024, 2}, 12, 1); // T*HW == 8192 halves
  randomCase<uint32_t>(h, {1, 3, 2, 4096, 1}, 13, 2); // HW == 4096 floats
  randomCase<uint32_t>(h, {1, 3, 2, 4097, 2}, 14, 3); // one float over
}

TEST(TinShift, AdjointIdentity) {
  // <forward(x), y> == <x, backward(y)>, in double over float data.
  mluOpHandle_t h = handleFor("tiny");
  Rng rng(11);
  for (Shape sh : {Shape{2, 6, 4, 50, 2}, Shape{1, 9, 2, 3000, 1},
                   Shape{1, 3, 2, 5000, 2}}) {
    size_t n = size_t(sh.N) * sh.T * sh.C * sh.HW;
    std::vector<float> x(n), y(n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = rng.uniform(-1, 1);
      y[i] = rng.uniform(-1, 1);
    }
    std::vector<int32_t> s(sh.N * sh.G);
    for (int32_t &v : s)
      v = rng.range(-sh.T - 1, sh.T + 1);
    auto fx = asFloats(runShift(h, asBits(x), s, sh.N, sh.T, sh.C, sh.HW, sh.G, 1));
    auto by = asFloats(runShift(h, asBits(y), s, sh.N, sh.T, sh.C, sh.HW, sh.G, -1));
    double lhs = 0, rhs = 0;
    for (size_t i = 0; i < n; ++i) {
      lhs += double(fx[i]) * y[i];
      rhs += double(x[i]) * by[i];
    }
    EXPECT_NEAR(lhs, rhs, 1e-9 * (std::fabs(lhs) + 1)) << mluOpGetLastPolicy(h);
  }
}

TEST(TinShift, MluOpsShapes) {
  // mlu-ops' own cases: half [3, 15, 16, 45435] forward and
  // [3, 15, 16, 262144] backward, shifts in [-19, 19].
  mluOpHandle_t h = handleFor("mlu370");
  Rng rng(3);
  for (int k = 0; k < 2; ++k) {
    Shape sh = {3, 15, 16, k == 0 ? 45435 : 262144, 4};
    size_t n = size_t(sh.N) * sh.T * sh.C * sh.HW;
    std::vector<uint16_t> x(n);
    for (size_t i = 0; i < n; ++i)
      x[i] = uint16_t(rng.next());
    std::vector<int32_t> s(sh.N * sh.G);
    for (int32_t &v : s)
      v = rng.range(-19, 19);
    int dir = k == 0 ? 1 : -1;
    auto got = runShift(h, x, s, sh.N, sh.T, sh.C, sh.HW, sh.G, dir);
    auto want = referenceShift(x, s, sh.N, sh.T, sh.C, sh.HW, sh.G, dir);
    EXPECT_TRUE(got == want) << mluOpGetLastPolicy(h);
    EXPECT_EQ(regimeOf(h), 2) << mluOpGetLastPolicy(h);
  }
}

TEST(TinShift, ZeroT) {
  mluOpHandle_t h = handleFor("mlu370");
  Desc xd(MLUOP_DTYPE_FLOAT, {2, 0, 4, 3});
  Desc sd(MLUOP_DTYPE_INT32, {2, 2});
  EXPECT_EQ(mluOpTinShiftForward(h, xd, nullptr, sd, nullptr, xd, nullptr),
            MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(mluOpTinShiftBackward(h, xd, nullptr, sd, nullptr, xd, nullptr),
            MLUOP_STATUS_SUCCESS);
}

TEST(TinShift, BadParams) {
  mluOpHandle_t h = handleFor("mlu370");
  LogCapture log;
  Buf x(h, 4096), s(h, 64), y(h, 4096);
  Desc in(MLUOP_DTYPE_FLOAT, {2, 3, 4, 5});
  Desc sh(MLUOP_DTYPE_INT32, {2, 2});
  auto check = [&](mluOpStatus_t want, mluOpHandle_t hh,
                   mluOpTensorDescriptor_t a, const void *ap,
                   mluOpTensorDescriptor_t b, const void *bp,
                   mluOpTensorDescriptor_t c, void *cp, const char *what) {
    for (int fwd = 0; fwd < 2; ++fwd) {
      size_t before = log.lines.size();
      mluOpStatus_t got =
          fwd ? mluOpTinShiftForward(hh, a, ap, b, bp, c, cp)
              : mluOpTinShiftBackward(hh, a, ap, b, bp, c, cp);
      EXPECT_EQ(got, want) << what;
      EXPECT_EQ(log.lines.size(), before + 1) << what << ": one log line";
      if (!log.lines.empty())
        EXPECT_EQ(log.last().find('\n'), std::string::npos) << log.last();
    }
  };
  const auto BAD = MLUOP_STATUS_BAD_PARAM;
  check(BAD, nullptr, in, x.p, sh, s.p, in, y.p, "null handle");
  check(BAD, h, nullptr, x.p, sh, s.p, in, y.p, "null input desc");
  check(BAD, h, in, x.p, nullptr, s.p, in, y.p, "null shifts desc");
  check(BAD, h, in, x.p, sh, s.p, nullptr, y.p, "null output desc");
  check(BAD, h, in, nullptr, sh, s.p, in, y.p, "null input");
  check(BAD, h, in, x.p, sh, nullptr, in, y.p, "null shifts");
  check(BAD, h, in, x.p, sh, s.p, in, nullptr, "null output");
  Desc in3(MLUOP_DTYPE_FLOAT, {2, 3, 20});
  check(BAD, h, in3, x.p, sh, s.p, in, y.p, "input 3-D");
  check(BAD, h, in, x.p, sh, s.p, in3, y.p, "output 3-D");
  Desc in5(MLUOP_DTYPE_FLOAT, {2, 3, 4, 5, 1});
  check(BAD, h, in5, x.p, sh, s.p, in5, y.p, "input 5-D");
  Desc sh1(MLUOP_DTYPE_INT32, {4});
  check(BAD, h, in, x.p, sh1, s.p, in, y.p, "shifts 1-D");
  Desc inI(MLUOP_DTYPE_INT32, {2, 3, 4, 5});
  check(BAD, h, inI, x.p, sh, s.p, inI, y.p, "input int32");
  Desc inH(MLUOP_DTYPE_HALF, {2, 3, 4, 5});
  check(BAD, h, in, x.p, sh, s.p, inH, y.p, "dtypes differ");
  Desc shF(MLUOP_DTYPE_FLOAT, {2, 2});
  check(BAD, h, in, x.p, shF, s.p, in, y.p, "shifts float");
  Desc sh3(MLUOP_DTYPE_INT32, {2, 3});
  check(BAD, h, in, x.p, sh3, s.p, in, y.p, "C % G != 0");
  Desc shN(MLUOP_DTYPE_INT32, {3, 2});
  check(BAD, h, in, x.p, shN, s.p, in, y.p, "N differs");
  Desc out2(MLUOP_DTYPE_FLOAT, {2, 3, 4, 6});
  check(BAD, h, in, x.p, sh, s.p, out2, y.p, "shapes differ");
  for (int d = 0; d < 4; ++d) {
    if (d == 1)
      continue;
    std::vector<int> dims = {2, 3, 4, 5};
    dims[d] = 0;
    Desc z(MLUOP_DTYPE_FLOAT, dims);
    check(BAD, h, z, x.p, sh, s.p, z, y.p, "zero dimension");
  }
  Desc sh0(MLUOP_DTYPE_INT32, {2, 0});
  check(BAD, h, in, x.p, sh0, s.p, in, y.p, "G == 0");
  // Descriptor misuse.
  mluOpTensorDescriptor_t d;
  mluOpCreateTensorDescriptor(&d);
  int dims[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT,
                                     9, dims),
            BAD);
  dims[0] = -1;
  EXPECT_EQ(mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT,
                                     2, dims),
            BAD);
  mluOpDestroyTensorDescriptor(d);
}
