//===- Device.cpp - The simulated device: memories and launches -----------===//
#include "RaceCheck.h"
#include "Sim.h"

#include "bangsim/CostModel.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <cstring>

using namespace bangsim;
using llvm::Error;
using llvm::Expected;

char LaunchFault::ID = 0;

static Error launchError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

KernelArg KernelArg::f32(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return {'f', bits};
}

KernelArg KernelArg::f64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return {'d', bits};
}

Expected<FuncType> bangsim::parseFuncType(llvm::StringRef text) {
  std::string lower = text.lower();
  llvm::StringRef t(lower);
  t.consume_front("cnrt_func_type_");
  auto type = llvm::StringSwitch<std::optional<FuncType>>(t)
                  .Case("block", FuncType::Block)
                  .Case("union1", FuncType::Union1)
                  .Case("union2", FuncType::Union2)
                  .Case("union4", FuncType::Union4)
                  .Case("union8", FuncType::Union8)
                  .Default(std::nullopt);
  if (!type)
    return launchError("unknown function type '" + text +
                       "' (block, union1, union2, union4, union8)");
  return *type;
}

llvm::StringRef bangsim::funcTypeName(FuncType type) {
  const char *names[] = {"BLOCK", "UNION1", "UNION2", "UNION4", "UNION8"};
  return names[int(type)];
}

int bangsim::unionClusters(FuncType type) {
  const int n[] = {0, 1, 2, 4, 8};
  return n[int(type)];
}

Device::Device() = default;
Device::~Device() = default;

Expected<std::unique_ptr<Device>> Device::open(const DeviceSpec &spec) {
  std::unique_ptr<Device> device(new Device());
  device->impl = std::make_unique<DeviceImpl>(spec);
  return std::move(device);
}

const DeviceSpec &Device::spec() const { return impl->spec; }

Expected<void *> Device::malloc(uint64_t bytes) {
  return impl->memory.allocate(bytes);
}

Error Device::free(void *ptr) { return impl->memory.release(ptr); }

uint64_t Device::allocatedBytes() const {
  return impl->memory.allocatedBytes();
}

static Error checkHostCopy(const MemoryMap &memory, const void *p,
                           uint64_t bytes, const char *what) {
  if (memory.liveContaining(reinterpret_cast<uintptr_t>(p), bytes))
    return Error::success();
  return launchError(llvm::formatv(
      "{0}: [{1:x}, +{2}) is not inside one live GDRAM buffer; {3}", what,
      reinterpret_cast<uintptr_t>(p), bytes,
      memory.nearest(reinterpret_cast<uintptr_t>(p))));
}

Error Device::copyToDevice(void *dst, const void *src, uint64_t bytes) {
  if (Error e = checkHostCopy(impl->memory, dst, bytes, "copy to device"))
    return e;
  std::memcpy(dst, src, bytes);
  return Error::success();
}

Error Device::copyFromDevice(void *dst, const void *src, uint64_t bytes) {
  if (Error e = checkHostCopy(impl->memory, src, bytes, "copy from device"))
    return e;
  std::memcpy(dst, src, bytes);
  return Error::success();
}

Error Device::memset(void *dst, int value, uint64_t bytes) {
  if (Error e = checkHostCopy(impl->memory, dst, bytes, "memset"))
    return e;
  std::memset(dst, value, bytes);
  return Error::success();
}

