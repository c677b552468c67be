//===- bang_fusor.h - cncc's fused element-wise chains -------*- C++ -*-===//
//
// The toolkit's header-only "fusor" (bang::experimental::fusor<T>), as
// Cambricon's mlu-ops (adam_w) uses it: a chain of element-wise operations
// on n elements, written as method calls,
//
//   bang::experimental::fusor<float>(dst, src, n).mul(a).sqrt().add(b);
//
// Here each call is the intrinsic of the same name, run at once: the first
// operation reads src and writes dst, every later one reads and writes
// dst. Each step rounds to T and is checked and charged as that intrinsic
// (docs/language.md, "bang_fusor.h"); a chain without operations writes
// nothing.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_BANG_FUSOR_H
#define BANGC_BANG_FUSOR_H

#include "bang/prelude.h"

namespace bang {
namespace experimental {

template <typename T> class fusor {
public:
  __mlu_func__ fusor(T *dst, const T *src, int n) : dst(dst), src(src), n(n) {}

  /// dst = in + value, in - value, in * value (in: src, then dst).
  __mlu_func__ fusor &add(T value) {
    __bang_add_scalar(dst, next(), value, n);
    return *this;
  }
  __mlu_func__ fusor &sub(T value) {
    __bang_sub_scalar(dst, next(), value, n);
    return *this;
  }
  __mlu_func__ fusor &mul(T value) {
    __bang_mul_scalar(dst, next(), value, n);
    return *this;
  }
  /// dst = sqrt(in).
  __mlu_func__ fusor &sqrt() {
    __bang_sqrt(dst, next(), n);
    return *this;
  }

private:
  /// The operand of the next step: src first, dst after.
  __mlu_func__ const T *next() {
    const T *in = src;
    src = dst;
    return in;
  }
  T *dst;
  const T *src;
  int n;
};

} // namespace experimental
} // namespace bang

#endif // BANGC_BANG_FUSOR_H
