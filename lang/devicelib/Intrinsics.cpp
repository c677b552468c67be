//===- Intrinsics.cpp - Every vector intrinsic, defined from the table ----===//
//
// Each row of intrinsics.def whose class is not RUNTIME becomes a definition
// here whose body is BODY_<name>, written below in terms of the row's
// parameter names. A row without a body is a build error, so the table and
// the device library cannot drift apart.
//
//===----------------------------------------------------------------------===//
#include "Convert.h"
#include "Elementwise.h"
#include "Reduce.h"
// The mlu-ops families F1-F3, F5: each header defines its rows' bodies.
#include "Compare.h"
#include "Math.h"
// The inline assembly mlu-ops writes (codegen/LowerInlineAsm.cpp).
#include "InlineAsm.h"
#include "Vector.h"

using namespace bangdev;

// --- Fill and move
#define BODY___bang_write_value fill(dst, n, value)
#define BODY___memset_nram fill(dst, n, value)
#define BODY___bang_write_zero zero(dst, n)
#define BODY___bang_move move(dst, src, bytes)

// --- Element-wise
#define BANG_BIN(CLASS, EXPR)                                                  \
  binary(CLASS, dst, a, b, n, [](auto x, auto y) { return EXPR; })
#define BODY___bang_add BANG_BIN(BANG_OP_ALU, addOf(x, y))
#define BODY___bang_sub BANG_BIN(BANG_OP_ALU, subOf(x, y))
#define BODY___bang_mul BANG_BIN(BANG_OP_MUL, mulOf(x, y))
#define BODY___bang_div BANG_BIN(BANG_OP_DIV, x / y)
#define BODY___bang_maxequal BANG_BIN(BANG_OP_ALU, maxOf(x, y))
#define BODY___bang_minequal BANG_BIN(BANG_OP_ALU, minOf(x, y))
#define BANG_SCALAR(CLASS, EXPR)                                               \
  withScalar(CLASS, dst, a, b, n, [](auto x, auto y) { return EXPR; })
#define BODY___bang_add_scalar BANG_SCALAR(BANG_OP_ALU, addOf(x, y))
#define BODY___bang_sub_scalar BANG_SCALAR(BANG_OP_ALU, subOf(x, y))
#define BODY___bang_mul_scalar BANG_SCALAR(BANG_OP_MUL, mulOf(x, y))
#define BODY___bang_fusion fusionOp(op, dst, a, b, c, n, n_c)

