// A plain C++ border_align forward and backward (the mmcv CUDA kernels'
// loops, one output element at a time, NHWC), compiled -O3 -march=native
// for the host-time comparison in bench.cpp.
#include <cstdint>
#include <cstddef>

static float bilinear(const float *in, int H, int W, int C4, float y, float x) {
  if (y < -1.0f || y > H || x < -1.0f || x > W)
    return 0;
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  int yl = int(y), xl = int(x), yh, xh;
  if (yl >= H - 1) { yh = yl = H - 1; y = float(yl); } else yh = yl + 1;
  if (xl >= W - 1) { xh = xl = W - 1; x = float(xl); } else xh = xl + 1;
  float ly = y - yl, lx = x - xl, hy = 1.f - ly, hx = 1.f - lx;
  return hy * hx * in[(size_t(yl) * W + xl) * C4] + hy * lx * in[(size_t(yl) * W + xh) * C4] +
         ly * hx * in[(size_t(yh) * W + xl) * C4] + ly * lx * in[(size_t(yh) * W + xh) * C4];
}

void plainBorderAlignForward(const float *input, const float *boxes, float *out,
                             int32_t *arg, int N, int H, int W, int C, int K, int P) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) {
      const float *b = boxes + (size_t(n) * K + k) * 4;
      for (int e = 0; e < 4; ++e)
        for (int c = 0; c < C; ++c) {
          const float *img = input + size_t(n) * H * W * 4 * C + e * C + c;
          float w = b[2] - b[0], h = b[3] - b[1], xs = 0, ys = 0;
          if (e == 0) xs = w / P; else if (e == 1) ys = h / P;
          else if (e == 2) xs = -w / P; else ys = -h / P;
          float x = b[e / 2 * 2], y = b[e / 2 * 2 + 1];
          float best = bilinear(img, H, W, 4 * C, y, x);
          int bi = 0;
          for (int i = 1; i <= P; ++i) {
            x += xs; y += ys;
            float v = bilinear(img, H, W, 4 * C, y, x);
            if (v > best) { best = v; bi = i; }
          }
          size_t o = ((size_t(n) * K + k) * 4 + e) * C + c;
          out[o] = best;
          arg[o] = bi;
        }
    }
}

// Backward: zero grad_input, then each output's gradient goes to the four
// pixels around its argmax sample, weighted bilinearly (the sample reached
// by the same repeated addition as forward). Samples off the map add
// nothing.
void plainBorderAlignBackward(const float *gradOut, const float *boxes,
                              const int32_t *arg, float *gradIn, int N, int H,
                              int W, int C, int K, int P) {
  size_t total = size_t(N) * H * W * 4 * C;
  for (size_t i = 0; i < total; ++i)
    gradIn[i] = 0;
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) {
      const float *b = boxes + (size_t(n) * K + k) * 4;
      for (int e = 0; e < 4; ++e)
        for (int c = 0; c < C; ++c) {
          size_t o = ((size_t(n) * K + k) * 4 + e) * C + c;
          float w = b[2] - b[0], h = b[3] - b[1], xs = 0, ys = 0;
          if (e == 0) xs = w / P; else if (e == 1) ys = h / P;
          else if (e == 2) xs = -w / P; else ys = -h / P;
          float x = b[e / 2 * 2], y = b[e / 2 * 2 + 1];
          for (int i = 0; i < arg[o]; ++i) { x += xs; y += ys; }
          if (y < -1.0f || y > H || x < -1.0f || x > W)
            continue;
          if (y <= 0) y = 0;
          if (x <= 0) x = 0;
          int yl = int(y), xl = int(x), yh, xh;
          if (yl >= H - 1) { yh = yl = H - 1; y = float(yl); } else yh = yl + 1;
          if (xl >= W - 1) { xh = xl = W - 1; x = float(xl); } else xh = xl + 1;
          float ly = y - yl, lx = x - xl, hy = 1.f - ly, hx = 1.f - lx;
          float g = gradOut[o];
          float *img = gradIn + size_t(n) * H * W * 4 * C + e * C + c;
          size_t C4 = 4 * size_t(C);
          img[(size_t(yl) * W + xl) * C4] += g * (hy * hx);
          img[(size_t(yl) * W + xh) * C4] += g * (hy * lx);
          img[(size_t(yh) * W + xl) * C4] += g * (ly * hx);
          img[(size_t(yh) * W + xh) * C4] += g * (ly * lx);
        }
    }
}
