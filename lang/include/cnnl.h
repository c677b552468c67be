/*===- cnnl.h - The CNNL names mlu-ops' headers use (declarations only) -*- C -*-=
 *
 * mlu-ops' core/cnnl_helper.h includes Cambricon's CNNL library header, so
 * every mlu-ops kernel that includes it (the FFT kernels, ms_deform_attn...)
 * stops at `#include "cnnl.h"` unless a cnnl.h exists. This header declares
 * the CNNL types, values and functions that mlu-ops' headers and .mlu files
 * name, with CNNL's spellings and values, so those files compile unmodified.
 *
 * bangc-sim has no CNNL library: these are declarations only, and a program
 * that calls a cnnl* function does not link (undefined reference). The
 * device compilation never calls them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef BANGC_CNNL_H
#define BANGC_CNNL_H

#include <stddef.h>
#include <stdint.h>

#include "cnrt.h"

#ifndef CNNL_WIN_API
#define CNNL_WIN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CNNL_STATUS_SUCCESS = 0,
  CNNL_STATUS_NOT_INITIALIZED = 1,
  CNNL_STATUS_ALLOC_FAILED = 2,
  CNNL_STATUS_BAD_PARAM = 3,
  CNNL_STATUS_INTERNAL_ERROR = 4,
  CNNL_STATUS_ARCH_MISMATCH = 5,
  CNNL_STATUS_EXECUTION_FAILED = 6,
  CNNL_STATUS_NOT_SUPPORTED = 7,
  CNNL_STATUS_NUMERICAL_OVERFLOW = 8
} cnnlStatus_t;

typedef enum {
  CNNL_LAYOUT_NCHW = 0,
  CNNL_LAYOUT_NHWC = 1,
  CNNL_LAYOUT_HWCN = 2,
  CNNL_LAYOUT_NDHWC = 3,
  CNNL_LAYOUT_ARRAY = 4,
  CNNL_LAYOUT_NCDHW = 5,
  CNNL_LAYOUT_TNC = 6,
  CNNL_LAYOUT_NTC = 7,
  CNNL_LAYOUT_NC = 8,
  CNNL_LAYOUT_NLC = 9
} cnnlTensorLayout_t;

typedef enum {
  CNNL_DTYPE_INVALID = 0,
  CNNL_DTYPE_HALF = 1,
  CNNL_DTYPE_FLOAT = 2,
  CNNL_DTYPE_INT8 = 3,
  CNNL_DTYPE_INT16 = 4,
  CNNL_DTYPE_INT31 = 5,
  CNNL_DTYPE_INT32 = 6,
  CNNL_DTYPE_UINT8 = 7,
  CNNL_DTYPE_BOOL = 8
} cnnlDataType_t;

/* Where a scalar argument (cnnlFill_v3's value) lives. The values are not
 * in the CNNL documentation we checked: HOST = 0, DEVICE = 1 is our
 * choice. */
typedef enum {
  CNNL_POINTER_MODE_HOST = 0,
  CNNL_POINTER_MODE_DEVICE = 1
} cnnlPointerMode_t;

/* The element-wise operation of cnnlOpTensor (ADD = 0 as in CNNL; MUL and
 * SUB follow in CNNL's order). */
typedef enum {
  CNNL_OP_TENSOR_ADD = 0,
  CNNL_OP_TENSOR_MUL = 1,
  CNNL_OP_TENSOR_SUB = 2
} cnnlOpTensorDesc_t;

typedef struct cnnlContext *cnnlHandle_t;
typedef struct cnnlTensorStruct *cnnlTensorDescriptor_t;

cnnlStatus_t CNNL_WIN_API cnnlCreate(cnnlHandle_t *handle);
cnnlStatus_t CNNL_WIN_API cnnlDestroy(cnnlHandle_t handle);
cnnlStatus_t CNNL_WIN_API cnnlSetQueue(cnnlHandle_t handle, cnrtQueue_t queue);
cnnlStatus_t CNNL_WIN_API cnnlGetQueue(cnnlHandle_t handle,
                                       cnrtQueue_t *queue);
const char *cnnlGetErrorString(cnnlStatus_t status);
cnnlStatus_t CNNL_WIN_API
cnnlCreateTensorDescriptor(cnnlTensorDescriptor_t *desc);
cnnlStatus_t CNNL_WIN_API
cnnlDestroyTensorDescriptor(cnnlTensorDescriptor_t desc);
cnnlStatus_t CNNL_WIN_API cnnlSetTensorDescriptor(cnnlTensorDescriptor_t desc,
                                                  cnnlTensorLayout_t layout,
                                                  cnnlDataType_t dtype,
                                                  int dimNb,
                                                  const int dimSize[]);
cnnlStatus_t CNNL_WIN_API cnnlFill_v3(cnnlHandle_t handle,
                                      cnnlPointerMode_t pointer_mode,
                                      const void *value,
                                      const cnnlTensorDescriptor_t output_desc,
                                      void *output);

#ifdef __cplusplus
}
#endif

#endif /* BANGC_CNNL_H */
