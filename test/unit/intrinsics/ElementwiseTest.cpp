//===- ElementwiseTest.cpp - Fill, move, arithmetic, compare, logic -------===//
#include "Ref.h"

using namespace intrtest;

namespace {

/// An element-wise binary intrinsic on one dtype: every count of counts(),
/// then in place as dst == a and as dst == b.
template <typename T, typename F>
void binary(Batch &b, Gen &g, const char *name, F ref) {
  for (int n : counts()) {
    auto x = g.vec<T>(n), y = g.vec<T>(n);
    int64_t ox = b.nram(x), oy = b.nram(y), od = b.scratch(n * sizeof(T));
    b.call(std::string(name) + "(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) +
           ", " + Batch::p<T>(oy) + ", " + std::to_string(n) + ");");
    std::vector<T> want(n);
    for (int i = 0; i < n; ++i)
      want[i] = ref(x[i], y[i]);
    b.expect(od, want, std::string(name) + "<" + Ty<T>::name + "> n=" + std::to_string(n));
  }
  int n = 67;
  auto x = g.vec<T>(n), y = g.vec<T>(n);
  int64_t ox = b.nram(x), oy = b.nram(y);
  std::vector<T> want(n);
  for (int i = 0; i < n; ++i)
    want[i] = ref(x[i], y[i]);
  b.call(std::string(name) + "(" + Batch::p<T>(ox) + ", " + Batch::p<T>(ox) +
         ", " + Batch::p<T>(oy) + ", " + std::to_string(n) + ");");
  b.expect(ox, want, std::string(name) + "<" + Ty<T>::name + "> dst == a");
  auto x2 = g.vec<T>(n), y2 = g.vec<T>(n);
  int64_t ox2 = b.nram(x2), oy2 = b.nram(y2);
  for (int i = 0; i < n; ++i)
    want[i] = ref(x2[i], y2[i]);
  b.call(std::string(name) + "(" + Batch::p<T>(oy2) + ", " + Batch::p<T>(ox2) +
         ", " + Batch::p<T>(oy2) + ", " + std::to_string(n) + ");");
  b.expect(oy2, want, std::string(name) + "<" + Ty<T>::name + "> dst == b");
  auto x3 = g.vec<T>(n);
  int64_t ox3 = b.nram(x3);
  for (int i = 0; i < n; ++i)
    want[i] = ref(x3[i], x3[i]);
  b.call(std::string(name) + "(" + Batch::p<T>(ox3) + ", " + Batch::p<T>(ox3) +
         ", " + Batch::p<T>(ox3) + ", " + std::to_string(n) + ");");
  b.expect(ox3, want,
           std::string(name) + "<" + Ty<T>::name + "> dst == a == b");
}

template <typename F> void allTypes(Batch &b, Gen &g, const char *name, F ref) {
  binary<H>(b, g, name, [&](H x, H y) { return ref(x, y); });
  binary<float>(b, g, name, [&](float x, float y) { return ref(x, y); });
  binary<int8_t>(b, g, name, [&](int8_t x, int8_t y) { return ref(x, y); });
  binary<int16_t>(b, g, name, [&](int16_t x, int16_t y) { return ref(x, y); });
  binary<int32_t>(b, g, name, [&](int32_t x, int32_t y) { return ref(x, y); });
}

#define REF(EXPR) [](auto x, auto y) { using T = decltype(x); return EXPR; }
#define PRED(EXPR) REF((EXPR) ? one<T>() : zero<T>())

template <typename T> bool truthy(T x) { return isNaN(x) || val(x) != 0; }

} // namespace

TEST(Elementwise, Arithmetic) {
  Gen g(1);
  Batch b("arith");
  allTypes(b, g, "__bang_add", REF(arith<T>('+', x, y)));
  allTypes(b, g, "__bang_sub", REF(arith<T>('-', x, y)));
  allTypes(b, g, "__bang_mul", REF(arith<T>('*', x, y)));
  allTypes(b, g, "__bang_maxequal", REF(refMax(x, y)));
  allTypes(b, g, "__bang_minequal", REF(refMin(x, y)));
  binary<H>(b, g, "__bang_div", REF(arith<T>('/', x, y)));
  binary<float>(b, g, "__bang_div", REF(arith<T>('/', x, y)));
  b.run();
}

