//===- Sequence.h - Index sequences and logical shifts -------*- C++ -*-===//
//
// __bang_incseq (dst[i] = i) and __bang_srl (a logical shift right of each
// unsigned element), as Cambricon's mlu-ops calls them (its index generator
// in kernels/utils, lgamma's select), and the two forms of
// __bang_atomic_reduce_add (an NRAM source, or one value). Rows in
// intrinsics.def, semantics in docs/language.md.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_SEQUENCE_H
#define BANG_DEVICELIB_SEQUENCE_H

#include "DeviceLib.h"

namespace bangdev {

template <> struct DTypeOf<int64_t> {
  static constexpr int value = BANG_DT_I64;
};

/// dst[i] = i for i < n.
template <typename T> BANG_DEV void incSeq(RowClass opClass, T *dst, int n) {
  checkCount(n);
  writes(dst, n);
  charge<T>(opClass, n);
  for (int i = 0; i < n; ++i)
    dst[i] = (T)i;
}

/// dst[i] = src[i] >> shift, zeros shifted in; a shift of the width or more
/// gives 0.
template <typename T>
BANG_DEV void shiftRightLogical(RowClass opClass, T *dst, const T *src,
                                uint32_t shift, int n) {
  checkCount(n);
  reads(src, n);
  writes(dst, n);
  charge<T>(opClass, n);
  if (shift >= sizeof(T) * 8) {
    for (int i = 0; i < n; ++i)
      dst[i] = 0;
    return;
  }
  for (int i = 0; i < n; ++i)
    dst[i] = (T)(src[i] >> shift);
}

/// __bang_atomic_reduce_add with an NRAM source, and with one value for
/// every element (simrt: BANG_ATOMIC_SCALAR).
template <typename T>
BANG_DEV void atomicAdd(T *dst, const T *src, int n) {
  __bangsim_atomic(dst, src, n, 0, DTypeOf<T>::value);
}
template <typename T> BANG_DEV void atomicAdd(T *dst, T value, int n) {
  __bangsim_atomic(dst, &value, n, BANG_ATOMIC_SCALAR, DTypeOf<T>::value);
}

} // namespace bangdev

#define BODY___bang_incseq incSeq(rowClass, dst, n)
#define BODY___bang_srl shiftRightLogical(rowClass, dst, src, shift, n)

#endif // BANG_DEVICELIB_SEQUENCE_H
