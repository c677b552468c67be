//===- Intrinsics.cpp - Every vector intrinsic, defined from the table ----===//
//
// Each row of intrinsics.def whose class is not RUNTIME becomes a definition
// here whose body is BODY_<name>, written below in terms of the row's
// parameter names. A row without a body is a build error, so the table and
// the device library cannot drift apart.
//
// The row's CLASS is its cost class: each definition declares it as
// `rowClass` (a bangdev::RowClass), and a body charges with that, passing it
// to the helper that does the work. The class constants themselves
// (BANG_OP_ALU, ...) are poisoned below for every body and helper: naming one
// in a body is a build error, so a body cannot charge a class other than its
// row's.
//
//===----------------------------------------------------------------------===//
#include "DeviceLib.h"

namespace bangdev {
/// The cost class of each CLASS column value, named as the column names it.
/// RUNTIME rows are defined in Runtime.cpp and have no class here.
namespace row_class {
constexpr RowClass MOVE{BANG_OP_MOVE}, ALU{BANG_OP_ALU}, MUL{BANG_OP_MUL},
    DIV{BANG_OP_DIV}, CVT{BANG_OP_CVT}, ACT{BANG_OP_ACT},
    REDUCE{BANG_OP_REDUCE}, MAC{BANG_OP_MAC}, ATOMIC{BANG_OP_ATOMIC};
} // namespace row_class
} // namespace bangdev

// A body or helper that names a cost class fails here with "attempt to use a
// poisoned identifier": charge `rowClass`, the class of the row's CLASS column.
#pragma clang poison BANG_OP_MOVE BANG_OP_ALU BANG_OP_MUL BANG_OP_DIV
#pragma clang poison BANG_OP_CVT BANG_OP_ACT BANG_OP_REDUCE BANG_OP_MAC
#pragma clang poison BANG_OP_ATOMIC

#include "Convert.h"
#include "Elementwise.h"
#include "Reduce.h"
// The mlu-ops families F1-F3, F5: each header defines its rows' bodies.
#include "Compare.h"
#include "Math.h"
// The inline assembly mlu-ops writes (codegen/LowerInlineAsm.cpp).
#include "InlineAsm.h"
#include "Vector.h"
// F6: selection, bit masks, minpool, maxpool with indices.
#include "Select.h"
// Families F7, F8, F10 and the rest of issue 18: scalar accesses naming a
// space, tile layouts, sequences and shifts.
#include "Access.h"
#include "Layout.h"
#include "Sequence.h"

using namespace bangdev;

// --- Fill and move
#define BODY___bang_write_value fill(rowClass, dst, n, value)
#define BODY___memset_nram fill(rowClass, dst, n, value)
#define BODY___bang_write_zero zero(rowClass, dst, n)
// (Layout.h: the strided overload's parameters, or Unstrided constants.)
#define BODY___bang_move                                                       \
  move(rowClass, dst, src, bytes, dst_stride, src_stride, segnum)

// --- Element-wise
#define BANG_BIN(EXPR)                                                         \
  binary(rowClass, dst, a, b, n, [](auto x, auto y) { return EXPR; })
#define BODY___bang_add BANG_BIN(addOf(x, y))
#define BODY___bang_sub BANG_BIN(subOf(x, y))
#define BODY___bang_mul BANG_BIN(mulOf(x, y))
#define BODY___bang_div divOp(rowClass, dst, a, b, n)
#define BODY___bang_maxequal BANG_BIN(maxOf(x, y))
#define BODY___bang_minequal BANG_BIN(minOf(x, y))
#define BANG_SCALAR(EXPR)                                                      \
  withScalar(rowClass, dst, a, b, n, [](auto x, auto y) { return EXPR; })
#define BODY___bang_add_scalar BANG_SCALAR(addOf(x, y))
#define BODY___bang_sub_scalar BANG_SCALAR(subOf(x, y))
#define BODY___bang_mul_scalar BANG_SCALAR(mulOf(x, y))
#define BODY___bang_fusion fusionOp(rowClass, op, dst, a, b, c, n, n_b)

// --- Compare and logic: 1 or 0 in the destination type
#define BANG_PRED(EXPR)                                                        \
  binary(rowClass, dst, a, b, n,                                               \
         [](auto x, auto y) { return (decltype(x))(EXPR ? 1 : 0); })
