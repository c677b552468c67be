/*===- cnrt.h - CNRT, the BANG runtime API, as the simulator provides it -*- C -*-=
 *
 * BANG host programs use Cambricon's runtime (CNRT): cnrtMalloc, cnrtMemcpy,
 * cnrtQueueCreate, `kernel<<<dim, type, queue>>>(args)`, cnrtQueueSync, and
 * mlu-ops' mlu_op.h includes cnrt.h for cnrtQueue_t, cnrtDim3_t and
 * cnrtFunctionType_t. This header declares the part of CNRT that mlu-ops and
 * typical host programs use, with CNRT's spellings and values (CNRT 6.x, as
 * documented in the Cambricon CNRT developer guide and the cnrt.h of the
 * toolkit), so such code compiles unmodified. The simulator's runtime
 * library (bangsim_cnrt, runtime/) defines the functions over the simulated
 * device; docs/runtime.md says what each does here.
 *
 * Both compilations of a .mlu include it: the device compilation sees only
 * types and declarations (nothing here is host-only code), host C and C++
 * compilations link against bangsim_cnrt.
 *
 *===----------------------------------------------------------------------===*/
#ifndef BANGC_CNRT_H
#define BANGC_CNRT_H

#include <stddef.h>
#include <stdint.h>

#include "cn_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CNRT_MAJOR_VERSION 6
#define CNRT_MINOR_VERSION 14
#define CNRT_PATCH_VERSION 1
#ifndef CNRT_VERSION
#define CNRT_VERSION                                                           \
  (CNRT_MAJOR_VERSION * 10000 + CNRT_MINOR_VERSION * 100 + CNRT_PATCH_VERSION)
#endif

/* --- Return codes (values and descriptions in cnrt_ret.def) ------------- */
typedef enum {
#define CNRT_RET(name, value, description) name = value,
#include "cnrt_ret.def"
} cnrtRet_t;
/* CNRT's newer name for the same type. */
typedef cnrtRet_t cnrtStatus_t;

/* --- Launch configuration ----------------------------------------------- */
/* The task type of a launch: a BLOCK task runs on one core; a UNIONn task
 * group spans n clusters (4n cores on a 4-core-cluster card), whose cores
 * can synchronise. The values are core counts, as in CNRT. */
typedef enum {
  cnrtFuncTypeBlock = 1,
  cnrtFuncTypeBlock0 = cnrtFuncTypeBlock,
  cnrtFuncTypeBlock1 = cnrtFuncTypeBlock0 + 1,
  cnrtFuncTypeUnion1 = 4,
  cnrtFuncTypeUnion2 = 8,
  cnrtFuncTypeUnion4 = 16,
  cnrtFuncTypeUnion8 = 32,
  cnrtFuncTypeUnion16 = 64,
  cnrtFuncTypeMutable = -1,
  cnrtJobTypeBlock = cnrtFuncTypeBlock,
  cnrtJobTypeUnion1 = cnrtFuncTypeUnion1,
  cnrtJobTypeUnion2 = cnrtFuncTypeUnion2,
  cnrtJobTypeUnion4 = cnrtFuncTypeUnion4
} cnrtFunctionType_t;
typedef cnrtFunctionType_t cnrtJobType_t;

/* The task dimensions of a launch (taskDimX/Y/Z in the kernel). */
typedef struct {
  unsigned int x;
  unsigned int y;
  unsigned int z;
} cnrtDim3_t;

/* --- Queues and notifiers ----------------------------------------------- */
/* cnrtQueue_t and CNDrv's CNqueue point to the same struct, as in CNRT. A
 * null queue is the device's default queue. */
typedef struct CNqueue_st *cnrtQueue_t;
typedef struct CNnotifier_st *cnrtNotifier_t;

typedef enum cnrtNotifierFlags {
  CNRT_NOTIFIER_DEFAULT = 0x0,
  CNRT_NOTIFIER_DISABLE_TIMING_SW = 0x2,
  CNRT_NOTIFIER_DISABLE_TIMING = CNRT_NOTIFIER_DISABLE_TIMING_SW,
  CNRT_NOTIFIER_DISABLE_TIMING_ALL = 0x4,
  CNRT_NOTIFIER_INTERPROCESS = 0x8
} cnrtNotifierFlags_t;

/* --- Devices ------------------------------------------------------------ */
typedef enum {
  cnrtComputeModeDefault = 0,
  cnrtComputeModeExclusiveProcess = 1
} cnrtComputeMode_t;

/* Device attributes for cnrtDeviceGetAttribute (CNRT's values; they equal
 * CNDrv's CN_DEVICE_ATTRIBUTE_* values). */
