//===- prelude.h - The BANG language, force-included in every compile -----===//
//
// The frontend includes this before the user's source. It defines the BANG
// qualifiers, memory spaces, builtin variables, `half`, the memcpy directions
// and the macros real kernels use, and declares every intrinsic from the one
// table in intrinsics.def.
//
// The device-dependent macros are cncc's: __BANG_ARCH__ and the on-chip
// sizes __MLU_NRAM_SIZE__, __MLU_WRAM_SIZE__, __MLU_SRAM_SIZE__ in KiB (the
// frontend passes them with -D). MAX_NRAM_SIZE and the like are not among
// them: kernels define those, as mlu-ops' kernels/kernel.h does.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_PRELUDE_H
#define BANG_PRELUDE_H

#include <stddef.h>
#include <stdint.h>
#include <bangsim/KernelABI.h>

// In CUDA mode (a host + device source) everything the prelude declares,
// the intrinsics and the C math library included, is callable from both
// sides, as the CUDA headers make them. The C++ headers <cmath> shares with
// the rest of the library come first, outside that region, so that they
// stay host code (constexpr functions such as std::min are both anyway):
// declared inside, a later host redeclaration (std::terminate) would clash.
#ifdef __CUDA__
#include <cstddef>
#include <limits>
#include <type_traits>
#include <algorithm>
#pragma clang force_cuda_host_device begin
#endif

// --- Function qualifiers ------------------------------------------------===//
// Kernels are marked with an annotation that survives template instantiation;
// codegen finds them through @llvm.global.annotations.
//
// A host + device source (one that launches kernels with <<<>>> or defines
// main; docs/host-code.md) is compiled twice in Clang's CUDA mode
// (__CUDA__): the qualifiers then also carry CUDA's attributes, so that
// Clang keeps host functions out of the device compilation and kernels and
// device functions out of the host one; an unqualified function is host
// code there, as with cncc. A device-only source is plain C++ and every
// function in it is device code.
#ifdef __CUDA__
#define BANG_CUDA_(...) __attribute__((__VA_ARGS__))
#else
#define BANG_CUDA_(...)
#endif
#define __mlu_global__                                                         \
  BANG_CUDA_(global) __attribute__((annotate("bang.kernel"), noinline, used))
#define __mlu_entry__ __mlu_global__
#define __mlu_func__ BANG_CUDA_(device) inline __attribute__((always_inline))
#define __mlu_device__ BANG_CUDA_(device) inline
#define __mlu_host__ BANG_CUDA_(host)
#define __mlu_builtin__ BANG_CUDA_(device) inline
/// A function of the vector-register API (__vv_*): a device helper, as
/// __mlu_func__.
#define __mlu_vector__ __mlu_func__

// --- Memory spaces ------------------------------------------------------===//
// A memory space is a property of the declaration, as CUDA's __shared__ is:
// pointers stay plain `T *` and the space of a pointer is known at run time
// from its address. In a host + device source the frontend makes a
// file-scope one CUDA __shared__ (device memory); a block-scope one is a
// local of device code either way.
#define __nram__ __attribute__((annotate("bang.nram")))
#define __wram__ __attribute__((annotate("bang.wram")))
#define __mlu_shared__ __attribute__((annotate("bang.sram")))
#define __ldram__
#define __mlu_const__ const

// --- Builtin variables --------------------------------------------------===//
// Read-only; codegen replaces every load with a load from the task context.
extern "C" {
extern BANG_CUDA_(device) const int taskId, taskIdX, taskIdY, taskIdZ;
extern BANG_CUDA_(device) const int taskDim, taskDimX, taskDimY, taskDimZ;
extern BANG_CUDA_(device) const int coreId, coreDim, clusterId, clusterDim;
}

/// The simulator has no memory core: kernels' `if (__is_mpu()) return;` is a
/// no-op.
inline __attribute__((always_inline)) bool __is_mpu() { return false; }

// --- half ---------------------------------------------------------------===//
// IEEE binary16; arithmetic rounds to binary16 after every operation (the
// frontend passes -ffloat16-excess-precision=none).
typedef _Float16 half;
/// bfloat16: the high 16 bits of a binary32 (conversions in intrinsics.def).
typedef __bf16 bfloat16_t;

// --- Scalar math (F11) --------------------------------------------------===//
// cncc declares the C math library for device code (logf, powf, INFINITY,
// std::isnan, ...): so do we, from the host's <cmath>. `half` gets its own
// overloads, computed in float and rounded once to half, so that sin(h) or
// std::isnan(h) is not ambiguous between float, double and long double.
// The C++17 special functions (std::beta, ...), which device code has no use
// for, are left out: libstdc++'s header of them would double the prelude's
// parse time.
#define _GLIBCXX_BITS_SPECFUN_H 1
#include <cmath>
#include <math.h>
#define BANG_HALF_MATH_1(F)                                                    \
  inline __attribute__((always_inline)) half F(half x) {                       \
    return (half)::F##f((float)x);                                             \
  }
