//===- Launch.cpp - <<<>>>, cnrtInvokeKernel and the registration calls ---===//
//
// A .mlu file's host compilation (docs/host-code.md) embeds its device image
// and registers it and its kernels from a global constructor
// (__cudaRegisterFatBinary, __cudaRegisterFunction, ...); each
// `k<<<dim, type, queue>>>(args)` becomes __cudaPushCallConfiguration and a
// call of k's host stub, which calls __cudaPopCallConfiguration and
// cudaLaunchKernel. This file defines those symbols: it maps a stub to the
// registered image and kernel name, loads the image's device object as a
// simrt Module for the queue's device at its first launch (once per image
// and device spec), packs the arguments by the kernel's signature and
// launches on the queue's device. cnrtInvokeKernel is the same launch.
//
// Modules are never unloaded: a program's images stay registered until it
// exits, and tearing down JIT code from atexit handlers would race the
// destruction of LLVM's own statics.
//
//===----------------------------------------------------------------------===//
#include "State.h"

#include "bangsim/Module.h"
#include "driver/FatBinary.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

using namespace bangsim;
using namespace bangsim::cnrt;

namespace {

/// One registered device image.
struct Image {
  const void *bytes = nullptr;
  std::string error; ///< why it cannot be read, if it cannot
  FatBinary fat;
  /// The loaded module, by the JSON of the device spec it was loaded for.
  std::map<std::string, std::unique_ptr<Module>> modules;
};

struct Function {
  Image *image;
  std::string name; ///< the kernel's symbol in the image
};

/// The registered images and kernels (guarded by State::mutex).
struct Registry {
  std::vector<std::unique_ptr<Image>> images;
  std::map<const void *, Function> functions;
};

Registry &registry() {
  static Registry *r = new Registry; // never destroyed, as the modules
  return *r;
}

/// What the wrapper Clang passes to __cudaRegisterFatBinary points to.
struct FatbinWrapper {
  int32_t magic;
  int32_t version;
  const void *image;
  void *unused;
};
constexpr int32_t FatbinWrapperMagic = 0x466243b1;

/// The launch configuration of the <<<>>> this thread evaluates.
struct CallConfiguration {
  cnrtDim3_t dim;
  cnrtFunctionType_t type;
  cnrtQueue_t queue;
};
std::vector<CallConfiguration> &callConfigurations() {
  thread_local std::vector<CallConfiguration> stack;
  return stack;
}

/// Size in bytes of an argument of scalar signature letter `kind`.
int argBytes(char kind) {
  switch (kind) {
  case 'b': case 'z': return 1;
  case 'h': case 'e': return 2;
  case 'i': case 'f': return 4;
  default: return 8; // p, l, d
  }
}

/// The simrt function type of a CNRT one; an error names what is wrong.
llvm::Expected<FuncType> funcTypeOf(cnrtFunctionType_t type,
                                    const DeviceSpec &spec, cnrtRet_t &code) {
  switch (int(type)) {
  case cnrtFuncTypeBlock: return FuncType::Block;
  case cnrtFuncTypeUnion1: return FuncType::Union1;
  case cnrtFuncTypeUnion2: return FuncType::Union2;
  case cnrtFuncTypeUnion4: return FuncType::Union4;
  case cnrtFuncTypeUnion8: return FuncType::Union8;
  default: break;
  }
  std::string what;
  code = cnrtErrorArgsInvalid;
  if (type == cnrtFuncTypeUnion16) {
    what = "UNION16 needs 16 clusters; the device '" + spec.name + "' has " +
           std::to_string(spec.clusters);
    if (spec.clusters >= 16) {
      code = cnrtErrorNotSupport;
      what = "UNION16 tasks are not simulated";
    }
  } else if (type == cnrtFuncTypeBlock1) {
    code = cnrtErrorNotSupport;
    what = "cnrtFuncTypeBlock1 (the heterogeneous IP core) is not simulated";
  } else {
    what = "function type " + std::to_string(int(type)) +
           " is not a cnrtFunctionType_t";
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(), what);
}

/// The module of `image` for device `ordinal`, loaded at the first call.
llvm::Expected<Module *> moduleFor(State &state, Image &image, int ordinal) {
  if (!image.error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   image.error);
  const DeviceSpec &spec = state.devices()[ordinal].spec;
  std::string key = deviceSpecToJSON(spec);
  auto it = image.modules.find(key);
  if (it != image.modules.end())
    return it->second.get();
  // The object was compiled for the image's device: its NRAM/WRAM/SRAM
  // sizes and __BANG_ARCH__ are baked in, so it only runs on that spec.
  llvm::Expected<DeviceSpec> built = loadDeviceSpec(image.fat.device);
  if (!built)
    return built.takeError();
  if (deviceSpecToJSON(*built) != key)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'" + image.fat.sourceName.str() + "' was compiled for the device '" +
            image.fat.device.str() + "'; device " + std::to_string(ordinal) +
            " is '" + spec.name +
            "' (compile with --device/--bang-mlu-arch for it, or set "
            "BANGC_CNRT_DEVICES)");
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(
      image.fat.object, image.fat.sourceName));
  llvm::Expected<std::unique_ptr<Module>> module =
      Module::loadObjects(std::move(objects), spec);
  if (!module)
    return module.takeError();
  Module *m = module->get();
  image.modules.emplace(key, std::move(*module));
  return m;
}