typedef enum {
  cnrtAttrComputeCapabilityMajor = 0x01,
  cnrtAttrComputeCapabilityMinor = 0x02,
  cnrtAttrSparseComputingSupported = 0x03,
  cnrtAttrFP16ComputingSupported = 0x04,
  cnrtAttrINT4ComputingSupported = 0x05,
  cnrtAttrINT8ComputingSupported = 0x06,
  cnrtAttrBF16ComputingSupported = 0x07,
  cnrtAttrTF32ComputingSupported = 0x08,
  cnrtAttrComputeMode = 0x09,
  cnrtAttrQueueSize = 0x101,
  cnrtAttrNotifierSize = 0x102,
  cnrtAttrSupportQueuePriorities = 0x103,
  cnrtAttrTinyCoreSupported = 0x104,
  cnrtAttrCodecJPEGSupported = 0x105,
  cnrtAttrCodecH264Supported = 0x106,
  cnrtAttrCodecH265Supported = 0x107,
  cnrtAttrAIIspCoreSupported = 0x108,
  cnrtAttrMultiCtxNotifierWaitSupported = 0x109,
  cnrtAttrIPCNotifierSupported = 0x10a,
  cnrtAttrMaxDimX = 0x201,
  cnrtAttrMaxDimY = 0x202,
  cnrtAttrMaxDimZ = 0x203,
  cnrtAttrMaxClusterCountPerUnionTask = 0x204,
  cnrtAttrClusterCount = 0x205,
  cnrtAttrMcorePerCluster = 0x206,
  cnrtAttrMaxQuadrantCount = 0x207,
  cnrtAttrMaxUnionTypePerQuadrant = 0x208,
  cnrtAttrMaxClusterPerUnionLimitTask = 0x209,
  cnrtAttrISAVersion = 0x20a,
  cnrtAttrIsMultipleTensorProcessor = 0x20b,
  cnrtAttrMaxL2CacheSize = 0x301,
  cnrtAttrNramSizePerMcore = 0x302,
  cnrtAttrWramSizePerMcore = 0x303,
  cnrtAttrTotalConstMemorySize = 0x304,
  cnrtAttrLmemSizePerMcore = 0x305,
  cnrtAttrSramSizePerMcore = 0x306,
  cnrtAttrGlobalMemoryNodeCount = 0x307,
  cnrtAttrMaxPersistingL2CacheSize = 0x309,
  cnrtAttrAvailableGlobalMemorySize = 0x312,
  cnrtAttrEccEnable = 0x401,
  cnrtAttrIpuClockRate = 0x402,
  cnrtAttrMemClockRate = 0x403,
  cnrtAttrGmemBusWidth = 0x404,
  cnrtAttrTotalMemSize = 0x405,
  cnrtAttrPciBusID = 0x406,
  cnrtAttrPciDeviceID = 0x407,
  cnrtAttrPciDomainID = 0x408,
  cnrtAttrMDRMemorySize = 0x409,
  cnrtAttrUnsupportedFlag = 0xffffff,
  cnrtAttrCanMapHostMemory,
  cnrtAttrCanSetQueueSize,
  cnrtAttrCanSetNotifierSize,
  cnrtAttrConcurrentKernels,
  cnrtAttrSupportUnifiedAddr,
  cnrtAttrSupportManagedMem,
  cnrtAttrSupportNativeAtomic,
  cnrtAttrSupportPageableMemAccess,
  cnrtAttrCanUseHostPointer,
  cnrtAttrSupportHostRegsiter,
  cnrtAttrCacheSize,
  cnrtAttrMaxNum
} cnrtDeviceAttr_t;

typedef struct cnrtUUID_st {
  char uuid[16];
} cnrtUUID_t;

/* cnrtGetDeviceProperties' result (CNRT's cnrtDeviceProp_V3 fields). */
typedef struct cnrtDeviceProp_V3 {
  char name[256];
  int totalMem; /* MB */
  int maxDim[3];
  int ipuClockRate; /* kHz */
  int memClockRate; /* kHz */
  int totalConstMem;
  int major;
  int minor;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int maxL2CacheSize;
  int persistingL2CacheMaxSize;
  int queuePrioritiesSupported;
  int sparseComputingSupported;
  int FP16ComputingSupported;
  int INT4ComputingSupported;
  int INT8ComputingSupported;
  int BF16ComputingSupported;
  int TF32ComputingSupported;
  int maxQueueSize;
  int maxNotifierSize;
  int tinyCoreSupported;
  int codecJPEGSupported;
  int codecH264Supported;
  int codecH265Supported;
  int maxClusterCountPerUnionTask;
  int clusterCount;
  int McorePerCluster;
  int maxQuadrantCount;
  int maxUnionTypePerQuadrant;
  int maxClusterPerUnionLimitTask;
  int ISAVersion;
  int isMultipleTensorProcessor;
  int NramSizePerMcore; /* bytes */
  int WramSizePerMcore; /* bytes */
  int LmemSizePerMcore;
  int SramSizePerMcore; /* bytes, per cluster */
  int globalMemoryNodeCount;
  int cacheSize;
  int GmemBusWidth;
  int computeMode;
  int MDRMemorySize;
  int availableGlobalMemorySize; /* MB */
  cnrtUUID_t uuid;
  uint64_t totalGlobalMemSize; /* bytes */
  int reserved[30];
} cnrtDeviceProp_t;

