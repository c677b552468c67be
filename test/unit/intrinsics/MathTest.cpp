//===- MathTest.cpp - Element-wise math of the mlu-ops families F1, F5 ----===//
//
// abs, square, floor, sqrt, the reciprocals, sin, cos, pow2, log2, the
// high-precision exp, maximum/minimum with both NaN conventions and the
// remainder by a scalar, on every dtype of their rows, against scalar
// references computed in double (Ref.h); every count of counts() and in
// place. Exact operations must match bit for bit (any NaN matches any NaN);
// the transcendental ones within docs/language.md's accuracy.
//
//===----------------------------------------------------------------------===//
#include "Ref.h"

#include "../FaultMessage.h"

#include <cmath>

using namespace intrtest;

namespace {

/// A unary intrinsic on T against `ref` (a function of the element), every
/// count of counts() and in place at n = 67. `tweak` may replace inputs.
template <typename T, typename R, typename W>
void unaryOne(Batch &b, Gen &g, const char *name, R ref, Cmp cmp, double tol,
              W tweak) {
  for (int n : counts()) {
    auto x = g.vec<T>(n);
    for (T &v : x)
      v = tweak(g, v);
    int64_t ox = b.nram(x), od = b.scratch(n * sizeof(T));
    std::string N = std::to_string(n);
    b.call(std::string(name) + "(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) +
           ", " + N + ");");
    auto want = mapRef<T>(x, ref);
    std::string label = std::string(name) + "<" + Ty<T>::name + "> n=" + N;
    b.expect(od, want, label, cmp, tol);
    if (n != 67)
      continue;
    b.call(std::string(name) + "(" + Batch::p<T>(ox) + ", " + Batch::p<T>(ox) +
           ", " + N + ");");
    b.expect(ox, want, label + " in place", cmp, tol);
  }
}

template <typename T> T keep(Gen &, T v) { return v; }

/// A float function computed in double, rounded to float, then to T.
template <typename T> T viaFloat(double r) { return fromDouble<T>((float)r); }

/// |x| with the sign bit cleared (floats) or wrapping (integers).
template <typename T> T refAbs(T x) {
  if constexpr (std::is_same_v<T, H>)
    return H::fromBits(x.bits & 0x7fff);
  else if constexpr (std::is_same_v<T, float>)
    return std::fabs(x);
  else
    return wrap<T>(x < 0 ? -(int64_t)x : (int64_t)x);
}

/// Exact unary operations on half and float.
template <typename T> void exactFloatOps(Batch &b, Gen &g) {
  auto k = [](Gen &gg, T v) { return keep(gg, v); };
  unaryOne<T>(
      b, g, "__bang_abs", [](T v) { return refAbs(v); }, Cmp::Exact, 0, k);
  unaryOne<T>(
      b, g, "__bang_active_abs", [](T v) { return refAbs(v); }, Cmp::Exact, 0,
      k);
  unaryOne<T>(
      b, g, "__bang_square", [](T v) { return arith<T>('*', v, v); },
      Cmp::Exact, 0, k);
  unaryOne<T>(
      b, g, "__bang_floor",
      [](T v) { return isNaN(v) ? v : viaFloat<T>(std::floor(val(v))); },
      Cmp::Exact, 0, k);
  unaryOne<T>(
      b, g, "__bang_sqrt",
      [](T v) { return isNaN(v) ? v : viaFloat<T>(std::sqrt(val(v))); },
      Cmp::Exact, 0, k);
  for (const char *name : {"__bang_recip", "__bang_active_reciphp"})
    unaryOne<T>(
        b, g, name,
        [](T v) { return isNaN(v) ? v : viaFloat<T>(1.0 / val(v)); },
        Cmp::Exact, 0, k);
}

/// sin, cos, pow2, log2, exp: float within 1e-6 relative or 1e-7 absolute,
/// half within 1 ulp of the correctly rounded float.
template <typename T> void transcendentalOps(Batch &b, Gen &g) {
  bool isF = std::is_same_v<T, float>;
  Cmp cmp = isF ? Cmp::Abs : Cmp::Ulps;
  double tol = isF ? 1e-7 : 1;
  auto k = [](Gen &gg, T v) { return keep(gg, v); };
  // exp and pow2 away from float's overflow edge (as the activations).
  auto small = [](Gen &gg, T v) {
    return std::fabs(val(v)) > 80 ? fromDouble<T>(gg.uniform(-20, 20)) : v;
  };
  struct Op {
    const char *name;
    double (*f)(double);
    bool small;
  } ops[] = {
      {"__bang_sin", [](double x) { return std::sin(x); }, false},
      {"__bang_cos", [](double x) { return std::cos(x); }, false},
      {"__bang_log2", [](double x) { return std::log2(x); }, false},
      {"__bang_pow2", [](double x) { return std::exp2(x); }, true},
      {"__bang_active_exphp", [](double x) { return std::exp(x); }, true},
  };
  for (const Op &op : ops) {
    auto ref = [&](T v) { return isNaN(v) ? v : viaFloat<T>(op.f(val(v))); };
    if (op.small)
      unaryOne<T>(b, g, op.name, ref, cmp, tol, small);
    else
      unaryOne<T>(b, g, op.name, ref, cmp, tol, k);
  }
}

/// abs and square on the integer dtypes: both wrap.
template <typename T> void intOps(Batch &b, Gen &g) {
  auto k = [](Gen &gg, T v) { return keep(gg, v); };
  unaryOne<T>(
      b, g, "__bang_abs", [](T v) { return refAbs(v); }, Cmp::Exact, 0, k);
  unaryOne<T>(
      b, g, "__bang_square", [](T v) { return arith<T>('*', v, v); },
      Cmp::Exact, 0, k);
}

} // namespace

