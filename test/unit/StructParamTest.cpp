//===- StructParamTest.cpp - Kernels that take structs by value -----------===//
//
// Clang passes a struct by value in whatever form the host's C ABI gives
// it: one coerced integer, a float and an integer, pieces of an array
// member, a byval pointer (more than 16 bytes, or once the registers run
// out), nothing at all (an empty struct). Each kernel here takes one shape
// and writes every field it received to GDRAM; the launch passes the
// struct's bytes through the Module API. At -O0 and -O2 (the entry wrapper
// is the same, the kernel's IR is not).
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

using namespace bangsim;

namespace {

// The same declarations on the host side as in the kernels' source.
#define STRUCTS                                                                \
  struct Pair { int a, b; };                                                   \
  struct Mixed { float f; int i; };                                            \
  struct Floats3 { float x, y, z; };                                           \
  struct Arr { int v[3]; };                                                    \
  struct DoubleInt { double d; int i; };                                       \
  struct Big { double d; long long n; float w[4]; };                           \
  struct Bytes3 { char c[3]; };                                                \
  struct Empty {};                                                             \
  struct WithPtr { const float *p; int n; };                                   \
  union Bits { float f; unsigned u; };                                         \
  struct alignas(32) Aligned { short s; };
STRUCTS
#define STR2(...) #__VA_ARGS__
#define STR(x) STR2(x)

const char *source = STR(STRUCTS) R"(
__mlu_global__ void pair(Pair p, float *out) { out[0] = p.a; out[1] = p.b; }
__mlu_global__ void mixed(float *out, Mixed m) { out[0] = m.f; out[1] = m.i; }
__mlu_global__ void floats3(Floats3 s, float *out) {
  out[0] = s.x; out[1] = s.y; out[2] = s.z;
}
__mlu_global__ void arr(float *out, Arr a) {
  out[0] = a.v[0]; out[1] = a.v[1]; out[2] = a.v[2];
}
__mlu_global__ void big(float *out, Big b, int k) {
  out[0] = b.d; out[1] = b.n; out[2] = b.w[0]; out[3] = b.w[3]; out[4] = k;
}
__mlu_global__ void constant(const DoubleInt d, float *out, Empty e, Bytes3 t) {
  out[0] = d.d; out[1] = d.i; out[2] = t.c[0]; out[3] = t.c[2];
}
// Seven 8-byte structs and a pointer: six go in registers, the rest on the
// stack (byval).
__mlu_global__ void many(Pair a, Pair b, Pair c, Pair d, Pair e, Pair f,
                         Pair g, float *out) {
  Pair all[7] = {a, b, c, d, e, f, g};
  for (int i = 0; i < 7; ++i) { out[2 * i] = all[i].a; out[2 * i + 1] = all[i].b; }
}
__mlu_global__ void withPtr(WithPtr w, float *out) {
  for (int i = 0; i < w.n; ++i) out[i] = w.p[i] * 2;
}
__mlu_global__ void bits(Bits b, unsigned *out) { out[0] = b.u; }
__mlu_global__ void aligned(Aligned a, float *out) { out[0] = a.s; }
template <typename T> struct Box { T v; int n; };
template <typename T> __mlu_global__ void boxed(Box<T> b, T *out) {
  out[taskId] = b.v * b.n;
}
template __mlu_global__ void boxed<float>(Box<float>, float *);
)";

class StructParamTest : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override {
    std::string diags;
    llvm::raw_string_ostream os(diags);
    CompileOptions options;
    options.diagnostics = &os;
    options.optLevel = GetParam();
    options.useCache = false;
    auto m = Module::compileString("structs.mlu", source, spec, options);
    ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError()) << diags;
    module = std::move(*m);
    auto d = Device::open(spec);
    ASSERT_TRUE(bool(d));
    device = std::move(*d);
    auto p = device->malloc(64 * sizeof(float));
    ASSERT_TRUE(bool(p));
    out = static_cast<float *>(*p);
  }

  /// Runs `kernel` and returns the first `n` floats of the output.
  std::vector<float> run(const char *kernel, std::vector<KernelArg> args,
                         size_t n, Dim3 dim = {1, 1, 1}) {
    auto k = module->findKernel(kernel);
    EXPECT_TRUE(bool(k)) << llvm::toString(k.takeError());
    if (!k)
      return {};
    EXPECT_FALSE(bool(device->memset(out, 0, 64 * sizeof(float))));
    auto stats = device->launch(**k, module->staticLayout(), dim,
                                FuncType::Block, args);
    EXPECT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
    std::vector<float> got(n);
    EXPECT_FALSE(
        bool(device->copyFromDevice(got.data(), out, n * sizeof(float))));
    return got;
  }

  DeviceSpec spec = defaultDeviceSpec();
  std::unique_ptr<Module> module;
  std::unique_ptr<Device> device;
  float *out = nullptr;
};

using F = std::vector<float>;

