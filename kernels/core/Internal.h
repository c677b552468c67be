//===- Internal.h - Shared internals of the op library ---------*- C++ -*-===//
//
// What every operator's host code (kernels/<op>/<op>.cpp) uses: the handle,
// queue and tensor structs behind the C API's opaque pointers, logging and
// the parameter-check helpers, the per-handle kernel modules and launches.
//
//===----------------------------------------------------------------------===//
#ifndef MLU_OP_INTERNAL_H
#define MLU_OP_INTERNAL_H

#include "mlu_op.h"
#include "mlu_op_sim.h"

#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/FormatVariadic.h"

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct mluOpContext {
  /// Where memory and launches go: a device of the CNRT runtime
  /// (bangsim/Cnrt.h; mluOpCreate, shared with cnrtMalloc and <<<>>>), or
  /// the handle's own (mluOpCreateWithDevice, in ownDevice).
  bangsim::Device *device = nullptr;
  std::unique_ptr<bangsim::Device> ownDevice;
  bangsim::DeviceSpec spec;
  /// The queue of mluOpSetQueue (not owned; NULL: the default queue of the
  /// current CNRT device). Launches of a CNRT handle go through it.
  cnrtQueue_t queue = nullptr;
  /// Options of the handle's launches and the stats of the last operator's.
  bangsim::LaunchOptions launchOptions;
  std::vector<bangsim::LaunchStats> launches;
  /// Compiled kernel modules by source name, compiled on first use.
  std::map<std::string, std::unique_ptr<bangsim::Module>> modules;
  double compileSeconds = 0;
  bool useCompileCache = true;
  std::string lastPolicy;
  /// The documented differences from mlu-ops (mlu_op_sim.h).
  bool tinShiftBackwardLikeForward = false;
  bool borderAlignAnyBoxCount = false;
};

/// A tensor descriptor: after create or reset a 0-D float ARRAY, as in
/// mlu-ops. Strides are in elements; the set calls without strides store
/// the dense (row-major) ones.
struct mluOpTensorStruct {
  mluOpTensorLayout_t layout = MLUOP_LAYOUT_ARRAY;
  mluOpDataType_t dtype = MLUOP_DTYPE_FLOAT;
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;
  /// Product of the dimensions (1 for 0-D).
  uint64_t elementCount() const;
  /// Whether the strides are the dense ones (mlu-ops' rule: a dimension of
  /// size 1 may have any stride).
  bool isDense() const;
};

namespace mluop {

void log(mluOpLogLevel_t level, const std::string &line);
inline void logError(const char *api, const std::string &reason) {
  log(MLUOP_LOG_ERROR, std::string("[") + api + "] " + reason);
}
/// Logs "[api] reason" and returns BAD_PARAM.
inline mluOpStatus_t badParam(const char *api, const std::string &reason) {
  logError(api, reason);
  return MLUOP_STATUS_BAD_PARAM;
}

/// One pointer argument of an API call, named as the API's parameter is.
struct NamedPointer {
  std::string name;
  const void *pointer;
};
/// BAD_PARAM "NAME is NULL" for the first null pointer, in order; SUCCESS
/// when none is null.
inline mluOpStatus_t checkNotNull(const char *api,
                                  std::initializer_list<NamedPointer> args) {
  for (const NamedPointer &a : args)
    if (!a.pointer)
      return badParam(api, a.name + " is NULL");
  return MLUOP_STATUS_SUCCESS;
}

/// Logs "[api] reason" and returns NOT_SUPPORTED.
inline mluOpStatus_t notSupported(const char *api, const std::string &reason) {
  logError(api, reason);
  return MLUOP_STATUS_NOT_SUPPORTED;
}

/// The largest element count an operator takes, as mlu-ops: tensors of
/// 2^31 elements or more are NOT_SUPPORTED.
constexpr uint64_t LargeTensorElements = uint64_t(1) << 31;

/// NOT_SUPPORTED for the first descriptor that has non-dense strides (a
/// tensor of no elements is dense), then for the first of 2^31 elements
/// or more; SUCCESS otherwise. Names are the API's parameter names.
struct NamedTensor {
  std::string name;
  const mluOpTensorStruct *desc;
};
mluOpStatus_t checkDense(const char *api, std::initializer_list<NamedTensor> t);
mluOpStatus_t checkElementCount(const char *api,
                                std::initializer_list<NamedTensor> t);

const char *dtypeName(mluOpDataType_t dtype);
const char *layoutName(mluOpTensorLayout_t layout);
std::string shapeString(const mluOpTensorStruct *desc);

/// The handle's compiled module for the embedded kernel source `fileName`
/// (kernels/<op>/<fileName>, core/KernelSources.h), compiled on first use.
/// Null (after logging) when there is no such source or compilation fails.
bangsim::Module *kernelModule(mluOpHandle_t handle, const char *api,
                              const std::string &fileName);

/// Launches and records the stats on the handle's queue. EXECUTION_FAILED
/// (logged) on a fault.
mluOpStatus_t launch(mluOpHandle_t handle, const char *api,
                     bangsim::Module &module, const std::string &kernel,
                     bangsim::Dim3 dim, bangsim::FuncType type,
                     const std::vector<bangsim::KernelArg> &args);
/// Clears the handle's launch list (start of an operator).
void beginOp(mluOpHandle_t handle, const std::string &policy);

} // namespace mluop

#endif
