//===- BorderAlignTest.cpp - mluOpBorderAlignForward / Backward -----------===//
#include "kernels/test/TestUtil.h"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <sstream>

using namespace mluop_test;

namespace {

/// A shared handle that takes any box count K: most tests here use
/// K != H * W to exercise the kernels; mlu-ops' rule K == H * W has its
/// own test (BoxCountIsHTimesW).
mluOpHandle_t generalHandle(const std::string &device) {
  mluOpHandle_t h = handleFor(device);
  mluop::setBorderAlignAnyBoxCount(h, true);
  return h;
}

using Round = float (*)(float);
float keep(float x) { return x; }
float toHalf(float x) { return bangc::halfToFloat(bangc::floatToHalf(x)); }

/// mmcv's geometry with every operation rounded by R (identity for float,
/// binary16 for half): the kernel's arithmetic exactly.
bool geometry(Round R, float y, float x, int H, int W, int &yl, int &yh,
              int &xl, int &xh, float &ly, float &lx) {
  if (y < -1.f || y > float(H) || x < -1.f || x > float(W))
    return false;
  if (y <= 0)
    y = 0;
  if (x <= 0)
    x = 0;
  yl = int(y);
  xl = int(x);
  if (yl >= H - 1) {
    yh = yl = H - 1;
    y = float(yl);
  } else {
    yh = yl + 1;
  }
  if (xl >= W - 1) {
    xh = xl = W - 1;
    x = float(xl);
  } else {
    xh = xl + 1;
  }
  ly = R(y - float(yl));
  lx = R(x - float(xl));
  return true;
}

struct Problem {
  int N, H, W, C, K, P;
  std::vector<float> input; // [N, H, W, 4C], values already in the dtype
  std::vector<float> boxes; // [N, K, 4]
};

/// Sample s of border b of box (n, k): coordinates by repeated addition.
void startBorder(Round R, const float *box, int b, int P, float &x, float &y,
                 float &xs, float &ys) {
  float w = R(box[2] - box[0]), h = R(box[3] - box[1]);
  xs = ys = 0;
  if (b == 0)
    xs = R(w / float(P));
  else if (b == 1)
    ys = R(h / float(P));
  else if (b == 2)
    xs = R(-w / float(P));
  else
    ys = R(-h / float(P));
  x = box[b / 2 * 2];
  y = box[b / 2 * 2 + 1];
}

/// Forward reference: output and argmax [N, K, 4, C]. R rounds the
/// coordinates and weights, V the value's arithmetic (V = keep with R =
/// toHalf is mmcv's half: at::Half arithmetic runs in float).
void referenceForward(const Problem &p, Round R, std::vector<float> &out,
                      std::vector<int32_t> &arg, Round V = nullptr) {
  if (!V)
    V = R;
  out.assign(size_t(p.N) * p.K * 4 * p.C, 0);
  arg.assign(out.size(), 0);
  for (int n = 0; n < p.N; ++n)
    for (int k = 0; k < p.K; ++k)
      for (int b = 0; b < 4; ++b) {
        const float *box = &p.boxes[(size_t(n) * p.K + k) * 4];
        for (int c = 0; c < p.C; ++c) {
          float x, y, xs, ys;
          startBorder(R, box, b, p.P, x, y, xs, ys);
          float best = 0;
          int besti = 0;
          for (int s = 0; s <= p.P; ++s) {
            int yl, yh, xl, xh;
            float ly, lx, val = 0;
            if (geometry(R, y, x, p.H, p.W, yl, yh, xl, xh, ly, lx)) {
              auto at = [&](int yy, int xx) {
                return p.input[((size_t(n) * p.H + yy) * p.W + xx) * 4 * p.C +
                               b * p.C + c];
              };
              float hy = R(1 - ly), hx = R(1 - lx);
              float w1 = R(hy * hx), w2 = R(hy * lx), w3 = R(ly * hx),
                    w4 = R(ly * lx);
              val = V(w1 * at(yl, xl));
              val = V(val + V(w2 * at(yl, xh)));
              val = V(val + V(w3 * at(yh, xl)));
              val = R(V(val + V(w4 * at(yh, xh))));
            }
            if (s == 0 || val > best) {
              best = val;
              besti = s;
            }
            x = R(x + xs);
            y = R(y + ys);
          }
          size_t o = ((size_t(n) * p.K + k) * 4 + b) * p.C + c;
          out[o] = best;
          arg[o] = besti;
        }
      }
}

/// Backward reference: grad_input [N, H, W, 4C] in double.
std::vector<double> referenceBackward(const Problem &p, Round R,
                                      const std::vector<float> &grad,
                                      const std::vector<int32_t> &arg) {
  std::vector<double> gi(size_t(p.N) * p.H * p.W * 4 * p.C, 0);
  for (int n = 0; n < p.N; ++n)
    for (int k = 0; k < p.K; ++k)
      for (int b = 0; b < 4; ++b) {
        const float *box = &p.boxes[(size_t(n) * p.K + k) * 4];
        for (int c = 0; c < p.C; ++c) {
          size_t o = ((size_t(n) * p.K + k) * 4 + b) * p.C + c;
          float x, y, xs, ys;
          startBorder(R, box, b, p.P, x, y, xs, ys);
          for (int s = 0; s < arg[o]; ++s) {
            x = R(x + xs);
            y = R(y + ys);
          }
          int yl, yh, xl, xh;
          float ly, lx;
          if (!geometry(R, y, x, p.H, p.W, yl, yh, xl, xh, ly, lx))
            continue;
          float hy = R(1 - ly), hx = R(1 - lx);
          float w[4] = {R(hy * hx), R(hy * lx), R(ly * hx), R(ly * lx)};
          int py[4] = {yl, yl, yh, yh}, px[4] = {xl, xh, xl, xh};
          for (int q = 0; q < 4; ++q)
            gi[((size_t(n) * p.H + py[q]) * p.W + px[q]) * 4 * p.C + b * p.C +
               c] += double(R(grad[o] * w[q]));
        }
      }
  return gi;
}

/// Host values <-> device bits.
std::vector<uint16_t> halves(const std::vector<float> &v) {
  std::vector<uint16_t> h(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    h[i] = bangc::floatToHalf(v[i]);
  return h;
}
std::vector<float> fromHalves(const std::vector<uint16_t> &h) {
  std::vector<float> v(h.size());
  for (size_t i = 0; i < h.size(); ++i)
    v[i] = bangc::halfToFloat(h[i]);
  return v;
}

struct Result {
  mluOpStatus_t status;
  std::vector<float> out;
  std::vector<int32_t> arg;
};

Result runForward(mluOpHandle_t h, const Problem &p, bool half) {
  mluOpDataType_t dt = half ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
  Desc xd(dt, {p.N, p.H, p.W, 4 * p.C}, MLUOP_LAYOUT_NHWC);
  Desc bd(dt, {p.N, p.K, 4});
  Desc od(dt, {p.N, p.K, 4, p.C}, MLUOP_LAYOUT_NHWC);
  Desc ad(MLUOP_DTYPE_INT32, {p.N, p.K, 4, p.C}, MLUOP_LAYOUT_NHWC);
  std::unique_ptr<Buf> x, b;
  if (half) {
    x = std::make_unique<Buf>(h, halves(p.input));
    b = std::make_unique<Buf>(h, halves(p.boxes));
  } else {
    x = std::make_unique<Buf>(h, p.input);
    b = std::make_unique<Buf>(h, p.boxes);
  }
  size_t n = size_t(p.N) * p.K * 4 * p.C;
  Buf o(h, n * (half ? 2 : 4)), a(h, n * 4);
  Result r;
  r.status = mluOpBorderAlignForward(h, xd, x->p, bd, b->p, p.P, od, o.p, ad,
                                     a.p);
  r.out = half ? fromHalves(o.get<uint16_t>()) : o.get<float>();
  r.arg = a.get<int32_t>();
  return r;
}

std::vector<float> runBackward(mluOpHandle_t h, const Problem &p,
                               const std::vector<float> &grad,
                               const std::vector<int32_t> &arg, bool half,
                               mluOpStatus_t *status = nullptr) {
  mluOpDataType_t dt = half ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
  Desc gd(dt, {p.N, p.K, 4, p.C}, MLUOP_LAYOUT_NHWC);
  Desc bd(dt, {p.N, p.K, 4});
  Desc ad(MLUOP_DTYPE_INT32, {p.N, p.K, 4, p.C}, MLUOP_LAYOUT_NHWC);
  Desc gid(dt, {p.N, p.H, p.W, 4 * p.C}, MLUOP_LAYOUT_NHWC);
  std::unique_ptr<Buf> g, b;
  if (half) {
    g = std::make_unique<Buf>(h, halves(grad));
    b = std::make_unique<Buf>(h, halves(p.boxes));
  } else {
    g = std::make_unique<Buf>(h, grad);
    b = std::make_unique<Buf>(h, p.boxes);
  }
  Buf a(h, arg);
  size_t n = size_t(p.N) * p.H * p.W * 4 * p.C;
  Buf gi(h, n * (half ? 2 : 4));
  mluOpStatus_t s = mluOpBorderAlignBackward(h, gd, g->p, bd, b->p, ad, a.p,
                                             p.P, gid, gi.p);
  if (status)
    *status = s;
  else
    EXPECT_EQ(s, MLUOP_STATUS_SUCCESS);
  return half ? fromHalves(gi.get<uint16_t>()) : gi.get<float>();
}

/// mmcv layouts: input [N, 4C, H, W] -> [N, H, W, 4C].
std::vector<float> nchwToNhwc(const std::vector<float> &v, int N, int C4,
                              int H, int W) {
  std::vector<float> o(v.size());
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C4; ++c)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
          o[((size_t(n) * H + y) * W + x) * C4 + c] =
              v[((size_t(n) * C4 + c) * H + y) * W + x];
  return o;
}

Problem randomProblem(Rng &rng, int N, int H, int W, int C, int K, int P,
                      bool half, float outside = 0.2f) {
  Problem p{N, H, W, C, K, P, {}, {}};
  p.input.resize(size_t(N) * H * W * 4 * C);
  for (float &v : p.input) {
    v = rng.uniform(-4, 4);
    if (half)
      v = toHalf(v);
  }
  p.boxes.resize(size_t(N) * K * 4);
  for (int i = 0; i < N * K; ++i) {
    float *b = &p.boxes[size_t(i) * 4];
    float span = rng.uniform(0, 1) < outside ? 2.f : 1.f;
    float lo = span > 1 ? -0.5f : 0.f;
    b[0] = rng.uniform(lo * W, W * 0.8f * span);
    b[1] = rng.uniform(lo * H, H * 0.8f * span);
    b[2] = b[0] + rng.uniform(0, W * 0.6f);
    b[3] = b[1] + rng.uniform(0, H * 0.6f);
    for (int j = 0; j < 4; ++j)
      if (half)
        b[j] = toHalf(b[j]);
  }
  return p;
}

void expectForwardExact(mluOpHandle_t h, const Problem &p, bool half,
                        const std::string &what) {
  Result r = runForward(h, p, half);
  ASSERT_EQ(r.status, MLUOP_STATUS_SUCCESS) << what;
  std::vector<float> out;
  std::vector<int32_t> arg;
  referenceForward(p, half ? toHalf : keep, out, arg);
  size_t bad = 0, badArg = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    bool same = std::memcmp(&out[i], &r.out[i], 4) == 0 ||
                (std::isnan(out[i]) && std::isnan(r.out[i]));
    bad += !same;
    badArg += arg[i] != r.arg[i];
    if (!same && bad < 4)
      ADD_FAILURE() << what << ": element " << i << " got " << r.out[i]
                    << " want " << out[i];
  }
  EXPECT_EQ(bad, 0u) << what << ": " << mluOpGetLastPolicy(h);
  EXPECT_EQ(badArg, 0u) << what;
}

