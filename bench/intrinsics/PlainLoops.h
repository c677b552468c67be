//===- PlainLoops.h - Plain C++ references for the intrinsic bench -*- C++ -*-===//
#ifndef BANGC_BENCH_PLAINLOOPS_H
#define BANGC_BENCH_PLAINLOOPS_H
void plainAdd(float *c, const float *a, const float *b, int n);
void plainMul(float *c, const float *a, const float *b, int n);
void plainFma(float *c, const float *a, float b, const float *d, int n);
void plainLt(float *c, const float *a, const float *b, int n);
void plainToHalf(_Float16 *c, const float *a, int n);
void plainRelu(float *c, const float *a, int n);
void plainExp(float *c, const float *a, int n);
float plainSum(const float *a, int n);
#endif
