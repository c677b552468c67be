//===- ActivationAtomicCostTest.cpp - Activations, atomics, the cost model ===//
#include "Ref.h"

#include <cmath>

using namespace intrtest;

namespace {

/// Activations are computed in float and rounded once to the element type.
/// relu and recip are exact; sigmoid, tanh and exp use the host's expf and
/// tanhf, so they are checked against double within 1e-6 relative (or an
/// absolute 1e-7 near 0) for float and within 1 ulp for half.
template <typename T> void actOne(Batch &b, Gen &g) {
  struct Act {
    const char *name;
    double (*f)(double);
    bool exact;
  } acts[] = {
      {"__bang_active_relu", [](double x) { return x < 0 ? 0.0 : x; }, true},
      {"__bang_active_recip", [](double x) { return 1.0 / x; }, true},
      {"__bang_active_sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, false},
      {"__bang_active_tanh", [](double x) { return std::tanh(x); }, false},
      {"__bang_active_exp", [](double x) { return std::exp(x); }, false},
  };
  for (const Act &a : acts)
    for (int n : counts()) {
      auto x = g.vec<T>(n);
      if (!a.exact) // keep exp away from float's overflow edge
        for (T &v : x)
          if (std::fabs(val(v)) > 80)
            v = fromDouble<T>(g.uniform(-20, 20));
      int64_t ox = b.nram(x), od = b.scratch(n * sizeof(T));
      b.call(std::string(a.name) + "(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) + ", " +
             std::to_string(n) + ");");
      auto want = mapRef<T>(x, [&](T v) {
        if (isNaN(v))
          return v;
        if (a.exact && std::string(a.name) == "__bang_active_relu")
          return val(v) < 0 ? zero<T>() : v; // -0 stays -0
        if constexpr (std::is_same_v<T, float>)
          return (float)a.f(val(v));
        else // the correctly rounded float, then half
          return fromDouble<T>((float)a.f(val(v)));
      });
      std::string label = std::string(a.name) + "<" + Ty<T>::name + "> n=" + std::to_string(n);
      if (a.exact)
        b.expect(od, want, label);
      else if (std::is_same_v<T, float>)
        b.expect(od, want, label, Cmp::Abs, 1e-7);
      else
        b.expect(od, want, label, Cmp::Ulps, 1);
      if (n == 67) { // in place
        b.call(std::string(a.name) + "(" + Batch::p<T>(ox) + ", " + Batch::p<T>(ox) + ", " +
               std::to_string(n) + ");");
        if (a.exact)
          b.expect(ox, want, label + " in place");
        else
          b.expect(ox, want, label + " in place", std::is_same_v<T, float> ? Cmp::Abs : Cmp::Ulps,
                   std::is_same_v<T, float> ? 1e-7 : 1);
      }
    }
}

} // namespace

TEST(Activation, AllOnHalfAndFloat) {
  Gen g(31);
  Batch b("activations");
  actOne<H>(b, g);
  actOne<float>(b, g);
  b.run();
}

// --- Atomics on GDRAM --------------------------------------------------===//
namespace {

const char *atomicSource = R"(
__nram__ char buf[4096];
template <typename T>
__mlu_global__ void atom(T *sum, T *max, const T *src, int n) {
  T *mine = (T *)buf;
  __memcpy(mine, src + taskId * n, n * sizeof(T), GDRAM2NRAM);
  __bang_atomic_reduce_add(sum, mine, n);
  __bang_atomic_reduce_max(max, mine, n);
}
template __mlu_global__ void atom<float>(float *, float *, const float *, int);
template __mlu_global__ void atom<half>(half *, half *, const half *, int);
template __mlu_global__ void atom<int32_t>(int32_t *, int32_t *, const int32_t *, int);
)";

template <typename T> T atomicMaxRef(T out, T in) {
  // NaN from src wins; a NaN already in dst stays; on equal values dst
  // keeps its own (so +0 and -0 are equal here).
  if (isNaN(in))
    return in;
  if (isNaN(out))
    return out;
  return val(in) > val(out) ? in : out;
}

template <typename T>
void atomicCase(bangsim::Module &mod, const char *kernel, Gen &g, int tasks, bool specials) {
  bangsim::Device &dev = device();
  int n = 67;
  std::vector<T> src((size_t)n * tasks), sum = g.vec<T>(n), max = g.vec<T>(n);
  for (T &v : src) {
    if (specials)
      v = g.value<T>();
    else if constexpr (isFloat<T>) // small integers: any order of adds is exact
      v = fromDouble<T>(g.range(-8, 8));
    else
      v = g.value<T>();
  }
  if (!specials)
    for (T &v : sum)
      v = fromDouble<T>(g.range(-100, 100));
  std::vector<T> wantSum = sum, wantMax = max;
  for (int t = 0; t < tasks; ++t)
    for (int i = 0; i < n; ++i) {
      T v = src[(size_t)t * n + i];
      if constexpr (isFloat<T>)
        wantSum[i] = arith<T>('+', wantSum[i], v);
      else
        wantSum[i] = wrap<T>((int64_t)wantSum[i] + v);
      wantMax[i] = atomicMaxRef(wantMax[i], v);
    }
  auto dSum = llvm::cantFail(dev.malloc(n * sizeof(T)));
  auto dMax = llvm::cantFail(dev.malloc(n * sizeof(T)));
  auto dSrc = llvm::cantFail(dev.malloc(src.size() * sizeof(T)));
  llvm::cantFail(dev.copyToDevice(dSum, sum.data(), n * sizeof(T)));
  llvm::cantFail(dev.copyToDevice(dMax, max.data(), n * sizeof(T)));
  llvm::cantFail(dev.copyToDevice(dSrc, src.data(), src.size() * sizeof(T)));
  auto found = mod.findKernel(kernel);
  ASSERT_TRUE(bool(found)) << llvm::toString(found.takeError());
  const bangsim::Kernel *k = *found;
  auto stats = dev.launch(*k, mod.staticLayout(), bangsim::Dim3{(uint32_t)tasks, 1, 1},
                          bangsim::FuncType::Block,
                          {bangsim::KernelArg::pointer(dSum), bangsim::KernelArg::pointer(dMax),
                           bangsim::KernelArg::pointer(dSrc), bangsim::KernelArg::i32(n)});
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(stats->opsByClass[BANG_OP_ATOMIC], 2 * n * tasks);
  std::vector<T> gotSum(n), gotMax(n);
  llvm::cantFail(dev.copyFromDevice(gotSum.data(), dSum, n * sizeof(T)));
  llvm::cantFail(dev.copyFromDevice(gotMax.data(), dMax, n * sizeof(T)));
  for (int i = 0; i < n; ++i) {
    auto same = [](T a, T b) {
      return (isNaN(a) && isNaN(b)) || std::memcmp(&a, &b, sizeof(T)) == 0;
    };
    EXPECT_TRUE(same(gotSum[i], wantSum[i]))
        << kernel << " add [" << i << "] got " << val(gotSum[i]) << " want " << val(wantSum[i]);
    EXPECT_TRUE(same(gotMax[i], wantMax[i]))
        << kernel << " max [" << i << "] got " << val(gotMax[i]) << " want " << val(wantMax[i]);
  }
  llvm::cantFail(dev.free(dSum));
  llvm::cantFail(dev.free(dMax));
  llvm::cantFail(dev.free(dSrc));
}

} // namespace

