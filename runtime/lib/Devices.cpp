//===- Devices.cpp - Device query and selection ---------------------------===//
//
// cnrtGetDeviceCount/cnrtSetDevice/cnrtGetDevice and the attributes of a
// device, read from its DeviceSpec. CNRT's attribute numbers equal CNDrv's,
// so cnDeviceGetAttribute (CnDrv.cpp) shares deviceAttribute(). An
// attribute the simulator does not model (memory clock, bus width, PCI
// location, queue limits...) is "not supported" rather than a made-up
// number; docs/runtime.md lists them.
//
//===----------------------------------------------------------------------===//
#include "State.h"

#include <climits>
#include <cstring>

using namespace bangsim;
using namespace bangsim::cnrt;

namespace bangsim::cnrt {

/// The union task types simrt runs (UNION1..UNION8) that fit the card: the
/// largest number of clusters one union task may use.
static int maxUnionClusters(const DeviceSpec &spec) {
  int n = 1;
  while (n * 2 <= 8 && n * 2 <= spec.clusters)
    n *= 2;
  return spec.clusters >= 1 ? n : 0;
}

/// Compute capability major version of a BANG architecture: cncc's
/// --bang-arch=compute_20/30/50 select mtp_270/290, mtp_372, mtp_592.
static int capabilityMajor(int arch) {
  return arch >= 500 ? 5 : arch >= 300 ? 3 : 2;
}

AttributeStatus deviceAttribute(int ordinal, int attribute, int *value) {
  State &state = State::get();
  const DeviceSpec &spec = state.devices()[ordinal].spec;
  const int arch = bangArch(spec);
  auto clampInt = [](int64_t v) { return int(std::min<int64_t>(v, INT_MAX)); };
  switch (attribute) {
  case CN_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = capabilityMajor(arch);
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = 0;
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_FP16_COMPUTING_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_INT8_COMPUTING_SUPPORTED:
    *value = 1; // half and int8 vector and matrix intrinsics
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_BF16_COMPUTING_SUPPORTED:
    *value = arch >= 300; // bfloat16 arrived with the 300 series
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_SPARSE_COMPUTING_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_INT4_COMPUTING_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_TF32_COMPUTING_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_QUEUE_PRIORITIES_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_TINY_CORE_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_CODEC_JPEG_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_CODEC_H264_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_CODEC_H265_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_AIISP_CORE_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_MULTI_CTX_NOTIFIER_WAIT_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_IPCNOTIFIER_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_ECC_ENABLED:
    *value = 0; // the simulator has none of these
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_COMPUTE_MODE:
    *value = CN_COMPUTEMODE_DEFAULT;
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_X:
  case CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_Y:
  case CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_Z:
    *value = 1 << 24; // simrt's limit on the task count
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT_PER_UNION_TASK:
  case CN_DEVICE_ATTRIBUTE_MAX_CLUSTERS_PER_UNION_LIMIT_TASK:
    *value = maxUnionClusters(spec);
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT:
    *value = spec.clusters;
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_MAX_CORE_COUNT_PER_CLUSTER:
    *value = spec.coresPerCluster;
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_MLU_ISA_VERSION:
    *value = arch;
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_IS_MULTIPLE_TENSOR_PROCESSOR:
    *value = 1; // every profile is an mtp_ card
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_MAX_L2_CACHE_SIZE:
  case CN_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE:
    *value = 0; // the simulated card has no L2 cache
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_NRAM_SIZE_PER_CORE:
    *value = clampInt(spec.nramBytes);
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_WEIGHT_RAM_SIZE_PER_CORE:
    *value = clampInt(spec.wramBytes);
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_MAX_SHARED_RAM_SIZE_PER_CLUSTER:
    *value = clampInt(spec.sramBytes);
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_NODE_COUNT:
    *value = 1;
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_TOTAL_SIZE:
    *value = clampInt(spec.gdramBytes >> 20);
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_AVAILABLE_GLOBAL_MEMORY_SIZE: {
    int64_t used = 0;
    for (const auto &a : state.allocations)
      if (a.second.device == ordinal)
        used += int64_t(a.second.bytes);
    *value = clampInt((spec.gdramBytes - used) >> 20);
    return AttributeStatus::Value;
  }
  case CN_DEVICE_ATTRIBUTE_CLUSTER_CLOCK_RATE:
    *value = clampInt(int64_t(spec.clockGHz * 1e6 + 0.5)); // kHz
    return AttributeStatus::Value;
  case CN_DEVICE_ATTRIBUTE_MAX_QUEUE_COUNT:
  case CN_DEVICE_ATTRIBUTE_MAX_NOTIFIER_COUNT:
  case CN_DEVICE_ATTRIBUTE_MAX_QUADRANT_COUNT:
  case CN_DEVICE_ATTRIBUTE_MAX_UNION_TYPE_PER_QUADRANT:
  case CN_DEVICE_ATTRIBUTE_IPCRESOURCE_PER_CTX:
  case CN_DEVICE_ATTRIBUTE_TOTAL_CONST_MEMORY_SIZE:
  case CN_DEVICE_ATTRIBUTE_LOCAL_MEMORY_SIZE_PER_CORE:
  case CN_DEVICE_ATTRIBUTE_CLUSTER_L1_CACHE_SUPPORTED:
  case CN_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_SIZE_PER_UNION_TASK:
  case CN_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
  case CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
  case CN_DEVICE_ATTRIBUTE_PCI_BUS_ID:
  case CN_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
  case CN_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
  case CN_DEVICE_ATTRIBUTE_MDR_MEMORY_SIZE:
    return AttributeStatus::NotModelled;
  default:
    return AttributeStatus::Unknown;
  }
}

} // namespace bangsim::cnrt

