//===- Handle.cpp - Handles, queues, descriptors, memory and logging ------===//
#include "kernels/core/Internal.h"
#include "kernels/core/KernelSources.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <mutex>

using namespace mluop;

// --- Logging ------------------------------------------------------------===//
namespace {
std::mutex logMutex;
mluOpLogCallback_t logCallback = nullptr;
void *logUser = nullptr;
int logLevel() {
  static int level = [] {
    const char *env = std::getenv("MLUOP_LOG_LEVEL");
    return env && *env >= '0' && *env <= '3' ? *env - '0' : 1;
  }();
  return level;
}
int &levelOverride() {
  static int v = -1;
  return v;
}
const char *const levelNames[] = {"error", "warning", "info", "debug"};
} // namespace

void mluop::log(mluOpLogLevel_t level, const std::string &line) {
  std::lock_guard lock(logMutex);
  int limit = levelOverride() >= 0 ? levelOverride() : logLevel();
  if (int(level) > limit)
    return;
  if (logCallback) {
    logCallback(level, line.c_str(), logUser);
    return;
  }
  llvm::errs() << "[mluOp " << levelNames[level] << "] " << line << "\n";
}

void mluOpSetLogLevel(mluOpLogLevel_t level) {
  std::lock_guard lock(logMutex);
  levelOverride() = int(level);
}

void mluOpSetLogCallback(mluOpLogCallback_t callback, void *user) {
  std::lock_guard lock(logMutex);
  logCallback = callback;
  logUser = user;
}

const char *mluOpGetErrorString(mluOpStatus_t status) {
  switch (status) {
  case MLUOP_STATUS_SUCCESS: return "MLUOP_STATUS_SUCCESS";
  case MLUOP_STATUS_NOT_INITIALIZED: return "MLUOP_STATUS_NOT_INITIALIZED";
  case MLUOP_STATUS_ALLOC_FAILED: return "MLUOP_STATUS_ALLOC_FAILED";
  case MLUOP_STATUS_BAD_PARAM: return "MLUOP_STATUS_BAD_PARAM";
  case MLUOP_STATUS_INTERNAL_ERROR: return "MLUOP_STATUS_INTERNAL_ERROR";
  case MLUOP_STATUS_ARCH_MISMATCH: return "MLUOP_STATUS_ARCH_MISMATCH";
  case MLUOP_STATUS_EXECUTION_FAILED: return "MLUOP_STATUS_EXECUTION_FAILED";
  case MLUOP_STATUS_NOT_SUPPORTED: return "MLUOP_STATUS_NOT_SUPPORTED";
  case MLUOP_STATUS_NUMERICAL_OVERFLOW: return "MLUOP_STATUS_NUMERICAL_OVERFLOW";
  }
  return "MLUOP_STATUS_UNKNOWN";
}

size_t mluOpDataTypeBytes(mluOpDataType_t dtype) {
  switch (dtype) {
  case MLUOP_DTYPE_HALF: case MLUOP_DTYPE_INT16: case MLUOP_DTYPE_UINT16:
    return 2;
  case MLUOP_DTYPE_FLOAT: case MLUOP_DTYPE_INT32: case MLUOP_DTYPE_UINT32:
    return 4;
  case MLUOP_DTYPE_INT8: case MLUOP_DTYPE_UINT8: case MLUOP_DTYPE_BOOL:
    return 1;
  case MLUOP_DTYPE_INT64: case MLUOP_DTYPE_DOUBLE:
    return 8;
  default:
    return 0;
  }
}

const char *mluop::dtypeName(mluOpDataType_t dtype) {
  switch (dtype) {
  case MLUOP_DTYPE_HALF: return "half";
  case MLUOP_DTYPE_FLOAT: return "float";
  case MLUOP_DTYPE_INT8: return "int8";
  case MLUOP_DTYPE_INT16: return "int16";
  case MLUOP_DTYPE_INT32: return "int32";
  case MLUOP_DTYPE_INT64: return "int64";
  case MLUOP_DTYPE_UINT8: return "uint8";
  case MLUOP_DTYPE_UINT16: return "uint16";
  case MLUOP_DTYPE_UINT32: return "uint32";
  case MLUOP_DTYPE_BOOL: return "bool";
  case MLUOP_DTYPE_DOUBLE: return "double";
  default: return "invalid";
  }
}

