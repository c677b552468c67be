/*===- cn_api.h - CNDrv, the driver API, as the simulator provides it -*- C -*-===
 *
 * Cambricon's driver API (CNDrv) is declared in cn_api.h; mlu-ops' mlu_op.h
 * includes it, and mlu-ops' core asks CNDrv for the device's attributes, the
 * current context and its visible clusters. This header declares the part of
 * CNDrv that mlu-ops and typical host programs use, with CNDrv's spellings
 * and values (CNDrv 2.x), so such code compiles unmodified; the simulator's
 * runtime library (bangsim_cnrt, runtime/) defines the functions over the
 * simulated device. Both the device compilation of a .mlu (which only sees
 * the declarations) and host C/C++ compilations include it.
 *
 * Handle types: CNdev is a device ordinal (an integer, as in CNDrv);
 * CNcontext, CNqueue and CNnotifier are opaque pointers. CNqueue and CNRT's
 * cnrtQueue_t name the same struct (CNqueue_st), as they do in the toolkit, so
 * `(CNqueue)queue` casts between them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef BANGC_CN_API_H
#define BANGC_CN_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CN_MAJOR_VERSION 2
#define CN_MINOR_VERSION 15
#define CN_PATCH_VERSION 5
#define CN_VERSION                                                             \
  (CN_MAJOR_VERSION * 100000 + CN_MINOR_VERSION * 1000 + CN_PATCH_VERSION)

typedef uint64_t cn_uint64_t;
typedef int64_t cn_int64_t;
typedef uint32_t cn_uint32_t;

/* The return code of every CNDrv function (values in cn_result.def). */
typedef enum {
#define CN_RESULT(name, value, description) name = value,
#include "cn_result.def"
} CNresult;

typedef cn_uint64_t CNdev;
typedef cn_uint64_t CNaddr;
typedef struct CNcontext_st *CNcontext;
typedef struct CNqueue_st *CNqueue;
typedef struct CNnotifier_st *CNnotifier;
typedef struct CNkernel_st *CNkernel;
typedef struct CNmodule_st *CNmodule;

/* Compute modes (CN_DEVICE_ATTRIBUTE_COMPUTE_MODE). */
typedef enum CNcomputemode_enum {
  CN_COMPUTEMODE_DEFAULT = 0,
  CN_COMPUTEMODE_EXCLUSIVE_PROCESS = 1
} CNcomputemode;

/* Device attributes for cnDeviceGetAttribute (CNDrv's values). */
typedef enum CNdevice_attribute_enum {
  CN_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 0x01,
  CN_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 0x02,
  CN_DEVICE_ATTRIBUTE_SPARSE_COMPUTING_SUPPORTED = 0x03,
  CN_DEVICE_ATTRIBUTE_FP16_COMPUTING_SUPPORTED = 0x04,
  CN_DEVICE_ATTRIBUTE_INT4_COMPUTING_SUPPORTED = 0x05,
  CN_DEVICE_ATTRIBUTE_INT8_COMPUTING_SUPPORTED = 0x06,
  CN_DEVICE_ATTRIBUTE_BF16_COMPUTING_SUPPORTED = 0x07,
  CN_DEVICE_ATTRIBUTE_TF32_COMPUTING_SUPPORTED = 0x08,
  CN_DEVICE_ATTRIBUTE_COMPUTE_MODE = 0x09,
  CN_DEVICE_ATTRIBUTE_MAX_QUEUE_COUNT = 0x101,
  CN_DEVICE_ATTRIBUTE_MAX_NOTIFIER_COUNT = 0x102,
  CN_DEVICE_ATTRIBUTE_QUEUE_PRIORITIES_SUPPORTED = 0x103,
  CN_DEVICE_ATTRIBUTE_TINY_CORE_SUPPORTED = 0x104,
  CN_DEVICE_ATTRIBUTE_CODEC_JPEG_SUPPORTED = 0x105,
  CN_DEVICE_ATTRIBUTE_CODEC_H264_SUPPORTED = 0x106,
  CN_DEVICE_ATTRIBUTE_CODEC_H265_SUPPORTED = 0x107,
  CN_DEVICE_ATTRIBUTE_AIISP_CORE_SUPPORTED = 0x108,
  CN_DEVICE_ATTRIBUTE_MULTI_CTX_NOTIFIER_WAIT_SUPPORTED = 0x109,
  CN_DEVICE_ATTRIBUTE_IPCNOTIFIER_SUPPORTED = 0x10a,
  CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_X = 0x201,
  CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_Y = 0x202,
  CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_Z = 0x203,
  CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT_PER_UNION_TASK = 0x204,
  CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT = 0x205,
  CN_DEVICE_ATTRIBUTE_MAX_CORE_COUNT_PER_CLUSTER = 0x206,
  CN_DEVICE_ATTRIBUTE_MAX_QUADRANT_COUNT = 0x207,
  CN_DEVICE_ATTRIBUTE_MAX_UNION_TYPE_PER_QUADRANT = 0x208,
  CN_DEVICE_ATTRIBUTE_MAX_CLUSTERS_PER_UNION_LIMIT_TASK = 0x209,
  CN_DEVICE_ATTRIBUTE_MLU_ISA_VERSION = 0x20a,
  CN_DEVICE_ATTRIBUTE_IS_MULTIPLE_TENSOR_PROCESSOR = 0x20b,
  CN_DEVICE_ATTRIBUTE_IPCRESOURCE_PER_CTX = 0x20c,
  CN_DEVICE_ATTRIBUTE_MAX_L2_CACHE_SIZE = 0x301,
  CN_DEVICE_ATTRIBUTE_NRAM_SIZE_PER_CORE = 0x302,
  CN_DEVICE_ATTRIBUTE_NEURAL_RAM_SIZE_PER_CORE = 0x302,
  CN_DEVICE_ATTRIBUTE_WEIGHT_RAM_SIZE_PER_CORE = 0x303,
  CN_DEVICE_ATTRIBUTE_TOTAL_CONST_MEMORY_SIZE = 0x304,
  CN_DEVICE_ATTRIBUTE_LOCAL_MEMORY_SIZE_PER_CORE = 0x305,
  CN_DEVICE_ATTRIBUTE_MAX_SHARED_RAM_SIZE_PER_CLUSTER = 0x306,
  CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_NODE_COUNT = 0x307,
  CN_DEVICE_ATTRIBUTE_CLUSTER_L1_CACHE_SUPPORTED = 0x308,
  CN_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE = 0x309,
  CN_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_SIZE_PER_UNION_TASK = 0x30a,
  CN_DEVICE_ATTRIBUTE_AVAILABLE_GLOBAL_MEMORY_SIZE = 0x312,
  CN_DEVICE_ATTRIBUTE_ECC_ENABLED = 0x401,
  CN_DEVICE_ATTRIBUTE_CLUSTER_CLOCK_RATE = 0x402,
  CN_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 0x403,
  CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 0x404,
  CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_TOTAL_SIZE = 0x405,
  CN_DEVICE_ATTRIBUTE_PCI_BUS_ID = 0x406,
  CN_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 0x407,
  CN_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 0x408,
  CN_DEVICE_ATTRIBUTE_MDR_MEMORY_SIZE = 0x409,
  CN_DEVICE_ATTRIBUTE_MAX
} CNdevice_attribute;