cnrtRet_t cnrtGetDeviceCount(unsigned int *count) {
  if (!count)
    return fail(cnrtErrorArgsInvalid, "cnrtGetDeviceCount", "count is NULL");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  *count = unsigned(state.devices().size());
  if (*count == 0)
    return fail(cnrtErrorNoDevice, "cnrtGetDeviceCount", state.devicesError);
  return cnrtSuccess;
}

cnrtRet_t cnrtSetDevice(int device) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  size_t n = state.devices().size();
  if (n == 0)
    return fail(cnrtErrorNoDevice, "cnrtSetDevice", state.devicesError);
  if (device < 0 || size_t(device) >= n)
    return fail(cnrtErrorDeviceInvalid, "cnrtSetDevice",
                "device " + llvm::Twine(device) + " is not in [0, " +
                    llvm::Twine(n) + ")");
  currentOrdinal() = device;
  return cnrtSuccess;
}

cnrtRet_t cnrtGetDevice(int *device) {
  if (!device)
    return fail(cnrtErrorArgsInvalid, "cnrtGetDevice", "device is NULL");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkCurrentDevice(state, "cnrtGetDevice"))
    return e;
  *device = currentOrdinal();
  return cnrtSuccess;
}

static cnrtRet_t checkOrdinal(State &state, int device, const char *function) {
  size_t n = state.devices().size();
  if (n == 0)
    return fail(cnrtErrorNoDevice, function, state.devicesError);
  if (device < 0 || size_t(device) >= n)
    return fail(cnrtErrorDeviceInvalid, function,
                "device " + llvm::Twine(device) + " is not in [0, " +
                    llvm::Twine(n) + ")");
  return cnrtSuccess;
}

cnrtRet_t cnrtDeviceGetAttribute(int *value, cnrtDeviceAttr_t attr,
                                 int device) {
  if (!value)
    return fail(cnrtErrorArgsInvalid, "cnrtDeviceGetAttribute",
                "value is NULL");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkOrdinal(state, device, "cnrtDeviceGetAttribute"))
    return e;
  switch (deviceAttribute(device, int(attr), value)) {
  case AttributeStatus::Value:
    return cnrtSuccess;
  case AttributeStatus::NotModelled:
    return fail(cnrtErrorNotSupport, "cnrtDeviceGetAttribute",
                "attribute " + llvm::Twine::utohexstr(unsigned(attr)) +
                    " is not modelled by the simulator");
  case AttributeStatus::Unknown:
    break;
  }
  return fail(cnrtErrorNoAttribute, "cnrtDeviceGetAttribute",
              "no attribute " + llvm::Twine::utohexstr(unsigned(attr)));
}