/// fp32 backward with random gradients, against the reference, given the
/// argmax of our own forward.
void expectBackwardMatches(mluOpHandle_t h, const Problem &p, Rng &rng) {
  Result r = runForward(h, p, false);
  std::vector<float> g(r.out.size());
  for (float &v : g)
    v = rng.uniform(-1, 1);
  auto gi = runBackward(h, p, g, r.arg, false);
  auto want = referenceBackward(p, keep, g, r.arg);
  for (size_t i = 0; i < gi.size(); ++i)
    EXPECT_NEAR(gi[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
}

/// The number after `key` (e.g. "c_seg=") in the last policy line.
int policyNumber(mluOpHandle_t h, const std::string &key) {
  std::string policy = mluOpGetLastPolicy(h);
  size_t at = policy.find(key);
  EXPECT_NE(at, std::string::npos) << key << " in " << policy;
  return at == std::string::npos ? -1
                                 : std::atoi(policy.c_str() + at + key.size());
}

} // namespace

TEST(BorderAlign, SeedExample) {
  // seed 003 section 1.2 (also mmcv's test): input [1, 4, 3, 4] (mmcv
  // layout, C = 1), 12 boxes, pool_size 1.
  mluOpHandle_t h = generalHandle("mlu370");
  std::vector<float> nchw = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                             6,  7,  5,  8,  2,  1,  3,  4,  12, 9,  11, 10,
                             -2, -3, 2,  0,  -4, -5, 1,  -1, -1, -1, -1, -1,
                             0,  -1, 2,  1,  -4, -3, -2, -1, -1, -2, -3, -4};
  Problem p{1, 3, 4, 1, 12, 1, nchwToNhwc(nchw, 1, 4, 3, 4),
            {0, 0, 2, 1, 1, 0, 3, 1, 1, 0, 2, 1, 0, 0, 3, 1,
             0, 0, 1, 2, 0, 0, 2, 2, 1, 0, 2, 1, 1, 0, 3, 1,
             0, 1, 1, 2, 0, 0, 3, 2, 1, 0, 3, 2, 2, 0, 3, 2}};
  std::vector<float> want = {3, 6, 1,  2,  4, 7,  -1, 1,  3, 7,  1,  2,
                             4, 6, -1, 1,  2, 12, -1, -1, 3, 12, -1, 2,
                             3, 7, 1,  2,  4, 7,  -1, 1,  6, 12, -1, -2,
                             4, 12, -1, 1, 4, 9,  -1, 1,  4, 11, -1, 1};
  for (bool half : {false, true}) {
    Result r = runForward(h, p, half);
    ASSERT_EQ(r.status, MLUOP_STATUS_SUCCESS);
    EXPECT_EQ(r.out, want) << (half ? "half" : "float");
  }
}