/* --- Memory ------------------------------------------------------------- */
typedef enum {
  cnrtMemcpyHostToDev = 0,
  cnrtMemcpyDevToDev,
  cnrtMemcpyDevToHost,
  cnrtMemcpyHostToHost,
  cnrtMemcpyPeerToPeer,
  cnrtMemcpyNoDirection
} cnrtMemTransDir_t;

typedef enum {
  cnrtMemTypeUnregistered = 0,
  cnrtMemTypeHost,
  cnrtMemTypeDevice
} cnrtMemType_t;

typedef enum {
  cnrtUvaNotSupport = -1,
  cnrtUvaUnknown = 0,
  cnrtUvaUnCached,
  cnrtUvaCached
} cnrtUvaCacheMode_t;

typedef struct {
  cnrtMemType_t type;
  int device;
  size_t size; /* of the allocation, for cnrtMalloc memory */
  void *devicePointer;
  void *hostPointer;
  cnrtUvaCacheMode_t cacheMode;
  void *deviceBasePointer; /* start of the allocation */
} cnrtPointerAttributes_t;

/* --- Data types and conversion ------------------------------------------ */
typedef enum cnrtDataType {
  cnrtInvalid = 0x0,
  cnrtFloat16 = 0x12,
  cnrtFloat32 = 0x13,
  cnrtFloat64 = 0x14,
  cnrtInt4 = 0x20,
  cnrtInt8 = 0x21,
  cnrtInt16 = 0x22,
  cnrtInt32 = 0x23,
  cnrtInt64 = 0x24,
  cnrtAuto = 0x25,
  cnrtUInt8 = 0x31,
  cnrtUInt16 = 0x32,
  cnrtUInt32 = 0x33,
  cnrtFix8 = 0x41,
  cnrtQuant8 = 0x51,
  cnrtBool = 0x61
} cnrtDataType_t;

typedef enum cnrtDataType_V2 {
  cnrtUnknown = 0,
  cnrtDouble = 0x1,
  cnrtFloat = 0x2,
  cnrtHalf = 0x3,
  cnrtBfloat = 0x4,
  cnrtUlonglong = 0x11,
  cnrtUint = 0x12,
  cnrtUshort = 0x13,
  cnrtUchar = 0x14,
  cnrtLonglong = 0x21,
  cnrtInt = 0x22,
  cnrtShort = 0x23,
  cnrtChar = 0x24,
  cnrtBoolean = 0x31
} cnrtDataType_V2_t;

typedef enum cnrtRoundingMode {
  cnrtRounding_rn = 0, /* to nearest, ties to even */
  cnrtRounding_rz = 1, /* toward zero */
  cnrtRounding_rd = 2, /* down */
  cnrtRounding_ru = 3, /* up */
  cnrtRounding_ro = 4, /* away from zero */
  cnrtRounding_rm = 5, /* to nearest, ties away from zero ("math") */
  cnrtRounding_max
} cnrtRoundingMode_t;

/* Quantisation parameters of cnrtCastDataType_V2 (not supported here: pass
 * NULL). */
struct cnrtQuantizedParam;
typedef struct cnrtQuantizedParam *cnrtQuantizedParam_t;

/* === Functions ============================================================
 * Every function returns cnrtSuccess or an error code; an error is also
 * recorded for cnrtGetLastError/cnrtPeekAtLastError (per host thread). */

/* --- Versions and errors ------------------------------------------------ */
cnrtRet_t cnrtGetLibVersion(int *major, int *minor, int *patch);
const char *cnrtGetErrorName(cnrtRet_t error);
const char *cnrtGetErrorStr(cnrtRet_t error);
/* The last error of this thread, which it then resets to cnrtSuccess. */
cnrtRet_t cnrtGetLastError(void);
/* The same without resetting it. */
cnrtRet_t cnrtPeekAtLastError(void);

/* --- Devices ------------------------------------------------------------ */
cnrtRet_t cnrtGetDeviceCount(unsigned int *count);
cnrtRet_t cnrtSetDevice(int device);
cnrtRet_t cnrtGetDevice(int *device);
cnrtRet_t cnrtDeviceGetAttribute(int *value, cnrtDeviceAttr_t attr,
                                 int device);
