//===- Math.h - Element-wise math (mlu-ops families F1, F5) -*- C++ -*-===//
//
// The element-wise math real BANG C code (Cambricon's mlu-ops) calls beyond
// the basic arithmetic of Elementwise.h: abs, square, floor, sqrt, the
// reciprocals, sin and cos, pow2, log2, the high-precision exp, maximum and
// minimum with both NaN conventions, and the remainder by a scalar. Float
// results are computed in float and rounded once to the element type; the
// rows are in intrinsics.def, the semantics in docs/language.md.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_MATH_H
#define BANG_DEVICELIB_MATH_H

#include "Elementwise.h"

namespace bangdev {

/// |x|: floats clear the sign bit (|-0| = +0, NaN keeps its payload);
/// integers wrap (|INT_MIN| = INT_MIN).
template <typename T> BANG_DEV T absOf(T x) {
  if constexpr (isInt<T>) {
    return x < 0 ? subOf<T>(T(0), x) : x;
  } else {
    using U = BitsOf<T>;
    U mask = (U)(~((U)1 << (sizeof(T) * 8 - 1)));
    return __builtin_bit_cast(T, (U)(__builtin_bit_cast(U, x) & mask));
  }
}

/// maximum / minimum that ignore one NaN operand (IEEE 754-2019
/// maximumNumber / minimumNumber): NaN only when both are NaN.
template <typename T> BANG_DEV T maxNumOf(T a, T b) {
  if constexpr (!isInt<T>) {
    if (isNaN(a))
      return b;
    if (isNaN(b))
      return a;
  }
  return maxOf(a, b);
}
template <typename T> BANG_DEV T minNumOf(T a, T b) {
  if constexpr (!isInt<T>) {
    if (isNaN(a))
      return b;
    if (isNaN(b))
      return a;
  }
  return minOf(a, b);
}

/// dst[i] = a[i] rem b: truncated remainder (the sign of a[i], C's fmod and
/// %). An integer b of 0 faults; INT_MIN rem -1 is 0.
template <typename T>
BANG_DEV void remScalar(RowClass opClass, T *dst, const T *a, T b, int n) {
  if constexpr (isInt<T>) {
    if (b == 0)
      __bangsim_fault("__bang_rem: division by zero");
    withScalar(opClass, dst, a, b, n,
               [](T x, T y) { return (T)((long long)x % (long long)y); });
  } else {
    withScalar(opClass, dst, a, b, n,
               [](T x, T y) { return (T)__builtin_fmodf((float)x, (float)y); });
  }
}

} // namespace bangdev

// --- Bodies of the rows (see Intrinsics.cpp)
#define BANG_MATH1(EXPR)                                                       \
  unary(rowClass, dst, src, n, [](auto v) { return EXPR; })
/// Computed in float, rounded once to the element type.
#define BANG_MATHF(EXPR)                                                       \
  unary(rowClass, dst, src, n, [](auto v) {                                    \
    float x = (float)v;                                                        \
    return (decltype(v))(EXPR);                                                \
  })
#define BODY___bang_abs BANG_MATH1(absOf(v))
#define BODY___bang_active_abs BANG_MATH1(absOf(v))
#define BODY___bang_square BANG_MATH1(mulOf(v, v))
#define BODY___bang_floor BANG_MATHF(__builtin_floorf(x))
#define BODY___bang_sqrt BANG_MATHF(__builtin_sqrtf(x))
#define BODY___bang_recip BANG_MATHF(1.0f / x)
#define BODY___bang_active_reciphp BANG_MATHF(1.0f / x)
#define BODY___bang_sin BANG_MATHF(__builtin_sinf(x))
#define BODY___bang_cos BANG_MATHF(__builtin_cosf(x))
#define BODY___bang_pow2 BANG_MATHF(__builtin_exp2f(x))
#define BODY___bang_log2 BANG_MATHF(__builtin_log2f(x))
#define BODY___bang_active_exphp BANG_MATHF(__builtin_expf(x))
#define BANG_MATH2(EXPR)                                                       \
  binary(rowClass, dst, a, b, n, [](auto x, auto y) { return EXPR; })
#define BODY___bang_maximum BANG_MATH2(maxNumOf(x, y))
#define BODY___bang_minimum BANG_MATH2(minNumOf(x, y))
#define BODY___bang_nan_maximum BANG_MATH2(maxOf(x, y))
#define BODY___bang_nan_minimum BANG_MATH2(minOf(x, y))
#define BODY___bang_rem remScalar(rowClass, dst, a, b, n)
// The toolkit's math library: as __bang_sin etc.; hypot in float.
#define BODY___cn_vector_sin_f32 BODY___bang_sin
#define BODY___cn_vector_cos_f32 BODY___bang_cos
#define BODY___cn_vector_hypot_f32                                             \
  binary(rowClass, dst, a, b, n,                                               \
         [](float x, float y) { return __builtin_hypotf(x, y); })
#define BODY___cn_scalar_sin_f32 return __builtin_sinf(x)
#define BODY___cn_scalar_cos_f32 return __builtin_cosf(x)
#define BODY___cn_scalar_sin_f16 return (half)__builtin_sinf((float)x)
#define BODY___cn_scalar_cos_f16 return (half)__builtin_cosf((float)x)

#endif // BANG_DEVICELIB_MATH_H