TEST(Math, ExactUnary) {
  Gen g(71);
  Batch b("math_exact");
  exactFloatOps<H>(b, g);
  exactFloatOps<float>(b, g);
  intOps<int8_t>(b, g);
  intOps<int16_t>(b, g);
  intOps<int32_t>(b, g);
  b.run();
}

TEST(Math, Transcendental) {
  Gen g(72);
  Batch b("math_transcendental");
  transcendentalOps<H>(b, g);
  transcendentalOps<float>(b, g);
  b.run();
}

namespace {

/// maximumNumber: a NaN operand is ignored unless both are NaN.
template <typename T> T refMaxNum(T a, T c) {
  if (isNaN(a))
    return c;
  if (isNaN(c))
    return a;
  return refMax(a, c);
}
template <typename T> T refMinNum(T a, T c) {
  if (isNaN(a))
    return c;
  if (isNaN(c))
    return a;
  return refMin(a, c);
}

template <typename T, typename F>
void binaryOne(Batch &b, Gen &g, const char *name, F ref) {
  for (int n : counts()) {
    auto x = g.vec<T>(n), y = g.vec<T>(n);
    if (n > 7) { // ties of the signed zeros and NaN against a number
      x[0] = fromDouble<T>(-0.0), y[0] = zero<T>();
      x[1] = zero<T>(), y[1] = fromDouble<T>(-0.0);
      if constexpr (isFloat<T>)
        x[2] = fromDouble<T>(NAN), y[3] = fromDouble<T>(NAN);
    }
    int64_t ox = b.nram(x), oy = b.nram(y), od = b.scratch(n * sizeof(T));
    std::string N = std::to_string(n);
    b.call(std::string(name) + "(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) +
           ", " + Batch::p<T>(oy) + ", " + N + ");");
    std::vector<T> want(n);
    for (int i = 0; i < n; ++i)
      want[i] = ref(x[i], y[i]);
    std::string label = std::string(name) + "<" + Ty<T>::name + "> n=" + N;
    b.expect(od, want, label);
    if (n != 67)
      continue;
    b.call(std::string(name) + "(" + Batch::p<T>(oy) + ", " + Batch::p<T>(ox) +
           ", " + Batch::p<T>(oy) + ", " + N + ");");
    b.expect(oy, want, label + " dst == b");
  }
}

template <typename T> void maxMinOps(Batch &b, Gen &g) {
  binaryOne<T>(b, g, "__bang_maximum",
               [](T x, T y) { return refMaxNum(x, y); });
  binaryOne<T>(b, g, "__bang_minimum",
               [](T x, T y) { return refMinNum(x, y); });
  if constexpr (isFloat<T>) {
    binaryOne<T>(b, g, "__bang_nan_maximum",
                 [](T x, T y) { return refMax(x, y); });
    binaryOne<T>(b, g, "__bang_nan_minimum",
                 [](T x, T y) { return refMin(x, y); });
  }
}

/// Truncated remainder, the sign of the dividend (C's fmod and %).
template <typename T> T refRem(T x, T y) {
  if constexpr (isFloat<T>)
    return fromDouble<T>(std::fmod(val(x), val(y)));
  else
    return (T)((int64_t)x % (int64_t)y);
}

template <typename T> void remOne(Batch &b, Gen &g) {
  for (int n : counts()) {
    auto x = g.vec<T>(n);
    T s = g.value<T>();
    if constexpr (!isFloat<T>)
      if (s == 0)
        s = (T)7;
    if (n == 7) { // INT_MIN rem -1, and the dividend's sign
      if constexpr (std::is_signed_v<T> && !isFloat<T>)
        x[0] = std::numeric_limits<T>::min(), s = (T)-1;
      x[1] = fromDouble<T>(-7.0);
    }
    int64_t ox = b.nram(x), od = b.scratch(n * sizeof(T));
    std::string N = std::to_string(n);
    b.call("__bang_rem(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) + ", " +
           lit(s) + ", " + N + ");");
    auto want = mapRef<T>(x, [&](T v) { return refRem(v, s); });
    std::string label = std::string("__bang_rem<") + Ty<T>::name + "> n=" + N;
    b.expect(od, want, label);
    b.call("__bang_rem(" + Batch::p<T>(ox) + ", " + Batch::p<T>(ox) + ", " +
           lit(s) + ", " + N + ");");
    b.expect(ox, want, label + " in place");
  }
}

} // namespace

