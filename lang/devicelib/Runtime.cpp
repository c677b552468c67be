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
void __sync_io() { __bangsim_sync(0); }
void __sync_compute() { __bangsim_sync(0); }
void __sync_cluster() { __bangsim_sync(1); }
void __sync_all() { __bangsim_sync(2); }