/* Kernel classes: the task types of cnInvokeKernel and of a context's union
 * limit. The values equal cnrtFunctionType_t's. */
typedef enum cn_kernel_class {
  CN_KERNEL_CLASS_BLOCK = 1,
  CN_KERNEL_CLASS_UNION = 4,
  CN_KERNEL_CLASS_UNION1 = CN_KERNEL_CLASS_UNION,
  CN_KERNEL_CLASS_UNION2 = 8,
  CN_KERNEL_CLASS_UNION4 = 16,
  CN_KERNEL_CLASS_UNION8 = 32,
  CN_KERNEL_CLASS_UNION16 = 64,
  CN_KERNEL_CLASS_NONE = 0xFF
} KernelClass;

/* What cnGetCtxConfigParam/cnSetCtxConfigParam read or write. */
typedef enum cn_ctx_config_type {
  CN_CTX_CONFIG_VISIBLE_CLUSTER = 0, /* bitmap of the visible clusters */
  CN_CTX_CONFIG_VISIBLE_CLUSTER_NUM, /* number of visible clusters (get) */
  CN_CTX_CONFIG_UNION_LIMIT,         /* the largest KernelClass allowed */
  CN_CTX_CONFIG_NUM
} CNctxConfigParamType;

typedef union cn_ctx_config_param {
  cn_uint64_t visibleCluster;
  cn_uint64_t visibleClusterNumber;
  KernelClass unionLimit;
} CNctxConfigParam;

/* Memory types (CN_MEM_ATTRIBUTE_TYPE). */
enum CN_memory_type {
  CN_MEMORYTYPE_UNKNOWN = 0,
  CN_MEMORYTYPE_HOST = 1,
  CN_MEMORYTYPE_DEVICE = 2
};

/* --- Initialisation and versions ---------------------------------------- */
CNresult cnInit(unsigned int flags);
CNresult cnGetLibVersion(int *major, int *minor, int *patch);
CNresult cnGetErrorName(CNresult error, const char **pstr);
CNresult cnGetErrorString(CNresult error, const char **pstr);

/* --- Devices ------------------------------------------------------------ */
CNresult cnDeviceGetCount(int *pcount);
CNresult cnDeviceGet(CNdev *pdev, int ordinal);
CNresult cnDeviceGetAttribute(int *pi, CNdevice_attribute attrib, CNdev dev);
CNresult cnDeviceGetName(char *name, int len, CNdev dev);
CNresult cnDeviceTotalMem(cn_uint64_t *bytes, CNdev dev);

/* --- Contexts: one shared (primary) context per device ------------------ */
CNresult cnCtxGetCurrent(CNcontext *pctx);
CNresult cnCtxSetCurrent(CNcontext ctx);
CNresult cnCtxGetDevice(CNdev *pdev);
CNresult cnCtxSync(void);
CNresult cnSharedContextAcquire(CNcontext *pctx, CNdev dev);
CNresult cnSharedContextRelease(CNdev dev);
CNresult cnGetCtxConfigParam(CNcontext ctx, CNctxConfigParamType type,
                             CNctxConfigParam *param);
CNresult cnSetCtxConfigParam(CNcontext ctx, CNctxConfigParamType type,
                             CNctxConfigParam *param);
CNresult cnGetCtxMaxParallelUnionTasks(CNcontext ctx, KernelClass c,
                                       int *number);

/* --- Queues and memory -------------------------------------------------- */
CNresult cnQueueGetContext(CNqueue queue, CNcontext *pctx);
CNresult cnQueueSync(CNqueue queue);
CNresult cnMallocHost(void **pp, cn_uint64_t bytes);
CNresult cnFreeHost(void *p);

#ifdef __cplusplus
}
#endif

#endif /* BANGC_CN_API_H */
