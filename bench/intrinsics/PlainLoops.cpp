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

// --- Tile layouts, strided moves, sequences (issue 18, families F8, F10)
void plainRotate90(float *d, const float *s, int h, int w) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      d[x * h + (h - 1 - y)] = s[y * w + x];
}
void plainMirror(float *d, const float *s, int h, int w) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      d[y * w + (w - 1 - x)] = s[y * w + x];
}
void plainPad(float *d, const float *s, int h, int w, int top, int left,
              int oh, int ow) {
  for (int i = 0; i < oh * ow; ++i)
    d[i] = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      d[(top + y) * ow + left + x] = s[y * w + x];
}
void plainInterleave(float *d, const float *s, int n) {
  for (int i = 0; i < n; ++i)
    d[2 * i] = s[i];
}
void plainBroadcastRows(float *d, const float *s, int rows, int repeat,
                        int width) {
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < repeat; ++k)
      for (int e = 0; e < width; ++e)
        d[(r * repeat + k) * width + e] = s[r * width + e];
}
void plainIncseq(int *d, int n) {
  for (int i = 0; i < n; ++i)
    d[i] = i;
}
void plainSrl(unsigned *d, const unsigned *s, unsigned shift, int n) {
  for (int i = 0; i < n; ++i)
    d[i] = s[i] >> shift;
}
void plainExpandMul(float *d, const float *a, const float *b, int n, int c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < c; ++j)
      d[i * c + j] = a[i] * b[i * c + j];
}

// --- Conversions, fusion, selection (issue 18, families F4, F6, F9)
void plainToIntRound(int *d, const float *s, int n) {
  for (int i = 0; i < n; ++i)
    d[i] = (int)__builtin_roundf(s[i]);
}
void plainToBf16(unsigned short *d, const float *s, int n) {
  for (int i = 0; i < n; ++i) {
    unsigned u;
    __builtin_memcpy(&u, &s[i], 4);
    d[i] = (unsigned short)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
  }
}
void plainFsmCycle(float *d, const float *a, const float *b, float c, int n,
                   int nb) {
  for (int base = 0; base < n; base += nb)
    for (int k = 0; k < nb; ++k)
      d[base + k] = (a[base + k] - b[k]) * c;
}
int plainFilter(float *d, const float *s, const float *mask, int n) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (mask[i] != 0)
      d[k++] = s[i];
  return k;
}
int plainCount(const float *s, int n) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    k += s[i] != 0;
  return k;
}
void plainGtBits(unsigned char *d, const float *a, const float *b, int n) {
  for (int byte = 0; byte < n / 8; ++byte) {
    unsigned char v = 0;
    for (int k = 0; k < 8; ++k)
      v |= (unsigned char)((a[byte * 8 + k] > b[byte * 8 + k]) << (7 - k));
    d[byte] = v;
  }
}
