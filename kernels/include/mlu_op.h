/*===- mlu_op.h - The mlu-ops style C API of bangc-sim's op library -----===*
 *
 * A C header (usable from C and C++) with mlu-ops' API for the operators
 * bangc-sim has: the same names, signatures and enum values as mlu-ops'
 * mlu_op.h for handles, queues (cnrtQueue_t), tensor descriptors (strides
 * included), status codes, and the TinShift and BorderAlign operators, and
 * the statuses mlu-ops' own API tests expect (docs/ops.md). Each operator is
 * a kernel written in bangc-sim's BANG-like language (kernels/<op>/<op>.mlu,
 * embedded in the library), compiled at run time by bangc-sim's compiler
 * once per handle, and run on the handle's simulated device.
 *
 * Device memory: pointers passed to operators are GDRAM addresses of the
 * handle's simulated device: from cnrtMalloc (the CNRT runtime, cnrt.h, for
 * a handle of mluOpCreate) or mluOpMalloc.
 *
 * Extensions (not in mlu-ops, marked "Extension" below): mluOpCreateWithDevice,
 * mluOpMalloc/mluOpFree/mluOpMemcpy*, mluOpSetLogLevel/mluOpSetLogCallback,
 * mluOpDataTypeBytes, mluOpGetLastPolicy.
 *
 *===----------------------------------------------------------------------===*/
#ifndef MLU_OP_H
#define MLU_OP_H

#include <stddef.h>
#include <stdint.h>

#include "cnrt.h"

#ifndef MLUOP_WIN_API
#define MLUOP_WIN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* --- Status -------------------------------------------------------------*/
typedef enum {
  MLUOP_STATUS_SUCCESS = 0,
  MLUOP_STATUS_NOT_INITIALIZED = 1,
  MLUOP_STATUS_ALLOC_FAILED = 2,
  MLUOP_STATUS_BAD_PARAM = 3,
  MLUOP_STATUS_INTERNAL_ERROR = 4,
  MLUOP_STATUS_ARCH_MISMATCH = 5,
  MLUOP_STATUS_EXECUTION_FAILED = 6,
  MLUOP_STATUS_NOT_SUPPORTED = 7,
  MLUOP_STATUS_NUMERICAL_OVERFLOW = 8,
} mluOpStatus_t;

/** "MLUOP_STATUS_BAD_PARAM", ... */
const char *MLUOP_WIN_API mluOpGetErrorString(mluOpStatus_t status);

/* --- Data types and layouts (mlu-ops' values) --------------------------*/
typedef enum {
  MLUOP_DTYPE_INVALID = 0,
  MLUOP_DTYPE_HALF = 1,
  MLUOP_DTYPE_FLOAT = 2,
  MLUOP_DTYPE_DOUBLE = 14,
  MLUOP_DTYPE_INT8 = 3,
  MLUOP_DTYPE_INT16 = 4,
  MLUOP_DTYPE_INT31 = 5,
  MLUOP_DTYPE_INT32 = 6,
  MLUOP_DTYPE_INT64 = 9,
  MLUOP_DTYPE_UINT8 = 7,
  MLUOP_DTYPE_UINT16 = 13,
  MLUOP_DTYPE_UINT32 = 11,
  MLUOP_DTYPE_UINT64 = 12,
  MLUOP_DTYPE_BOOL = 8,
  MLUOP_DTYPE_COMPLEX_HALF = 15,
  MLUOP_DTYPE_COMPLEX_FLOAT = 16,
  MLUOP_DTYPE_BFLOAT16 = 17,
} mluOpDataType_t;