cnrtRet_t cnrtGetDeviceProperties(cnrtDeviceProp_t *prop, int device);
cnrtRet_t cnrtSyncDevice(void);
cnrtRet_t cnrtDeviceReset(void);

/* --- Memory ------------------------------------------------------------- */
cnrtRet_t cnrtMalloc(void **ptr, size_t bytes);
cnrtRet_t cnrtFree(void *ptr);
cnrtRet_t cnrtHostMalloc(void **ptr, size_t bytes);
cnrtRet_t cnrtFreeHost(void *ptr);
cnrtRet_t cnrtMemGetInfo(size_t *free, size_t *total);
cnrtRet_t cnrtMemcpy(void *dst, void *src, size_t bytes,
                     cnrtMemTransDir_t dir);
cnrtRet_t cnrtMemcpyAsync(void *dst, void *src, size_t bytes,
                          cnrtQueue_t queue, cnrtMemTransDir_t dir);
cnrtRet_t cnrtMemset(void *ptr, int value, size_t bytes);
cnrtRet_t cnrtMemsetAsync(void *ptr, int value, size_t bytes,
                          cnrtQueue_t queue);
cnrtRet_t cnrtMemsetD8(void *ptr, uint8_t value, size_t count);
cnrtRet_t cnrtMemsetD32(void *ptr, uint32_t value, size_t count);
cnrtRet_t cnrtMemsetD8Async(void *ptr, uint8_t value, size_t count,
                            cnrtQueue_t queue);
cnrtRet_t cnrtMemsetD32Async(void *ptr, uint32_t value, size_t count,
                             cnrtQueue_t queue);
cnrtRet_t cnrtPointerGetAttributes(cnrtPointerAttributes_t *attr,
                                   const void *ptr);

/* --- Queues ------------------------------------------------------------- */
cnrtRet_t cnrtQueueCreate(cnrtQueue_t *queue);
cnrtRet_t cnrtQueueDestroy(cnrtQueue_t queue);
cnrtRet_t cnrtQueueSync(cnrtQueue_t queue);
/* cnrtSuccess when all work on the queue is done, else cnrtErrorNotReady. */
cnrtRet_t cnrtQueueQuery(cnrtQueue_t queue);
cnrtRet_t cnrtQueueWaitNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue,
                                unsigned int flag);
/* CNRT's older names of cnrtQueueCreate, cnrtQueueDestroy, cnrtQueueSync. */
cnrtRet_t cnrtCreateQueue(cnrtQueue_t *queue);
cnrtRet_t cnrtDestroyQueue(cnrtQueue_t queue);
cnrtRet_t cnrtSyncQueue(cnrtQueue_t queue);

/* --- Notifiers: elapsed times are simulated device time ----------------- */
cnrtRet_t cnrtNotifierCreate(cnrtNotifier_t *notifier);
cnrtRet_t cnrtNotifierCreateWithFlags(cnrtNotifier_t *notifier,
                                      unsigned int flags);
cnrtRet_t cnrtNotifierDestroy(cnrtNotifier_t notifier);
cnrtRet_t cnrtPlaceNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue);
cnrtRet_t cnrtWaitNotifier(cnrtNotifier_t notifier);
cnrtRet_t cnrtQueryNotifier(cnrtNotifier_t notifier);
cnrtRet_t cnrtNotifierElapsedTime(cnrtNotifier_t start, cnrtNotifier_t end,
                                  float *ms);
cnrtRet_t cnrtCreateNotifier(cnrtNotifier_t *notifier);
cnrtRet_t cnrtDestroyNotifier(cnrtNotifier_t notifier);

/* --- Kernels ------------------------------------------------------------ */
/* Launches `kernel` (the host-side handle of a __mlu_global__ function) as
 * `kernel<<<dim, ktype, queue>>>` does; args[i] points to argument i. */
cnrtRet_t cnrtInvokeKernel(const void *kernel, cnrtDim3_t dim,
                           cnrtFunctionType_t ktype, void **args,
                           size_t reserved, cnrtQueue_t queue);

/* --- Data conversion on the host ---------------------------------------- */
cnrtRet_t cnrtCastDataType_V2(void *src, cnrtDataType_V2_t srcType, void *dst,
                              cnrtDataType_V2_t dstType, size_t count,
                              cnrtQuantizedParam_t param,
                              cnrtRoundingMode_t rounding);

#ifdef __cplusplus
}
#endif

/* The launch ABI that a .mlu file's host compilation calls for <<<>>>
 * (docs/host-code.md); it needs the types above. */
#include <bang/host_launch.h>

#endif /* BANGC_CNRT_H */