#define BANG_HALF_MATH_2(F)                                                    \
  inline __attribute__((always_inline)) half F(half x, half y) {               \
    return (half)::F##f((float)x, (float)y);                                   \
  }
#define BANG_HALF_CLASSIFY(F)                                                  \
  inline __attribute__((always_inline)) bool F(half x) {                       \
    return std::F((float)x);                                                   \
  }
#define BANG_HALF_MATH(M1, M2, C)                                              \
  M1(sin) M1(cos) M1(tan) M1(asin) M1(acos) M1(atan) M1(sinh) M1(cosh)         \
  M1(tanh) M1(asinh) M1(acosh) M1(atanh) M1(exp) M1(exp2) M1(expm1) M1(log)    \
  M1(log2) M1(log10) M1(log1p) M1(sqrt) M1(cbrt) M1(fabs) M1(floor) M1(ceil)   \
  M1(trunc) M1(round) M1(rint) M1(nearbyint) M1(erf) M1(erfc) M1(lgamma)       \
  M1(tgamma) M2(pow) M2(fmod) M2(fmax) M2(fmin) M2(atan2) M2(hypot)            \
  M2(copysign) M2(remainder) C(isnan) C(isinf) C(isfinite) C(signbit)          \
  C(isnormal)
BANG_HALF_MATH(BANG_HALF_MATH_1, BANG_HALF_MATH_2, BANG_HALF_CLASSIFY)
inline __attribute__((always_inline)) half abs(half x) { return fabs(x); }
namespace std {
BANG_HALF_MATH(BANG_HALF_MATH_1, BANG_HALF_MATH_2, BANG_HALF_CLASSIFY)
// One abs(half) in both scopes: libstdc++'s <stdlib.h> does `using std::abs;`
// at global scope, which conflicts with a second, different ::abs(half).
using ::abs;
// C++17's float names that libstdc++ before 14 leaves out of std.
using ::ceilf;
using ::expf;
using ::fabsf;
using ::floorf;
using ::fmodf;
using ::logf;
using ::powf;
using ::sqrtf;
using ::sinf;
using ::cosf;
using ::tanhf;
using ::roundf;
using ::truncf;
} // namespace std
#ifdef __CUDA__
// glibc's abs(int) comes before the host + device region (through
// <algorithm>): a host function, which device code cannot call, so that
// abs(i) there was ambiguous among std::abs(long) ... and abs(half).
// Device code gets its own.
__attribute__((device)) inline int abs(int x) { return __builtin_abs(x); }
#endif
#undef BANG_HALF_MATH
#undef BANG_HALF_CLASSIFY
#undef BANG_HALF_MATH_2
#undef BANG_HALF_MATH_1

// --- memcpy directions --------------------------------------------------===//
// One constant per row of the table (GDRAM2NRAM = 0, ...).
typedef enum mluMemcpyDirection {
#define BANG_MEMCPY_DIRECTION(NAME, VALUE, SRC, DST) NAME = VALUE,
#include <bangsim/MemcpyDirections.def>
#undef BANG_MEMCPY_DIRECTION
} mluMemcpyDirection_t;

// --- __bang_fusion operations -------------------------------------------===//
typedef enum mluFusionOp {
  FUSION_FMA = 0, ///< dst = a * b + c
  FUSION_FMS = 1, ///< dst = a * b - c
  FUSION_FAM = 2, ///< dst = (a + b) * c
  FUSION_FSM = 3, ///< dst = (a - b) * c
  FUSION_FAS = 4, ///< dst = (a + b) - c
  FUSION_FSA = 5, ///< dst = (a - b) + c
  FUSION_FSS = 6, ///< dst = (a - b) - c
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

// --- Vector registers (__vv_* intrinsics) ------------------------------===//
// A register holds BANG_VV_BYTES bytes: __vv_get_length() returns it, and a
// vv_T holds BANG_VV_BYTES / sizeof(T) elements of T. It is a value of the
// kernel (its locals), not memory of any space; __vv_load and __vv_store
// move it from and to NRAM. docs/language.md gives the model.
// Each is a GCC vector type, not a struct: as on the device, a register is
// one value that fits an "r" inline assembly operand (common.h writes
// `"+r"(vv_float)` for index.vvr.f32; a struct that wide cannot be one). GCC
// vectors, unlike ext_vector_type, take no implicit scalar splat, so
// `__vv_add(r, r, 1)` picks the scalar overload without ambiguity.
#define BANG_VV_BYTES 256
#define BANG_VV_TYPE(NAME, T)                                                  \
  typedef T NAME __attribute__((vector_size(BANG_VV_BYTES)));
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

#ifdef __CUDA__
#pragma clang force_cuda_host_device end
// As nvcc includes cuda_runtime.h: a host + device source launches with
// CNRT's types and the launch ABI (bang/host_launch.h) without including
// cnrt.h itself.
#include <cnrt.h>
#endif

#endif // BANG_PRELUDE_H
