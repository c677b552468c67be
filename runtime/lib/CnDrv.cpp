//===- CnDrv.cpp - The CNDrv functions of cn_api.h -------------------------===//
//
// CNDrv's view of the same devices: a CNdev is a device ordinal, each device
// has one shared context (CNcontext_st in State.h), and CNqueue is
// cnrtQueue_t. mlu-ops' mluOpCreate asks these for the cluster and core
// counts, the on-chip memory sizes and the context's visible clusters.
//
//===----------------------------------------------------------------------===//
#include "State.h"

#include "cn_api.h"

#include <cstdlib>
#include <cstring>

using namespace bangsim;
using namespace bangsim::cnrt;

namespace {

CNresult checkDev(State &state, CNdev dev) {
  if (state.devices().empty())
    return CN_ERROR_NO_DEVICE;
  return dev < state.devices().size() ? CN_SUCCESS : CN_ERROR_INVALID_DEVICE;
}

bool liveContext(State &state, CNcontext ctx) {
  for (DeviceSlot &slot : state.devices())
    if (&slot.context == ctx)
      return true;
  return false;
}

/// The body of a call about one device: with the state locked and `dev`
/// checked, `body(slot)` gives the result.
template <typename Body> CNresult onDevice(CNdev dev, Body body) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (CNresult r = checkDev(state, dev))
    return r;
  return body(state.devices()[dev]);
}

/// The body of a call about a context: with the state locked and `ctx`
/// checked, `body(state)` gives the result.
template <typename Body> CNresult onContext(CNcontext ctx, Body body) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (!liveContext(state, ctx))
    return CN_CONTEXT_ERROR_INVALID;
  return body(state);
}

/// Clusters a task of class `c` spans (0 for a block task), or -1. `c` is
/// the raw value a C caller passed (rawEnum): any int.
int classClusters(int c) {
  switch (c) {
  case CN_KERNEL_CLASS_BLOCK: return 0;
  case CN_KERNEL_CLASS_UNION: return 1;
  case CN_KERNEL_CLASS_UNION2: return 2;
  case CN_KERNEL_CLASS_UNION4: return 4;
  case CN_KERNEL_CLASS_UNION8: return 8;
  case CN_KERNEL_CLASS_UNION16: return 16;
  default: return -1;
  }
}

} // namespace

CNresult cnInit(unsigned int flags) {
  if (flags != 0)
    return CN_ERROR_INVALID_VALUE;
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  return state.devices().empty() ? CN_ERROR_NO_DEVICE : CN_SUCCESS;
}

CNresult cnGetLibVersion(int *major, int *minor, int *patch) {
  if (!major || !minor || !patch)
    return CN_ERROR_INVALID_VALUE;
  *major = CN_MAJOR_VERSION;
  *minor = CN_MINOR_VERSION;
  *patch = CN_PATCH_VERSION;
  return CN_SUCCESS;
}

CNresult cnDeviceGetCount(int *pcount) {
  if (!pcount)
    return CN_ERROR_INVALID_VALUE;
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  *pcount = int(state.devices().size());
  return *pcount ? CN_SUCCESS : CN_ERROR_NO_DEVICE;
}

CNresult cnDeviceGet(CNdev *pdev, int ordinal) {
  if (!pdev || ordinal < 0)
    return CN_ERROR_INVALID_VALUE;
  return onDevice(CNdev(ordinal), [&](DeviceSlot &) {
    *pdev = CNdev(ordinal);
    return CN_SUCCESS;
  });
}

CNresult cnDeviceGetAttribute(int *pi, CNdevice_attribute attrib, CNdev dev) {
  if (!pi)
    return CN_ERROR_INVALID_VALUE;
  return onDevice(dev, [&](DeviceSlot &) {
    switch (deviceAttribute(int(dev), rawEnum(attrib), pi)) {
    case AttributeStatus::Value: return CN_SUCCESS;
    case AttributeStatus::NotModelled: return CN_OPS_ERROR_NOT_SUPPORTED;
    case AttributeStatus::Unknown: break;
    }
    return CN_ERROR_INVALID_VALUE;
  });
}

CNresult cnDeviceGetName(char *name, int len, CNdev dev) {
  if (!name || len <= 0)
    return CN_ERROR_INVALID_VALUE;
  return onDevice(dev, [&](DeviceSlot &slot) {
    const std::string &n = slot.spec.name;
    size_t copied = std::min(n.size(), size_t(len - 1));
    std::memcpy(name, n.data(), copied);
    name[copied] = '\0';
    return CN_SUCCESS;
  });
}

CNresult cnDeviceTotalMem(cn_uint64_t *bytes, CNdev dev) {
  if (!bytes)
    return CN_ERROR_INVALID_VALUE;
  return onDevice(dev, [&](DeviceSlot &slot) {
    *bytes = cn_uint64_t(slot.spec.gdramBytes);
    return CN_SUCCESS;
  });
}

// --- Contexts: the current device's shared context ------------------------
CNresult cnCtxGetCurrent(CNcontext *pctx) {
  if (!pctx)
    return CN_ERROR_INVALID_VALUE;
  return onDevice(CNdev(currentOrdinal()), [&](DeviceSlot &slot) {
    *pctx = &slot.context;
    return CN_SUCCESS;
  });
}