TEST_P(StructParamTest, SmallStructOfInts) {
  EXPECT_EQ(run("pair", {KernelArg::aggregate(Pair{3, -4}),
                         KernelArg::pointer(out)},
                2),
            (F{3, -4}));
}

TEST_P(StructParamTest, FloatAndInt) {
  EXPECT_EQ(run("mixed", {KernelArg::pointer(out),
                          KernelArg::aggregate(Mixed{1.5f, 7})},
                2),
            (F{1.5f, 7}));
  EXPECT_EQ(run("floats3", {KernelArg::aggregate(Floats3{0.25f, -2, 1e30f}),
                            KernelArg::pointer(out)},
                3),
            (F{0.25f, -2, 1e30f}));
}

TEST_P(StructParamTest, ArrayMember) {
  EXPECT_EQ(run("arr", {KernelArg::pointer(out),
                        KernelArg::aggregate(Arr{{1, 2, 3}})},
                3),
            (F{1, 2, 3}));
}

TEST_P(StructParamTest, LargerThan16Bytes) {
  Big b{2.5, 9, {1, 2, 3, 4}};
  EXPECT_EQ(run("big", {KernelArg::pointer(out), KernelArg::aggregate(b),
                        KernelArg::i32(11)},
                5),
            (F{2.5f, 9, 1, 4, 11}));
}

TEST_P(StructParamTest, ConstEmptyAndOddSized) {
  EXPECT_EQ(run("constant", {KernelArg::aggregate(DoubleInt{-1.25, 5}),
                             KernelArg::pointer(out),
                             KernelArg::aggregate(Empty{}),
                             KernelArg::aggregate(Bytes3{{7, 8, 9}})},
                4),
            (F{-1.25f, 5, 7, 9}));
}

TEST_P(StructParamTest, RegistersRunOut) {
  std::vector<KernelArg> args;
  F want;
  for (int i = 0; i < 7; ++i) {
    args.push_back(KernelArg::aggregate(Pair{i, -10 * i - 1}));
    want.push_back(i);
    want.push_back(-10 * i - 1);
  }
  args.push_back(KernelArg::pointer(out));
  EXPECT_EQ(run("many", args, 14), want);
}

TEST_P(StructParamTest, PointerMemberAndUnionAndOverAligned) {
  auto in = device->malloc(3 * sizeof(float));
  ASSERT_TRUE(bool(in));
  float values[3] = {1, -2, 3.5f};
  ASSERT_FALSE(bool(device->copyToDevice(*in, values, sizeof values)));
  EXPECT_EQ(run("withPtr", {KernelArg::aggregate(WithPtr{
                                static_cast<const float *>(*in), 3}),
                            KernelArg::pointer(out)},
                3),
            (F{2, -4, 7}));
  Bits bits;
  bits.f = -0.0f;
  std::vector<float> got =
      run("bits", {KernelArg::aggregate(bits), KernelArg::pointer(out)}, 1);
  unsigned u;
  std::memcpy(&u, got.data(), 4);
  EXPECT_EQ(u, 0x80000000u);
  EXPECT_EQ(run("aligned", {KernelArg::aggregate(Aligned{-3}),
                            KernelArg::pointer(out)},
                1),
            (F{-3}));
}

TEST_P(StructParamTest, TemplateOfStruct) {
  struct Box {
    float v;
    int n;
  };
  EXPECT_EQ(run("boxed<float>",
                {KernelArg::aggregate(Box{1.5f, 4}), KernelArg::pointer(out)},
                3, {3, 1, 1}),
            (F{6, 6, 6}));
}

TEST_P(StructParamTest, DescriptorGivesSizesAndAlignments) {
  auto k = module->findKernel("big");
  ASSERT_TRUE(bool(k));
  EXPECT_EQ((*k)->signature, "psi");
  ASSERT_EQ((*k)->params.size(), 3u);
  EXPECT_EQ((*k)->params[1].size, int(sizeof(Big)));
  EXPECT_EQ((*k)->params[1].align, int(alignof(Big)));
  EXPECT_EQ((*k)->params[2].size, 4);
  auto a = module->findKernel("aligned");
  ASSERT_TRUE(bool(a));
  EXPECT_EQ((*a)->params[0].size, 32);
  EXPECT_EQ((*a)->params[0].align, 32);
}

TEST_P(StructParamTest, WrongSizeIsALaunchError) {
  auto k = module->findKernel("pair");
  ASSERT_TRUE(bool(k));
  int three[3] = {1, 2, 3};
  auto stats = device->launch(
      **k, module->staticLayout(), {1, 1, 1}, FuncType::Block,
      {KernelArg::aggregate(three, sizeof three), KernelArg::pointer(out)});
  ASSERT_FALSE(bool(stats));
  EXPECT_EQ(llvm::toString(stats.takeError()),
            "kernel 'pair': argument 1 is a struct of 12 bytes, the "
            "parameter's type has 8");
}

INSTANTIATE_TEST_SUITE_P(OptLevels, StructParamTest, ::testing::Values(0, 2),
                         [](const auto &info) {
                           return "O" + std::to_string(info.param);
                         });

} // namespace