TEST(Elementwise, CompareAndLogic) {
  Gen g(2);
  Batch b("compare");
  // Compares on the values: NaN compares unordered, -0 == +0.
  allTypes(b, g, "__bang_lt", PRED(val(x) < val(y)));
  allTypes(b, g, "__bang_le", PRED(val(x) <= val(y)));
  allTypes(b, g, "__bang_gt", PRED(val(x) > val(y)));
  allTypes(b, g, "__bang_ge", PRED(val(x) >= val(y)));
  allTypes(b, g, "__bang_eq", PRED(val(x) == val(y)));
  allTypes(b, g, "__bang_ne", PRED(val(x) != val(y)));
  // Logic: an element is true when it is not zero (NaN is true).
  allTypes(b, g, "__bang_and", PRED(truthy(x) && truthy(y)));
  allTypes(b, g, "__bang_or", PRED(truthy(x) || truthy(y)));
  allTypes(b, g, "__bang_xor", PRED(truthy(x) != truthy(y)));
  b.run();
}

namespace {
template <typename T> void notOne(Batch &b, Gen &g) {
  for (int n : {7, 261}) {
    auto x = g.vec<T>(n);
    for (int i = 0; i < n; i += 5)
      x[i] = i % 2 ? zero<T>() : fromDouble<T>(-0.0);
    int64_t ox = b.nram(x), od = b.scratch(n * sizeof(T));
    b.call("__bang_not(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) + ", " +
           std::to_string(n) + ");");
    auto want = mapRef<T>(x, [](T v) { return truthy(v) ? zero<T>() : one<T>(); });
    b.expect(od, want, std::string("__bang_not<") + Ty<T>::name + ">");
    b.call("__bang_not(" + Batch::p<T>(ox) + ", " + Batch::p<T>(ox) + ", " +
           std::to_string(n) + ");");
    b.expect(ox, want, std::string("__bang_not<") + Ty<T>::name + "> in place");
  }
}

template <typename T> void scalarOne(Batch &b, Gen &g) {
  struct Op {
    const char *name;
    char op;
  } ops[] = {{"__bang_add_scalar", '+'}, {"__bang_sub_scalar", '-'}, {"__bang_mul_scalar", '*'}};
  for (const Op &op : ops)
    for (int n : counts()) {
      auto x = g.vec<T>(n);
      T s = g.value<T>();
      int64_t ox = b.nram(x), od = b.scratch(n * sizeof(T));
      b.call(std::string(op.name) + "(" + Batch::p<T>(od) + ", " + Batch::p<T>(ox) +
             ", " + lit(s) + ", " + std::to_string(n) + ");");
      auto want = mapRef<T>(x, [&](T v) { return arith<T>(op.op, v, s); });
      b.expect(od, want, std::string(op.name) + "<" + Ty<T>::name + "> n=" + std::to_string(n));
      b.call(std::string(op.name) + "(" + Batch::p<T>(ox) + ", " + Batch::p<T>(ox) +
             ", " + lit(s) + ", " + std::to_string(n) + ");");
      b.expect(ox, want, std::string(op.name) + "<" + Ty<T>::name + "> in place");
    }
}

/// dst = (a op1 b) op2 c, each operation rounded to T (no fused
/// multiply-add): FMA, FMS, FAM, FSM, FAS, FSA, FSS.
template <typename T> T fusionRef(int op, T a, T b, T c) {
  const char first[] = {'*', '*', '+', '-', '+', '-', '-'};
  const char second[] = {'+', '-', '*', '*', '-', '+', '-'};
  return arith<T>(second[op], arith<T>(first[op], a, b), c);
}

template <typename T> void fusionOne(Batch &b, Gen &g) {
  const char *ops[] = {"FUSION_FMA", "FUSION_FMS", "FUSION_FAM", "FUSION_FSM",
                       "FUSION_FAS", "FUSION_FSA", "FUSION_FSS"};
  for (int op = 0; op < 7; ++op)
    for (int n : {7, 261}) {
      auto x = g.vec<T>(n), y = g.vec<T>(n), z = g.vec<T>(n);
      T s = g.value<T>();
      int64_t ox = b.nram(x), oy = b.nram(y), oz = b.nram(z),
              od = b.scratch(n * sizeof(T)), od2 = b.scratch(n * sizeof(T));
      std::string N = std::to_string(n);
      b.call(std::string("__bang_fusion(") + ops[op] + ", " + Batch::p<T>(od) + ", " +
             Batch::p<T>(ox) + ", " + Batch::p<T>(oy) + ", " + Batch::p<T>(oz) +
             ", " + N + ", " + N + ");");
      std::vector<T> want(n), want2(n);
      for (int i = 0; i < n; ++i) {
        want[i] = fusionRef(op, x[i], y[i], z[i]);
        want2[i] = fusionRef(op, x[i], s, z[i]);
      }
      b.expect(od, want, std::string(ops[op]) + "<" + Ty<T>::name + "> n=" + N);
      b.call(std::string("__bang_fusion(") + ops[op] + ", " + Batch::p<T>(od2) + ", " +
             Batch::p<T>(ox) + ", " + lit(s) + ", " + Batch::p<T>(oz) + ", " + N +
             ", " + N + ");");
      b.expect(od2, want2, std::string(ops[op]) + "<" + Ty<T>::name + "> scalar b, n=" + N);
      // In place on c.
      b.call(std::string("__bang_fusion(") + ops[op] + ", " + Batch::p<T>(oz) + ", " +
             Batch::p<T>(ox) + ", " + Batch::p<T>(oy) + ", " + Batch::p<T>(oz) +
             ", " + N + ", " + N + ");");
      b.expect(oz, want, std::string(ops[op]) + "<" + Ty<T>::name + "> dst == c");
      // In place on a, with b a vector and a scalar, and on c with b a scalar.
      auto x2 = g.vec<T>(n), x3 = g.vec<T>(n), z3 = g.vec<T>(n);
      int64_t ox2 = b.nram(x2), ox3 = b.nram(x3), oz3 = b.nram(z3);
      oz = b.nram(z); // z again: the call above wrote over it
      std::vector<T> wantA(n), wantA2(n), wantC2(n);
      for (int i = 0; i < n; ++i) {
        wantA[i] = fusionRef(op, x2[i], y[i], z[i]);
        wantA2[i] = fusionRef(op, x3[i], s, z[i]);
        wantC2[i] = fusionRef(op, x[i], s, z3[i]);
      }
      b.call(std::string("__bang_fusion(") + ops[op] + ", " + Batch::p<T>(ox2) +
             ", " + Batch::p<T>(ox2) + ", " + Batch::p<T>(oy) + ", " +
             Batch::p<T>(oz) + ", " + N + ", " + N + ");");
      b.expect(ox2, wantA,
               std::string(ops[op]) + "<" + Ty<T>::name + "> dst == a");
      b.call(std::string("__bang_fusion(") + ops[op] + ", " + Batch::p<T>(ox3) +
             ", " + Batch::p<T>(ox3) + ", " + lit(s) + ", " + Batch::p<T>(oz) +
             ", " + N + ", " + N + ");");
      b.expect(ox3, wantA2,
               std::string(ops[op]) + "<" + Ty<T>::name +
                   "> scalar b, dst == a");
      b.call(std::string("__bang_fusion(") + ops[op] + ", " + Batch::p<T>(oz3) +
             ", " + Batch::p<T>(ox) + ", " + lit(s) + ", " + Batch::p<T>(oz3) +
             ", " + N + ", " + N + ");");
      b.expect(oz3, wantC2,
               std::string(ops[op]) + "<" + Ty<T>::name +
                   "> scalar b, dst == c");
    }
}
} // namespace