bool profileLaunches() {
  static const bool on = [] {
    const char *env = std::getenv("BANGC_CNRT_PROFILE");
    return env && *env && std::strcmp(env, "0") != 0;
  }();
  return on;
}

/// BANGC_CNRT_CHECK=race: every launch runs under the race check
/// (docs/device.md), as `bangc-sim run --check=race` does.
/// BANGC_CNRT_ISOLATE=1: every launch runs in a worker process under the
/// system-call filter (docs/isolation.md), as `bangc-sim run` does.
LaunchOptions launchOptions() {
  static const LaunchOptions options = [] {
    LaunchOptions o;
    const char *isolate = std::getenv("BANGC_CNRT_ISOLATE");
    o.isolate = isolate && *isolate && std::strcmp(isolate, "0") != 0;
    const char *env = std::getenv("BANGC_CNRT_CHECK");
    if (!env || !*env)
      return o;
    if (std::strcmp(env, "race") == 0)
      o.checkRaces = true;
    else
      llvm::errs() << "[CNRT] [Warning] BANGC_CNRT_CHECK='" << env
                   << "' is not 'race': ignored\n";
    return o;
  }();
  return options;
}

cnrtRet_t launch(const char *function, const void *stub, cnrtDim3_t dim,
                 cnrtFunctionType_t type, void **args, cnrtQueue_t queue) {
  State &state = State::get();
  std::unique_lock lock(state.mutex);
  if (cnrtRet_t e = checkCurrentDevice(state, function))
    return e;
  CNqueue_st *q = resolveQueue(state, queue);
  if (!q)
    return fail(cnrtErrorInvalidResourceHandle, function,
                "the queue is not a live cnrtQueue_t");
  auto fn = registry().functions.find(stub);
  if (fn == registry().functions.end())
    return fail(cnrtErrorNoKernel, function,
                "no kernel is registered for this function (a kernel of a "
                ".mlu compiled by bangc-sim is registered at start-up)");
  const int ordinal = q->device;
  const DeviceSpec &spec = state.devices()[ordinal].spec;
  cnrtRet_t code = cnrtErrorArgsInvalid;
  llvm::Expected<FuncType> funcType = funcTypeOf(type, spec, code);
  if (!funcType)
    return fail(code, function, toString(funcType.takeError()));
  llvm::Expected<Module *> module = moduleFor(state, *fn->second.image, ordinal);
  if (!module)
    return fail(cnrtErrorNoModule, function, toString(module.takeError()));
  llvm::Expected<const Kernel *> kernel =
      (*module)->findKernel(fn->second.name);
  if (!kernel)
    return fail(cnrtErrorNoKernel, function, toString(kernel.takeError()));
  const Kernel &k = **kernel;
  std::vector<KernelArg> packed;
  if (!k.signature.empty() && !args)
    return fail(cnrtErrorArgsInvalid, function,
                "kernel '" + k.pretty + "' takes arguments; args is NULL");
  for (size_t i = 0; i < k.signature.size(); ++i) {
    if (!args[i])
      return fail(cnrtErrorArgsInvalid, function,
                  "args[" + llvm::Twine(i) + "] is NULL");
    KernelArg a{k.signature[i], 0};
    if (a.kind == 's') // a struct by value: its bytes, as the stub holds it
      a = KernelArg::aggregate(args[i], k.params.at(i).size);
    else
      std::memcpy(&a.bits, args[i], argBytes(k.signature[i]));
    packed.push_back(std::move(a));
  }
  llvm::Expected<Device *> device = state.open(ordinal);
  if (!device)
    return fail(cnrtErrorInit, function, toString(device.takeError()));
  const StaticLayout &layout = (*module)->staticLayout();
  // The device serialises its launches; other CNRT calls may go on.
  lock.unlock();
  llvm::Expected<LaunchStats> stats = (*device)->launch(
      k, layout, Dim3{dim.x, dim.y, dim.z}, *funcType, packed,
      launchOptions());
  lock.lock();
  if (stats) {
    state.devices()[ordinal].clockSeconds += stats->seconds;
    if (profileLaunches())
      printProfile(llvm::errs(), *stats);
    return cnrtSuccess;
  }
  llvm::Error err = stats.takeError();
  if (err.isA<LaunchFault>()) {
    // A fault in the kernel: reported by the next sync of the queue, as a
    // real launch's failure is; the queue may have been destroyed meanwhile.
    llvm::errs() << "[CNRT] [Error] kernel '" << k.pretty
                 << "' faulted on device " << ordinal << ": "
                 << toString(std::move(err)) << "\n";
    if (q == &state.devices()[ordinal].defaultQueue || state.queues.count(q))
      q->pending = cnrtErrorCndrvFuncCall;
    return cnrtSuccess;
  }
  return fail(cnrtErrorArgsInvalid, function,
              "cannot launch '" + k.pretty + "': " + toString(std::move(err)));
}

} // namespace

