//===- ParallelCodegenTest.cpp - Codegen split over threads ---------------===//
//
// A module split into partitions compiled on several threads links into one
// working module, and runs exactly as the module compiled in one piece.
//
//===----------------------------------------------------------------------===//
#include "codegen/ParallelCodegen.h"
#include "codegen/JIT.h"
#include "codegen/Pipeline.h"
#include "codegen/SplitKernels.h"
#include "frontend/Frontend.h"

#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/IR/Verifier.h"

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

// Kernels sharing state and code: a mutable local and a mutable global
// (one copy each, whichever part defines it), an external helper and a
// constant table (copied where reached).
const char *const sharing = R"(
static int calls;
int total;
static const float table[4] = {1, 2, 3, 4};
float scale(float v) { return v * table[calls & 3]; }
__mlu_global__ void first(float *y) {
  calls += 1;
  total += 10;
  y[0] = scale(2.0f);
}
__mlu_global__ void second(float *y) {
  calls += 1;
  total += 10;
  y[1] = scale(2.0f) + calls + total;
}
)";

/// Where `name` is defined among `parts`: its linkage in each.
std::vector<llvm::GlobalValue::LinkageTypes>
definitions(const std::vector<std::unique_ptr<llvm::Module>> &parts,
            llvm::StringRef name) {
  std::vector<llvm::GlobalValue::LinkageTypes> out;
  for (const auto &part : parts)
    if (const llvm::GlobalValue *gv = part->getNamedValue(name))
      if (!gv->isDeclaration())
        out.push_back(gv->getLinkage());
  return out;
}

TEST(SplitKernels, OneCopyOfStateCopiesOfCode) {
  llvm::LLVMContext context;
  bangc::FrontendOptions fe;
  auto m =
      bangc::compileToIR("sharing.mlu", llvm::StringRef(sharing), fe, context);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  ASSERT_FALSE(bool(bangc::runBangPasses(**m, bangc::CodegenOptions())));
  auto parts = bangc::splitByKernel(**m, 4);
  ASSERT_EQ(parts.size(), 2u); // two kernels
  for (const auto &part : parts)
    EXPECT_FALSE(llvm::verifyModule(*part, &llvm::errs()));
  // Each entry wrapper in one part; the descriptor in part 0.
  EXPECT_EQ(definitions(parts, "__bangsim_entry.0").size(), 1u);
  EXPECT_EQ(definitions(parts, "__bangsim_entry.1").size(), 1u);
  EXPECT_FALSE(
      parts[0]->getNamedValue(BANGSIM_MODULE_DESC_SYMBOL)->isDeclaration());
  // State: defined once.
  EXPECT_EQ(definitions(parts, "total").size(), 1u);
  EXPECT_EQ(definitions(parts, "_ZL5calls").size(), 1u);
  // The external helper: defined once, available to the other part.
  auto scale = definitions(parts, "_Z5scalef");
  ASSERT_EQ(scale.size(), 2u);
  EXPECT_EQ(llvm::count(scale, llvm::GlobalValue::ExternalLinkage), 1);
  EXPECT_EQ(llvm::count(scale, llvm::GlobalValue::AvailableExternallyLinkage),
            1);
}

/// first then second, compiled on `threads`; y[0] and y[1].
std::vector<float> runSharing(const char *threads) {
  ::setenv("BANGC_CODEGEN_THREADS", threads, 1);
  CompileOptions options;
  options.useCache = false;
  auto m = Module::compileString("sharing.mlu", sharing, defaultDeviceSpec(),
                                 options);
  ::unsetenv("BANGC_CODEGEN_THREADS");
  EXPECT_TRUE(bool(m));
  auto device = Device::open(defaultDeviceSpec());
  if (!m || !device) {
    llvm::consumeError(m.takeError());
    llvm::consumeError(device.takeError());
    return {};
  }
  void *dy = *(*device)->malloc(8);
  for (const char *name : {"first", "second"}) {
    auto k = (*m)->findKernel(name);
    EXPECT_TRUE(bool(k));
    if (!k) {
      llvm::consumeError(k.takeError());
      return {};
    }
    EXPECT_TRUE(
        bool((*device)->launch(**k, (*m)->staticLayout(), {1, 1, 1},
                               FuncType::Block, {KernelArg::pointer(dy)})));
  }
  std::vector<float> y(2);
  EXPECT_FALSE(bool((*device)->copyFromDevice(y.data(), dy, 8)));
  return y;
}

TEST(SplitKernels, SharedStateIsShared) {
  std::vector<float> one = runSharing("1"), two = runSharing("2");
  // first: calls 1, total 10, y0 = 2 * table[1]; second: calls 2, total 20,
  // y1 = 2 * table[2] + 2 + 20. (A copy of the state per part would give
  // y1 = 2 * 2 + 1 + 10.)
  EXPECT_EQ(one, (std::vector<float>{4, 28}));
  EXPECT_EQ(two, one);
}

} // namespace