TEST(Elementwise, NotScalarFusion) {
  Gen g(3);
  Batch b("not_scalar_fusion");
  notOne<H>(b, g);
  notOne<float>(b, g);
  notOne<int8_t>(b, g);
  notOne<int16_t>(b, g);
  notOne<int32_t>(b, g);
  scalarOne<H>(b, g);
  scalarOne<float>(b, g);
  scalarOne<int16_t>(b, g);
  scalarOne<int32_t>(b, g);
  fusionOne<H>(b, g);
  fusionOne<float>(b, g);
  fusionOne<int32_t>(b, g);
  b.run();
}

namespace {
template <typename T> void fillOne(Batch &b, Gen &g) {
  for (const char *name : {"__bang_write_value", "__memset_nram"})
    for (int n : counts()) {
      T v = g.value<T>();
      int64_t od = b.scratch(n * sizeof(T) + 8);
      b.call(std::string(name) + "(" + Batch::p("void", od) + ", " +
             std::to_string(n) + ", " + lit(v) + ");");
      b.expect(od, std::vector<T>(n, v), std::string(name) + "<" + Ty<T>::name + ">");
      // The bytes after the last element are untouched.
      b.expect(od + n * sizeof(T), std::vector<uint8_t>(8, 0xa5),
               std::string(name) + "<" + Ty<T>::name + "> past the end");
    }
}
template <typename T> void zeroOne(Batch &b) {
  int n = 67;
  int64_t od = b.scratch(n * sizeof(T));
  b.call("__bang_write_zero(" + Batch::p<T>(od) + ", " + std::to_string(n) + ");");
  b.expect(od, std::vector<T>(n, zero<T>()), std::string("__bang_write_zero<") + Ty<T>::name + ">");
}
} // namespace

