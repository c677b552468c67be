//===- VectorTest.cpp - Vector registers: vv_* and the __vv_* API ---------===//
//
// The register API of the mlu-ops family F1 on each of its six types:
// __vv_get_length, __vv_load / __vv_store (whole and partial: the bytes past
// the count are untouched), __vv_move (a scalar and a register), __vv_index,
// __vv_add and __vv_mul (register and scalar operands, in place), and on the
// integer types __vv_mulh, __vv_xor and __vv_trixor, and on vv_float the
// inline assembly `index.vvr.f32`, against scalar references (Ref.h). A
// register holds 256 bytes (docs/language.md); a store of more elements than
// that faults.
//
//===----------------------------------------------------------------------===//
#include "Ref.h"

#include "../FaultMessage.h"

using namespace intrtest;

namespace {

template <typename T> const char *vvName();
template <> const char *vvName<H>() { return "vv_half"; }
template <> const char *vvName<float>() { return "vv_float"; }
template <> const char *vvName<int16_t>() { return "vv_int16"; }
template <> const char *vvName<uint16_t>() { return "vv_uint16"; }
template <> const char *vvName<int32_t>() { return "vv_int32"; }
template <> const char *vvName<uint32_t>() { return "vv_uint32"; }

constexpr int RegisterBytes = 256;

/// The high half of the double-width product, computed in 128 bits.
template <typename T> T refMulHigh(T x, T y) {
  __int128 p = (__int128)x * (__int128)y;
  return (T)(p >> (sizeof(T) * 8));
}

/// `{ vv_T r0, r1, r2; <loads>; <body>; __vv_store(dst, rK); }` as one call:
/// registers ri are loaded from `in[i]` first. Checks that dst holds `want`
/// and that the 8 bytes after it are untouched.
template <typename T>
void regCall(Batch &b, const std::vector<std::vector<T>> &in,
             const std::string &body, const std::string &store,
             const std::vector<T> &want, const std::string &label) {
  std::string s = std::string("{ ") + vvName<T>() + " r0, r1, r2; ";
  for (size_t i = 0; i < in.size(); ++i)
    s += "__vv_load(r" + std::to_string(i) + ", " + Batch::p<T>(b.nram(in[i])) +
         "); ";
  int64_t od = b.scratch(want.size() * sizeof(T) + 8);
  s += body + " __vv_store(" + Batch::p<T>(od) + ", " + store + "); }";
  b.call(s);
  b.expect(od, want, label);
  b.expect(od + want.size() * sizeof(T), std::vector<uint8_t>(8, 0xa5),
           label + " past the end");
}

template <typename T> void registerOps(Batch &b, Gen &g) {
  const int N = RegisterBytes / sizeof(T);
  std::string t = std::string(Ty<T>::name) + " ";
  auto x = g.vec<T>(N), y = g.vec<T>(N), z = g.vec<T>(N);
  T s = g.value<T>(), s2 = g.value<T>();
  auto each = [&](auto f) {
    std::vector<T> r(N);
    for (int i = 0; i < N; ++i)
      r[i] = f(i);
    return r;
  };
  regCall<T>(b, {x}, "", "r0", x, t + "load, store");
  regCall<T>(b, {x}, "", "r0, 7", std::vector<T>(x.begin(), x.begin() + 7),
             t + "store 7");
  regCall<T>(b, {x}, "", "r0, " + std::to_string(N), x, t + "store N");
  regCall<T>(b, {}, "__vv_move(r1, " + lit(s) + ");", "r1",
             std::vector<T>(N, s), t + "move scalar");
  regCall<T>(b, {x}, "__vv_move(r2, r0);", "r2", x, t + "move register");
  regCall<T>(b, {}, "__vv_index(r0, " + lit(s) + ", " + lit(s2) + ");", "r0",
             each([&](int i) {
               return arith<T>('+', s, arith<T>('*', fromDouble<T>(i), s2));
             }),
             t + "index");
  auto add = each([&](int i) { return arith<T>('+', x[i], y[i]); });
  regCall<T>(b, {x, y}, "__vv_add(r2, r0, r1);", "r2", add, t + "add");
  regCall<T>(b, {x, y}, "__vv_add(r0, r0, r1);", "r0", add, t + "add in place");
  regCall<T>(b, {x}, "__vv_add(r0, r0, " + lit(s) + ");", "r0",
             each([&](int i) { return arith<T>('+', x[i], s); }),
             t + "add scalar");
  regCall<T>(b, {x, y}, "__vv_mul(r1, r0, r1);", "r1",
             each([&](int i) { return arith<T>('*', x[i], y[i]); }), t + "mul");
  regCall<T>(b, {x}, "__vv_mul(r1, r0, " + lit(s) + ");", "r1",
             each([&](int i) { return arith<T>('*', x[i], s); }),
             t + "mul scalar");
  if constexpr (std::is_same_v<T, float>) {
    // mlu-ops' inline assembly for __vv_index (docs/language.md, "Inline
    // assembly"): the register is a "+r" operand, the step an immediate or
    // a register operand.
    regCall<T>(b, {x},
               "__asm__ volatile(\"index.vvr.f32 %[d], %[b], 1;\" : [d] "
               "\"+r\"(r0) : [b] \"r\"(" +
                   lit(s) + "));",
               "r0",
               each([&](int i) {
                 return arith<T>('+', s, arith<T>('*', fromDouble<T>(i), 1.0f));
               }),
               t + "index.vvr.f32 immediate step");
    regCall<T>(b, {},
               "__asm__ volatile(\"index.vvr.f32 %[d], %[b], %[s];\" : [d] "
               "\"+r\"(r1) : [b] \"r\"(" +
                   lit(s) + "), [s] \"r\"(" + lit(s2) + "));",
               "r1",
               each([&](int i) {
                 return arith<T>('+', s, arith<T>('*', fromDouble<T>(i), s2));
               }),
               t + "index.vvr.f32 register step");
  }
  if constexpr (!isFloat<T>) {
    regCall<T>(b, {x, y}, "__vv_mulh(r2, r0, r1);", "r2",
               each([&](int i) { return refMulHigh(x[i], y[i]); }), t + "mulh");
    regCall<T>(b, {x}, "__vv_mulh(r0, r0, " + lit(s) + ");", "r0",
               each([&](int i) { return refMulHigh(x[i], s); }),
               t + "mulh scalar");
    regCall<T>(b, {x, y}, "__vv_xor(r2, r0, r1);", "r2",
               each([&](int i) { return (T)(x[i] ^ y[i]); }), t + "xor");
    regCall<T>(b, {x}, "__vv_xor(r1, r0, " + lit(s) + ");", "r1",
               each([&](int i) { return (T)(x[i] ^ s); }), t + "xor scalar");
    regCall<T>(b, {x, y, z}, "__vv_trixor(r0, r0, r1, r2);", "r0",
               each([&](int i) { return (T)(x[i] ^ y[i] ^ z[i]); }),
               t + "trixor");
  }
}

} // namespace

