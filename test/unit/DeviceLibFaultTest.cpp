//===- DeviceLibFaultTest.cpp - Every argument fault of the device library ===//
//
// The device library (lang/devicelib/) refuses bad arguments of intrinsics
// with __bangsim_fault: a negative count, a fixed-point position outside
// [-126, 127], an unknown fusion operation, a lut index outside its table, a
// pool or conv window larger than its tile, more than 1024 conv taps,
// overlapping operands of the matrix unit, and so on. Each row of the table
// below is one such rule, tested at its boundary: the kernel is launched
// with the arguments that reach the limit exactly (these must run) and then
// with those one step past it (these must fault with the rule's message,
// naming the kernel, the task, the source line and the intrinsic). Every
// argument comes at run time, so no check is folded away at compile time.
//
// The rows run twice: calling the device library precompiled for this CPU
// (the default at -O2) and with the intrinsic bodies inlined into the kernel
// (-finline-intrinsics, the default at -O3). The checks are the same source
// in both, but one is compiled once at build time and the other is
// specialised at each call.
//
//===----------------------------------------------------------------------===//
#include "FaultMessage.h"
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

using namespace bangsim;

namespace {

/// One fault rule at its boundary.
struct Rule {
  const char *name;      ///< the kernel (and test) name
  const char *params;    ///< its int parameters, e.g. "int n, int len"
  const char *body;      ///< statements; the intrinsic call comes last
  const char *intrinsic; ///< the intrinsic the message names
  std::vector<std::vector<int>> accepted; ///< arguments that must run
  std::vector<std::vector<int>> refused;  ///< arguments that must fault
  const char *message;                    ///< the fault's own text
};

// Operands, each in NRAM of one core (weights in WRAM), that every row
// shares. fc is large enough for a conv of 1025 taps in one row.
const char *const prologue = R"(__nram__ float fa[1024];
__nram__ float fb[1024];
__nram__ float fc[2048];
__nram__ int32_t ia[256];
__nram__ int32_t ib[256];
__nram__ int16_t ha[256];
__nram__ int16_t hb[256];
__wram__ float wk[2048];
)";

