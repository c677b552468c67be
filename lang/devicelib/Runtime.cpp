//===- Runtime.cpp - Data movement and barriers: thin calls into simrt ----===//
#include "DeviceLib.h"

void __memcpy(void *dst, const void *src, int bytes, mluMemcpyDirection_t dir) {
  __bangsim_memcpy(dst, src, bytes, dir, 0, 0, 0, 0);
}
void __memcpy(void *dst, const void *src, int seg_bytes,
              mluMemcpyDirection_t dir, int dst_stride, int src_stride,
              int segnum) {
  __bangsim_memcpy(dst, src, seg_bytes, dir, dst_stride, src_stride, segnum, 0);
}
void __memcpy_async(void *dst, const void *src, int bytes,
                    mluMemcpyDirection_t dir) {
  __bangsim_memcpy(dst, src, bytes, dir, 0, 0, 0, 1);
}
void __memcpy(void *dst, const void *src, int bytes, mluMemcpyDirection_t dir,
              int dst_cluster) {
  __bangsim_memcpy_to_cluster(dst, src, bytes, dir, dst_cluster, 0);
}
void __memcpy_async(void *dst, const void *src, int bytes,
                    mluMemcpyDirection_t dir, int dst_cluster) {
  __bangsim_memcpy_to_cluster(dst, src, bytes, dir, dst_cluster, 1);
}
void __memcpy_async(void *dst, const void *src, int seg_bytes,
                    mluMemcpyDirection_t dir, int dst_stride, int src_stride,
                    int segnum) {
  __bangsim_memcpy(dst, src, seg_bytes, dir, dst_stride, src_stride, segnum, 1);
}
void __sync() { __bangsim_sync(0); }
void __sync_io() { __bangsim_sync(3); }
void __sync_compute() { __bangsim_sync(4); }
void __sync_cluster() { __bangsim_sync(1); }
void __sync_all() { __bangsim_sync(2); }

// --- mlu-ops families F7, F8 (docs/language.md) ---------------------------
void __memcpy(void *dst, const void *src, int seg_bytes,
              mluMemcpyDirection_t dir, int dst_stride0, int dst_segnum1,
              int dst_stride1, int dst_segnum2, int src_stride0,
              int src_segnum1, int src_stride1, int src_segnum2) {
  __bangsim_memcpy3d(dst, src, seg_bytes, dir, dst_stride0, dst_segnum1,
                     dst_stride1, dst_segnum2, src_stride0, src_segnum1,
                     src_stride1, src_segnum2, 0);
}
void __memcpy_async(void *dst, const void *src, int seg_bytes,
                    mluMemcpyDirection_t dir, int dst_stride0, int dst_segnum1,
                    int dst_stride1, int dst_segnum2, int src_stride0,
                    int src_segnum1, int src_stride1, int src_segnum2) {
  __bangsim_memcpy3d(dst, src, seg_bytes, dir, dst_stride0, dst_segnum1,
                     dst_stride1, dst_segnum2, src_stride0, src_segnum1,
                     src_stride1, src_segnum2, 1);
}
// The device has no memory core: every core is an IPU, so the IPU barriers
// are the barriers of all cores, and the pipeline waits wait for this
// core's outstanding DMA as __sync() does (--check=race knows that
// __sync_move covers only on-chip copies).
void __sync_move() { __bangsim_sync(5); }
void __sync_io_move_compute() { __bangsim_sync(0); }
void __sync_all_ipu() { __bangsim_sync(2); }
void __sync_all_ipu_within_cluster() { __bangsim_sync(1); }
bool __is_ipu() { return true; }
bool __is_dram(const void *p) {
  return __bangsim_space_of(p) == BANG_IN_GDRAM;
}
#define BANG_FILL_SPACE(T)                                                     \
  void __gdramset(T *dst, int n, T value) {                                    \
    __bangsim_fill(dst, &value, sizeof(T), n, 0, 0, BANG_IN_GDRAM, 0);         \
  }                                                                            \
  void __nramset_async(T *dst, int n, T value, int stride, int segnum) {       \
    __bangsim_fill(dst, &value, sizeof(T), n, stride, segnum, BANG_IN_NRAM,    \
                   1);                                                         \
  }
BANG_FILL_SPACE(half)
BANG_FILL_SPACE(float)
BANG_FILL_SPACE(int32_t)
#undef BANG_FILL_SPACE
void __bang_printf(const char *format, ...) {
  __builtin_va_list args;
  __builtin_va_start(args, format);
  __bangsim_vprintf(format, args);
  __builtin_va_end(args);
}

// --- Gathers (mlu-ops family F6): one DMA per element, checked and costed
// by simrt as __memcpy's are; the offsets (bytes) are read from NRAM.
static void gather(void *dst, const void *src, const unsigned int *offset,
                   const void *bitmask, int size, mluMemcpyDirection_t dir,
                   int dstStride, int n, int async) {
  bangdev::checkCount(n);
  if (size < 0 || dstStride < 0)
    __bangsim_fault("gather: negative size or stride");
  bangdev::reads(offset, n);
  const uint8_t *bits = (const uint8_t *)bitmask;
  if (bits)
    bangdev::readsBytes(bits, (n + 7) / 8);
  for (int i = 0; i < n; ++i)
    if (!bits || ((bits[i >> 3] >> (7 - (i & 7))) & 1))
      __bangsim_memcpy((char *)dst + (long long)i * dstStride,
                       (const char *)src + offset[i], size, dir, 0, 0, 0,
                       async);
}
void __gather(void *dst, const void *src, const unsigned int *offset, int size,
              mluMemcpyDirection_t dir, int dst_stride, int n) {
  gather(dst, src, offset, nullptr, size, dir, dst_stride, n, 0);
}
void __gather_async(void *dst, const void *src, const unsigned int *offset,
                    int size, mluMemcpyDirection_t dir, int dst_stride,
                    int n) {
  gather(dst, src, offset, nullptr, size, dir, dst_stride, n, 1);
}
void __bang_gather_async(void *dst, const void *src,
                         const unsigned int *offset, const void *bitmask,
                         int size, int dst_stride, int n) {
  gather(dst, src, offset, bitmask, size, GDRAM2NRAM, dst_stride, n, 1);
}