TEST(BorderAlign, MmcvGroundTruth) {
  std::optional<llvm::json::Value> truth = readGroundTruth("border_align.json");
  ASSERT_TRUE(truth && truth->getAsObject());
  const llvm::json::Object &root = *truth->getAsObject();
  auto numbers = [&](llvm::StringRef key) {
    return flatNumbers(root.get(key), key.str());
  };
  // Output and input gradient for one pool size (the dictionaries' keys).
  auto perPool = [&](llvm::StringRef dict, int pool) {
    const llvm::json::Object *byPool = root.getObject(dict);
    std::string what = dict.str() + "[" + std::to_string(pool) + "]";
    return flatNumbers(byPool ? byPool->get(std::to_string(pool)) : nullptr,
                       what);
  };
  auto input = numbers("input_arr"), boxes = numbers("boxes_arr");
  const int N = 1, C = 1, H = 3, W = 4, K = 12;
  ASSERT_EQ(input.size(), 48u);
  ASSERT_EQ(boxes.size(), 48u);
  mluOpHandle_t h = generalHandle("mlu370");
  for (int P : {1, 2}) {
    auto want = perPool("output_dict", P);
    auto wantGrad = perPool("input_grad_dict", P);
    ASSERT_EQ(want.size(), 48u);
    ASSERT_EQ(wantGrad.size(), 48u);
    Problem p{N, H, W, C, K, P,
              nchwToNhwc(std::vector<float>(input.begin(), input.end()), N, 4,
                         H, W),
              std::vector<float>(boxes.begin(), boxes.end())};
    Result r = runForward(h, p, false);
    ASSERT_EQ(r.status, MLUOP_STATUS_SUCCESS);
    // mmcv output [N, C, K, 4] with C = 1 is [K, 4], as ours [N, K, 4, C].
    for (int i = 0; i < 48; ++i)
      EXPECT_NEAR(r.out[i], want[i], 1e-5) << "pool " << P << " at " << i;
    std::vector<float> ones(48, 1.f);
    auto gi = runBackward(h, p, ones, r.arg, false);
    auto wantNhwc = nchwToNhwc(
        std::vector<float>(wantGrad.begin(), wantGrad.end()), N, 4, H, W);
    for (int i = 0; i < 48; ++i)
      EXPECT_NEAR(gi[i], wantNhwc[i], 1e-5) << "grad pool " << P << " at " << i;
  }
}

