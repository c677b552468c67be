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
void plainRotate90(float *d, const float *s, int h, int w);
void plainMirror(float *d, const float *s, int h, int w);
void plainPad(float *d, const float *s, int h, int w, int top, int left,
              int oh, int ow);
void plainInterleave(float *d, const float *s, int n);
void plainBroadcastRows(float *d, const float *s, int rows, int repeat,
                        int width);
void plainIncseq(int *d, int n);
void plainSrl(unsigned *d, const unsigned *s, unsigned shift, int n);
void plainExpandMul(float *d, const float *a, const float *b, int n, int c);
void plainToIntRound(int *d, const float *s, int n);
void plainToBf16(unsigned short *d, const float *s, int n);
void plainFsmCycle(float *d, const float *a, const float *b, float c, int n,
                   int nb);
int plainFilter(float *d, const float *s, const float *mask, int n);
int plainCount(const float *s, int n);
void plainGtBits(unsigned char *d, const float *a, const float *b, int n);
#endif