typedef enum {
  MLUOP_LAYOUT_NCHW = 0,
  MLUOP_LAYOUT_NHWC = 1,
  MLUOP_LAYOUT_HWCN = 2,
  MLUOP_LAYOUT_NDHWC = 3,
  MLUOP_LAYOUT_ARRAY = 4,
  MLUOP_LAYOUT_NCDHW = 5,
  MLUOP_LAYOUT_TNC = 6,
  MLUOP_LAYOUT_NTC = 7,
  MLUOP_LAYOUT_NC = 8,
  MLUOP_LAYOUT_NLC = 9,
  MLUOP_LAYOUT_NCL = 10,
} mluOpTensorLayout_t;

/** Bytes of one element in *size (0 for MLUOP_DTYPE_INVALID); BAD_PARAM for
 *  a NULL size. */
mluOpStatus_t MLUOP_WIN_API mluOpGetSizeOfDataType(mluOpDataType_t data_type,
                                                   size_t *size);
/** Extension: bytes of one element; 0 for MLUOP_DTYPE_INVALID. */
size_t MLUOP_WIN_API mluOpDataTypeBytes(mluOpDataType_t dtype);

/* --- Logging ------------------------------------------------------------*/
typedef enum {
  MLUOP_LOG_ERROR = 0,
  MLUOP_LOG_WARNING = 1,
  MLUOP_LOG_INFO = 2,
  MLUOP_LOG_DEBUG = 3,
} mluOpLogLevel_t;

/** Receives each log line (without a trailing newline). */
typedef void (*mluOpLogCallback_t)(mluOpLogLevel_t level, const char *line,
                                   void *user);

/** Extension: lines at `level` or more severe are logged. Default
 *  MLUOP_LOG_WARNING, or $MLUOP_LOG_LEVEL (0-3) when set. */
void MLUOP_WIN_API mluOpSetLogLevel(mluOpLogLevel_t level);
/** Extension: sends log lines to `callback` instead of stderr (NULL: back
 *  to stderr). */
void MLUOP_WIN_API mluOpSetLogCallback(mluOpLogCallback_t callback,
                                       void *user);

/* --- Handles and queues -------------------------------------------------*/
/** A handle binds a simulated device and a CNRT queue; it caches the
 *  compiled kernels of the operators it has run. */
typedef struct mluOpContext *mluOpHandle_t;

/** A handle on the calling thread's current CNRT device (cnrtSetDevice;
 *  the devices are $BANGC_CNRT_DEVICES, default one mlu370), shared with
 *  the CNRT runtime: cnrtMalloc memory works with its operators, which
 *  launch on its queue. The queue is NULL (the device's default queue). */
mluOpStatus_t MLUOP_WIN_API mluOpCreate(mluOpHandle_t *handle);
/** Extension: a handle on a new private simulated device, a named built-in
 *  device ("mlu270", "mlu370", "tiny") or the path of a JSON device spec;
 *  its memory is mluOpMalloc's, it takes no CNRT queue. */
mluOpStatus_t MLUOP_WIN_API mluOpCreateWithDevice(mluOpHandle_t *handle,
                                                  const char *device);
mluOpStatus_t MLUOP_WIN_API mluOpDestroy(mluOpHandle_t handle);

/** The queue the handle's operators launch on (the handle does not own it;
 *  NULL is the default queue). The handle follows the queue's device.
 *  Launches on the simulator complete before the operator returns; their
 *  simulated time advances the queue's notifiers, and a kernel fault is
 *  MLUOP_STATUS_EXECUTION_FAILED and left on the queue for cnrtQueueSync.
 *  BAD_PARAM for a queue that is not a live cnrtQueue_t. */
mluOpStatus_t MLUOP_WIN_API mluOpSetQueue(mluOpHandle_t handle,
                                          cnrtQueue_t queue);
mluOpStatus_t MLUOP_WIN_API mluOpGetQueue(mluOpHandle_t handle,
                                          cnrtQueue_t *queue);

/** Extension: device memory of the handle's device (as cnrtMalloc and
 *  cnrtMemcpy; this memory is not known to cnrtMemcpy/cnrtFree). */
mluOpStatus_t MLUOP_WIN_API mluOpMalloc(mluOpHandle_t handle, void **ptr,
                                        size_t bytes);
