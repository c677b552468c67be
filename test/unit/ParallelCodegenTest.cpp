//===- ParallelCodegenTest.cpp - Codegen split over threads ---------------===//
//
// A module split into partitions compiled on several threads links into one
// working module, and runs exactly as the module compiled in one piece.
//
//===----------------------------------------------------------------------===//
#include "codegen/ParallelCodegen.h"
#include "codegen/JIT.h"
#include "codegen/Pipeline.h"
#include "frontend/Frontend.h"

#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <vector>

using namespace bangsim;

namespace {

const char *const source = R"(
template <typename T>
__mlu_global__ void affine(T *y, const T *x, T a, T b, int n) {
  __nram__ T buf[512];
  __memcpy(buf, x, n * sizeof(T), GDRAM2NRAM);
  __bang_mul_scalar(buf, buf, a, n);
  __bang_add_scalar(buf, buf, b, n);
  __bang_active_relu(buf, buf, n);
  __memcpy(y, buf, n * sizeof(T), NRAM2GDRAM);
}
template __mlu_global__ void affine<float>(float *, const float *, float,
                                           float, int);
template __mlu_global__ void affine<half>(half *, const half *, half, half,
                                          int);
__mlu_global__ void twice(int *y, int n) {
  for (int i = taskId; i < n; i += taskDim)
    y[i] *= 2;
}
)";

TEST(ParallelCodegen, SplitsIntoSeveralObjects) {
  llvm::LLVMContext context;
  bangc::FrontendOptions fe;
  auto m =
      bangc::compileToIR("split.mlu", llvm::StringRef(source), fe, context);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  ASSERT_FALSE(bool(bangc::optimizeModule(**m, bangc::CodegenOptions())));
  auto objects = bangc::emitObjects(**m, 2, 3);
  ASSERT_TRUE(bool(objects)) << llvm::toString(objects.takeError());
  EXPECT_GT(objects->size(), 1u);
  auto jit = bangc::JITModule::createFromObjects(std::move(*objects),
                                                 runtimeSymbols());
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  EXPECT_EQ((*jit)->descriptor().numKernels, 3);
}

/// affine<float> and twice through a module compiled with `threads`.
std::vector<float> run(const char *threads) {
  ::setenv("BANGC_CODEGEN_THREADS", threads, 1);
  CompileOptions options;
  options.useCache = false;
  auto m =
      Module::compileString("split.mlu", source, defaultDeviceSpec(), options);
  ::unsetenv("BANGC_CODEGEN_THREADS");
  EXPECT_TRUE(bool(m));
  if (!m) {
    llvm::consumeError(m.takeError());
    return {};
  }
  auto device = Device::open(defaultDeviceSpec());
  EXPECT_TRUE(bool(device));
  std::vector<float> x(500);
  for (int i = 0; i < 500; ++i)
    x[i] = 0.37f * i - 60;
  void *dx = *(*device)->malloc(2000), *dy = *(*device)->malloc(2000);
  EXPECT_FALSE(bool((*device)->copyToDevice(dx, x.data(), 2000)));
  auto affine = (*m)->findKernel("affine<float>");
  EXPECT_TRUE(bool(affine));
  EXPECT_TRUE(bool((*device)->launch(
      **affine, (*m)->staticLayout(), {1, 1, 1}, FuncType::Block,
      {KernelArg::pointer(dy), KernelArg::pointer(dx), KernelArg::f32(1.5f),
       KernelArg::f32(-2.0f), KernelArg::i32(500)})));
  auto twice = (*m)->findKernel("twice");
  EXPECT_TRUE(bool(twice));
  EXPECT_TRUE(bool((*device)->launch(
      **twice, (*m)->staticLayout(), {4, 1, 1}, FuncType::Block,
      {KernelArg::pointer(dx), KernelArg::i32(500)})));
  std::vector<float> out(1000);
  EXPECT_FALSE(bool((*device)->copyFromDevice(out.data(), dy, 2000)));
  EXPECT_FALSE(bool((*device)->copyFromDevice(out.data() + 500, dx, 2000)));
  return out;
}

TEST(ParallelCodegen, RunsAsOnePiece) {
  std::vector<float> one = run("1"), three = run("3");
  ASSERT_EQ(one.size(), 1000u);
  ASSERT_EQ(three.size(), 1000u);
  EXPECT_EQ(0, std::memcmp(one.data(), three.data(), 4000));
  EXPECT_FLOAT_EQ(one[100], std::max(0.0f, 1.5f * (0.37f * 100 - 60) - 2.0f));
}

} // namespace