TEST(VectorRegister, EveryType) {
  Gen g(91);
  Batch b("vector_register");
  registerOps<H>(b, g);
  registerOps<float>(b, g);
  registerOps<int16_t>(b, g);
  registerOps<uint16_t>(b, g);
  registerOps<int32_t>(b, g);
  registerOps<uint32_t>(b, g);
  int64_t od = b.scratch(4);
  b.call("*" + Batch::p("unsigned", od) + " = __vv_get_length();");
  b.expect(od, std::vector<uint32_t>{RegisterBytes}, "__vv_get_length");
  // A scalar conversion of family F1, rounded to nearest even.
  int64_t oh = b.scratch(6);
  b.call(Batch::p("half", oh) +
         "[0] = __float2half_rn(1.00048828125f);"); // tie: 1
  b.call(Batch::p("half", oh) +
         "[1] = __float2half_rn(1.00146484375f);");                  // tie: up
  b.call(Batch::p("half", oh) + "[2] = __float2half_rn(65520.0f);"); // inf
  b.expect(oh, std::vector<uint16_t>{0x3c00, 0x3c02, 0x7c00},
           "__float2half_rn");
  b.run();
}

TEST(VectorRegister, StoreOfMoreThanARegisterFaults) {
  bangsim::CompileOptions options;
  if (std::getenv("BANGC_TEST_INLINE_INTRINSICS"))
    options.optLevel = 3, options.inlineIntrinsics = true;
  auto m = compileOrFail("vv_fault.mlu", R"(__nram__ uint32_t a[128];
__mlu_vector__ void fill(uint32_t *dst, int n) {
  vv_uint32 r;
  __vv_index(r, 0u, 1u);
  __vv_store(dst, r, n);
}
__mlu_global__ void store(int n) { fill(a, n); }
)",
                         bangsim::defaultDeviceSpec(), options);
  ASSERT_TRUE(m);
  auto run = [&](int n) {
    return launchByName(device(), *m, "store", {bangsim::KernelArg::i32(n)},
                        {1, 1, 1}, bangsim::FuncType::Block);
  };
  auto ok = run(64);
  EXPECT_TRUE(bool(ok)) << faultMessage(ok.takeError());
  EXPECT_TRUE(
      holdsInOrder(faultMessage(run(65)),
                   {"__vv_store: more elements than a vector register holds",
                    "in __vv_store"}));
}