mluOpStatus_t MLUOP_WIN_API mluOpFree(mluOpHandle_t handle, void *ptr);
mluOpStatus_t MLUOP_WIN_API mluOpMemcpyHostToDevice(mluOpHandle_t handle,
                                                    void *dst, const void *src,
                                                    size_t bytes);
mluOpStatus_t MLUOP_WIN_API mluOpMemcpyDeviceToHost(mluOpHandle_t handle,
                                                    void *dst, const void *src,
                                                    size_t bytes);

/** Extension: the policy the last operator run on `handle` chose, one line,
 *  e.g. "tin_shift_forward: regime 2 (split T) ...". Empty before any run. */
const char *MLUOP_WIN_API mluOpGetLastPolicy(mluOpHandle_t handle);

/* --- Tensor descriptors -------------------------------------------------*/
#define MLUOP_DIM_MAX 8
typedef struct mluOpTensorStruct *mluOpTensorDescriptor_t;

mluOpStatus_t MLUOP_WIN_API
mluOpCreateTensorDescriptor(mluOpTensorDescriptor_t *desc);
mluOpStatus_t MLUOP_WIN_API
mluOpDestroyTensorDescriptor(mluOpTensorDescriptor_t desc);
/** A dense tensor (strides of a row-major layout). dimNb in
 *  [0, MLUOP_DIM_MAX], every dimension >= 0, a valid dtype. */
mluOpStatus_t MLUOP_WIN_API mluOpSetTensorDescriptor(
    mluOpTensorDescriptor_t desc, mluOpTensorLayout_t layout,
    mluOpDataType_t dtype, int dimNb, const int dimSize[]);
mluOpStatus_t MLUOP_WIN_API mluOpSetTensorDescriptor_v2(
    mluOpTensorDescriptor_t desc, mluOpTensorLayout_t layout,
    mluOpDataType_t dtype, int dimNb, const int64_t dimSize[]);
/** A tensor with explicit strides (in elements). The operators here take
 *  only dense tensors: another stride is MLUOP_STATUS_NOT_SUPPORTED there,
 *  as in mlu-ops. */
mluOpStatus_t MLUOP_WIN_API mluOpSetTensorDescriptorEx(
    mluOpTensorDescriptor_t desc, mluOpTensorLayout_t layout,
    mluOpDataType_t dtype, int dimNb, const int dimSize[],
    const int dimStride[]);
mluOpStatus_t MLUOP_WIN_API mluOpSetTensorDescriptorEx_v2(
    mluOpTensorDescriptor_t desc, mluOpTensorLayout_t layout,
    mluOpDataType_t dtype, int dimNb, const int64_t dimSize[],
    const int64_t dimStride[]);
/** New dimensions (dense strides), keeping the layout and dtype. */
mluOpStatus_t MLUOP_WIN_API mluOpSetTensorDescriptorDim(
    mluOpTensorDescriptor_t desc, int dimNb, const int *dimSize);
mluOpStatus_t MLUOP_WIN_API mluOpSetTensorDescriptorDim_v2(
    mluOpTensorDescriptor_t desc, int dimNb, const int64_t *dimSize);
/** Back to the state after create: 0-D, float, ARRAY. */
mluOpStatus_t MLUOP_WIN_API
mluOpResetTensorDescriptor(mluOpTensorDescriptor_t desc);
/** Output pointers may be NULL (not written). */
mluOpStatus_t MLUOP_WIN_API mluOpGetTensorDescriptor(
    const mluOpTensorDescriptor_t desc, mluOpTensorLayout_t *layout,
    mluOpDataType_t *dtype, int *dimNb, int dimSize[]);
mluOpStatus_t MLUOP_WIN_API mluOpGetTensorDescriptor_v2(
    const mluOpTensorDescriptor_t desc, mluOpTensorLayout_t *layout,
    mluOpDataType_t *dtype, int *dimNb, int64_t dimSize[]);
