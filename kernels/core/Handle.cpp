//===- Handle.cpp - Handles, queues, memory, logging and launches ---------===//
//
// The handle side of the C API (mlu_op.h) and the C++ extensions
// (mlu_op_sim.h); tensor descriptors are in Tensor.cpp.
//
//===----------------------------------------------------------------------===//
#include "kernels/core/Internal.h"
#include "kernels/core/KernelSources.h"

#include "bangsim/Cnrt.h"

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
  ctx->ownDevice = std::move(*dev);
  ctx->device = ctx->ownDevice.get();
  *handle = ctx;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpCreate(mluOpHandle_t *handle) {
  if (!handle)
    return badParam("mluOpCreate", "handle is NULL");
  llvm::Expected<bangsim::Device *> dev = bangsim::cnrt::currentDevice();
  if (!dev) {
    logError("mluOpCreate", llvm::toString(dev.takeError()));
    return MLUOP_STATUS_NOT_INITIALIZED;
  }
  auto *ctx = new mluOpContext;
  ctx->device = *dev;
  ctx->spec = ctx->device->spec();
  *handle = ctx;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpDestroy(mluOpHandle_t handle) {
  if (!handle)
    return badParam("mluOpDestroy", "handle is NULL");
  delete handle;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpSetQueue(mluOpHandle_t handle, cnrtQueue_t queue) {
  const char *api = "mluOpSetQueue";
  if (!handle)
    return badParam(api, "handle is NULL");
  if (!queue) {
    handle->queue = nullptr;
    return MLUOP_STATUS_SUCCESS;
  }
  if (handle->ownDevice)
    return badParam(api, "a handle of mluOpCreateWithDevice has its own "
                         "device and no CNRT queue; use mluOpCreate");
  llvm::Expected<int> ordinal = bangsim::cnrt::queueDevice(queue);
  if (!ordinal)
    return badParam(api, llvm::toString(ordinal.takeError()));
  llvm::Expected<bangsim::Device *> dev = bangsim::cnrt::device(*ordinal);
  if (!dev)
    return badParam(api, llvm::toString(dev.takeError()));
  if (*dev != handle->device) {
    // The queue is on another device: the handle follows it; kernels
    // compiled for another spec are compiled again.
    if ((*dev)->spec().name != handle->spec.name)
      handle->modules.clear();
    handle->device = *dev;
    handle->spec = (*dev)->spec();
  }
  handle->queue = queue;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpGetQueue(mluOpHandle_t handle, cnrtQueue_t *queue) {
  if (!handle)
    return badParam("mluOpGetQueue", "handle is NULL");
  if (!queue)
    return badParam("mluOpGetQueue", "queue is NULL");
  *queue = handle->queue;
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
  // --check=race sees the kernels' scalar accesses too.
  options.checkAccesses = options.checkRaces =
      handle->launchOptions.checkRaces;
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
  handle->launches.clear();
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
  // A CNRT handle launches on its queue (the queue's clock, faults left
  // for cnrtQueueSync); a handle of mluOpCreateWithDevice on its device.
  auto stats =
      handle->ownDevice
          ? handle->device->launch(**k, module.staticLayout(), dim, type,
                                   args, handle->launchOptions)
          : bangsim::cnrt::launch(handle->queue, **k, module.staticLayout(),
                                  dim, type, args, handle->launchOptions);
  if (!stats) {
    logError(api, "launch of " + kernel + " failed: " +
                      llvm::toString(stats.takeError()));
    return MLUOP_STATUS_EXECUTION_FAILED;
  }
  handle->launches.push_back(std::move(*stats));
  return MLUOP_STATUS_SUCCESS;
}

// --- C++ extensions -----------------------------------------------------===//
bangsim::Device *mluop::deviceOf(mluOpHandle_t handle) {
  return handle ? handle->device : nullptr;
}

void mluop::setLaunchOptions(mluOpHandle_t handle,
                             const bangsim::LaunchOptions &opts) {
  if (handle)
    handle->launchOptions = opts;
}

const std::vector<bangsim::LaunchStats> &
mluop::lastLaunches(mluOpHandle_t handle) {
  return handle->launches;
}

double mluop::compileSeconds(mluOpHandle_t handle) {
  return handle ? handle->compileSeconds : 0;
}

void mluop::setCompileCache(mluOpHandle_t handle, bool enabled) {
  if (handle)
    handle->useCompileCache = enabled;
}

void mluop::setTinShiftBackwardShiftsLikeForward(mluOpHandle_t handle,
                                                 bool enabled) {
  if (handle)
    handle->tinShiftBackwardLikeForward = enabled;
}

void mluop::setBorderAlignAnyBoxCount(mluOpHandle_t handle, bool enabled) {
  if (handle)
    handle->borderAlignAnyBoxCount = enabled;
}

bangsim::LaunchStats mluop::mergedLastLaunches(mluOpHandle_t handle) {
  const bangsim::DeviceSpec &spec = handle->spec;
  bangsim::LaunchStats m;
  m.device = spec.name;
  m.clockGHz = spec.clockGHz;
  double busy = 0, coreCycles = 0;
  for (const bangsim::LaunchStats &s : handle->launches) {
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
      for (int p = 0; p < bangsim::NumPipes; ++p) {
        m.cores[c].pipeBusy[p] += s.cores[c].pipeBusy[p];
        m.pipeBusy[p] += s.cores[c].pipeBusy[p];
      }
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
  for (int p = 0; p < bangsim::NumPipes; ++p)
    if (m.pipeBusy[p] > m.pipeBusy[m.boundPipe])
      m.boundPipe = p;
  return m;
}
