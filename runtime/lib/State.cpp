//===- State.cpp - The CNRT runtime's process-wide state ------------------===//
#include "State.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace bangsim;
using namespace bangsim::cnrt;

State &State::get() {
  // Never destroyed: host programs call cnrtFree from static destructors and
  // atexit handlers, after which a destroyed state would be a use-after-free.
  static State *state = new State;
  return *state;
}

std::vector<DeviceSlot> &State::devices() {
  if (devicesMade)
    return slots;
  devicesMade = true;
  std::vector<std::string> names;
  if (const char *env = std::getenv("BANGC_CNRT_DEVICES"); env && *env) {
    llvm::SmallVector<llvm::StringRef, 4> parts;
    llvm::StringRef(env).split(parts, ',', -1, false);
    for (llvm::StringRef p : parts)
      names.push_back(p.trim().str());
  } else {
    names.push_back(firstImageDevice.empty() ? "mlu370" : firstImageDevice);
  }
  for (const std::string &name : names) {
    llvm::Expected<DeviceSpec> spec = loadDeviceSpec(name);
    if (!spec) {
      devicesError = "device '" + name +
                     "' (BANGC_CNRT_DEVICES): " + toString(spec.takeError());
      slots.clear();
      return slots;
    }
    DeviceSlot slot;
    slot.spec = *spec;
    slots.push_back(std::move(slot));
  }
  for (size_t i = 0; i < slots.size(); ++i) {
    slots[i].defaultQueue.device = int(i);
    slots[i].context.device = int(i);
    slots[i].context.visibleClusters =
        slots[i].spec.clusters >= 64 ? ~uint64_t(0)
                                     : (uint64_t(1) << slots[i].spec.clusters) - 1;
    slots[i].context.unionLimit = CN_KERNEL_CLASS_UNION16;
  }
  return slots;
}

llvm::Expected<Device *> State::open(int ordinal) {
  DeviceSlot &slot = devices()[ordinal];
  if (!slot.device) {
    llvm::Expected<std::unique_ptr<Device>> dev = Device::open(slot.spec);
    if (!dev)
      return dev.takeError();
    slot.device = std::move(*dev);
  }
  return slot.device.get();
}

const std::pair<const uintptr_t, Allocation> *
State::find(const void *p, uint64_t bytes, bool device) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = allocations.upper_bound(a);
  if (it == allocations.begin())
    return nullptr;
  --it;
  if ((it->second.device >= 0) != device)
    return nullptr;
  // [a, a + bytes) inside [start, start + size), without overflow.
  uint64_t offset = a - it->first;
  if (offset >= it->second.bytes || bytes > it->second.bytes - offset)
    return nullptr;
  return &*it;
}

int &bangsim::cnrt::currentOrdinal() {
  thread_local int device = 0;
  return device;
}

cnrtRet_t &bangsim::cnrt::lastError() {
  thread_local cnrtRet_t error = cnrtSuccess;
  return error;
}

cnrtRet_t bangsim::cnrt::fail(cnrtRet_t code, const char *function,
                              const llvm::Twine &message) {
  lastError() = code;
  llvm::errs() << "[CNRT] [Error] " << function << ": " << message << " ("
               << cnrtGetErrorName(code) << ")\n";
  return code;
}

CNqueue_st *bangsim::cnrt::resolveQueue(State &state, cnrtQueue_t queue) {
  if (!queue) {
    std::vector<DeviceSlot> &devs = state.devices();
    int d = currentOrdinal();
    return d >= 0 && size_t(d) < devs.size() ? &devs[d].defaultQueue
                                             : nullptr;
  }
  return state.queues.count(queue) ? queue : nullptr;
}

cnrtRet_t bangsim::cnrt::checkCurrentDevice(State &state,
                                            const char *function) {
  std::vector<DeviceSlot> &devs = state.devices();
  if (devs.empty())
    return fail(cnrtErrorNoDevice, function,
                state.devicesError.empty() ? "no device" : state.devicesError);
  if (size_t(currentOrdinal()) >= devs.size())
    return fail(cnrtErrorDeviceInvalid, function,
                "the current device " + llvm::Twine(currentOrdinal()) +
                    " does not exist");
  return cnrtSuccess;
}