namespace {

Error checkArgs(const Kernel &kernel, llvm::ArrayRef<KernelArg> args) {
  if (args.size() != kernel.signature.size())
    return launchError(llvm::formatv("kernel '{0}' takes {1} arguments, {2} "
                                     "given",
                                     kernel.pretty, kernel.signature.size(),
                                     args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind != kernel.signature[i])
      return launchError(llvm::formatv(
          "kernel '{0}': argument {1} is of kind '{2}', the parameter wants "
          "'{3}' (p pointer, b i8, h i16, i i32, l i64, e f16, f f32, d f64, "
          "z bool, s struct)",
          kernel.pretty, i + 1, args[i].kind, kernel.signature[i]));
    if (args[i].kind != 's')
      continue;
    size_t want = i < kernel.params.size() ? kernel.params[i].size : 0;
    if (args[i].bytes.size() != want)
      return launchError(llvm::formatv(
          "kernel '{0}': argument {1} is a struct of {2} bytes, the "
          "parameter's type has {3}",
          kernel.pretty, i + 1, args[i].bytes.size(), want));
  }
  return Error::success();
}

Error checkStatic(const DeviceSpec &spec, const Kernel &kernel,
                  const StaticLayout &layout) {
  const int64_t caps[3] = {spec.nramBytes, spec.wramBytes, spec.sramBytes};
  const char *names[3] = {"NRAM", "WRAM", "SRAM"};
  for (int s = 0; s < 3; ++s)
    if (layout.bytes[s] > caps[s])
      return launchError(llvm::formatv(
          "kernel '{0}': its module has {1} bytes of static {2}, more than "
          "the {4} bytes the device '{3}' has",
          kernel.pretty, layout.bytes[s], names[s], spec.name, caps[s]));
  return Error::success();
}

/// How tasks map onto the card: cores per group and groups per wave.
struct Topology {
  int groupCores;   ///< cores of one union group (1 for BLOCK)
  int tasksPerWave; ///< tasks that run at once
};

Expected<Topology> topologyOf(const DeviceSpec &spec, FuncType type,
                              uint64_t count) {
  int n = unionClusters(type);
  if (n == 0)
    return Topology{1, spec.numCores()};
  if (n > spec.clusters)
    return launchError(llvm::formatv("{0} needs {1} clusters; the device '{2}' "
                                     "has {3}",
                                     funcTypeName(type), n, spec.name,
                                     spec.clusters));
  int groupCores = n * spec.coresPerCluster;
  if (count % groupCores)
    return launchError(llvm::formatv(
        "a {0} launch needs a task count that is a multiple of {1} (the cores "
        "of {2} clusters); {3} given",
        funcTypeName(type), groupCores, n, count));
  return Topology{groupCores, (spec.clusters / n) * groupCores};
}

void applyStaticInits(const StaticLayout &layout, const Task &task) {
  for (const BangStaticInit &init : layout.inits) {
    char *base = init.space == BANG_SPACE_NRAM   ? task.ctx.nram
                 : init.space == BANG_SPACE_WRAM ? task.ctx.wram
                                                 : task.ctx.sram;
    std::memcpy(base + init.offset, init.data, init.size);
  }
}

} // namespace

Expected<LaunchStats> Device::launch(const Kernel &kernel,
                                     const StaticLayout &layout, Dim3 dim,
                                     FuncType type,
                                     llvm::ArrayRef<KernelArg> args,
                                     const LaunchOptions &options) {
  const DeviceSpec &spec = impl->spec;
  if (dim.count() == 0 || dim.count() > (1u << 24))
    return launchError(llvm::formatv("task dimensions {0}x{1}x{2}: the count "
                                     "must be between 1 and 2^24",
                                     dim.x, dim.y, dim.z));
  if (Error e = checkArgs(kernel, args))
    return std::move(e);
  if (Error e = checkStatic(spec, kernel, layout))
    return std::move(e);
  Expected<Topology> topo = topologyOf(spec, type, dim.count());
  if (!topo)
    return topo.takeError();

  if (options.isolate && isolationSupported())
    return launchIsolated(*impl, kernel, layout, dim, type, args, options);
  return launchInProcess(*impl, kernel, layout, dim, type, args, options);
}