TEST(Math, MaximumMinimumRem) {
  Gen g(73);
  Batch b("math_maxmin_rem");
  maxMinOps<H>(b, g);
  maxMinOps<float>(b, g);
  maxMinOps<int8_t>(b, g);
  maxMinOps<int16_t>(b, g);
  maxMinOps<int32_t>(b, g);
  remOne<H>(b, g);
  remOne<float>(b, g);
  remOne<int16_t>(b, g);
  remOne<int32_t>(b, g);
  remOne<uint32_t>(b, g);
  b.run();
}

TEST(Math, IntegerRemByZeroFaults) {
  bangsim::CompileOptions options;
  if (std::getenv("BANGC_TEST_INLINE_INTRINSICS"))
    options.optLevel = 3, options.inlineIntrinsics = true;
  auto m = compileOrFail("rem_zero.mlu", R"(__nram__ int32_t a[64];
__mlu_global__ void remBy(int d) {
  __bang_rem(a, a, d, 64);
}
)",
                         bangsim::defaultDeviceSpec(), options);
  ASSERT_TRUE(m);
  auto ok = launchByName(device(), *m, "remBy", {bangsim::KernelArg::i32(1)},
                         {1, 1, 1}, bangsim::FuncType::Block);
  EXPECT_TRUE(bool(ok)) << faultMessage(ok.takeError());
  std::string message = faultMessage(
      launchByName(device(), *m, "remBy", {bangsim::KernelArg::i32(0)},
                   {1, 1, 1}, bangsim::FuncType::Block));
  EXPECT_TRUE(
      holdsInOrder(message, {"__bang_rem: division by zero", "in __bang_rem"}));
}

// The toolkit's math library as mlu-ops calls it (count first): sin, cos
// and hypot on float vectors, sin and cos of one float or half. Accuracy as
// __bang_sin.
TEST(Math, CnMathLibrary) {
  Gen g(74);
  Batch b("cn_math");
  for (int n : counts()) {
    auto x = g.vec<float>(n), y = g.vec<float>(n);
    std::string N = std::to_string(n);
    int64_t ox = b.nram(x), oy = b.nram(y);
    struct Op {
      const char *name;
      double (*f)(double);
    } ops[] = {{"__cn_vector_sin_f32", [](double v) { return std::sin(v); }},
               {"__cn_vector_cos_f32", [](double v) { return std::cos(v); }}};
    for (const Op &op : ops) {
      int64_t od = b.scratch(n * 4);
      b.call(std::string(op.name) + "(" + N + ", " + Batch::p<float>(od) +
             ", " + Batch::p<float>(ox) + ");");
      auto want = mapRef<float>(
          x, [&](float v) { return isNaN(v) ? v : (float)op.f(v); });
      b.expect(od, want, std::string(op.name) + " n=" + N, Cmp::Abs, 1e-7);
    }
    int64_t oh = b.scratch(n * 4);
    b.call("__cn_vector_hypot_f32(" + N + ", " + Batch::p<float>(oh) + ", " +
           Batch::p<float>(ox) + ", " + Batch::p<float>(oy) + ");");
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i) // hypot(±inf, NaN) = +inf
      want[i] = (float)std::hypot((double)x[i], (double)y[i]);
    b.expect(oh, want, "__cn_vector_hypot_f32 n=" + N, Cmp::Abs, 1e-7);
    // The scalar forms, element by element in a loop of the kernel.
    auto hx = g.vec<H>(n);
    int64_t ohx = b.nram(hx);
    for (const char *fn : {"sin", "cos"}) {
      bool isSin = fn[0] == 's';
      int64_t of = b.scratch(n * 4), ofh = b.scratch(n * 2);
      b.call("for (int i = 0; i < " + N + "; ++i) " + Batch::p<float>(of) +
             "[i] = __cn_scalar_" + fn + "_f32(" + Batch::p<float>(ox) +
             "[i]);");
      b.call("for (int i = 0; i < " + N + "; ++i) " + Batch::p<H>(ofh) +
             "[i] = __cn_scalar_" + fn + "_f16(" + Batch::p<H>(ohx) + "[i]);");
      auto wf = mapRef<float>(x, [&](float v) {
        return isNaN(v) ? v : (float)(isSin ? std::sin(v) : std::cos(v));
      });
      auto wh = mapRef<H>(hx, [&](H v) {
        double d = val(v);
        return isNaN(v) ? v : viaFloat<H>(isSin ? std::sin(d) : std::cos(d));
      });
      b.expect(of, wf, std::string("__cn_scalar_") + fn + "_f32 n=" + N,
               Cmp::Abs, 1e-7);
      b.expect(ofh, wh, std::string("__cn_scalar_") + fn + "_f16 n=" + N,
               Cmp::Ulps, 1);
    }
  }
  b.run();
}