TEST(Elementwise, FillAndMove) {
  Gen g(4);
  Batch b("fill_move");
  fillOne<H>(b, g);
  fillOne<float>(b, g);
  fillOne<int8_t>(b, g);
  fillOne<uint8_t>(b, g);
  fillOne<int16_t>(b, g);
  fillOne<uint16_t>(b, g);
  fillOne<int32_t>(b, g);
  fillOne<uint32_t>(b, g);
  zeroOne<H>(b);
  zeroOne<float>(b);
  zeroOne<int8_t>(b);
  zeroOne<int16_t>(b);
  zeroOne<int32_t>(b);
  // __bang_move: bytes, any alignment, and overlapping both ways (memmove).
  for (int bytes : {1, 3, 67, 1001}) {
    auto x = g.vec<uint8_t>(bytes);
    int64_t ox = b.nram(x), od = b.scratch(bytes);
    b.call("__bang_move(" + Batch::p("char", od) + ", " + Batch::p("char", ox + 0) +
           ", " + std::to_string(bytes) + ");");
    b.expect(od, x, "__bang_move bytes=" + std::to_string(bytes));
  }
  auto y = g.vec<uint8_t>(300);
  int64_t oy = b.nram(y);
  b.call("__bang_move(" + Batch::p("char", oy + 5) + ", " + Batch::p("char", oy) + ", 200);");
  auto want = y;
  std::memmove(want.data() + 5, y.data(), 200);
  auto want2 = want;
  b.call("__bang_move(" + Batch::p("char", oy) + ", " + Batch::p("char", oy + 37) + ", 250);");
  std::memmove(want2.data(), want.data() + 37, 250);
  b.expect(oy, want2, "__bang_move overlapping");
  b.run();
}

TEST(Elementwise, Bitwise) {
  Gen g(5);
  Batch b("bitwise");
  struct Op {
    const char *name;
    uint8_t (*f)(uint8_t, uint8_t);
  } ops[] = {{"__bang_band", [](uint8_t x, uint8_t y) { return uint8_t(x & y); }},
             {"__bang_bor", [](uint8_t x, uint8_t y) { return uint8_t(x | y); }},
             {"__bang_bxor", [](uint8_t x, uint8_t y) { return uint8_t(x ^ y); }}};
  for (const Op &op : ops)
    for (int bytes : {1, 7, 130, 1027}) {
      auto x = g.vec<uint8_t>(bytes), y = g.vec<uint8_t>(bytes);
      int64_t ox = b.nram(x), oy = b.nram(y), od = b.scratch(bytes + 4);
      b.call(std::string(op.name) + "(" + Batch::p("void", od) + ", " +
             Batch::p("void", ox) + ", " + Batch::p("void", oy) + ", " +
             std::to_string(bytes) + ");");
      std::vector<uint8_t> want(bytes);
      for (int i = 0; i < bytes; ++i)
        want[i] = op.f(x[i], y[i]);
      b.expect(od, want, std::string(op.name) + " bytes=" + std::to_string(bytes));
      b.expect(od + bytes, std::vector<uint8_t>(4, 0xa5), std::string(op.name) + " past the end");
      b.call(std::string(op.name) + "(" + Batch::p("void", ox) + ", " +
             Batch::p("void", ox) + ", " + Batch::p("void", oy) + ", " +
             std::to_string(bytes) + ");");
      b.expect(ox, want, std::string(op.name) + " in place");
      auto x2 = g.vec<uint8_t>(bytes);
      int64_t ox2 = b.nram(x2);
      for (int i = 0; i < bytes; ++i)
        want[i] = op.f(x2[i], y[i]);
      b.call(std::string(op.name) + "(" + Batch::p("void", oy) + ", " +
             Batch::p("void", ox2) + ", " + Batch::p("void", oy) + ", " +
             std::to_string(bytes) + ");");
      b.expect(oy, want, std::string(op.name) + " dst == b");
    }
  for (int bytes : {1, 7, 130, 1027}) {
    auto x = g.vec<uint8_t>(bytes);
    int64_t ox = b.nram(x), od = b.scratch(bytes);
    b.call("__bang_bnot(" + Batch::p("void", od) + ", " + Batch::p("void", ox) +
           ", " + std::to_string(bytes) + ");");
    auto want = mapRef<uint8_t>(x, [](uint8_t v) { return uint8_t(~v); });
    b.expect(od, want, "__bang_bnot bytes=" + std::to_string(bytes));
    b.call("__bang_bnot(" + Batch::p("void", ox) + ", " + Batch::p("void", ox) +
           ", " + std::to_string(bytes) + ");");
    b.expect(ox, want, "__bang_bnot in place");
  }
  b.run();
}
