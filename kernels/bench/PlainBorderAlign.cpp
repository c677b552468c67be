// A plain C++ border_align forward and backward (the mmcv CUDA kernels'
// loops, one output element at a time, NHWC), compiled -O3 -march=native
// for the host-time comparison in bench.cpp.
#include <cstdint>
#include <cstddef>

/// The four pixels around (y, x) and their bilinear weights, as mmcv
/// computes them; false when the sample is off the map.
struct Neighbours {
  size_t pixel[4];
  float weight[4];
};
static bool neighbours(int H, int W, float y, float x, Neighbours &out) {
  if (y < -1.0f || y > H || x < -1.0f || x > W)
    return false;
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  int yl = int(y), xl = int(x), yh, xh;
  if (yl >= H - 1) { yh = yl = H - 1; y = float(yl); } else yh = yl + 1;
  if (xl >= W - 1) { xh = xl = W - 1; x = float(xl); } else xh = xl + 1;
  float ly = y - yl, lx = x - xl, hy = 1.f - ly, hx = 1.f - lx;
  out = {{size_t(yl) * W + xl, size_t(yl) * W + xh, size_t(yh) * W + xl,
          size_t(yh) * W + xh},
         {hy * hx, hy * lx, ly * hx, ly * lx}};
  return true;
}

static float bilinear(const float *in, int H, int W, int C4, float y, float x) {
  Neighbours nb;
  if (!neighbours(H, W, y, x, nb))
    return 0;
  return nb.weight[0] * in[nb.pixel[0] * C4] + nb.weight[1] * in[nb.pixel[1] * C4] +
         nb.weight[2] * in[nb.pixel[2] * C4] + nb.weight[3] * in[nb.pixel[3] * C4];
}

/// Border e of box b: its first sample (x, y) and the step between samples.
static void borderStart(const float *b, int e, int P, float &x, float &y,
                        float &xs, float &ys) {
  float w = b[2] - b[0], h = b[3] - b[1];
  xs = ys = 0;
  if (e == 0) xs = w / P; else if (e == 1) ys = h / P;
  else if (e == 2) xs = -w / P; else ys = -h / P;
  x = b[e / 2 * 2];
  y = b[e / 2 * 2 + 1];
}

void plainBorderAlignForward(const float *input, const float *boxes, float *out,
                             int32_t *arg, int N, int H, int W, int C, int K, int P) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) {
      const float *b = boxes + (size_t(n) * K + k) * 4;
      for (int e = 0; e < 4; ++e)
        for (int c = 0; c < C; ++c) {
          const float *img = input + size_t(n) * H * W * 4 * C + e * C + c;
          float x, y, xs, ys;
          borderStart(b, e, P, x, y, xs, ys);
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
          float x, y, xs, ys;
          borderStart(b, e, P, x, y, xs, ys);
          for (int i = 0; i < arg[o]; ++i) { x += xs; y += ys; }
          Neighbours nb;
          if (!neighbours(H, W, y, x, nb))
            continue;
          float g = gradOut[o];
          float *img = gradIn + size_t(n) * H * W * 4 * C + e * C + c;
          size_t C4 = 4 * size_t(C);
          for (int j = 0; j < 4; ++j)
            img[nb.pixel[j] * C4] += g * nb.weight[j];
        }
    }
}