// --- The launch ABI (docs/host-code.md, bang/host_launch.h) ---------------===//
unsigned __cudaPushCallConfiguration(cnrtDim3_t dim, cnrtFunctionType_t type,
                                     cnrtQueue_t queue) {
  callConfigurations().push_back({dim, type, queue});
  return 0;
}

int __cudaPopCallConfiguration(cnrtDim3_t *dim, cnrtDim3_t *block,
                               size_t *sharedMem, void **queue) {
  std::vector<CallConfiguration> &stack = callConfigurations();
  if (stack.empty())
    return 1;
  CallConfiguration c = stack.back();
  stack.pop_back();
  *dim = c.dim;
  *block = cnrtDim3_t{unsigned(c.type), 1, 1};
  *sharedMem = 0;
  *queue = c.queue;
  return 0;
}

cnrtRet_t cudaLaunchKernel(const void *stub, cnrtDim3_t dim, cnrtDim3_t block,
                           void **args, size_t sharedMem, cnrtQueue_t queue) {
  (void)sharedMem; // always 0: BANG has no dynamic shared memory
  return launch("kernel<<<>>>", stub, dim, cnrtFunctionType_t(int(block.x)),
                args, queue);
}

cnrtRet_t cnrtInvokeKernel(const void *kernel, cnrtDim3_t dim,
                           cnrtFunctionType_t ktype, void **args,
                           size_t reserved, cnrtQueue_t queue) {
  (void)reserved;
  return launch("cnrtInvokeKernel", kernel, dim, ktype, args, queue);
}

void **__cudaRegisterFatBinary(void *wrapper) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  auto image = std::make_unique<Image>();
  const FatbinWrapper *w = static_cast<const FatbinWrapper *>(wrapper);
  if (!w || w->magic != FatbinWrapperMagic || !w->image) {
    image->error = "the registered device image has no valid wrapper";
  } else {
    image->bytes = w->image;
    llvm::Expected<FatBinary> fat = readFatBinary(w->image);
    if (fat) {
      image->fat = *fat;
      if (state.firstImageDevice.empty())
        state.firstImageDevice = fat->device.str();
    } else {
      image->error = toString(fat.takeError());
    }
  }
  registry().images.push_back(std::move(image));
  return reinterpret_cast<void **>(registry().images.back().get());
}

int __cudaRegisterFunction(void **handle, const void *stub, char *deviceFun,
                           const char *deviceName, int threadLimit, void *tid,
                           void *bid, void *blockDim, void *gridDim,
                           int *wSize) {
  (void)deviceFun, (void)threadLimit, (void)tid, (void)bid, (void)blockDim,
      (void)gridDim, (void)wSize;
  if (!handle || !stub || !deviceName)
    return 1;
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  registry().functions[stub] = {reinterpret_cast<Image *>(handle), deviceName};
  return 0;
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size,
                       int constant, int global) {
  // __mlu_device__ variables live in the device module; device code reaches
  // them there. Host access through the shadow (cnrtMemcpyToSymbol) is not
  // provided, so there is nothing to record.
  (void)handle, (void)hostVar, (void)deviceAddress, (void)deviceName,
      (void)ext, (void)size, (void)constant, (void)global;
}

void __cudaRegisterFatBinaryEnd(void **handle) {
  (void)handle; // images load at their first launch
}

void __cudaUnregisterFatBinary(void **handle) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  Image *image = reinterpret_cast<Image *>(handle);
  for (auto it = registry().functions.begin();
       it != registry().functions.end();)
    it = it->second.image == image ? registry().functions.erase(it)
                                   : std::next(it);
}
