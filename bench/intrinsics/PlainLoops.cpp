//===- PlainLoops.cpp - The plain C++ loops the intrinsics are measured against
//
// Compiled with -O3 -march=native (see bench/CMakeLists.txt). Each function
// does what one intrinsic family does, on host arrays of the same size.
//
//===----------------------------------------------------------------------===//
#include "PlainLoops.h"

#include <cmath>

void plainAdd(float *c, const float *a, const float *b, int n) {
  for (int i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}
void plainMul(float *c, const float *a, const float *b, int n) {
  for (int i = 0; i < n; ++i)
    c[i] = a[i] * b[i];
}
void plainFma(float *c, const float *a, float b, const float *d, int n) {
  for (int i = 0; i < n; ++i)
    c[i] = a[i] * b + d[i];
}
void plainLt(float *c, const float *a, const float *b, int n) {
  for (int i = 0; i < n; ++i)
    c[i] = a[i] < b[i] ? 1.0f : 0.0f;
}
void plainToHalf(_Float16 *c, const float *a, int n) {
  for (int i = 0; i < n; ++i)
    c[i] = (_Float16)a[i];
}
void plainRelu(float *c, const float *a, int n) {
  for (int i = 0; i < n; ++i)
    c[i] = a[i] < 0.0f ? 0.0f : a[i];
}
void plainExp(float *c, const float *a, int n) {
  for (int i = 0; i < n; ++i)
    c[i] = std::exp(a[i]);
}
float plainSum(const float *a, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s;
}