CNresult cnCtxSetCurrent(CNcontext ctx) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (!liveContext(state, ctx))
    return CN_CONTEXT_ERROR_INVALID;
  currentOrdinal() = ctx->device;
  return CN_SUCCESS;
}

CNresult cnCtxGetDevice(CNdev *pdev) {
  if (!pdev)
    return CN_ERROR_INVALID_VALUE;
  CNdev dev = CNdev(currentOrdinal());
  return onDevice(dev, [&](DeviceSlot &) {
    *pdev = dev;
    return CN_SUCCESS;
  });
}

CNresult cnCtxSync(void) {
  return cnrtSyncDevice() == cnrtSuccess ? CN_SUCCESS : CN_INVOKE_ERROR;
}

CNresult cnSharedContextAcquire(CNcontext *pctx, CNdev dev) {
  if (!pctx)
    return CN_ERROR_INVALID_VALUE;
  return onDevice(dev, [&](DeviceSlot &slot) {
    *pctx = &slot.context;
    return CN_SUCCESS;
  });
}

CNresult cnSharedContextRelease(CNdev dev) {
  return onDevice(dev, [](DeviceSlot &) { return CN_SUCCESS; });
}

CNresult cnGetCtxConfigParam(CNcontext ctx, CNctxConfigParamType type,
                             CNctxConfigParam *param) {
  if (!param)
    return CN_ERROR_INVALID_VALUE;
  return onContext(ctx, [&](State &) {
    switch (rawEnum(type)) {
    case CN_CTX_CONFIG_VISIBLE_CLUSTER:
      param->visibleCluster = ctx->visibleClusters;
      return CN_SUCCESS;
    case CN_CTX_CONFIG_VISIBLE_CLUSTER_NUM:
      param->visibleClusterNumber =
          cn_uint64_t(__builtin_popcountll(ctx->visibleClusters));
      return CN_SUCCESS;
    case CN_CTX_CONFIG_UNION_LIMIT:
      param->unionLimit = KernelClass(ctx->unionLimit);
      return CN_SUCCESS;
    default:
      return CN_ERROR_INVALID_VALUE;
    }
  });
}

CNresult cnSetCtxConfigParam(CNcontext ctx, CNctxConfigParamType type,
                             CNctxConfigParam *param) {
  if (!param)
    return CN_ERROR_INVALID_VALUE;
  return onContext(ctx, [&](State &) {
    int which = rawEnum(type);
    if (which == CN_CTX_CONFIG_UNION_LIMIT) {
      if (classClusters(rawEnum(param->unionLimit)) < 0)
        return CN_ERROR_INVALID_VALUE;
      ctx->unionLimit = rawEnum(param->unionLimit);
      return CN_SUCCESS;
    }
    // Restricting the visible clusters is not simulated: launches use the
    // whole card.
    if (which == CN_CTX_CONFIG_VISIBLE_CLUSTER)
      return CN_OPS_ERROR_NOT_SUPPORTED;
    return CN_ERROR_INVALID_VALUE;
  });
}

CNresult cnGetCtxMaxParallelUnionTasks(CNcontext ctx, KernelClass c,
                                       int *number) {
  if (!number)
    return CN_ERROR_INVALID_VALUE;
  return onContext(ctx, [&](State &state) {
    int n = classClusters(rawEnum(c));
    if (n < 0)
      return CN_ERROR_INVALID_VALUE;
    const DeviceSpec &spec = state.devices()[ctx->device].spec;
    *number = n == 0 ? spec.numCores() : spec.clusters / n;
    return CN_SUCCESS;
  });
}

CNresult cnQueueGetContext(CNqueue queue, CNcontext *pctx) {
  if (!pctx)
    return CN_ERROR_INVALID_VALUE;
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (state.devices().empty())
    return CN_ERROR_NO_DEVICE;
  CNqueue_st *q = resolveQueue(state, queue);
  if (!q)
    return CN_QUEUE_ERROR_INVALID;
  *pctx = &state.devices()[q->device].context;
  return CN_SUCCESS;
}

CNresult cnQueueSync(CNqueue queue) {
  cnrtRet_t r = cnrtQueueSync(queue);
  if (r == cnrtSuccess)
    return CN_SUCCESS;
  return r == cnrtErrorInvalidResourceHandle ? CN_QUEUE_ERROR_INVALID
                                             : CN_INVOKE_ERROR;
}

CNresult cnMallocHost(void **pp, cn_uint64_t bytes) {
  if (!pp || bytes == 0)
    return CN_ERROR_INVALID_VALUE;
  return cnrtHostMalloc(pp, size_t(bytes)) == cnrtSuccess
             ? CN_SUCCESS
             : CN_ERROR_SYSTEM_OUT_OF_MEMORY;
}

CNresult cnFreeHost(void *p) {
  return cnrtFreeHost(p) == cnrtSuccess ? CN_SUCCESS
                                        : CN_MEMORY_ERROR_INVALID_ADDRESS;
}
