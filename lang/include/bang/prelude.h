//===- prelude.h - The BANG language, force-included in every compile -----===//
//
// The frontend includes this before the user's source. It defines the BANG
// qualifiers, memory spaces, builtin variables, `half`, the memcpy directions
// and the macros real kernels use, and declares every intrinsic from the one
// table in intrinsics.def.
//
// The device-dependent macros MAX_NRAM_SIZE, MAX_WRAM_SIZE and MAX_SRAM_SIZE
// come from the device spec in use (the frontend passes them with -D).
//
//===----------------------------------------------------------------------===//
#ifndef BANG_PRELUDE_H
#define BANG_PRELUDE_H

#include <stddef.h>
#include <stdint.h>
#include <bangsim/KernelABI.h>

// --- Function qualifiers ------------------------------------------------===//
// Kernels are marked with an annotation that survives template instantiation;
// codegen finds them through @llvm.global.annotations.
#define __mlu_global__ __attribute__((annotate("bang.kernel"), noinline, used))
#define __mlu_entry__ __mlu_global__
#define __mlu_func__ inline __attribute__((always_inline))
#define __mlu_device__ inline
#define __mlu_host__
#define __mlu_builtin__ inline
/// A function of the vector-register API (__vv_*): a device helper, as
/// __mlu_func__.
#define __mlu_vector__ __mlu_func__

// --- Memory spaces ------------------------------------------------------===//
// A memory space is a property of the declaration, as CUDA's __shared__ is:
// pointers stay plain `T *` and the space of a pointer is known at run time
// from its address.
#define __nram__ __attribute__((annotate("bang.nram")))
#define __wram__ __attribute__((annotate("bang.wram")))
#define __mlu_shared__ __attribute__((annotate("bang.sram")))
#define __ldram__
#define __mlu_const__ const

// --- Builtin variables --------------------------------------------------===//
// Read-only; codegen replaces every load with a load from the task context.
extern "C" {
extern const int taskId, taskIdX, taskIdY, taskIdZ;
extern const int taskDim, taskDimX, taskDimY, taskDimZ;
extern const int coreId, coreDim, clusterId, clusterDim;
}

/// The simulator has no memory core: kernels' `if (__is_mpu()) return;` is a
/// no-op.
inline __attribute__((always_inline)) bool __is_mpu() { return false; }

// --- half ---------------------------------------------------------------===//
// IEEE binary16; arithmetic rounds to binary16 after every operation (the
// frontend passes -ffloat16-excess-precision=none).
typedef _Float16 half;

// --- memcpy directions --------------------------------------------------===//
typedef enum mluMemcpyDirection {
  GDRAM2NRAM = 0,
  NRAM2GDRAM = 1,
  NRAM2NRAM = 2,
  GDRAM2GDRAM = 3,
  GDRAM2WRAM = 4,
  NRAM2WRAM = 5,
  WRAM2NRAM = 6,
  GDRAM2SRAM = 7,
  SRAM2GDRAM = 8,
  SRAM2NRAM = 9,
  NRAM2SRAM = 10,
  SRAM2SRAM = 11,
  WRAM2GDRAM = 12,
  SRAM2WRAM = 13,
} mluMemcpyDirection_t;

// --- __bang_fusion operations -------------------------------------------===//
typedef enum mluFusionOp {
  FUSION_FMA = 0, ///< dst = a * b + c
  FUSION_FMS = 1, ///< dst = a * b - c
  FUSION_FAM = 2, ///< dst = (a + c) * b
  FUSION_FSM = 3, ///< dst = (a - c) * b
} mluFusionOp_t;

// --- Macros real kernels use --------------------------------------------===//
#ifndef __BANG_ARCH__
#define __BANG_ARCH__ 372
#endif
#define __BANG__ 1
#define NFU_ALIGN_SIZE 128
#define COMPUTE_COUNT_ALIGN 64
#define WRAM_ALIGN_SIZE 64
#define PAD_UP(x, y) (((x) / (y) + (int)((x) % (y) > 0)) * (y))
#define PAD_DOWN(x, y) (((x) / (y)) * (y))
#ifndef MAX_NRAM_SIZE
#error "MAX_NRAM_SIZE comes from the device spec; compile with bangc-sim"
#endif

// --- Vector registers (__vv_* intrinsics) ------------------------------===//
// A register holds BANG_VV_BYTES bytes: __vv_get_length() returns it, and a
// vv_T holds BANG_VV_BYTES / sizeof(T) elements of T. It is a value of the
// kernel (its locals), not memory of any space; __vv_load and __vv_store
// move it from and to NRAM. docs/language.md gives the model.
#define BANG_VV_BYTES 256
#define BANG_VV_TYPE(NAME, T)                                                  \
  struct alignas(64) NAME {                                                    \
    T v[BANG_VV_BYTES / sizeof(T)];                                            \
  };
BANG_VV_TYPE(vv_half, half)
BANG_VV_TYPE(vv_float, float)
BANG_VV_TYPE(vv_int16, int16_t)
BANG_VV_TYPE(vv_uint16, uint16_t)
BANG_VV_TYPE(vv_int32, int32_t)
BANG_VV_TYPE(vv_uint32, uint32_t)
#undef BANG_VV_TYPE

// --- Intrinsics, declared from the one table ----------------------------===//
// bang/intrinsics.h is intrinsics.def expanded at build time into one plain
// declaration per row, so diagnostics show readable candidates.
#include <bang/intrinsics.h>

#endif // BANG_PRELUDE_H
