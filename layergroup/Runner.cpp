//===- Runner.cpp - LayerGroup: compile and run a plan --------------------===//
//
// runPlan on the simulated device, in steps: upload the feature maps and
// the parameters (packed a chunk at a time on every host thread) while
// another thread compiles every group's kernel, then per group launch it
// and read its counters, then read the outputs back. Every kernel is
// loaded before the first launch, so one isolated launch's worker process
// (docs/isolation.md) runs all the groups: a module loaded between two
// launches would fork a new worker for each group.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Runner.h"

#include "bangsim/Device.h"
#include "bangsim/MemcpyDirection.h"
#include "bangsim/Module.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "support/DType.h"
#include "support/Parallel.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <future>
#include <mutex>
#include <type_traits>

using namespace llvm;

namespace bangc::lg {

Error writeTextFile(const std::string &path, const std::string &text) {
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (ec)
    return createStringError(ec, "cannot write " + path + ": " + ec.message());
  os << text;
  return Error::success();
}

namespace {

/// \p values in the device representation of \p type. Integer values are
/// in range (the reference executor checks inputs; parameters are checked
/// by buildNet).
std::vector<char> encode(const std::vector<double> &values, DType type) {
  std::vector<char> bytes(values.size() * dtypeSize(type));
  storeValues(type, values, bytes.data());
  return bytes;
}

std::vector<double> decode(const std::vector<char> &bytes, DType type) {
  std::vector<double> values(bytes.size() / dtypeSize(type));
  loadValues(type, bytes.data(), values);
  return values;
}

/// The launch type of a kernel whose unions hold \p clusters clusters.
bangsim::FuncType unionType(int clusters) {
  switch (clusters) {
  case 0:
    return bangsim::FuncType::Block;
  case 1:
    return bangsim::FuncType::Union1;
  case 2:
    return bangsim::FuncType::Union2;
  case 4:
    return bangsim::FuncType::Union4;
  default:
    assert(clusters == 8 && "a union is 1, 2, 4 or 8 clusters");
    return bangsim::FuncType::Union8;
  }
}

Error fail(const std::string &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// One run of a plan: the device and what it holds in GDRAM.
class PlanRun {
public:
  PlanRun(const Net &n, const NetPlan &p, const bangsim::DeviceSpec &spec,
          int64_t batch, const RunOptions &options)
      : n(n), p(p), spec(spec), batch(batch), options(options) {}
  ~PlanRun();

  Error open() {
    auto dev = bangsim::Device::open(spec);
    if (!dev)
      return dev.takeError();
    device = std::move(*dev);
    return Error::success();
  }
  Error uploadTensors(const HostTensors &inputs);
  Error uploadParameters();
  /// The group kernel \p k compiled and loaded; its compile time in
  /// \p seconds.
  Expected<std::unique_ptr<bangsim::Module>> compileGroup(const GroupKernel &k,
                                                          double &seconds);
  Expected<GroupRun> runGroup(const GroupPlan &gp, const GroupKernel &k,
                              const bangsim::Module &mod);
  Error downloadOutputs(HostTensors &outputs);

private:
  const Net &n;
  const NetPlan &p;
  const bangsim::DeviceSpec &spec;
  int64_t batch;
  const RunOptions &options;
  std::unique_ptr<bangsim::Device> device;
  std::map<int, void *> tensorMem;                ///< by tensor
  std::map<std::pair<int, int>, void *> paramMem; ///< (layer, part), or
  ///< (-1 - tensor, 0): a gathered view's index table

  /// \p count values encoded as \p type in a fresh GDRAM buffer, made a
  /// chunk at a time by \p fill(begin, end, out), which writes values
  /// [begin, end) to out: doubles, or floats exact in \p type (packed
  /// convolution weights).
  template <typename T>
  Expected<void *> upload(int64_t count, DType type,
                          function_ref<void(int64_t, int64_t, T *)> fill);
  Expected<void *> upload(const std::vector<double> &values, DType type) {
    return upload<double>(
        int64_t(values.size()), type, [&](int64_t b, int64_t e, double *out) {
          std::copy(values.begin() + b, values.begin() + e, out);
        });
  }
  std::vector<bangsim::KernelArg> arguments(const GroupKernel &k) const;
};

PlanRun::~PlanRun() {
  if (!device)
    return;
  for (auto &[t, m] : tensorMem)
    consumeError(device->free(m));
  for (auto &[key, m] : paramMem)
    consumeError(device->free(m));
}

template <typename T>
Expected<void *>
PlanRun::upload(int64_t count, DType type,
                function_ref<void(int64_t, int64_t, T *)> fill) {
  size_t elem = dtypeSize(type);
  auto m = device->malloc(std::max<uint64_t>(4, uint64_t(count) * elem));
  if (!m)
    return m.takeError();
  // Made, encoded and copied in chunks on every host thread: the copy is
  // the first write to the buffer's fresh pages, which the host kernel
  // zeroes (the bulk of the time), and a chunk stays in cache. No array of
  // the whole (the packed weights were one: 59 MB of fresh pages for
  // VGG-16) is made.
  constexpr int64_t Chunk = 16384;
  std::mutex failed;
  Error error = Error::success();
  parallelFor(count, 4 * Chunk, [&](int64_t b, int64_t e) {
    std::vector<T> values(static_cast<size_t>(Chunk));
    std::vector<double> wide(std::is_same_v<T, double> ? 0 : size_t(Chunk));
    std::vector<char> bytes(size_t(Chunk) * elem);
    for (int64_t c = b; c < e; c += Chunk) {
      size_t n = size_t(std::min(Chunk, e - c));
      fill(c, c + int64_t(n), values.data());
      const void *src = bytes.data();
      if constexpr (std::is_same_v<T, double>) {
        storeValues(type, ArrayRef(values).take_front(n), bytes.data());
      } else if (type == DType::F32) { // floats are their own encoding
        src = values.data();
      } else { // widened exactly
        std::copy(values.begin(), values.begin() + n, wide.begin());
        storeValues(type, ArrayRef(wide).take_front(n), bytes.data());
      }
      if (Error err = device->copyToDevice(static_cast<char *>(*m) + c * elem,
                                           src, n * elem)) {
        std::lock_guard lock(failed);
        error = joinErrors(std::move(error), std::move(err));
        return;
      }
    }
  });
  if (error) { // the buffer is not the caller's: free it
    consumeError(device->free(*m));
    return std::move(error);
  }
  return *m;
}

// GDRAM: every tensor a group reads or writes; the network inputs filled.
Error PlanRun::uploadTensors(const HostTensors &inputs) {
  for (size_t t = 0; t < n.Tensors.size(); ++t) {
    const Tensor &tensor = n.Tensors[t];
    if (tensor.isView()) // its groups read its sources
      continue;
    uint64_t bytes = uint64_t(batch * tensor.bytes());
    auto m = device->malloc(bytes);
    if (!m)
      return m.takeError();
    tensorMem[int(t)] = *m;
    if (tensor.Producer >= 0)
      continue;
    auto it = inputs.find(int(t));
    if (it == inputs.end() ||
        int64_t(it->second.size()) != batch * tensor.elements())
      return fail("layer group: missing or mis-sized input '" + tensor.Name +
                  "'");
    std::vector<char> data = encode(it->second, tensor.Type);
    if (Error e = device->copyToDevice(*m, data.data(), bytes))
      return e;
  }
  return Error::success();
}

// Convolution weights go to WRAM as the plan packs them (HWIO tiles of a
// channel slice each, GroupPlan::packWeights); biases and alphas as they
// are.
Error PlanRun::uploadParameters() {
  std::map<int, const GroupPlan *> planOf; // layer -> its group's plan
  for (const GroupPlan &gp : p.Groups)
    for (int l : gp.Info.Layers)
      planOf[l] = &gp;
  static const GroupPlan unsliced; // a layer of no group: whole weights
  for (size_t l = 0; l < n.Layers.size(); ++l) {
    const Layer &layer = n.Layers[l];
    auto it = planOf.find(int(l));
    const GroupPlan &owner = it == planOf.end() ? unsliced : *it->second;
    bool packed = layer.Kind == OpKind::Conv && !layer.Weight.empty();
    const std::vector<double> *parts[3] = {nullptr, &layer.Bias, &layer.Alpha};
    for (int part = 0; part < 3; ++part) {
      if (part ? parts[part]->empty() : !packed)
        continue;
      int typeOf = part == 0 ? layer.Inputs[0] : layer.Output;
      DType type = n.Tensors[typeOf].Type;
      auto m = part ? upload(*parts[part], type)
                    : upload<float>(int64_t(layer.Weight.size()), type,
                                    [&](int64_t b, int64_t e, float *out) {
                                      owner.packWeights(n, int(l), b, e, out);
                                    });
      if (!m)
        return m.takeError();
      paramMem[{int(l), part}] = *m;
    }
  }
  // A gathered view's index tables and row bounds (a pair a row), as
  // int32 (lg_gather_view): per source, its table (-2^30 for elements it
  // does not give) and its bounds; under (-1 - tensor, 0).
  for (size_t t = 0; t < n.Tensors.size(); ++t) {
    const Tensor &v = n.Tensors[t];
    if (!v.gathered())
      continue;
    std::vector<double> table;
    size_t e = size_t(v.elements()), h = size_t(v.H);
    for (size_t k = 0; k < v.View.size(); ++k) {
      for (size_t i = 0; i < e; ++i) {
        int32_t x = v.Gather[k * e + i];
        table.push_back(x < 0 ? -double(1 << 30) : double(x));
      }
      for (size_t r = k * h; r < (k + 1) * h; ++r)
        table.insert(table.end(),
                     {double(v.GatherRowLo[r]), double(v.GatherRowHi[r])});
    }
    auto m = upload(table, DType::I32);
    if (!m)
      return m.takeError();
    paramMem[{-1 - int(t), 0}] = *m;
  }
  return Error::success();
}

std::vector<bangsim::KernelArg> PlanRun::arguments(const GroupKernel &k) const {
  std::vector<bangsim::KernelArg> args;
  for (const KernelParamRef &ref : k.Params) {
    int part = ref.K == KernelParamRef::Weight ? 0
               : ref.K == KernelParamRef::Bias ? 1
                                               : 2;
    void *ptr = ref.K == KernelParamRef::Tensor ? tensorMem.at(ref.Index)
                : ref.K == KernelParamRef::ViewTable
                    ? paramMem.at({-1 - ref.Index, 0})
                    : paramMem.at({ref.Index, part});
    args.push_back(bangsim::KernelArg::pointer(ptr));
  }
  return args;
}

Expected<std::unique_ptr<bangsim::Module>>
PlanRun::compileGroup(const GroupKernel &k, double &seconds) {
  auto t0 = std::chrono::steady_clock::now();
  std::string diag;
  raw_string_ostream diagStream(diag);
  bangsim::CompileOptions co;
  co.diagnostics = &diagStream;
  co.useCache = options.useCache;
  co.checkRaces = options.checkRaces;
  auto mod = bangsim::Module::compileString(k.Name + ".mlu",
                                            selfContainedSource(k), spec, co);
  if (!mod)
    return fail("layer group: compiling " + k.Name +
                " failed: " + toString(mod.takeError()) + "\n" + diag);
  auto t1 = std::chrono::steady_clock::now();
  seconds = std::chrono::duration<double>(t1 - t0).count();
  return std::move(*mod);
}

Expected<GroupRun> PlanRun::runGroup(const GroupPlan &gp, const GroupKernel &k,
                                     const bangsim::Module &mod) {
  GroupRun run;
  auto kernel = mod.findKernel(k.Name);
  if (!kernel)
    return kernel.takeError();
  bangsim::Dim3 dim;
  dim.x = uint32_t(k.Tasks);
  bangsim::LaunchOptions launch;
  launch.checkRaces = options.checkRaces;
  launch.isolate = options.isolate;
  // BANGC_LG_TRACE=DIR: a Chrome trace of each group's launch in
  // DIR/<kernel>.trace.json (docs/layergroup.md).
  const char *traceDir = getenv("BANGC_LG_TRACE");
  launch.trace = traceDir && *traceDir;
  auto stats = device->launch(**kernel, mod.staticLayout(), dim,
                              unionType(k.Union), arguments(k), launch);
  if (!stats)
    return fail("layer group: " + k.Name + ": " + toString(stats.takeError()));
  if (launch.trace)
    if (Error e = bangsim::writeChromeTrace(
            std::string(traceDir) + "/" + k.Name + ".trace.json", *stats))
      return e;
  run.Cycles = stats->cycles;
  const bangsim::CoreStats *last = nullptr;
  for (const bangsim::CoreStats &c : stats->cores)
    if (!last || c.end > last->end)
      last = &c;
  if (last)
    run.LastCorePipes = last->pipeBusy;
  run.ReadBytes = stats->gdramReadBytes;
  run.WriteBytes = stats->gdramWriteBytes;
  // Parameters: GDRAM2WRAM, and GDRAM2SRAM when the group stages its
  // weights there; a group that stages both stages every input image
  // exactly once (per chip), so the rest of GDRAM2SRAM is the weights.
  int64_t stagedInputs = 0;
  if (gp.weightsInSram() && gp.inputsInSram())
    for (int t : gp.Info.Inputs)
      stagedInputs += batch * n.Tensors[t].bytes();
  using bangsim::MemcpyDirection;
  auto bytesIn = [&](MemcpyDirection d) {
    return stats->bytesByDirection[bangsim::directionValue(d)];
  };
  // The per-channel vectors travel GDRAM2NRAM, once per core that has
  // items (Codegen's vectorLoads): min(items of a phase, tasks) cores.
  int64_t vectorBytes = 0;
  for (int l : gp.Info.Layers)
    vectorBytes += int64_t(n.Layers[l].Bias.size() + n.Layers[l].Alpha.size()) *
                   n.vectorElemBytes(n.Layers[l]);
  run.WeightReadBytes =
      bytesIn(MemcpyDirection::GDRAM2WRAM) +
      (gp.weightsInSram() ? bytesIn(MemcpyDirection::GDRAM2SRAM) - stagedInputs
                          : 0) +
      vectorBytes * std::min<int64_t>(gp.items() / gp.SramPhases, k.Tasks);
  run.HostSeconds = stats->hostSeconds;
  run.WorkerPid = stats->workerPid;
  return run;
}

Error PlanRun::downloadOutputs(HostTensors &outputs) {
  for (int t : n.outputs()) {
    std::vector<char> bytes(size_t(batch * n.Tensors[t].bytes()));
    if (Error e =
            device->copyFromDevice(bytes.data(), tensorMem.at(t), bytes.size()))
      return e;
    outputs[t] = decode(bytes, n.Tensors[t].Type);
  }
  return Error::success();
}

/// Writes lg_ops.mlu to \p dir (created).
Error prepareEmitDir(const std::string &dir) {
  if (std::error_code ec = sys::fs::create_directories(dir))
    return createStringError(ec, "cannot create " + dir);
  return writeTextFile(dir + "/lg_ops.mlu", lgOpsSource());
}

} // namespace

Expected<RunResult> runPlan(const Net &n, const NetPlan &p,
                            const bangsim::DeviceSpec &spec, int64_t batch,
                            const HostTensors &inputs,
                            const RunOptions &options) {
  PlanRun run(n, p, spec, batch, options);
  if (Error e = run.open())
    return std::move(e);
  if (!options.emitDir.empty())
    if (Error e = prepareEmitDir(options.emitDir))
      return std::move(e);
  // The group kernels are written and compiled (loaded from the compile
  // cache when it is warm) on a thread of their own while this one uploads
  // the parameters on every host thread: neither needs the other, and the
  // compiles alone kept one host core idle (VGG-16: 11 kernels, ~30 ms).
  // With one host thread, or a compile limit to enforce, they compile
  // first, alone (RunOptions::compileBesideUploads).
  std::vector<GroupKernel> kernels(p.Groups.size());
  std::vector<std::unique_ptr<bangsim::Module>> modules(p.Groups.size());
  std::vector<double> compileSeconds(p.Groups.size());
  auto compileAll = [&]() -> Error {
    for (size_t i = 0; i < p.Groups.size(); ++i) {
      kernels[i] = emitGroupKernel(n, p.Groups[i], int(i));
      const GroupKernel &k = kernels[i];
      if (!options.emitDir.empty())
        if (Error e = writeTextFile(options.emitDir + "/" + k.Name + ".mlu",
                                    k.Source))
          return e;
      auto mod = run.compileGroup(k, compileSeconds[i]);
      if (!mod)
        return mod.takeError();
      modules[i] = std::move(*mod);
    }
    return Error::success();
  };
  auto uploadAll = [&]() -> Error {
    if (Error e = run.uploadTensors(inputs))
      return e;
    return run.uploadParameters();
  };
  if (options.compileBesideUploads && hostThreads() > 1) {
    std::future<Error> compiled = std::async(std::launch::async, compileAll);
    Error uploaded = uploadAll();
    if (Error e = joinErrors(std::move(uploaded), compiled.get()))
      return std::move(e);
  } else {
    if (Error e = compileAll())
      return std::move(e);
    if (Error e = uploadAll())
      return std::move(e);
  }
  RunResult result;
  for (size_t i = 0; i < p.Groups.size(); ++i) {
    Expected<GroupRun> group =
        run.runGroup(p.Groups[i], kernels[i], *modules[i]);
    if (!group)
      return group.takeError();
    group->CompileSeconds = compileSeconds[i];
    result.Cycles += group->Cycles;
    result.ReadBytes += group->ReadBytes;
    result.WriteBytes += group->WriteBytes;
    result.WeightReadBytes += group->WeightReadBytes;
    result.Groups.push_back(*group);
  }
  if (Error e = run.downloadOutputs(result.Outputs))
    return std::move(e);
  return result;
}

} // namespace bangc::lg