TEST(Atomic, ReduceAddAndMax) {
  auto mod = bangsim::Module::compileString("atomics.mlu", atomicSource, device().spec());
  ASSERT_TRUE(bool(mod)) << llvm::toString(mod.takeError());
  Gen g(32);
  // One task: every special value, exact per element.
  atomicCase<float>(**mod, "atom<float>", g, 1, true);
  atomicCase<H>(**mod, "atom<half>", g, 1, true);
  atomicCase<int32_t>(**mod, "atom<int>", g, 1, true);
  // Sixteen tasks on all cores at once: no update is lost.
  atomicCase<float>(**mod, "atom<float>", g, 16, false);
  atomicCase<H>(**mod, "atom<half>", g, 16, false);
  atomicCase<int32_t>(**mod, "atom<int>", g, 16, false);
}

// --- The cost model: each call charges its class once, in its units ----===//
TEST(Cost, EachIntrinsicChargesItsClass) {
  Gen g(33);
  Batch b("cost");
  auto f = g.vec<float>(1000);
  int64_t of = b.nram(f), od = b.scratch(4000), oh = b.scratch(2000);
  auto w = g.vec<float>(3 * 3 * 4 * 8);
  int64_t ow = b.wram(w);
  auto P = [](int64_t o) { return Batch::p<float>(o); };
  b.call("__bang_add(" + P(od) + ", " + P(of) + ", " + P(of) + ", 1000);");      // ALU 1000
  b.call("__bang_maxequal(" + P(od) + ", " + P(of) + ", " + P(of) + ", 24);");   // ALU 24
  b.call("__bang_band(" + P(od) + ", " + P(of) + ", " + P(of) + ", 40);");       // ALU 40 bytes
  b.call("__bang_mul_scalar(" + P(od) + ", " + P(of) + ", 2.0f, 300);");         // MUL 300
  b.call("__bang_fusion(FUSION_FMA, " + P(od) + ", " + P(of) + ", 2.0f, " + P(of) +
         ", 50, 50);");                                                          // MUL 50
  b.call("__bang_div(" + P(od) + ", " + P(of) + ", " + P(of) + ", 10);");        // DIV 10
  b.call("__bang_write_value(" + P(od) + ", 77, 1.0f);");                        // MOVE 77
  b.call("__bang_move(" + P(od) + ", " + P(of) + ", 64);");                      // MOVE 64 bytes
  b.call("__bang_float2half_rn(" + Batch::p<H>(oh) + ", " + P(of) + ", 99);");   // CVT 99
  b.call("__bang_active_exp(" + P(od) + ", " + P(of) + ", 33);");                // ACT 33
  b.call("__bang_reduce_sum(" + P(od) + ", " + P(of) + ", 500);");               // REDUCE 500
  b.call("__bang_maxpool(" + P(od) + ", " + P(of) + ", 4, 5, 5, 2, 2, 1, 1);");  // REDUCE 4*4*4*4
  // 6x6x4 input, 3x3 kernel, 8 outputs: 4*4*8 outputs of 36 MACs.
  b.call("__bang_conv(" + P(od) + ", " + P(of) + ", " + Batch::w<float>(ow) +
         ", 4, 6, 6, 3, 3, 1, 1, 8);");
  b.call("__bang_matmul(" + P(od) + ", " + P(of) + ", " + Batch::w<float>(ow) +
         ", 3, 8, 9);");                                                         // MAC 3*8*9
  bangsim::LaunchStats s = b.run();
  EXPECT_EQ(s.opsByClass[BANG_OP_ALU], 1000 + 24 + 40);
  EXPECT_EQ(s.opsByClass[BANG_OP_MUL], 300 + 50);
  EXPECT_EQ(s.opsByClass[BANG_OP_DIV], 10);
  EXPECT_EQ(s.opsByClass[BANG_OP_MOVE], 77 + 64);
  EXPECT_EQ(s.opsByClass[BANG_OP_CVT], 99);
  EXPECT_EQ(s.opsByClass[BANG_OP_ACT], 33);
  EXPECT_EQ(s.opsByClass[BANG_OP_REDUCE], 500 + 4 * 4 * 4 * 4);
  EXPECT_EQ(s.opsByClass[BANG_OP_MAC], 4 * 4 * 8 * 36 + 3 * 8 * 9);
}
