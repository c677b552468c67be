//===- host_launch.h - The launch ABI of host code in .mlu files ----------===//
//
// A .mlu file's host compilation (docs/host-code.md) lowers
// `kernel<<<dim, type, queue>>>(args)` with Clang's CUDA host ABI: a call of
// __cudaPushCallConfiguration, then the kernel's host stub, which calls
// __cudaPopCallConfiguration and cudaLaunchKernel. A global constructor
// registers the embedded device image and its kernels. Clang finds these
// functions by name, with the parameter types declared here; the CNRT
// runtime (runtime/) defines them.
//
// cnrt.h includes this header after it defines cnrtDim3_t,
// cnrtFunctionType_t, cnrtQueue_t and cnrtRet_t.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_HOST_LAUNCH_H
#define BANG_HOST_LAUNCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `k<<<dim, type, queue>>>(args)`: stores the configuration for the stub
/// this thread calls next; 0 lets the launch go ahead.
unsigned __cudaPushCallConfiguration(cnrtDim3_t dim, cnrtFunctionType_t type,
                                     cnrtQueue_t queue);

/// The stub takes back the configuration: `block->x` is the function type
/// (block->y = block->z = 1), `*sharedMem` is 0, `*queue` the cnrtQueue_t.
int __cudaPopCallConfiguration(cnrtDim3_t *dim, cnrtDim3_t *block,
                               size_t *sharedMem, void **queue);

/// The stub launches: `stub` identifies the kernel (as registered),
/// `args[i]` points to the i-th argument.
cnrtRet_t cudaLaunchKernel(const void *stub, cnrtDim3_t dim, cnrtDim3_t block,
                           void **args, size_t sharedMem, cnrtQueue_t queue);

/// Registration, from the global constructor of each host object that
/// embeds a device image. `wrapper` is { int32 magic 0x466243b1, int32
/// version 1, const void *image, void *unused }.
void **__cudaRegisterFatBinary(void *wrapper);
int __cudaRegisterFunction(void **handle, const void *stub, char *deviceFun,
                           const char *deviceName, int threadLimit, void *tid,
                           void *bid, void *blockDim, void *gridDim,
                           int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size,
                       int constant, int global);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);

#ifdef __cplusplus
}
#endif

#endif // BANG_HOST_LAUNCH_H