TEST(BorderAlign, RandomFloatExact) {
  mluOpHandle_t h = generalHandle("mlu370");
  Rng rng(21);
  for (int i = 0; i < 6; ++i) {
    int N = rng.range(1, 3), H = rng.range(1, 12), W = rng.range(1, 12),
        C = rng.range(1, 40), K = rng.range(1, 30), P = rng.range(1, 12);
    Problem p = randomProblem(rng, N, H, W, C, K, P, false);
    expectForwardExact(h, p, false, "random " + std::to_string(i));
  }
}

TEST(BorderAlign, OutsideBoxes) {
  // Boxes partly and wholly outside the map, and reversed boxes.
  mluOpHandle_t h = generalHandle("mlu370");
  Rng rng(5);
  Problem p = randomProblem(rng, 2, 6, 7, 8, 10, 5, false, 1.0f);
  float extra[][4] = {{-20, -20, -10, -10}, {10, 10, 30, 40},
                      {-3, 2, 9, 4},        {5, 5, 1, 1},
                      {-1, -1, 7, 6},       {6.5f, 5.5f, 7.5f, 6.5f}};
  for (int i = 0; i < 6; ++i)
    std::memcpy(&p.boxes[i * 4], extra[i], 16);
  expectForwardExact(h, p, false, "outside");
  // Backward must not write outside grad_input: the simulator faults a DMA
  // or atomic out of its buffer, so success is the check; and compare.
  expectBackwardMatches(h, p, rng);
}

TEST(BorderAlign, HalfWithinTolerance) {
  // fp16: bit-exact against the per-operation binary16 reference, and
  // within 2^-6 * max(1, |ref|) of mmcv's half arithmetic (coordinates and
  // weights in half, the interpolation in float, rounded once; documented in
  // docs/ops.md).
  mluOpHandle_t h = generalHandle("mlu370");
  Rng rng(9);
  Problem p = randomProblem(rng, 2, 9, 11, 24, 20, 6, true);
  expectForwardExact(h, p, true, "half");
  Result r = runForward(h, p, true);
  std::vector<float> out;
  std::vector<int32_t> arg;
  referenceForward(p, toHalf, out, arg, keep);
  for (size_t i = 0; i < out.size(); ++i)
    EXPECT_NEAR(r.out[i], out[i], std::ldexp(1.f, -6) * std::max(1.f, std::fabs(out[i])))
        << i;
  std::vector<float> g(r.out.size());
  for (float &v : g)
    v = toHalf(rng.uniform(-1, 1));
  auto gi = runBackward(h, p, g, r.arg, true);
  auto want = referenceBackward(p, toHalf, g, r.arg);
  for (size_t i = 0; i < gi.size(); ++i)
    EXPECT_NEAR(gi[i], want[i], std::ldexp(1.f, -6) * std::max(1.0, std::fabs(want[i])))
        << i;
}

TEST(BorderAlign, NanAndInf) {
  mluOpHandle_t h = generalHandle("mlu370");
  Rng rng(13);
  Problem p = randomProblem(rng, 1, 8, 8, 16, 12, 4, false);
  for (size_t i = 0; i < p.input.size(); i += 7)
    p.input[i] = i % 3 == 0 ? NAN : (i % 3 == 1 ? INFINITY : -INFINITY);
  expectForwardExact(h, p, false, "nan/inf");
}

