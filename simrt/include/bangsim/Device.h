//===- Device.h - The simulated device: memories and launches -*- C++ -*-===//
//
// A Device is one simulated card built from a DeviceSpec: GDRAM that host
// code allocates and copies to and from, per-core NRAM and WRAM, per-cluster
// SRAM, and launches that run a compiled kernel's tasks on host threads
// under a cost model. Errors come back as values, never as an abort.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_DEVICE_H
#define BANGSIM_DEVICE_H

#include "bangsim/DeviceSpec.h"
#include "bangsim/KernelABI.h"
#include "bangsim/Stats.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace bangsim {

/// Task dimensions of a launch, as CNRT's cnrtDim3_t.
struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

/// CNRT function types: BLOCK runs each task on one core; UNIONn makes each
/// task group span n clusters, whose cores can synchronise.
enum class FuncType { Block, Union1, Union2, Union4, Union8 };

/// Parses "block", "union1", ... (also CNRT's "CNRT_FUNC_TYPE_UNION1").
llvm::Expected<FuncType> parseFuncType(llvm::StringRef text);
llvm::StringRef funcTypeName(FuncType type);
/// Clusters per task group: 0 for BLOCK, n for UNIONn.
int unionClusters(FuncType type);

/// One kernel argument, as the kernel's parameter expects it.
struct KernelArg {
  char kind; ///< a BangKernelDesc signature letter
  uint64_t bits = 0;
  /// The value's bytes for kind 's' (a struct by value), laid out as the
  /// parameter's C type; its size must be the parameter's.
  std::vector<uint8_t> bytes;
  static KernelArg pointer(const void *p) { return {'p', uint64_t(uintptr_t(p))}; }
  static KernelArg i8(int8_t v) { return {'b', uint64_t(uint8_t(v))}; }
  static KernelArg i16(int16_t v) { return {'h', uint64_t(uint16_t(v))}; }
  static KernelArg i32(int32_t v) { return {'i', uint64_t(uint32_t(v))}; }
  static KernelArg i64(int64_t v) { return {'l', uint64_t(v)}; }
  static KernelArg f16bits(uint16_t v) { return {'e', v}; }
  static KernelArg f32(float v);
  static KernelArg f64(double v);
  static KernelArg boolean(bool v) { return {'z', uint64_t(v)}; }
  /// A struct, class or union by value: `size` bytes at `data`.
  static KernelArg aggregate(const void *data, size_t size) {
    const auto *p = static_cast<const uint8_t *>(data);
    return {'s', 0, std::vector<uint8_t>(p, p + size)};
  }
  /// The same for a value of a trivially copyable type.
  template <typename T> static KernelArg aggregate(const T &value) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "a kernel takes trivially copyable structs only");
    return aggregate(&value, sizeof(T));
  }
};

/// A kernel of a loaded module, as simrt launches it.
struct Kernel {
  std::string name;      ///< symbol name
  std::string pretty;    ///< e.g. "vadd<float>"
  std::string signature; ///< see BangKernelDesc
  BangKernelEntry entry;
  std::string file;
  int line = 0;
  /// Size and alignment of each parameter's value, one per signature letter.
  std::vector<BangParamDesc> params;
};

/// Static on-chip memory of a loaded module (from BangModuleDesc).
struct StaticLayout {
  int64_t bytes[3] = {0, 0, 0};
  std::vector<BangStaticInit> inits;
};

/// Options of one launch.
struct LaunchOptions {
  /// Host threads running the simulated cores; 0 means one per host core.
  unsigned hostThreads = 0;
  /// Record a timeline of DMA and compute events for a Chrome trace.
  bool trace = false;
  /// Stop the launch after this many seconds of host time (0: no limit);
  /// checked at every intrinsic call.
  double timeoutSeconds = 0;
  /// __bang_printf: print at most this many lines in the launch (0: none);
  /// the lines past it are counted, and one note at the end says how many.
  int64_t printfLimit = 10000;
  /// Where __bang_printf's lines go; null: standard output.
  llvm::raw_ostream *printfOut = nullptr;
  /// --check=race: report a compute intrinsic or scalar access that touches
  /// what an asynchronous DMA of its task still moves (no __sync between),
  /// and two tasks touching the same SRAM or GDRAM bytes, one writing, with
  /// no barrier between them. The launch runs to its end, then fails with a
  /// LaunchFault listing every race. Scalar accesses are seen only in
  /// modules compiled with CompileOptions::checkRaces (docs/device.md).
  bool checkRaces = false;
  /// Run the launch in the device's worker process under a system-call
  /// filter (docs/isolation.md; the worker is kept for the next isolated
  /// launch): whatever kernel code does (exit, abort, signals,
  /// wild pointers, fork, endless loops) ends as a LaunchFault, and the host
  /// process and the buffers no argument points into survive. Off: the
  /// launch runs on this process's threads, as a debugger sees it. Builds
  /// under AddressSanitizer always run in-process.
  bool isolate = false;
};

struct DeviceImpl;

class Device {
public:
  static llvm::Expected<std::unique_ptr<Device>> open(const DeviceSpec &spec);
  ~Device();

  const DeviceSpec &spec() const;

  // --- GDRAM, as cnrtMalloc/cnrtFree/cnrtMemcpy -----------------------===//
  /// Allocates `bytes` of GDRAM (64-byte aligned, zero filled).
  llvm::Expected<void *> malloc(uint64_t bytes);
  llvm::Error free(void *ptr);
  llvm::Error copyToDevice(void *dst, const void *src, uint64_t bytes);
  llvm::Error copyFromDevice(void *dst, const void *src, uint64_t bytes);
  llvm::Error memset(void *dst, int value, uint64_t bytes);
  /// Bytes of GDRAM allocated now.
  uint64_t allocatedBytes() const;

  // --- Launches --------------------------------------------------------===//
  /// Runs `kernel` with `args` on `dim` tasks of `type`. A fault stops the
  /// launch and comes back as a LaunchFault error; the device stays usable.
  llvm::Expected<LaunchStats> launch(const Kernel &kernel,
                                     const StaticLayout &layout, Dim3 dim,
                                     FuncType type,
                                     llvm::ArrayRef<KernelArg> args,
                                     const LaunchOptions &options = {});

private:
  Device();
  std::unique_ptr<DeviceImpl> impl;
};

/// The error of a faulting launch: the message names the kernel, the task,
/// the intrinsic, the address range, the nearest allocation and the source
/// line.
class LaunchFault : public llvm::ErrorInfo<LaunchFault> {
public:
  static char ID;
  explicit LaunchFault(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string message;
};

/// The addresses of simrt's runtime functions, for the JIT.
std::vector<std::pair<std::string, void *>> runtimeSymbols();

} // namespace bangsim

#endif // BANGSIM_DEVICE_H