#define BODY___bang_lt BANG_PRED(x < y)
#define BODY___bang_le BANG_PRED(x <= y)
#define BODY___bang_gt BANG_PRED(x > y)
#define BODY___bang_ge BANG_PRED(x >= y)
#define BODY___bang_eq BANG_PRED(x == y)
#define BODY___bang_ne BANG_PRED(x != y)
#define BODY___bang_and BANG_PRED(x != 0 && y != 0)
#define BODY___bang_or BANG_PRED(x != 0 || y != 0)
#define BODY___bang_xor BANG_PRED((x != 0) != (y != 0))
#define BODY___bang_not                                                        \
  unary(rowClass, dst, src, n,                                                 \
        [](auto x) { return (decltype(x))(x == 0 ? 1 : 0); })

// --- Bitwise, counts in bytes
#define BODY___bang_band                                                       \
  bytewise(rowClass, dst, a, b, bytes,                                         \
           [](uint8_t x, uint8_t y) { return x & y; })
#define BODY___bang_bor                                                        \
  bytewise(rowClass, dst, a, b, bytes,                                         \
           [](uint8_t x, uint8_t y) { return x | y; })
#define BODY___bang_bxor                                                       \
  bytewise(rowClass, dst, a, b, bytes,                                         \
           [](uint8_t x, uint8_t y) { return x ^ y; })
#define BODY___bang_bnot                                                       \
  bytewise(rowClass, dst, src, src, bytes,                                     \
           [](uint8_t x, uint8_t) { return ~x; })

// --- Conversions
#define BODY___bang_float2half_rn f2h<RN>(rowClass, dst, src, n)
#define BODY___bang_float2half_tz f2h<TZ>(rowClass, dst, src, n)
#define BODY___bang_float2half_rd f2h<RD>(rowClass, dst, src, n)
#define BODY___bang_float2half_up f2h<UP>(rowClass, dst, src, n)
#define BODY___bang_half2float                                                 \
  convert(rowClass, dst, src, n, [](half x) { return (float)x; })
#define BODY___bang_float2int32_rn                                             \
  toInt<int32_t, RN>(rowClass, dst, src, n, pos)
#define BODY___bang_float2int32_tz                                             \
  toInt<int32_t, TZ>(rowClass, dst, src, n, pos)
#define BODY___bang_float2int32_rd                                             \
  toInt<int32_t, RD>(rowClass, dst, src, n, pos)
#define BODY___bang_float2int32_up                                             \
  toInt<int32_t, UP>(rowClass, dst, src, n, pos)
#define BODY___bang_half2int32_rn toInt<int32_t, RN>(rowClass, dst, src, n, pos)
#define BODY___bang_half2int32_tz toInt<int32_t, TZ>(rowClass, dst, src, n, pos)
#define BODY___bang_half2int32_rd toInt<int32_t, RD>(rowClass, dst, src, n, pos)
#define BODY___bang_half2int32_up toInt<int32_t, UP>(rowClass, dst, src, n, pos)
#define BODY___bang_float2int16_rn                                             \
  toInt<int16_t, RN>(rowClass, dst, src, n, pos)
#define BODY___bang_float2int16_tz                                             \
  toInt<int16_t, TZ>(rowClass, dst, src, n, pos)
#define BODY___bang_float2int16_rd                                             \
  toInt<int16_t, RD>(rowClass, dst, src, n, pos)
#define BODY___bang_float2int16_up                                             \
  toInt<int16_t, UP>(rowClass, dst, src, n, pos)
#define BODY___bang_half2int16_rn toInt<int16_t, RN>(rowClass, dst, src, n, pos)
#define BODY___bang_half2int16_tz toInt<int16_t, TZ>(rowClass, dst, src, n, pos)
#define BODY___bang_half2int16_rd toInt<int16_t, RD>(rowClass, dst, src, n, pos)
#define BODY___bang_half2int16_up toInt<int16_t, UP>(rowClass, dst, src, n, pos)
#define BODY___bang_int322float fromInt(rowClass, dst, src, n, pos)
#define BODY___bang_int322half fromInt(rowClass, dst, src, n, pos)
#define BODY___bang_int162float fromInt(rowClass, dst, src, n, pos)
#define BODY___bang_int162half fromInt(rowClass, dst, src, n, pos)
#define BODY___bang_int322int16                                                \
  fixToFix(rowClass, dst, src, n, dst_pos, src_pos)