TEST(BorderAlign, SeedNetworkShapes) {
  // seed 003 section 3.7: the shapes of the network (pool_size 10).
  mluOpHandle_t h = generalHandle("mlu370");
  Rng rng(17);
  struct S { int N, H, W, C4, K; } shapes[] = {
      {2, 7, 10, 1024, 70}, {2, 25, 38, 1024, 950}, {2, 10, 7, 512, 70}};
  for (auto s : shapes) {
    Problem p = randomProblem(rng, s.N, s.H, s.W, s.C4 / 4, s.K, 10, false);
    expectForwardExact(h, p, false, "network " + std::to_string(s.H));
  }
}

TEST(BorderAlign, SmallNramSplitsChannelsAndSamples) {
  // tiny (16 KiB NRAM): c_seg < C and one sample per pipeline stage.
  mluOpHandle_t h = generalHandle("tiny");
  Rng rng(19);
  Problem p = randomProblem(rng, 2, 10, 12, 300, 9, 7, false);
  expectForwardExact(h, p, false, "tiny");
  std::string policy = mluOpGetLastPolicy(h);
  EXPECT_NE(policy.find("line_cap=2 "), std::string::npos) << policy;
  EXPECT_EQ(policy.find("c_seg=300 "), std::string::npos) << policy;
  Problem q = randomProblem(rng, 1, 9, 8, 20, 7, 5, true);
  expectForwardExact(h, q, true, "tiny half");
  expectBackwardMatches(h, p, rng);
}

TEST(BorderAlign, BackwardFiniteDifferences) {
  // L(x) = sum(forward(x) * g); dL/dx from backward(g) against central
  // differences, at pixels away from ties.
  mluOpHandle_t h = generalHandle("mlu370");
  Rng rng(23);
  Problem p = randomProblem(rng, 1, 6, 7, 3, 5, 4, false);
  Result base = runForward(h, p, false);
  std::vector<float> g(base.out.size());
  for (float &v : g)
    v = rng.uniform(-1, 1);
  auto grad = runBackward(h, p, g, base.arg, false);
  auto loss = [&](const Problem &q, std::vector<int32_t> *arg) {
    Result r = runForward(h, q, false);
    if (arg)
      *arg = r.arg;
    double l = 0;
    for (size_t i = 0; i < g.size(); ++i)
      l += double(r.out[i]) * g[i];
    return l;
  };
  const float eps = 1e-2f;
  int checked = 0;
  for (size_t i = 0; i < p.input.size(); ++i) {
    Problem plus = p, minus = p;
    plus.input[i] += eps;
    minus.input[i] -= eps;
    std::vector<int32_t> ap, am;
    double lp = loss(plus, &ap), lm = loss(minus, &am);
    if (ap != base.arg || am != base.arg)
      continue; // a tie moved: not differentiable here
    double fd = (lp - lm) / (double(plus.input[i]) - double(minus.input[i]));
    EXPECT_NEAR(grad[i], fd, 2e-3 * (1 + std::fabs(fd))) << "pixel " << i;
    ++checked;
  }
  EXPECT_GT(checked, int(p.input.size()) / 2);
}

TEST(BorderAlign, BackwardSplitsChannelsRowsAndBoxes) {
  // tiny (16 KiB NRAM): a task's slice of grad_input is a band of rows of a
  // segment of channels, and the boxes come in several chunks.
  mluOpHandle_t h = generalHandle("tiny");
  Rng rng(29);
  Problem p = randomProblem(rng, 2, 10, 12, 300, 9, 7, false);
  expectBackwardMatches(h, p, rng);
  EXPECT_LT(policyNumber(h, "c_seg="), 300) << mluOpGetLastPolicy(h);
  EXPECT_LT(policyNumber(h, "band_rows="), 10) << mluOpGetLastPolicy(h);
  EXPECT_LT(policyNumber(h, "box_cap="), 9) << mluOpGetLastPolicy(h);
}

TEST(BorderAlign, BackwardNonFiniteGradients) {
  // An inf or nan gradient reaches the 4 pixels of its own argmax sample
  // (inf * 0 is nan there, as in mmcv's four atomic adds) and no other: the
  // other channels are masked bitwise, not multiplied by 0.
  mluOpHandle_t h = generalHandle("mlu370");
  Rng rng(31);
  Problem p = randomProblem(rng, 1, 7, 9, 16, 10, 5, false);
  for (int i = 0; i < 4; ++i) // boxes on whole pixels: some weights are 0
    for (int j = 0; j < 4; ++j)
      p.boxes[i * 4 + j] = std::floor(p.boxes[i * 4 + j]);
  Result r = runForward(h, p, false);
  ASSERT_EQ(r.status, MLUOP_STATUS_SUCCESS);
  std::vector<float> g(r.out.size());
  for (size_t i = 0; i < g.size(); ++i)
    g[i] = i % 29 == 0   ? INFINITY
           : i % 31 == 0 ? -INFINITY
           : i % 37 == 0 ? NAN
                         : rng.uniform(-1, 1);
  auto gi = runBackward(h, p, g, r.arg, false);
  auto want = referenceBackward(p, keep, g, r.arg);
  size_t nonFinite = 0;
  for (size_t i = 0; i < gi.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(gi[i])) << i << ": " << gi[i];
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(gi[i], want[i]) << i;
    } else {
      EXPECT_NEAR(gi[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
      continue;
    }
    ++nonFinite;
  }
  EXPECT_GT(nonFinite, 0u);
  EXPECT_LT(nonFinite, gi.size() / 4);
}