/** As mlu-ops: every output pointer must be non-NULL. */
mluOpStatus_t MLUOP_WIN_API mluOpGetTensorDescriptorEx(
    const mluOpTensorDescriptor_t desc, mluOpTensorLayout_t *layout,
    mluOpDataType_t *dtype, int *dimNb, int dimSize[], int dimStride[]);
mluOpStatus_t MLUOP_WIN_API mluOpGetTensorDescriptorEx_v2(
    const mluOpTensorDescriptor_t desc, mluOpTensorLayout_t *layout,
    mluOpDataType_t *dtype, int *dimNb, int64_t dimSize[],
    int64_t dimStride[]);
/** Product of the dimensions (1 for 0-D; 0 for a NULL desc). */
size_t MLUOP_WIN_API
mluOpGetTensorElementNum(const mluOpTensorDescriptor_t desc);

/* --- TinShift -----------------------------------------------------------*/
/** output[n, t, c, :] = input[n, t - s, c, :] where s = shifts[n, c / (C/G)],
 *  or 0 when t - s is outside [0, T). input [N, T, C, HW] half/float,
 *  shifts [N, G] int32, output like input. */
mluOpStatus_t MLUOP_WIN_API mluOpTinShiftForward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t input_desc,
    const void *input, const mluOpTensorDescriptor_t shifts_desc,
    const void *shifts, const mluOpTensorDescriptor_t output_desc,
    void *output);
/** The true gradient (adjoint of forward): grad_input[n, t, c, :] =
 *  grad_output[n, t + s, c, :], or 0 outside [0, T). Note: mmcv's and
 *  mlu-ops' backward kernels shift the gradient the same way as the data;
 *  mluop::setTinShiftBackwardShiftsLikeForward (mlu_op_sim.h) selects that
 *  convention; see docs/ops.md. */
mluOpStatus_t MLUOP_WIN_API mluOpTinShiftBackward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t grad_output_desc,
    const void *grad_output, const mluOpTensorDescriptor_t shifts_desc,
    const void *shifts, const mluOpTensorDescriptor_t grad_input_desc,
    void *grad_input);

/* --- BorderAlign --------------------------------------------------------*/
/** input NHWC [N, H, W, 4C] (channel blocks top, left, bottom, right), boxes
 *  [N, K, 4] (x1, y1, x2, y2) with K = H * W (one box per pixel, as mmcv
 *  and mlu-ops; mluop::setBorderAlignAnyBoxCount in mlu_op_sim.h lifts
 *  that), output and argmax_idx NHWC [N, K, 4, C]. Layouts: input, output
 *  and argmax_idx MLUOP_LAYOUT_NHWC; dense tensors only. */
mluOpStatus_t MLUOP_WIN_API mluOpBorderAlignForward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t input_desc,
    const void *input, const mluOpTensorDescriptor_t boxes_desc,
    const void *boxes, const int32_t pool_size,
    const mluOpTensorDescriptor_t output_desc, void *output,
    const mluOpTensorDescriptor_t argmax_idx_desc, void *argmax_idx);
/** grad_input NHWC [N, H, W, 4C] is overwritten: zero-filled, then each
 *  grad_output element is added bilinearly to the 4 pixels around its
 *  argmax sample. grad_output, argmax_idx and grad_input
 *  MLUOP_LAYOUT_NHWC; K = H * W as in forward. */
mluOpStatus_t MLUOP_WIN_API mluOpBorderAlignBackward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t grad_output_desc,
    const void *grad_output, const mluOpTensorDescriptor_t boxes_desc,
    const void *boxes, const mluOpTensorDescriptor_t argmax_idx_desc,
    const void *argmax_idx, const int32_t pool_size,
    const mluOpTensorDescriptor_t grad_input_desc, void *grad_input);

#ifdef __cplusplus
}
#endif

#endif /* MLU_OP_H */
