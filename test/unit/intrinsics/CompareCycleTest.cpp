//===- CompareCycleTest.cpp - Scalar compares and cycle operations --------===//
//
// The mlu-ops families F2 (__bang_lt_scalar ..., __bang_maxeq_scalar,
// __bang_band_scalar) and F3 (__bang_cycle_add ..., __bang_cycle_band) on
// every dtype of their rows, against scalar references (Ref.h): every count
// of counts(), in place, NaN, the signed zeros, and segments of several
// lengths, including one element and the whole vector. A cycle count that
// its segment does not divide faults.
//
//===----------------------------------------------------------------------===//
#include "Ref.h"

#include "../FaultMessage.h"

using namespace intrtest;

namespace {

#define REF(EXPR) [](auto x, auto y) { return EXPR; }
#define PRED(EXPR) REF((EXPR) ? one<T>() : zero<T>())

template <typename T> bool truthy(T x) { return isNaN(x) || val(x) != 0; }

/// One `name(dst, a, scalar, n)` intrinsic on T, every count and in place;
/// the scalar is sometimes an element of a (ties) or a signed zero.
template <typename T, typename F>
void scalarOne(Batch &b, Gen &g, const char *name, F ref) {
  for (int n : counts()) {
    auto x = g.vec<T>(n);
    T s = g.value<T>();
    if (n == 67)
      s = x[5];
    if (n == 261)
      s = fromDouble<T>(-0.0), x[3] = zero<T>();
    int64_t ox = b.nram(x), od = b.scratch(n * sizeof(T));
    std::string N = std::to_string(n);
    b.call(std::string(name) + "(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) +
           ", " + lit(s) + ", " + N + ");");
    auto want = mapRef<T>(x, [&](T v) { return ref(v, s); });
    std::string label = std::string(name) + "<" + Ty<T>::name + "> n=" + N;
    b.expect(od, want, label);
    b.call(std::string(name) + "(" + Batch::p<T>(ox) + ", " + Batch::p<T>(ox) +
           ", " + lit(s) + ", " + N + ");");
    b.expect(ox, want, label + " in place");
  }
}

template <typename T> void scalarCompares(Batch &b, Gen &g) {
  // On the values: NaN compares unordered, -0 == +0.
  scalarOne<T>(b, g, "__bang_lt_scalar", PRED(val(x) < val(y)));
  scalarOne<T>(b, g, "__bang_le_scalar", PRED(val(x) <= val(y)));
  scalarOne<T>(b, g, "__bang_gt_scalar", PRED(val(x) > val(y)));
  scalarOne<T>(b, g, "__bang_ge_scalar", PRED(val(x) >= val(y)));
  scalarOne<T>(b, g, "__bang_eq_scalar", PRED(val(x) == val(y)));
  scalarOne<T>(b, g, "__bang_ne_scalar", PRED(val(x) != val(y)));
  scalarOne<T>(b, g, "__bang_maxeq_scalar", REF(refMax(x, y)));
  scalarOne<T>(b, g, "__bang_mineq_scalar", REF(refMin(x, y)));
}

template <typename T> void bandScalar(Batch &b, Gen &g) {
  scalarOne<T>(b, g, "__bang_band_scalar", REF((T)(x & y)));
}

} // namespace

TEST(CompareScalar, EveryDtype) {
  Gen g(81);
  Batch b("compare_scalar");
  scalarCompares<H>(b, g);
  scalarCompares<float>(b, g);
  scalarCompares<int16_t>(b, g);
  scalarCompares<int32_t>(b, g);
  bandScalar<int8_t>(b, g);
  bandScalar<uint8_t>(b, g);
  bandScalar<int16_t>(b, g);
  bandScalar<uint16_t>(b, g);
  bandScalar<int32_t>(b, g);
  bandScalar<uint32_t>(b, g);
  b.run();
}