// One rule per paragraph, laid out as a table.
// clang-format off
const Rule rules[] = {
    // --- checkCount: counts may be 0, never negative
    {"count_add", "int n", "__bang_add(fa, fb, fc, n);", "__bang_add",
     {{0}, {1024}}, {{-1}}, "negative count"},
    {"count_write_value", "int n", "__bang_write_value(fa, n, 1.0f);",
     "__bang_write_value", {{0}}, {{-1}}, "negative count"},
    {"count_move", "int bytes", "__bang_move(fa, fb, bytes);", "__bang_move",
     {{0}}, {{-1}}, "negative count"},
    {"count_band", "int bytes", "__bang_band(fa, fb, fc, bytes);",
     "__bang_band", {{0}}, {{-1}}, "negative count"},
    {"count_convert", "int n", "__bang_float2half_rn((half *)fa, fb, n);",
     "__bang_float2half_rn", {{0}}, {{-1}}, "negative count"},
    // The NRAM operand check of the library itself (inOwnNram), at the end
    // of NRAM: 16 bytes end exactly there, 17 run one byte past.
    {"operand_at_nram_end", "int bytes",
     "__bang_bnot((char *)fa + __MLU_NRAM_SIZE__ * 1024 - 16, fb, bytes);",
     "__bang_bnot",
     {{16}}, {{17}}, "(17 bytes) is out of bounds of NRAM of core 0"},

    // --- Fixed-point positions: [-126, 127], float to int and int to float
    {"position_to_int", "int pos",
     "__bang_write_value(fb, 16, 1.0f);\n"
     "  __bang_float2int32_rn(ia, fb, 16, pos);",
     "__bang_float2int32_rn", {{-126}, {127}}, {{-127}, {128}},
     "fixed-point position outside [-126, 127]"},
    {"position_from_int", "int pos",
     "__bang_write_value(ia, 16, (int32_t)1);\n"
     "  __bang_int322float(fa, ia, 16, pos);",
     "__bang_int322float", {{-126}, {127}}, {{-127}, {128}},
     "fixed-point position outside [-126, 127]"},
    {"position_half_to_int16", "int pos",
     "__bang_write_value(fb, 16, (half)1);\n"
     "  __bang_half2int16_tz(ha, (half *)fb, 16, pos);",
     "__bang_half2int16_tz", {{-126}, {127}}, {{-127}, {128}},
     "fixed-point position outside [-126, 127]"},

    // --- __bang_fusion: FUSION_FMA (0) .. FUSION_FSS (6); the count of a
    // vector b divides n, a scalar b's equals n
    {"fusion_op", "int op",
     "__bang_fusion((mluFusionOp_t)op, fa, fb, fc, fc, 16, 16);",
     "__bang_fusion", {{0}, {6}}, {{-1}, {7}},
     "__bang_fusion: unknown fusion operation"},
    {"fusion_scalar_op", "int op",
     "__bang_fusion((mluFusionOp_t)op, fa, fb, 2.0f, fc, 16, 16);",
     "__bang_fusion", {{0}, {6}}, {{-1}, {7}},
     "__bang_fusion: unknown fusion operation"},
    {"fusion_counts", "int n, int nb",
     "__bang_fusion(FUSION_FMA, fa, fb, fc, fc, n, nb);", "__bang_fusion",
     {{16, 16}, {0, 0}, {16, 8}, {16, 1}}, {{16, 15}, {16, 17}, {0, 1}, {16, 0}},
     "__bang_fusion: the count of b must divide the count"},
    {"fusion_scalar_counts", "int n, int nb",
     "__bang_fusion(FUSION_FMA, fa, fb, 2.0f, fc, n, nb);", "__bang_fusion",
     {{16, 16}, {0, 0}}, {{16, 8}, {0, 1}},
     "__bang_fusion: with a scalar b the two counts must be equal"},
    {"fusion_negative", "int n",
     "__bang_fusion(FUSION_FMA, fa, fb, fc, fc, n, n);", "__bang_fusion",
     {{0}}, {{-1}}, "negative count"},

    // --- __bang_lut: table_len > 0, 0 <= index < table_len
    {"div_int_zero", "int divisor",
     "__bang_write_value(ib, 16, (int32_t)3);\n"
     "  ib[9] = divisor;\n"
     "  __bang_div(ia, ib, ib, 16);",
     "__bang_div", {{1}, {-7}}, {{0}}, "__bang_div: division by zero"},
    {"lut_unsigned_index", "int index, int len",
     "__bang_write_zero(ib, 8);\n"
     "  ib[5] = index;\n"
     "  __bang_lut(ia, (uint32_t *)ib, ib + 8, 8, len);",
     "__bang_lut", {{7, 8}, {0, 1}}, {{8, 8}, {-1, 8}},
     "__bang_lut: index outside the table"},
    {"lut_table_len", "int len",
     "__bang_write_zero(ib, 4);\n"
     "  __bang_lut(ia, ib, ib + 8, 4, len);",
     "__bang_lut", {{1}}, {{0}, {-1}}, "__bang_lut: table_len must be positive"},
    {"lut_index", "int index, int len",
     "__bang_write_zero(ib, 8);\n"
     "  ib[5] = index;\n"
     "  __bang_lut(ia, ib, ib + 8, 8, len);",
     "__bang_lut", {{7, 8}, {0, 8}, {0, 1}}, {{8, 8}, {1, 1}, {-1, 8}},
     "__bang_lut: index outside the table"},
    {"lut_index_int16", "int index, int len",
     "__bang_write_zero(hb, 8);\n"
     "  hb[7] = (int16_t)index;\n"
     "  __bang_lut(ha, hb, hb + 8, 8, len);",
     "__bang_lut", {{15, 16}}, {{16, 16}, {-1, 16}},
     "__bang_lut: index outside the table"},
    {"lut_negative", "int n", "__bang_lut(ia, ib, ib + 8, n, 8);",
     "__bang_lut", {{0}}, {{-1}}, "negative count"},

    // --- __bang_argmax / __bang_argmin: at least one element
    {"argmax_count", "int n", "__bang_argmax(fa, fb, n);", "__bang_argmax",
     {{1}}, {{0}}, "__bang_argmax/argmin: count must be positive"},
    {"argmin_count", "int n", "__bang_argmin(fa, fb, n);", "__bang_argmin",
     {{1}}, {{0}}, "__bang_argmax/argmin: count must be positive"},
    {"argmax_negative", "int n", "__bang_argmax(fa, fb, n);",
     "__bang_argmax", {{1}}, {{-1}}, "negative count"},

    // --- Pools: every size, kernel and stride at least 1
    {"pool_positive", "int c, int h, int w, int kh, int kw, int sh, int sw",
     "__bang_sumpool(fa, fb, c, h, w, kh, kw, sh, sw);", "__bang_sumpool",
     {{1, 1, 1, 1, 1, 1, 1}},
     {{0, 1, 1, 1, 1, 1, 1},
      {1, 0, 1, 1, 1, 1, 1},
      {1, 1, 0, 1, 1, 1, 1},
      {1, 1, 1, 0, 1, 1, 1},
      {1, 1, 1, 1, 0, 1, 1},
      {1, 1, 1, 1, 1, 0, 1},
      {1, 1, 1, 1, 1, 1, 0},
      {1, 1, 1, 1, 1, 1, -1}},
     "pool: sizes, kernel and stride must be positive"},
    // A kernel exactly the size of the tile is one output; one larger faults.
    {"pool_kernel_size", "int h, int w, int kh, int kw",
     "__bang_maxpool(fa, fb, 2, h, w, kh, kw, 1, 1);", "__bang_maxpool",
     {{3, 5, 3, 5}, {3, 5, 1, 1}}, {{3, 5, 4, 5}, {3, 5, 3, 6}},
     "pool: kernel larger than the input tile"},
    // dst right after src (9 elements) is fine; dst == src faults.
    {"pool_same", "int offset",
     "__bang_avgpool(fa + offset, fa, 1, 3, 3, 2, 2, 1, 1);",
     "__bang_avgpool", {{9}}, {{0}}, "pool: dst and src must not be the same"},

    // --- __bang_transpose: sizes >= 0; in place only for a single row or
    // column
    {"transpose_size", "int h, int w",
     "__bang_transpose(fa, fb, h, w);", "__bang_transpose",
     {{0, 0}, {0, 5}, {2, 3}}, {{-1, 0}, {0, -1}},
     "__bang_transpose: negative size"},
    {"transpose_same", "int h, int w",
     "__bang_transpose(fa, fa, h, w);", "__bang_transpose",
     {{1, 16}, {16, 1}, {0, 0}}, {{2, 2}, {2, 16}},
     "__bang_transpose: dst and src must not be the same"},

    // --- __bang_conv (float, HWC tiles; HWIO weights in WRAM)
    {"conv_positive", "int ci, int ih, int iw, int kh, int kw, int co",
     "__bang_conv(fa, fb, wk, ci, ih, iw, kh, kw, 1, 1, co);", "__bang_conv",
     {{1, 1, 1, 1, 1, 1}},
     {{0, 1, 1, 1, 1, 1},
      {1, 0, 1, 1, 1, 1},
      {1, 1, 0, 1, 1, 1},
      {1, 1, 1, 0, 1, 1},
      {1, 1, 1, 1, 0, 1},
      {1, 1, 1, 1, 1, 0},
      {-1, 1, 1, 1, 1, 1}},
     "__bang_conv: sizes must be positive"},
    {"conv_stride_dilation", "int sh, int sw, int dh, int dw",
     "__bang_conv(fa, fb, wk, 1, 2, 2, 1, 1, sh, sw, 1, dh, dw);",
     "__bang_conv", {{1, 1, 1, 1}},
     {{0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, 0, 1}, {1, 1, 1, 0}, {-1, 1, 1, 1}},
     "__bang_conv: stride and dilation must be positive"},
    // 1 x 1024 taps over a 1 x 1024 tile (one output) run; 1025 fault. The
    // tile and weights would hold 1025 too, so only the tap limit refuses.
    {"conv_taps", "int kh, int kw, int ih, int iw",
     "__bang_conv(fa, fc, wk, 1, ih, iw, kh, kw, 1, 1, 1);", "__bang_conv",
     {{1, 1024, 1, 1024}, {32, 32, 32, 32}, {1024, 1, 1024, 1}},
     {{1, 1025, 1, 1025}, {1025, 1, 1025, 1}, {5, 205, 5, 205}},
     "__bang_conv: more than 1024 kernel taps (kh * kw)"},
    // A 2-tap kernel with dilation 3 spans 4 inputs.
    {"conv_dilated_extent", "int ih, int iw, int dh, int dw",
     "__bang_conv(fa, fb, wk, 1, ih, iw, 2, 2, 1, 1, 1, dh, dw);",
     "__bang_conv", {{4, 4, 3, 3}, {2, 2, 1, 1}, {4, 2, 3, 1}},
     {{3, 4, 3, 3}, {4, 3, 3, 3}, {1, 2, 1, 1}},
     "__bang_conv: the (dilated) kernel is larger than the input tile"},
    // src is fc[8..12) (a 2 x 2 tile), dst 4 outputs of a 1x1 conv: ending
    // at fc + 8 or starting at fc + 12 is apart, one element closer overlaps.
    {"conv_overlap", "int d",
     "__bang_conv(fc + d, fc + 8, wk, 1, 2, 2, 1, 1, 1, 1, 1);",
     "__bang_conv", {{4}, {12}}, {{5}, {11}, {8}},
     "__bang_conv: dst overlaps src"},

    // --- __bang_matmul and __bang_mlp: a NRAM [m][k], b WRAM [k][n]
    {"matmul_positive", "int m, int k, int n",
     "__bang_matmul(fa, fb, wk, m, k, n);", "__bang_matmul",
     {{1, 1, 1}}, {{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {1, 1, -1}},
     "__bang_matmul: sizes must be positive"},
    {"mlp_positive", "int m, int k, int n",
     "__bang_mlp(fa, fb, wk, fc, m, k, n);", "__bang_mlp",
     {{1, 1, 1}}, {{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {-1, 1, 1}},
     "__bang_mlp: sizes must be positive"},
    // a is fc[8..14) (2 x 3), dst 2 x 2: apart at fc + 4 and fc + 14.
    {"matmul_overlap", "int d",
     "__bang_matmul(fc + d, fc + 8, wk, 2, 3, 2);", "__bang_matmul",
     {{4}, {14}}, {{5}, {13}}, "__bang_matmul: dst overlaps a"},
    {"mlp_overlap", "int d",
     "__bang_mlp(fc + d, fc + 8, wk, fa, 2, 3, 2);", "__bang_mlp",
     {{4}, {14}}, {{5}, {13}}, "__bang_mlp: dst overlaps src"},
    // Weights live in WRAM (wk is at its start): k floats ending exactly at
    // its end run, one more runs past it; weights in NRAM fault.
    {"matmul_weights_at_wram_end", "int k",
     "__bang_matmul(fa, fb, (float *)((char *)wk + __MLU_WRAM_SIZE__ * 1024) - "
     "16, 1, k, 1);",
     "__bang_matmul", {{16}, {1}}, {{17}},
     "(68 bytes) is out of bounds of WRAM of core 0"},
    {"conv_weights_in_nram", "int in_nram",
     "__bang_conv(fa, fb, in_nram ? fc : wk, 1, 1, 1, 1, 1, 1, 1, 1);",
     "__bang_conv", {{0}}, {{1}},
     "(4 bytes) must be in WRAM but is in NRAM of core 0"},
};
// clang-format on

/// The kernels of every row, one after another.
struct Source {
  std::string text;
  std::vector<int> callLine; ///< per row, the line of its intrinsic call
};

int linesIn(const std::string &s) {
  return int(std::count(s.begin(), s.end(), '\n'));
}

const Source &source() {
  static const Source s = [] {
    Source out;
    out.text = prologue;
    for (const Rule &r : rules) {
      std::string body = r.body;
      out.text += std::string("__mlu_global__ void ") + r.name + "(" +
                  r.params + ") {\n  ";
      // The call is the body's last line.
      out.callLine.push_back(linesIn(out.text) + linesIn(body) + 1);
      out.text += body + "\n}\n";
    }
    return out;
  }();
  return s;
}

/// The module, compiled once per mode, and one device for every launch.
struct Bench {
  std::unique_ptr<Module> module;
  std::unique_ptr<Device> device;
};

Bench &bench(bool inlined) {
  static Bench benches[2];
  Bench &b = benches[inlined];
  if (b.module)
    return b;
  DeviceSpec spec = defaultDeviceSpec();
  CompileOptions options;
  options.optLevel = inlined ? 3 : 2;
  options.inlineIntrinsics = inlined;
  b.module = compileOrFail("devlib_faults.mlu", source().text, spec, options);
  auto d = Device::open(spec);
  if (!d)
    ADD_FAILURE() << llvm::toString(d.takeError());
  else
    b.device = std::move(*d);
  return b;
}

std::vector<KernelArg> ints(const std::vector<int> &values) {
  std::vector<KernelArg> args;
  for (int v : values)
    args.push_back(KernelArg::i32(v));
  return args;
}

std::string show(const std::vector<int> &values) {
  std::string s = "(";
  for (int v : values)
    s += (s.size() > 1 ? ", " : "") + std::to_string(v);
  return s + ")";
}

/// A row of `rules`, and whether the intrinsics are inlined.
using Param = std::tuple<size_t, bool>;

class DeviceLibFault : public ::testing::TestWithParam<Param> {};

TEST_P(DeviceLibFault, RefusesPastTheBoundaryOnly) {
  auto [row, inlined] = GetParam();
  const Rule &r = rules[row];
  Bench &b = bench(inlined);
  ASSERT_TRUE(b.module && b.device);
  int line = source().callLine[row];
  for (const std::vector<int> &args : r.accepted) {
    auto ok = launchByName(*b.device, *b.module, r.name, ints(args), {1, 1, 1},
                           FuncType::Block);
    EXPECT_TRUE(bool(ok)) << r.name << show(args) << " is at the limit and "
                          << "must run, but faulted:\n"
                          << faultMessage(ok.takeError());
  }
  for (const std::vector<int> &args : r.refused) {
    std::string message = faultMessage(launchByName(
        *b.device, *b.module, r.name, ints(args), {1, 1, 1}, FuncType::Block));
    std::string kernel = std::string("kernel '") + r.name + "'";
    std::string at = "\n  at devlib_faults.mlu:" + std::to_string(line) + ":3";
    EXPECT_TRUE(holdsInOrder(
        message, {kernel + " task 0 (core 0 of cluster 0): ", r.message,
                  at + " in " + r.name + ", in " + r.intrinsic}))
        << r.name << show(args) << " is past the limit";
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryRule, DeviceLibFault,
    ::testing::Combine(::testing::Range<size_t>(0, std::size(rules)),
                       ::testing::Bool()),
    [](const ::testing::TestParamInfo<Param> &info) {
      return std::string(rules[std::get<0>(info.param)].name) +
             (std::get<1>(info.param) ? "_inlined" : "_library");
    });

} // namespace