Expected<LaunchStats> bangsim::launchInProcess(DeviceImpl &device,
                                               const Kernel &kernel,
                                               const StaticLayout &layout,
                                               Dim3 dim, FuncType type,
                                               llvm::ArrayRef<KernelArg> args,
                                               const LaunchOptions &options) {
  const DeviceSpec &spec = device.spec;
  Expected<Topology> topo = topologyOf(spec, type, dim.count());
  if (!topo)
    return topo.takeError();
  DeviceImpl *impl = &device;
  std::lock_guard launchLock(impl->launchMutex);
  auto hostStart = std::chrono::steady_clock::now();
  Launch l;
  l.device = impl;
  l.kernel = &kernel;
  l.spec = &spec;
  l.options = options;
  std::unique_ptr<RaceChecker> races;
  if (options.checkRaces) {
    races = std::make_unique<RaceChecker>(l);
    l.races = races.get();
  }
  if (options.timeoutSeconds > 0) {
    l.hasDeadline = true;
    l.deadline = hostStart + std::chrono::duration_cast<
                                 std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(
                                     options.timeoutSeconds));
  }
  for (const KernelArg &a : args)
    l.argValues.push_back(a.bits);
  for (size_t i = 0; i < args.size(); ++i)
    // A struct's bytes: the entry wrapper copies them before reading, so
    // they need no alignment.
    l.argPointers.push_back(args[i].kind == 's'
                                ? const_cast<uint8_t *>(args[i].bytes.data())
                                : static_cast<void *>(&l.argValues[i]));
  int count = int(dim.count());
  int activeCores = std::min(count, spec.numCores());
  l.scalarIPC = Rate(spec.scalarIPC);
  l.gdramBytesPerCycle = cost::gdramBytesPerCycle(spec, activeCores);

  LaunchStats &stats = l.stats;
  stats.kernel = kernel.pretty;
  stats.device = spec.name;
  stats.tasks = count;
  stats.clockGHz = spec.clockGHz;
  stats.cores.assign(spec.numCores(), CoreStats());
  std::vector<double> coreClock(spec.numCores(), 0);
  int cpc = spec.coresPerCluster;
  int n = unionClusters(type);

  for (int waveStart = 0; waveStart < count && !l.stopped;
       waveStart += topo->tasksPerWave) {
    int waveTasks = std::min(topo->tasksPerWave, count - waveStart);
    l.tasks.assign(waveTasks, Task());
    int groups = (waveTasks + topo->groupCores - 1) / topo->groupCores;
    l.clusterBarriers.assign(n ? (waveTasks + cpc - 1) / cpc : waveTasks,
                             Barrier());
    l.unionBarriers.assign(groups, Barrier());
    for (int i = 0; i < waveTasks; ++i) {
      Task &t = l.tasks[i];
      int id = waveStart + i;
      t.launch = &l;
      t.physicalCore = i;
      BangTaskContext &c = t.ctx;
      c.taskId = id;
      c.taskDim = count;
      c.taskDimX = dim.x;
      c.taskDimY = dim.y;
      c.taskDimZ = dim.z;
      c.taskIdX = id % dim.x;
      c.taskIdY = (id / dim.x) % dim.y;
      c.taskIdZ = id / (dim.x * dim.y);
      c.coreId = i % cpc;
      c.clusterId = i / cpc;
      c.coreDim = n ? cpc : 1;
      c.clusterDim = n ? n : 1;
      c.nram = impl->memory.nram(i);
      // 0 under --check=race: the device library then hands every vector
      // operand to simrt, which the race checker sees.
      c.nramBytes = races ? 0 : spec.nramBytes;
      c.wram = impl->memory.wram(i);
      c.sram = impl->memory.sram(c.clusterId);
      c.core = &t;
      c.scalarPending = 0;
      t.barrierGroup = n ? i / cpc : i;
      t.unionGroup = i / topo->groupCores;
      t.firstCluster = n ? t.unionGroup * n : c.clusterId;
      l.clusterBarriers[t.barrierGroup].expected++;
      l.unionBarriers[t.unionGroup].expected++;
      t.resetClocks(coreClock[i]);
      applyStaticInits(layout, t);
    }
    if (races)
      races->beginWave(waveStart);
    runTasks(l);
    flushPrintf(l);
    for (Task &t : l.tasks) {
      double end = t.end();
      coreClock[t.physicalCore] = end;
      CoreStats &cs = stats.cores[t.physicalCore];
      for (int p = 0; p < NumPipes; ++p)
        cs.pipeBusy[p] += t.stats.pipeBusy[p];
      // Compute: the busier of the vector and tensor pipes (scalar code is
      // bookkeeping, not the operator's work); DMA: both DMA pipes.
      cs.computeBusy =
          std::max(cs.pipeBusy[PipeVector], cs.pipeBusy[PipeTensor]);
      cs.dmaBusy = cs.pipeBusy[PipeIO] + cs.pipeBusy[PipeMove];
      cs.end = end;
      cs.tasks++;
      for (int d = 0; d < NumDirections; ++d)
        stats.bytesByDirection[d] += t.bytes[d];
      for (int o = 0; o < BANG_OP_NUM_CLASSES; ++o)
        stats.opsByClass[o] += t.ops[o];
      stats.scalarInstructions += t.scalar;
      if (options.trace)
        stats.events.insert(stats.events.end(), t.events.begin(),
                            t.events.end());
    }
  }
  finishPrintf(l);
  if (l.stopped)
    return llvm::make_error<LaunchFault>(l.fault.empty() ? "launch stopped"
                                                         : l.fault);
  if (races)
    if (std::string found = races->report(); !found.empty())
      return llvm::make_error<LaunchFault>(std::move(found));

  stats.cores.resize(activeCores);
  for (double c : coreClock)
    stats.cycles = std::max(stats.cycles, c);
  stats.seconds = stats.cycles / (spec.clockGHz * 1e9);
  for (int d = 0; d < NumDirections; ++d) {
    if (readsGdram(d))
      stats.gdramReadBytes += stats.bytesByDirection[d];
    if (writesGdram(d))
      stats.gdramWriteBytes += stats.bytesByDirection[d];
  }
  stats.peakGdramGBps = std::min(spec.gdramGBps,
                                 spec.gdramCoreGBps * activeCores);
  if (stats.seconds > 0)
    stats.ioEfficiency = double(stats.gdramReadBytes + stats.gdramWriteBytes) /
                         (stats.seconds * spec.gdramGBps * 1e9);
  double busy = 0;
  for (const CoreStats &cs : stats.cores) {
    busy += cs.computeBusy;
    for (int p = 0; p < NumPipes; ++p)
      stats.pipeBusy[p] += cs.pipeBusy[p];
  }
  for (int p = 0; p < NumPipes; ++p)
    if (stats.pipeBusy[p] > stats.pipeBusy[stats.boundPipe])
      stats.boundPipe = p;
  if (stats.cycles > 0)
    stats.computeEfficiency = busy / (stats.cycles * activeCores);
  stats.hostSeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - hostStart)
                          .count();
  return stats;
}
