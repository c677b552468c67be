//===- KernelABI.h - The frozen ABI between compiled kernels and simrt ----===//
//
// This header is the one contract between code the compiler emits (codegen/)
// and the simulated device that runs it (simrt/). It is plain C so that the
// device library (compiled by clang to bitcode) can include it too.
//
// Changing anything here changes the ABI: bump BANGSIM_ABI_VERSION.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_KERNELABI_H
#define BANGSIM_KERNELABI_H

#include <stdarg.h>
#include <stdint.h>

#define BANGSIM_ABI_VERSION 7

#ifdef __cplusplus
extern "C" {
#endif

/// Per-task state. simrt fills one for each simulated core of a launch; the
/// kernel reaches it through __bangsim_ctx(), which returns the same pointer
/// for the whole life of a task.
typedef struct BangTaskContext {
  int32_t taskId, taskIdX, taskIdY, taskIdZ;
  int32_t taskDim, taskDimX, taskDimY, taskDimZ;
  int32_t coreId, coreDim, clusterId, clusterDim;
  char *nram; ///< This core's NRAM.
  char *wram; ///< This core's WRAM.
  char *sram; ///< This core's cluster's SRAM.
  /// Source location of the intrinsic call being executed; codegen stores it
  /// before each intrinsic call so a fault can name the source line.
  const struct BangSrcLoc *loc;
  void *core; ///< Opaque simrt core state.
  /// Scalar instructions kernel code executed that simrt has not charged
  /// yet: codegen (the ScalarCost pass) adds its count here before each
  /// runtime or intrinsic call and each return; simrt charges and clears it
  /// on entry to every runtime function and when the task ends.
  int64_t scalarPending;
  /// Bytes of NRAM at `nram`: the device library checks vector operands in
  /// this task's own NRAM without a call into simrt. 0 under --check=race:
  /// then every operand goes to simrt, whose race checker sees it.
  int64_t nramBytes;
  /// Nonzero once the task's launch has stopped (a fault, or a --timeout
  /// seen by simrt's watchdog thread). Kernel code reads it atomically at
  /// loop headers and at the entry of recursive functions (the TimeoutPolls
  /// pass) and then calls __bangsim_fault, which leaves the task: a loop
  /// that calls nothing still stops.
  const volatile char *stop;
} BangTaskContext;

/// Field indices of BangTaskContext, used by codegen to build GEPs.
enum BangTaskContextField {
  BANG_CTX_TASK_ID = 0,
  BANG_CTX_TASK_ID_X,
  BANG_CTX_TASK_ID_Y,
  BANG_CTX_TASK_ID_Z,
  BANG_CTX_TASK_DIM,
  BANG_CTX_TASK_DIM_X,
  BANG_CTX_TASK_DIM_Y,
  BANG_CTX_TASK_DIM_Z,
  BANG_CTX_CORE_ID,
  BANG_CTX_CORE_DIM,
  BANG_CTX_CLUSTER_ID,
  BANG_CTX_CLUSTER_DIM,
  BANG_CTX_NRAM,
  BANG_CTX_WRAM,
  BANG_CTX_SRAM,
  BANG_CTX_LOC,
  BANG_CTX_CORE,
  BANG_CTX_SCALAR_PENDING,
  BANG_CTX_NRAM_BYTES,
  BANG_CTX_STOP,
};

/// A source location, emitted by codegen as a constant for each intrinsic call.
typedef struct BangSrcLoc {
  const char *file;
  int32_t line;
  int32_t col;
  const char *intrinsic; ///< e.g. "__memcpy"
  const char *function;  ///< enclosing function, demangled
} BangSrcLoc;

/// Memory spaces of static (__nram__/__wram__/__mlu_shared__) variables.
enum BangSpace { BANG_SPACE_NRAM = 0, BANG_SPACE_WRAM = 1, BANG_SPACE_SRAM = 2 };

/// Initial contents of one static on-chip variable: simrt copies `size` bytes
/// from `data` to `offset` in the space before tasks start.
typedef struct BangStaticInit {
  int32_t space;
  int32_t offset;
  int32_t size;
  const void *data;
} BangStaticInit;

/// The generated entry wrapper of a kernel: args[i] points at the value of
/// the kernel's i-th parameter.
typedef void (*BangKernelEntry)(void *const *args);

/// The value of one kernel parameter as a launch passes it: args[i] of the
/// entry wrapper points at `size` bytes laid out as the parameter's C type
/// (any alignment: the wrapper copies an aggregate before reading it).
typedef struct BangParamDesc {
  int32_t size;  ///< bytes of the value (sizeof the parameter's type)
  int32_t align; ///< alignof the parameter's type
} BangParamDesc;

/// One kernel of a module. `signature` has one letter per parameter:
/// p pointer, z bool, b i8, h i16, i i32, l i64, e f16, f f32, d f64, and
/// s a struct, class or union passed by value (its bytes; `params` gives
/// their size).
typedef struct BangKernelDesc {
  const char *name;      ///< Symbol (mangled) name.
  const char *pretty;    ///< Demangled name without parameters, e.g. "vadd<float>".
  const char *signature; ///< See above.
  BangKernelEntry entry;
  const char *file;
  int32_t line;
  /// One entry per letter of `signature` (null when it is empty).
  const BangParamDesc *params;
} BangKernelDesc;

/// Everything simrt needs to know about a compiled module. codegen emits one
/// constant of this type named BANGSIM_MODULE_DESC_SYMBOL.
typedef struct BangModuleDesc {
  int32_t abiVersion;
  int32_t numKernels;
  const BangKernelDesc *kernels;
  int32_t staticBytes[3]; ///< Indexed by BangSpace.
  int32_t numInits;
  const BangStaticInit *inits;
} BangModuleDesc;

#define BANGSIM_MODULE_DESC_SYMBOL "__bangsim_module_desc"

/// Vector-unit operation classes for the cost model.
enum BangOpClass {
  BANG_OP_MOVE = 0,   ///< fills, moves, transposes
  BANG_OP_ALU,        ///< add, sub, max, compare, logic
  BANG_OP_MUL,        ///< mul, fusion
  BANG_OP_DIV,        ///< div, recip
  BANG_OP_CVT,        ///< conversions
  BANG_OP_ACT,        ///< activations (transcendental)
  BANG_OP_REDUCE,     ///< reductions, pools, lut
  BANG_OP_MAC,        ///< conv, matmul: counted in multiply-accumulates
  BANG_OP_ATOMIC,     ///< atomics on GDRAM
  BANG_OP_NUM_CLASSES
};

/// Element types for the cost model and checks.
enum BangDType {
  BANG_DT_I8 = 0,
  BANG_DT_U8,
  BANG_DT_I16,
  BANG_DT_U16,
  BANG_DT_I32,
  BANG_DT_U32,
  BANG_DT_I64,
  BANG_DT_F16,
  BANG_DT_F32,
  BANG_DT_F64,
  BANG_DT_NUM
};

/// A flag of __bangsim_atomic's op: the source is one value of the kernel
/// (any memory), used for every element.
enum { BANG_ATOMIC_SCALAR = 0x100 };

/// Access kinds for __bangsim_check_vec.
enum BangAccess { BANG_READ = 1, BANG_WRITE = 2 };

/// Memory spaces an operand may live in, as a bit mask.
enum BangSpaceMask {
  BANG_IN_NRAM = 1,
  BANG_IN_WRAM = 2,
  BANG_IN_SRAM = 4,
  BANG_IN_GDRAM = 8,
};

// --- Runtime entry points the kernel calls (implemented by simrt) -------===//
// One declaration per row of bangsim/RuntimeFunctions.def, which documents
// each.
#define BANGSIM_RUNTIME_FUNCTION(NAME, RET, PARAMS, ATTRS) RET NAME PARAMS ATTRS;
#include "bangsim/RuntimeFunctions.def"
#undef BANGSIM_RUNTIME_FUNCTION

#ifdef __cplusplus
}
#endif

#endif // BANGSIM_KERNELABI_H