namespace {

/// One cycle intrinsic on T: segments of 1, 7 and n elements for n = 7, 63
/// and 259 (segment counts that divide them), then in place (dst == src).
template <typename T, typename F>
void cycleOne(Batch &b, Gen &g, const char *name, F ref) {
  const int shapes[][2] = {{7, 1},  {7, 7},    {63, 7},
                           {63, 9}, {259, 37}, {259, 259}};
  for (const auto &shape : shapes) {
    int n = shape[0], segN = shape[1];
    auto x = g.vec<T>(n), seg = g.vec<T>(segN);
    x[0] = seg[0]; // a tie
    int64_t ox = b.nram(x), os = b.nram(seg), od = b.scratch(n * sizeof(T));
    std::string args = ", " + Batch::p<T>(os) + ", " + std::to_string(n) +
                       ", " + std::to_string(segN) + ");";
    b.call(std::string(name) + "(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) +
           args);
    std::vector<T> want(n);
    for (int i = 0; i < n; ++i)
      want[i] = ref(x[i], seg[i % segN]);
    std::string label = std::string(name) + "<" + Ty<T>::name +
                        "> n=" + std::to_string(n) +
                        " seg=" + std::to_string(segN);
    b.expect(od, want, label);
    b.call(std::string(name) + "(" + Batch::p<T>(ox) + ", " + Batch::p<T>(ox) +
           args);
    b.expect(ox, want, label + " in place");
    b.expect(os, seg, label + " segment untouched");
  }
}

template <typename T> void cycleAll(Batch &b, Gen &g) {
  cycleOne<T>(b, g, "__bang_cycle_add", REF(arith<T>('+', x, y)));
  cycleOne<T>(b, g, "__bang_cycle_sub", REF(arith<T>('-', x, y)));
  cycleOne<T>(b, g, "__bang_cycle_mul", REF(arith<T>('*', x, y)));
  cycleOne<T>(b, g, "__bang_cycle_maxequal", REF(refMax(x, y)));
  cycleOne<T>(b, g, "__bang_cycle_minequal", REF(refMin(x, y)));
  cycleOne<T>(b, g, "__bang_cycle_lt", PRED(val(x) < val(y)));
  cycleOne<T>(b, g, "__bang_cycle_le", PRED(val(x) <= val(y)));
  cycleOne<T>(b, g, "__bang_cycle_gt", PRED(val(x) > val(y)));
  cycleOne<T>(b, g, "__bang_cycle_ge", PRED(val(x) >= val(y)));
  cycleOne<T>(b, g, "__bang_cycle_eq", PRED(val(x) == val(y)));
  cycleOne<T>(b, g, "__bang_cycle_ne", PRED(val(x) != val(y)));
  cycleOne<T>(b, g, "__bang_cycle_and", PRED(truthy(x) && truthy(y)));
  cycleOne<T>(b, g, "__bang_cycle_or", PRED(truthy(x) || truthy(y)));
  cycleOne<T>(b, g, "__bang_cycle_xor", PRED(truthy(x) != truthy(y)));
}

} // namespace

TEST(Cycle, ArithmeticCompareLogic) {
  Gen g(82);
  Batch b("cycle");
  cycleAll<H>(b, g);
  cycleAll<float>(b, g);
  cycleAll<int8_t>(b, g);
  cycleAll<int16_t>(b, g);
  cycleAll<int32_t>(b, g);
  b.run();
}

TEST(Cycle, BitwiseInBytes) {
  Gen g(83);
  Batch b("cycle_bitwise");
  cycleOne<uint8_t>(b, g, "__bang_cycle_band", REF((uint8_t)(x & y)));
  cycleOne<uint8_t>(b, g, "__bang_cycle_bor", REF((uint8_t)(x | y)));
  b.run();
}

TEST(Cycle, SegmentMustDivideTheCount) {
  bangsim::CompileOptions options;
  if (std::getenv("BANGC_TEST_INLINE_INTRINSICS"))
    options.optLevel = 3, options.inlineIntrinsics = true;
  auto m = compileOrFail("cycle_fault.mlu", R"(__nram__ float a[64];
__nram__ float s[64];
__mlu_global__ void cyc(int n, int seg) {
  __bang_cycle_add(a, a, s, n, seg);
}
)",
                         bangsim::defaultDeviceSpec(), options);
  ASSERT_TRUE(m);
  auto run = [&](int n, int seg) {
    return launchByName(
        device(), *m, "cyc",
        {bangsim::KernelArg::i32(n), bangsim::KernelArg::i32(seg)}, {1, 1, 1},
        bangsim::FuncType::Block);
  };
  for (auto [n, seg] : {std::pair{64, 64}, {64, 1}, {0, 5}, {60, 12}}) {
    auto ok = run(n, seg);
    EXPECT_TRUE(bool(ok)) << n << " " << seg << ": "
                          << faultMessage(ok.takeError());
  }
  EXPECT_TRUE(holdsInOrder(
      faultMessage(run(64, 0)),
      {"the segment count must be positive", "in __bang_cycle_add"}));
  EXPECT_TRUE(holdsInOrder(
      faultMessage(run(63, 2)),
      {"the segment count must divide the count", "in __bang_cycle_add"}));
}