TEST(BorderAlign, BackwardIgnoresArgmaxOutOfRange) {
  // An argmax outside [0, pool_size] names no sample: its gradient adds
  // nothing (also in half, where argmax is narrowed to 16 bits).
  mluOpHandle_t h = generalHandle("mlu370");
  Rng rng(37);
  Problem p = randomProblem(rng, 1, 6, 8, 12, 6, 4, false);
  Result r = runForward(h, p, false);
  ASSERT_EQ(r.status, MLUOP_STATUS_SUCCESS);
  std::vector<float> g(r.out.size());
  for (float &v : g)
    v = toHalf(rng.uniform(-1, 1));
  const int32_t bad[] = {-1, 5, 7, 65536 + 2, -65536 + 1, INT32_MIN, INT32_MAX};
  std::vector<int32_t> arg = r.arg;
  std::vector<float> kept = g;
  for (size_t i = 0; i < arg.size(); i += 5) {
    arg[i] = bad[(i / 5) % 7];
    kept[i] = 0;
  }
  auto want = referenceBackward(p, keep, kept, r.arg);
  auto gi = runBackward(h, p, g, arg, false);
  for (size_t i = 0; i < gi.size(); ++i)
    EXPECT_NEAR(gi[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
  Problem q = p;
  for (float &v : q.input)
    v = toHalf(v);
  for (float &v : q.boxes)
    v = toHalf(v);
  Result rh = runForward(h, q, true);
  ASSERT_EQ(rh.status, MLUOP_STATUS_SUCCESS);
  arg = rh.arg;
  for (size_t i = 0; i < arg.size(); i += 5)
    arg[i] = bad[(i / 5) % 7];
  auto wantHalf = referenceBackward(q, toHalf, kept, rh.arg);
  auto giHalf = runBackward(h, q, g, arg, true);
  for (size_t i = 0; i < giHalf.size(); ++i)
    EXPECT_NEAR(giHalf[i], wantHalf[i],
                std::ldexp(1.f, -6) * std::max(1.0, std::fabs(wantHalf[i])))
        << i;
}

TEST(BorderAlign, BackwardIsTheSameOnOneAndTwoHostThreads) {
  // Each task owns its slice of grad_input, so the sums are added in one
  // order whatever the host threads: bit for bit the same results.
  mluOpHandle_t h = generalHandle("mlu370");
  Rng rng(41);
  Problem p = randomProblem(rng, 2, 9, 11, 40, 60, 6, false);
  Result r = runForward(h, p, false);
  ASSERT_EQ(r.status, MLUOP_STATUS_SUCCESS);
  std::vector<float> g(r.out.size());
  for (float &v : g)
    v = rng.uniform(-1, 1);
  std::vector<std::vector<float>> results;
  for (unsigned threads : {1u, 2u, 2u}) {
    bangsim::LaunchOptions options;
    options.hostThreads = threads;
    mluop::setLaunchOptions(h, options);
    results.push_back(runBackward(h, p, g, r.arg, false));
    EXPECT_GT(policyNumber(h, "task_dim="), 1);
  }
  mluop::setLaunchOptions(h, {});
  for (size_t i = 1; i < results.size(); ++i)
    EXPECT_EQ(std::memcmp(results[0].data(), results[i].data(),
                          results[0].size() * sizeof(float)),
              0)
        << "run " << i;
}

TEST(BorderAlign, BackwardRowTooWideForNram) {
  // A task needs a row of the map (one channel) and a box in NRAM.
  mluOpHandle_t h = generalHandle("tiny");
  LogCapture log;
  Problem p{1, 2, 5000, 1, 1, 2, {}, {0, 0, 1, 1}};
  std::vector<float> g(4, 1.f);
  std::vector<int32_t> arg(4, 0);
  mluOpStatus_t status;
  runBackward(h, p, g, arg, false, &status);
  EXPECT_EQ(status, MLUOP_STATUS_NOT_SUPPORTED);
  EXPECT_NE(log.last().find("a row of 5000 pixels does not fit"),
            std::string::npos)
      << log.last();
}

TEST(BorderAlign, BadParams) {
  mluOpHandle_t h = generalHandle("mlu370");
  LogCapture log;
  const auto BAD = MLUOP_STATUS_BAD_PARAM;
  const auto F = MLUOP_DTYPE_FLOAT;
  const auto NHWC = MLUOP_LAYOUT_NHWC;
  Buf x(h, 1 << 16), b(h, 4096), o(h, 1 << 14), a(h, 1 << 14);
  struct Case {
    const char *what;
    std::vector<int> in, boxes, out, arg;
    mluOpDataType_t din = F, db = F, dout = F, darg = MLUOP_DTYPE_INT32;
    int pool = 5;
  };
  std::vector<Case> cases = {
      // seed 3.7 reverse cases
      {"input 5-D", {3, 1, 2, 1, 256}, {3, 5, 4}, {3, 5, 4, 64}, {3, 5, 4, 64}},
      {"boxes 2-D", {3, 9, 2, 12}, {3, 4}, {3, 4, 4, 3}, {3, 4, 4, 3}},
      {"boxes last dim 3, zero", {3, 1, 0, 4}, {13, 5, 3}, {13, 5, 4, 1}, {13, 5, 4, 1}},
      // seed 3.8 and the usual
      {"input last dim not 4k", {2, 3, 3, 6}, {2, 2, 4}, {2, 2, 4, 1}, {2, 2, 4, 1}},
      {"half input", {2, 3, 3, 8}, {2, 2, 4}, {2, 2, 4, 2}, {2, 2, 4, 2}, MLUOP_DTYPE_INT32, MLUOP_DTYPE_INT32, MLUOP_DTYPE_INT32},
      {"boxes dtype", {2, 3, 3, 8}, {2, 2, 4}, {2, 2, 4, 2}, {2, 2, 4, 2}, F, MLUOP_DTYPE_HALF},
      {"output dtype", {2, 3, 3, 8}, {2, 2, 4}, {2, 2, 4, 2}, {2, 2, 4, 2}, F, F, MLUOP_DTYPE_HALF},
      {"argmax dtype", {2, 3, 3, 8}, {2, 2, 4}, {2, 2, 4, 2}, {2, 2, 4, 2}, F, F, F, F},
      {"N differs", {2, 3, 3, 8}, {1, 2, 4}, {1, 2, 4, 2}, {1, 2, 4, 2}},
      {"output shape", {2, 3, 3, 8}, {2, 2, 4}, {2, 2, 4, 3}, {2, 2, 4, 2}},
      {"argmax shape", {2, 3, 3, 8}, {2, 2, 4}, {2, 2, 4, 2}, {2, 2, 2, 2}},
      {"zero K", {2, 3, 3, 8}, {2, 0, 4}, {2, 0, 4, 2}, {2, 0, 4, 2}},
      {"zero H", {2, 0, 3, 8}, {2, 2, 4}, {2, 2, 4, 2}, {2, 2, 4, 2}},
      {"zero C", {2, 3, 3, 0}, {2, 2, 4}, {2, 2, 4, 0}, {2, 2, 4, 0}},
      {"pool 0", {2, 3, 3, 8}, {2, 2, 4}, {2, 2, 4, 2}, {2, 2, 4, 2}, F, F, F, MLUOP_DTYPE_INT32, 0},
      {"pool -1", {2, 3, 3, 8}, {2, 2, 4}, {2, 2, 4, 2}, {2, 2, 4, 2}, F, F, F, MLUOP_DTYPE_INT32, -1},
  };
  for (const Case &c : cases) {
    Desc in(c.din, c.in, NHWC), bx(c.db, c.boxes), out(c.dout, c.out, NHWC),
        ar(c.darg, c.arg, NHWC);
    size_t before = log.lines.size();
    EXPECT_EQ(mluOpBorderAlignForward(h, in, x.p, bx, b.p, c.pool, out, o.p, ar, a.p), BAD) << c.what;
    EXPECT_EQ(log.lines.size(), before + 1) << c.what;
    before = log.lines.size();
    EXPECT_EQ(mluOpBorderAlignBackward(h, out, o.p, bx, b.p, ar, a.p, c.pool, in, x.p), BAD) << c.what;
    EXPECT_EQ(log.lines.size(), before + 1) << c.what;
  }
  Desc in(F, {2, 3, 3, 8}, NHWC), bx(F, {2, 2, 4}), out(F, {2, 2, 4, 2}, NHWC),
      ar(MLUOP_DTYPE_INT32, {2, 2, 4, 2}, NHWC);
  EXPECT_EQ(mluOpBorderAlignForward(nullptr, in, x.p, bx, b.p, 2, out, o.p, ar, a.p), BAD);
  EXPECT_EQ(mluOpBorderAlignForward(h, nullptr, x.p, bx, b.p, 2, out, o.p, ar, a.p), BAD);
  EXPECT_EQ(mluOpBorderAlignForward(h, in, nullptr, bx, b.p, 2, out, o.p, ar, a.p), BAD);
  EXPECT_EQ(mluOpBorderAlignForward(h, in, x.p, bx, nullptr, 2, out, o.p, ar, a.p), BAD);
  EXPECT_EQ(mluOpBorderAlignForward(h, in, x.p, bx, b.p, 2, out, nullptr, ar, a.p), BAD);
  EXPECT_EQ(mluOpBorderAlignForward(h, in, x.p, bx, b.p, 2, out, o.p, ar, nullptr), BAD);
  EXPECT_EQ(mluOpBorderAlignForward(h, in, x.p, bx, b.p, 2, out, o.p, nullptr, a.p), BAD);
  EXPECT_EQ(mluOpBorderAlignBackward(h, out, nullptr, bx, b.p, ar, a.p, 2, in, x.p), BAD);
  EXPECT_EQ(mluOpBorderAlignBackward(h, out, o.p, bx, b.p, ar, a.p, 2, in, nullptr), BAD);
  EXPECT_EQ(mluOpBorderAlignBackward(nullptr, out, o.p, bx, b.p, ar, a.p, 2, in, x.p), BAD);
  // A valid call on the same buffers succeeds.
  EXPECT_EQ(mluOpBorderAlignForward(h, in, x.p, bx, b.p, 2, out, o.p, ar, a.p),
            MLUOP_STATUS_SUCCESS);
}

TEST(BorderAlign, BoxCountIsHTimesW) {
  // mlu-ops (and mmcv) take one box per pixel: K == H * W, else BAD_PARAM;
  // mluop::setBorderAlignAnyBoxCount lifts it.
  mluOpHandle_t h = handleFor("mlu370");
  LogCapture log;
  const auto F = MLUOP_DTYPE_FLOAT;
  const auto NHWC = MLUOP_LAYOUT_NHWC;
  Buf x(h, 1 << 12), b(h, 1 << 10), o(h, 1 << 12), a(h, 1 << 12);
  Desc in(F, {1, 2, 3, 8}, NHWC), ar6(MLUOP_DTYPE_INT32, {1, 6, 4, 2}, NHWC);
  Desc bx6(F, {1, 6, 4}), out6(F, {1, 6, 4, 2}, NHWC);
  Desc bx5(F, {1, 5, 4}), out5(F, {1, 5, 4, 2}, NHWC),
      ar5(MLUOP_DTYPE_INT32, {1, 5, 4, 2}, NHWC);
  std::vector<float> boxes(6 * 4, 0.5f);
  ASSERT_EQ(mluOpMemcpyHostToDevice(h, b.p, boxes.data(), boxes.size() * 4),
            MLUOP_STATUS_SUCCESS);
  std::vector<int32_t> zeros(6 * 4 * 2, 0);
  ASSERT_EQ(mluOpMemcpyHostToDevice(h, a.p, zeros.data(), zeros.size() * 4),
            MLUOP_STATUS_SUCCESS);
  for (bool any : {false, true}) {
    mluop::setBorderAlignAnyBoxCount(h, any);
    const auto want5 = any ? MLUOP_STATUS_SUCCESS : MLUOP_STATUS_BAD_PARAM;
    EXPECT_EQ(mluOpBorderAlignForward(h, in, x.p, bx6, b.p, 2, out6, o.p, ar6,
                                      a.p),
              MLUOP_STATUS_SUCCESS);
    EXPECT_EQ(mluOpBorderAlignForward(h, in, x.p, bx5, b.p, 2, out5, o.p, ar5,
                                      a.p),
              want5);
    if (!any)
      EXPECT_NE(log.last().find("K of boxes (5) must be H * W of input (6)"),
                std::string::npos)
          << log.last();
    EXPECT_EQ(mluOpBorderAlignBackward(h, out6, o.p, bx6, b.p, ar6, a.p, 2, in,
                                       x.p),
              MLUOP_STATUS_SUCCESS);
    EXPECT_EQ(mluOpBorderAlignBackward(h, out5, o.p, bx5, b.p, ar5, a.p, 2, in,
                                       x.p),
              want5);
  }
}

TEST(BorderAlign, LayoutsAreNhwc) {
  // As mlu-ops: input, output and argmax_idx (forward), grad_output,
  // argmax_idx and grad_input (backward) must be NHWC; boxes any layout.
  mluOpHandle_t h = handleFor("mlu370");
  LogCapture log;
  const auto F = MLUOP_DTYPE_FLOAT;
  Buf x(h, 1 << 12), b(h, 1 << 10), o(h, 1 << 12), a(h, 1 << 12);
  for (mluOpTensorLayout_t bad :
       {MLUOP_LAYOUT_NCHW, MLUOP_LAYOUT_ARRAY, MLUOP_LAYOUT_NLC}) {
    for (int which = 0; which < 3; ++which) {
      auto layout = [&](int i) { return i == which ? bad : MLUOP_LAYOUT_NHWC; };
      Desc in(F, {1, 2, 3, 8}, layout(0)), bx(F, {1, 6, 4}, bad),
          out(F, {1, 6, 4, 2}, layout(1)),
          ar(MLUOP_DTYPE_INT32, {1, 6, 4, 2}, layout(2));
      EXPECT_EQ(
          mluOpBorderAlignForward(h, in, x.p, bx, b.p, 2, out, o.p, ar, a.p),
          MLUOP_STATUS_BAD_PARAM)
          << which;
      EXPECT_NE(log.last().find("layout must be NHWC"), std::string::npos)
          << log.last();
      EXPECT_EQ(mluOpBorderAlignBackward(h, out, o.p, bx, b.p, ar, a.p, 2, in,
                                         x.p),
                MLUOP_STATUS_BAD_PARAM)
          << which;
    }
  }
}