// --- Compare and logic: 1 or 0 in the destination type
#define BANG_PRED(EXPR)                                                        \
  binary(BANG_OP_ALU, dst, a, b, n,                                            \
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
  unary(BANG_OP_ALU, dst, src, n,                                              \
        [](auto x) { return (decltype(x))(x == 0 ? 1 : 0); })

// --- Bitwise, counts in bytes
#define BODY___bang_band                                                       \
  bytewise(dst, a, b, bytes, [](uint8_t x, uint8_t y) { return x & y; })
#define BODY___bang_bor                                                        \
  bytewise(dst, a, b, bytes, [](uint8_t x, uint8_t y) { return x | y; })
#define BODY___bang_bxor                                                       \
  bytewise(dst, a, b, bytes, [](uint8_t x, uint8_t y) { return x ^ y; })
#define BODY___bang_bnot                                                       \
  bytewise(dst, src, src, bytes, [](uint8_t x, uint8_t) { return ~x; })

// --- Conversions
#define BODY___bang_float2half_rn f2h<RN>(dst, src, n)
#define BODY___bang_float2half_tz f2h<TZ>(dst, src, n)
#define BODY___bang_float2half_rd f2h<RD>(dst, src, n)
#define BODY___bang_float2half_up f2h<UP>(dst, src, n)
#define BODY___bang_half2float                                                 \
  convert(dst, src, n, [](half x) { return (float)x; })
#define BODY___bang_float2int32_rn toInt<int32_t, RN>(dst, src, n, pos)
#define BODY___bang_float2int32_tz toInt<int32_t, TZ>(dst, src, n, pos)
#define BODY___bang_float2int32_rd toInt<int32_t, RD>(dst, src, n, pos)
#define BODY___bang_float2int32_up toInt<int32_t, UP>(dst, src, n, pos)
#define BODY___bang_half2int32_rn toInt<int32_t, RN>(dst, src, n, pos)
#define BODY___bang_half2int32_tz toInt<int32_t, TZ>(dst, src, n, pos)
#define BODY___bang_half2int32_rd toInt<int32_t, RD>(dst, src, n, pos)
#define BODY___bang_half2int32_up toInt<int32_t, UP>(dst, src, n, pos)
#define BODY___bang_float2int16_rn toInt<int16_t, RN>(dst, src, n, pos)
#define BODY___bang_float2int16_tz toInt<int16_t, TZ>(dst, src, n, pos)
#define BODY___bang_float2int16_rd toInt<int16_t, RD>(dst, src, n, pos)
#define BODY___bang_float2int16_up toInt<int16_t, UP>(dst, src, n, pos)
#define BODY___bang_half2int16_rn toInt<int16_t, RN>(dst, src, n, pos)
#define BODY___bang_half2int16_tz toInt<int16_t, TZ>(dst, src, n, pos)
#define BODY___bang_half2int16_rd toInt<int16_t, RD>(dst, src, n, pos)
#define BODY___bang_half2int16_up toInt<int16_t, UP>(dst, src, n, pos)
#define BODY___bang_int322float fromInt(dst, src, n, pos)
#define BODY___bang_int322half fromInt(dst, src, n, pos)
#define BODY___bang_int162float fromInt(dst, src, n, pos)
#define BODY___bang_int162half fromInt(dst, src, n, pos)
#define BODY___bang_int322int16 fixToFix(dst, src, n, dst_pos, src_pos)
#define BODY___bang_int162int32 fixToFix(dst, src, n, dst_pos, src_pos)

// --- Lookup and reduce
#define BODY___bang_lut lut(dst, idx, table, n, table_len)
#define BODY___bang_reduce_sum reduceSum(dst, src, n)
#define BODY___bang_argmax argExtreme<decltype(+*src), true>(dst, src, n)
#define BODY___bang_argmin argExtreme<decltype(+*src), false>(dst, src, n)
#define BANG_POOL(KIND)                                                        \
  pool<decltype(+*src), KIND>(dst, src, channel, height, width, kernel_h,      \
                              kernel_w, stride_h, stride_w)
#define BODY___bang_sumpool BANG_POOL(SumPool)
#define BODY___bang_maxpool BANG_POOL(MaxPool)
#define BODY___bang_avgpool BANG_POOL(AvgPool)
#define BODY___bang_transpose transpose(dst, src, height, width)

// --- Matrix unit (Reduce.h). The overload of __bang_conv without dilation
// has no parameters dh and dw: its body finds these constants instead.
static constexpr int dh = 1, dw = 1;
#define BODY___bang_conv                                                       \
  conv(dst, src, kernel, ci, ih, iw, kh, kw, sh, sw, co, dh, dw)
#define BODY___bang_matmul                                                     \
  matmul<false>(dst, a, b, (const decltype(dst))nullptr, m, k, n)
#define BODY___bang_mlp matmul<true>(dst, src, weight, bias, m, k, n)

// --- Activations, computed in float and rounded once to the element type
#define BANG_ACT(EXPR)                                                         \
  unary(BANG_OP_ACT, dst, src, n, [](auto v) {                                 \
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
#define BODY___bang_atomic_reduce_add BANG_ATOMIC(0)
#define BODY___bang_atomic_reduce_max BANG_ATOMIC(1)

// --- The definitions
// always_inline: every call site gets its own copy, specialised to its
// arguments and vectorised there, however many calls a kernel makes.
#define BANG_DEFINE(NAME, RET, PARAMS)                                         \
  __attribute__((always_inline)) RET NAME PARAMS { BODY_##NAME; }
#define BANG_IMPL_RUNTIME(NAME, RET, PARAMS) // Runtime.cpp
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
  BANG_IMPL_##CLASS(NAME, RET, PARAMS)
#include <bang/intrinsics.def>
