//===- InlineAsm.h - Bodies of the inline assembly of mlu-ops -*- C++ -*-===//
//
// mlu-ops writes some vector instructions as inline assembly (`fuse.nram.*`,
// `div.scalar.nram.*`, `gather.vector.nram.nram.nram.u32`, and
// `index.vvr.f32`, which fills a vector register as __vv_index does).
// codegen/LowerInlineAsm.cpp turns each such statement into calls of the
// rows below (section "Inline assembly" of intrinsics.def), so they are
// checked and charged like every intrinsic. Semantics: docs/language.md,
// "Inline assembly".
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_INLINEASM_H
#define BANG_DEVICELIB_INLINEASM_H

#include "Elementwise.h"
#include "Vector.h"

namespace bangdev {

enum AsmFuseOp {
#define BANG_ASM_FUSE_OP(NAME) ASM_FUSE_##NAME,
#include "bang/AsmFuseOps.def"
  ASM_FUSE_NUM
};

/// x OP y for one step of a fuse chain; compares give 1 or 0 in T, bitwise
/// operations act on the bits of floats.
template <typename T> BANG_DEV T asmFuseApply(int op, T x, T y) {
  using U = BitsOf<T>;
  U xb = __builtin_bit_cast(U, x), yb = __builtin_bit_cast(U, y);
  switch (op) {
  case ASM_FUSE_add:
    return addOf(x, y);
  case ASM_FUSE_sub:
    return subOf(x, y);
  case ASM_FUSE_mul:
    return mulOf(x, y);
  case ASM_FUSE_and:
    return __builtin_bit_cast(T, (U)(xb & yb));
  case ASM_FUSE_or:
    return __builtin_bit_cast(T, (U)(xb | yb));
  case ASM_FUSE_xor:
    return __builtin_bit_cast(T, (U)(xb ^ yb));
  case ASM_FUSE_ge:
    return (T)(x >= y ? 1 : 0);
  case ASM_FUSE_gt:
    return (T)(x > y ? 1 : 0);
  case ASM_FUSE_le:
    return (T)(x <= y ? 1 : 0);
  case ASM_FUSE_lt:
    return (T)(x < y ? 1 : 0);
  case ASM_FUSE_eq:
    return (T)(x == y ? 1 : 0);
  case ASM_FUSE_ne:
    return (T)(x != y ? 1 : 0);
  case ASM_FUSE_max:
    return maxOf(x, y);
  default:
    return minOf(x, y);
  }
}

/// One step: dst[i] = src[i] OP (vec ? vec[i] : scalar).
template <typename T>
BANG_DEV void asmFuse(RowClass opClass, T *dst, const T *src, int n, int op,
                      T scalar, const T *vec) {
  checkCount(n);
  if (op < 0 || op >= ASM_FUSE_NUM)
    __bangsim_fault("fuse.nram: unknown operation");
  reads(src, n);
  if (vec)
    reads(vec, n);
  writes(dst, n);
  charge<T>(opClass, n);
  for (int i = 0; i < n; ++i)
    dst[i] = asmFuseApply(op, src[i], vec ? vec[i] : scalar);
}

/// gather.vector: element i (`size` bytes at src + offset[i], offsets in
/// bytes) goes to dst + i * stride.
BANG_DEV void asmGather(RowClass opClass, void *dst, const void *src,
                        const uint32_t *offset, int size, int n, int stride) {
  checkCount(n);
  if (size < 0 || stride < 0)
    __bangsim_fault("gather.vector: negative size or stride");
  if (n == 0)
    return;
  reads(offset, n);
  uint32_t last = 0;
  for (int i = 0; i < n; ++i)
    last = offset[i] > last ? offset[i] : last;
  readsBytes(src, (long long)last + size);
  writesBytes(dst, (long long)(n - 1) * stride + size);
  charge<uint8_t>(opClass, (long long)n * size);
  for (int i = 0; i < n; ++i)
    __builtin_memmove((char *)dst + (long long)i * stride,
                      (const char *)src + offset[i], size);
}

} // namespace bangdev

#define BANG_ASM_FUSE asmFuse(rowClass, dst, src, n, op, scalar, vec)
#define BODY___bangsim_asm_fuse_f16 BANG_ASM_FUSE
#define BODY___bangsim_asm_fuse_f32 BANG_ASM_FUSE
#define BODY___bangsim_asm_fuse_s32 BANG_ASM_FUSE
#define BODY___bangsim_asm_fuse_u32 BANG_ASM_FUSE
#define BANG_ASM_DIV                                                           \
  withScalar(rowClass, dst, src, value, n, [](auto x, auto y) { return x / y; })
#define BODY___bangsim_asm_div_scalar_f16 BANG_ASM_DIV
#define BODY___bangsim_asm_div_scalar_f32 BANG_ASM_DIV
#define BODY___bangsim_asm_gather                                              \
  asmGather(rowClass, dst, src, offset, size, n, stride)
#define BODY___bangsim_asm_index_f32 vvIndex(rowClass, dst, start, step)

#endif // BANG_DEVICELIB_INLINEASM_H