#define BODY___bang_int162int32                                                \
  fixToFix(rowClass, dst, src, n, dst_pos, src_pos)

// --- Lookup and reduce
#define BODY___bang_lut lut(rowClass, dst, idx, table, n, table_len)
#define BODY___bang_reduce_sum reduceSum(rowClass, dst, src, n)
#define BODY___bang_argmax                                                     \
  argExtreme<decltype(+*src), true>(rowClass, dst, src, n)
#define BODY___bang_argmin                                                     \
  argExtreme<decltype(+*src), false>(rowClass, dst, src, n)
#define BANG_POOL(KIND)                                                        \
  pool<decltype(+*src), KIND>(rowClass, dst, src, channel, height, width,      \
                              kernel_h, kernel_w, stride_h, stride_w)
#define BODY___bang_sumpool BANG_POOL(SumPool)
#define BODY___bang_maxpool BANG_POOL(MaxPool)
#define BODY___bang_avgpool BANG_POOL(AvgPool)
#define BODY___bang_transpose transpose(rowClass, dst, src, height, width)

// --- Matrix unit (Reduce.h). The overload of __bang_conv without dilation
// has no parameters dh and dw: its body finds these constants instead.
static constexpr int dh = 1, dw = 1;
#define BODY___bang_conv                                                       \
  conv(rowClass, dst, src, kernel, ci, ih, iw, kh, kw, sh, sw, co, dh, dw)
#define BODY___bang_matmul                                                     \
  matmul<false>(rowClass, dst, a, b, (const decltype(dst))nullptr, m, k, n)
#define BODY___bang_mlp matmul<true>(rowClass, dst, src, weight, bias, m, k, n)

// --- Activations, computed in float and rounded once to the element type
#define BANG_ACT(EXPR)                                                         \
  unary(rowClass, dst, src, n, [](auto v) {                                    \
    float x = (float)v;                                                        \
    return (decltype(v))(EXPR);                                                \
  })
#define BODY___bang_active_relu BANG_ACT(x < 0.0f ? 0.0f : x)
#define BODY___bang_active_sigmoid                                             \
  BANG_ACT(1.0f / (1.0f + __builtin_expf(-x)))
#define BODY___bang_active_tanh BANG_ACT(__builtin_tanhf(x))
#define BODY___bang_active_exp BANG_ACT(__builtin_expf(x))
#define BODY___bang_active_recip BANG_ACT(1.0f / x)

// --- Atomics on GDRAM: done by simrt, which serialises concurrent cores
#define BANG_ATOMIC(OP)                                                        \
  __bangsim_atomic(dst, src, n, OP, DTypeOf<decltype(+*src)>::value)
// Both forms: an NRAM source, or one value (Sequence.h).
#define BODY___bang_atomic_reduce_add atomicAdd(dst, src, n)
#define BODY___bang_atomic_reduce_max BANG_ATOMIC(1)
#define BODY___bang_atomic_reduce_min BANG_ATOMIC(2)

// --- The definitions
// always_inline: every call site gets its own copy, specialised to its
// arguments and vectorised there, however many calls a kernel makes.
// The row's class is `rowClass` in its body.
#define BANG_DEFINE(NAME, RET, PARAMS, CLASS)                                  \
  __attribute__((always_inline)) RET NAME PARAMS {                             \
    [[maybe_unused]] constexpr RowClass rowClass = row_class::CLASS;           \
    BODY_##NAME;                                                               \
  }
#define BANG_IMPL_RUNTIME(NAME, RET, PARAMS, CLASS) // Runtime.cpp
#define BANG_IMPL_MOVE BANG_DEFINE
#define BANG_IMPL_ALU BANG_DEFINE
#define BANG_IMPL_MUL BANG_DEFINE
#define BANG_IMPL_DIV BANG_DEFINE
#define BANG_IMPL_CVT BANG_DEFINE
#define BANG_IMPL_ACT BANG_DEFINE
#define BANG_IMPL_REDUCE BANG_DEFINE
#define BANG_IMPL_MAC BANG_DEFINE
#define BANG_IMPL_ATOMIC BANG_DEFINE
#define BANG_INTRINSIC(NAME, RET, PARAMS, CLASS, UNITS)                        \
  BANG_IMPL_##CLASS(NAME, RET, PARAMS, CLASS)
#include <bang/intrinsics.def>
