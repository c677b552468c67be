//===- State.h - The CNRT runtime's process-wide state ----------*- C++ -*-===//
//
// Every CNRT call reads or changes the same few tables: the simulated
// devices, the live cnrtMalloc allocations, the queues and notifiers, and
// per host thread the current device and the last error. They live here,
// behind one mutex, so each cnrt*.cpp file holds one group of API functions
// and no state of its own. Errors go through fail(), which records the
// thread's last error and prints the reason on stderr as CNRT does.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_RUNTIME_STATE_H
#define BANGSIM_RUNTIME_STATE_H

#include "bangsim/Device.h"
#include "bangsim/DeviceSpec.h"

#include "cnrt.h"

#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

/// A queue: the device it belongs to and a fault not yet reported. Work is
/// executed when it is enqueued, so a queue never has work pending.
struct CNqueue_st {
  int device = 0;
  cnrtRet_t pending = cnrtSuccess;
};

/// A notifier: the simulated time of the device clock when it was last
/// placed on a queue.
struct CNnotifier_st {
  unsigned flags = 0;
  bool placed = false;
  int device = -1;
  double seconds = 0;
};

/// CNDrv's shared (primary) context of a device.
struct CNcontext_st {
  int device = 0;
  uint64_t visibleClusters = 0; ///< bitmap
  int unionLimit = 0;           ///< a KernelClass value
};


/// The value a C caller passed for an enum parameter, read from its bytes:
/// C lets a program pass any int, and loading an out-of-range value as the
/// enum type is undefined in C++ (UBSan's -fsanitize=enum). Entry points
/// check this value before they use the parameter as its enum.
template <typename E> int rawEnum(const E &e) {
  static_assert(sizeof(E) == sizeof(int), "a C enum is an int");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

namespace bangsim::cnrt {

/// One simulated card.
struct DeviceSlot {
  DeviceSpec spec;
  std::unique_ptr<Device> device; ///< opened on first use
  double clockSeconds = 0;        ///< simulated time of its queues
  CNqueue_st defaultQueue;
  CNcontext_st context;
};

struct Allocation {
  uint64_t bytes;
  int device; ///< -1 for cnrtHostMalloc memory
};

class State {
public:
  static State &get();

  std::mutex mutex;

  /// The devices (BANGC_CNRT_DEVICES, else the device the first registered
  /// image was compiled for, else mlu370); made on first call. An empty
  /// list with the reason in `error` when the specs cannot be loaded.
  std::vector<DeviceSlot> &devices();
  std::string devicesError;

  /// Opens the device of an ordinal the caller checked.
  llvm::Expected<Device *> open(int ordinal);

  /// Live allocations by start address (device and cnrtHostMalloc memory).
  std::map<uintptr_t, Allocation> allocations;
  /// The allocation holding [p, p + bytes), or null.
  const std::pair<const uintptr_t, Allocation> *find(const void *p,
                                                     uint64_t bytes,
                                                     bool device) const;

  std::set<CNqueue_st *> queues;
  std::set<CNnotifier_st *> notifiers;

  /// The device a registered image was compiled for; the default device
  /// list uses the first one.
  std::string firstImageDevice;

private:
  bool devicesMade = false;
  std::vector<DeviceSlot> slots;
};

/// The calling thread's current device ordinal (cnrtSetDevice).
int &currentOrdinal();
/// The calling thread's last error (cnrtGetLastError).
cnrtRet_t &lastError();

/// Records `code` as the thread's last error, prints "[CNRT] [Error]
/// function: message" on stderr and returns `code`.
cnrtRet_t fail(cnrtRet_t code, const char *function,
               const llvm::Twine &message);

/// The queue a handle names, with the state locked: null means the current
/// device's default queue; an unknown handle gives null.
CNqueue_st *resolveQueue(State &state, cnrtQueue_t queue);

/// A device attribute (CNDrv's numbering, which CNRT shares): a value, an
/// attribute the simulator does not model, or no such attribute.
enum class AttributeStatus { Value, NotModelled, Unknown };
AttributeStatus deviceAttribute(int ordinal, int attribute, int *value);

/// Checks the thread's current device exists; cnrtSuccess or the error
/// (already recorded) for `function`.
cnrtRet_t checkCurrentDevice(State &state, const char *function);

} // namespace bangsim::cnrt

#endif // BANGSIM_RUNTIME_STATE_H
