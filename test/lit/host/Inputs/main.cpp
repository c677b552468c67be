// A host C++ file: CNRT memory and queues, and the launcher of launcher.mlu.
#include <cnrt.h>
#include <cstdio>
#include <vector>

cnrtRet_t launchAxpb(cnrtQueue_t queue, float *y, const float *x, float a,
                     float b, int n);

int main() {
  const int n = 200;
  std::vector<float> x(n), y(n, -1.0f);
  for (int i = 0; i < n; ++i)
    x[i] = 0.5f * i;
  void *dx = nullptr, *dy = nullptr;
  cnrtQueue_t queue = nullptr;
  if (cnrtMalloc(&dx, n * sizeof(float)) != cnrtSuccess ||
      cnrtMalloc(&dy, n * sizeof(float)) != cnrtSuccess ||
      cnrtQueueCreate(&queue) != cnrtSuccess)
    return 2;
  cnrtMemcpy(dx, x.data(), n * sizeof(float), cnrtMemcpyHostToDev);
  cnrtRet_t launched = launchAxpb(queue, static_cast<float *>(dy),
                                  static_cast<const float *>(dx), 3.0f, 1.0f, n);
  cnrtRet_t synced = cnrtQueueSync(queue);
  cnrtMemcpy(y.data(), dy, n * sizeof(float), cnrtMemcpyDevToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += y[i] != 3.0f * x[i] + 1.0f;
  std::printf("launch %d sync %d wrong %d y[199] %g\n", int(launched),
              int(synced), wrong, y[199]);
  cnrtQueueDestroy(queue);
  cnrtFree(dx);
  cnrtFree(dy);
  return wrong ? 1 : 0;
}