std::string mluop::shapeString(const mluOpTensorStruct *desc) {
  std::string s = "[";
  for (size_t i = 0; i < desc->dims.size(); ++i)
    s += (i ? ", " : "") + std::to_string(desc->dims[i]);
  return s + "]";
}

// --- Handles and queues -------------------------------------------------===//
mluOpStatus_t mluOpCreateWithDevice(mluOpHandle_t *handle, const char *device) {
  if (!handle || !device)
    return badParam("mluOpCreateWithDevice", "handle or device is NULL");
  auto spec = bangsim::loadDeviceSpec(device);
  if (!spec) {
    logError("mluOpCreateWithDevice", llvm::toString(spec.takeError()));
    return MLUOP_STATUS_BAD_PARAM;
  }
  auto dev = bangsim::Device::open(*spec);
  if (!dev) {
    logError("mluOpCreateWithDevice", llvm::toString(dev.takeError()));
    return MLUOP_STATUS_NOT_INITIALIZED;
  }
  auto *ctx = new mluOpContext;
  ctx->spec = *spec;
  ctx->device = std::move(*dev);
  *handle = ctx;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpCreate(mluOpHandle_t *handle) {
  const char *env = std::getenv("BANGSIM_DEVICE");
  return mluOpCreateWithDevice(handle, env && *env ? env : "mlu370");
}

mluOpStatus_t mluOpDestroy(mluOpHandle_t handle) {
  if (!handle)
    return badParam("mluOpDestroy", "handle is NULL");
  delete handle;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpCreateQueue(mluOpQueue_t *queue) {
  if (!queue)
    return badParam("mluOpCreateQueue", "queue is NULL");
  *queue = new mluOpQueueStruct;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpDestroyQueue(mluOpQueue_t queue) {
  if (!queue)
    return badParam("mluOpDestroyQueue", "queue is NULL");
  delete queue;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpSetQueue(mluOpHandle_t handle, mluOpQueue_t queue) {
  if (!handle)
    return badParam("mluOpSetQueue", "handle is NULL");
  handle->queue = queue ? queue : &handle->ownQueue;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpGetQueue(mluOpHandle_t handle, mluOpQueue_t *queue) {
  if (!handle || !queue)
    return badParam("mluOpGetQueue", "handle or queue is NULL");
  *queue = handle->queue;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpSyncQueue(mluOpQueue_t queue) {
  if (!queue)
    return badParam("mluOpSyncQueue", "queue is NULL");
  return MLUOP_STATUS_SUCCESS;
}

const char *mluOpGetLastPolicy(mluOpHandle_t handle) {
  return handle ? handle->lastPolicy.c_str() : "";
}

// --- Memory -------------------------------------------------------------===//
mluOpStatus_t mluOpMalloc(mluOpHandle_t handle, void **ptr, size_t bytes) {
  if (!handle || !ptr)
    return badParam("mluOpMalloc", "handle or ptr is NULL");
  auto p = handle->device->malloc(bytes ? bytes : 1);
  if (!p) {
    logError("mluOpMalloc", llvm::toString(p.takeError()));
    return MLUOP_STATUS_ALLOC_FAILED;
  }
  *ptr = *p;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpFree(mluOpHandle_t handle, void *ptr) {
  if (!handle)
    return badParam("mluOpFree", "handle is NULL");
  if (!ptr)
    return MLUOP_STATUS_SUCCESS;
  if (llvm::Error e = handle->device->free(ptr))
    return badParam("mluOpFree", llvm::toString(std::move(e)));
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpMemcpyHostToDevice(mluOpHandle_t handle, void *dst,
                                      const void *src, size_t bytes) {
  if (!handle || !dst || !src)
    return badParam("mluOpMemcpyHostToDevice", "a pointer is NULL");
  if (llvm::Error e = handle->device->copyToDevice(dst, src, bytes))
    return badParam("mluOpMemcpyHostToDevice", llvm::toString(std::move(e)));
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpMemcpyDeviceToHost(mluOpHandle_t handle, void *dst,
                                      const void *src, size_t bytes) {
  if (!handle || !dst || !src)
    return badParam("mluOpMemcpyDeviceToHost", "a pointer is NULL");
  if (llvm::Error e = handle->device->copyFromDevice(dst, src, bytes))
    return badParam("mluOpMemcpyDeviceToHost", llvm::toString(std::move(e)));
  return MLUOP_STATUS_SUCCESS;
}

// --- Tensor descriptors -------------------------------------------------===//
mluOpStatus_t mluOpCreateTensorDescriptor(mluOpTensorDescriptor_t *desc) {
  if (!desc)
    return badParam("mluOpCreateTensorDescriptor", "desc is NULL");
  *desc = new mluOpTensorStruct;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpSetTensorDescriptor(mluOpTensorDescriptor_t desc,
                                       mluOpTensorLayout_t layout,
                                       mluOpDataType_t dtype, int dimNb,
                                       const int dimSize[]) {
  const char *api = "mluOpSetTensorDescriptor";
  if (!desc)
    return badParam(api, "desc is NULL");
  if (dimNb < 0 || dimNb > MLUOP_DIM_MAX)
    return badParam(api, llvm::formatv("dimNb {0} is outside [0, {1}]", dimNb,
                                       MLUOP_DIM_MAX));
  if (dimNb > 0 && !dimSize)
    return badParam(api, "dimSize is NULL");
  if (mluOpDataTypeBytes(dtype) == 0)
    return badParam(api, "invalid data type");
  for (int i = 0; i < dimNb; ++i)
    if (dimSize[i] < 0)
      return badParam(api, llvm::formatv("dimension {0} is negative ({1})", i,
                                         dimSize[i]));
  desc->layout = layout;
  desc->dtype = dtype;
  desc->dims.assign(dimSize, dimSize + dimNb);
  desc->set = true;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpGetTensorDescriptor(const mluOpTensorDescriptor_t desc,
                                       mluOpTensorLayout_t *layout,
                                       mluOpDataType_t *dtype, int *dimNb,
                                       int dimSize[]) {
  if (!desc)
    return badParam("mluOpGetTensorDescriptor", "desc is NULL");
  if (layout)
    *layout = desc->layout;
  if (dtype)
    *dtype = desc->dtype;
  if (dimNb)
    *dimNb = int(desc->dims.size());
  if (dimSize)
    for (size_t i = 0; i < desc->dims.size(); ++i)
      dimSize[i] = int(desc->dims[i]);
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpDestroyTensorDescriptor(mluOpTensorDescriptor_t desc) {
  if (!desc)
    return badParam("mluOpDestroyTensorDescriptor", "desc is NULL");
  delete desc;
  return MLUOP_STATUS_SUCCESS;
}

uint64_t mluOpGetTensorElementNum(const mluOpTensorDescriptor_t desc) {
  if (!desc)
    return 0;
  uint64_t n = 1;
  for (int64_t d : desc->dims)
    n *= uint64_t(d);
  return n;
}

// --- Kernels and launches -----------------------------------------------===//
std::string mluop::kernelSource(const std::string &fileName) {
  for (size_t i = 0; i < numKernelSources; ++i)
    if (fileName == kernelSources[i].fileName)
      return std::string(reinterpret_cast<const char *>(kernelSources[i].bytes),
                         *kernelSources[i].size);
  return {};
}

bangsim::Module *mluop::kernelModule(mluOpHandle_t handle, const char *api,
                                     const std::string &name) {
  auto it = handle->modules.find(name);
  if (it != handle->modules.end())
    return it->second.get();
  std::string source = kernelSource(name);
  if (source.empty()) {
    logError(api, "no embedded kernel source " + name);
    return nullptr;
  }
  std::string diags;
  llvm::raw_string_ostream os(diags);
  bangsim::CompileOptions options;
  options.diagnostics = &os;
  options.useCache = handle->useCompileCache;
  auto start = std::chrono::steady_clock::now();
  auto module =
      bangsim::Module::compileString(name, source, handle->spec, options);
  handle->compileSeconds += std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - start)
                                .count();
  if (!module) {
    logError(api, "compiling " + name + " failed: " +
                      llvm::toString(module.takeError()) + "\n" + os.str());
    return nullptr;
  }
  log(MLUOP_LOG_DEBUG, std::string("[") + api + "] compiled " + name +
                           " for " + handle->spec.name);
  bangsim::Module *m = module->get();
  handle->modules[name] = std::move(*module);
  return m;
}

void mluop::beginOp(mluOpHandle_t handle, const std::string &policy) {
  handle->queue->launches.clear();
  handle->lastPolicy = policy;
  log(MLUOP_LOG_DEBUG, policy);
}

mluOpStatus_t mluop::launch(mluOpHandle_t handle, const char *api,
                            bangsim::Module &module, const std::string &kernel,
                            bangsim::Dim3 dim, bangsim::FuncType type,
                            const std::vector<bangsim::KernelArg> &args) {
  auto k = module.findKernel(kernel);
  if (!k) {
    logError(api, llvm::toString(k.takeError()));
    return MLUOP_STATUS_INTERNAL_ERROR;
  }
  auto stats = handle->device->launch(**k, module.staticLayout(), dim, type,
                                      args, handle->queue->options);
  if (!stats) {
    logError(api, "launch of " + kernel + " failed: " +
                      llvm::toString(stats.takeError()));
    return MLUOP_STATUS_EXECUTION_FAILED;
  }
  handle->queue->launches.push_back(std::move(*stats));
  return MLUOP_STATUS_SUCCESS;
}

// --- C++ extensions -----------------------------------------------------===//
bangsim::Device *mluop::deviceOf(mluOpHandle_t handle) {
  return handle ? handle->device.get() : nullptr;
}

void mluop::setLaunchOptions(mluOpQueue_t queue,
                             const bangsim::LaunchOptions &opts) {
  if (queue)
    queue->options = opts;
}

const std::vector<bangsim::LaunchStats> &mluop::lastLaunches(mluOpQueue_t queue) {
  return queue->launches;
}

double mluop::compileSeconds(mluOpHandle_t handle) {
  return handle ? handle->compileSeconds : 0;
}

void mluop::setCompileCache(mluOpHandle_t handle, bool enabled) {
  if (handle)
    handle->useCompileCache = enabled;
}

bangsim::LaunchStats mluop::mergedLastLaunches(mluOpQueue_t queue,
                                               const bangsim::DeviceSpec &spec) {
  bangsim::LaunchStats m;
  m.device = spec.name;
  m.clockGHz = spec.clockGHz;
  double busy = 0, coreCycles = 0;
  for (const bangsim::LaunchStats &s : queue->launches) {
    double offset = m.cycles;
    m.kernel += (m.kernel.empty() ? "" : " + ") + s.kernel;
    m.tasks += s.tasks;
    m.cycles += s.cycles;
    m.seconds += s.seconds;
    m.hostSeconds += s.hostSeconds;
    for (int d = 0; d < bangsim::NumDirections; ++d)
      m.bytesByDirection[d] += s.bytesByDirection[d];
    for (int o = 0; o < BANG_OP_NUM_CLASSES; ++o)
      m.opsByClass[o] += s.opsByClass[o];
    m.scalarInstructions += s.scalarInstructions;
    m.gdramReadBytes += s.gdramReadBytes;
    m.gdramWriteBytes += s.gdramWriteBytes;
    m.peakGdramGBps = std::max(m.peakGdramGBps, s.peakGdramGBps);
    if (m.cores.size() < s.cores.size())
      m.cores.resize(s.cores.size());
    for (size_t c = 0; c < s.cores.size(); ++c) {
      m.cores[c].computeBusy += s.cores[c].computeBusy;
      m.cores[c].dmaBusy += s.cores[c].dmaBusy;
      m.cores[c].end = offset + s.cores[c].end;
      m.cores[c].tasks += s.cores[c].tasks;
      busy += s.cores[c].computeBusy;
    }
    coreCycles += s.cycles * double(s.cores.size());
    for (bangsim::TraceEvent e : s.events) {
      e.start += offset;
      m.events.push_back(e);
    }
  }
  if (m.seconds > 0)
    m.ioEfficiency = double(m.gdramReadBytes + m.gdramWriteBytes) /
                     (m.seconds * spec.gdramGBps * 1e9);
  if (coreCycles > 0)
    m.computeEfficiency = busy / coreCycles;
  return m;
}