cnrtRet_t cnrtGetDeviceProperties(cnrtDeviceProp_t *prop, int device) {
  if (!prop)
    return fail(cnrtErrorArgsInvalid, "cnrtGetDeviceProperties",
                "prop is NULL");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkOrdinal(state, device, "cnrtGetDeviceProperties"))
    return e;
  std::memset(prop, 0, sizeof *prop);
  const DeviceSpec &spec = state.devices()[device].spec;
  std::strncpy(prop->name, spec.name.c_str(), sizeof prop->name - 1);
  // Unmodelled attributes stay 0.
  auto get = [&](int attr) {
    int v = 0;
    if (deviceAttribute(device, attr, &v) != AttributeStatus::Value)
      return 0;
    return v;
  };
  prop->totalMem = get(cnrtAttrTotalMemSize);
  prop->maxDim[0] = get(cnrtAttrMaxDimX);
  prop->maxDim[1] = get(cnrtAttrMaxDimY);
  prop->maxDim[2] = get(cnrtAttrMaxDimZ);
  prop->ipuClockRate = get(cnrtAttrIpuClockRate);
  prop->major = get(cnrtAttrComputeCapabilityMajor);
  prop->minor = get(cnrtAttrComputeCapabilityMinor);
  prop->FP16ComputingSupported = get(cnrtAttrFP16ComputingSupported);
  prop->INT8ComputingSupported = get(cnrtAttrINT8ComputingSupported);
  prop->BF16ComputingSupported = get(cnrtAttrBF16ComputingSupported);
  prop->maxClusterCountPerUnionTask = get(cnrtAttrMaxClusterCountPerUnionTask);
  prop->clusterCount = get(cnrtAttrClusterCount);
  prop->McorePerCluster = get(cnrtAttrMcorePerCluster);
  prop->maxClusterPerUnionLimitTask = get(cnrtAttrMaxClusterPerUnionLimitTask);
  prop->ISAVersion = get(cnrtAttrISAVersion);
  prop->isMultipleTensorProcessor = get(cnrtAttrIsMultipleTensorProcessor);
  prop->NramSizePerMcore = get(cnrtAttrNramSizePerMcore);
  prop->WramSizePerMcore = get(cnrtAttrWramSizePerMcore);
  prop->SramSizePerMcore = get(cnrtAttrSramSizePerMcore);
  prop->globalMemoryNodeCount = get(cnrtAttrGlobalMemoryNodeCount);
  prop->availableGlobalMemorySize = get(cnrtAttrAvailableGlobalMemorySize);
  prop->totalGlobalMemSize = uint64_t(spec.gdramBytes);
  return cnrtSuccess;
}

cnrtRet_t cnrtSyncDevice(void) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkCurrentDevice(state, "cnrtSyncDevice"))
    return e;
  // Work runs when it is enqueued; what is left is a fault to report.
  int d = currentOrdinal();
  cnrtRet_t pending = cnrtSuccess;
  auto take = [&](CNqueue_st &q) {
    if (q.device == d && q.pending != cnrtSuccess) {
      pending = q.pending;
      q.pending = cnrtSuccess;
    }
  };
  take(state.devices()[d].defaultQueue);
  for (CNqueue_st *q : state.queues)
    take(*q);
  if (pending != cnrtSuccess)
    return fail(pending, "cnrtSyncDevice",
                "a kernel faulted on the device (message above)");
  return cnrtSuccess;
}

cnrtRet_t cnrtDeviceReset(void) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkCurrentDevice(state, "cnrtDeviceReset"))
    return e;
  int d = currentOrdinal();
  DeviceSlot &slot = state.devices()[d];
  // Dropping the Device frees its GDRAM; forget its allocations, queues
  // and notifiers, as a reset destroys the device's resources.
  slot.device.reset();
  slot.clockSeconds = 0;
  slot.defaultQueue.pending = cnrtSuccess;
  for (auto it = state.allocations.begin(); it != state.allocations.end();)
    it = it->second.device == d ? state.allocations.erase(it) : std::next(it);
  for (auto it = state.queues.begin(); it != state.queues.end();) {
    if ((*it)->device == d) {
      delete *it;
      it = state.queues.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = state.notifiers.begin(); it != state.notifiers.end();) {
    if ((*it)->device == d) {
      delete *it;
      it = state.notifiers.erase(it);
    } else {
      ++it;
    }
  }
  return cnrtSuccess;
}
