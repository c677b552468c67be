//===- Memory.cpp - cnrtMalloc, cnrtMemcpy, cnrtMemset and pointer queries ===//
//
// Device memory is the simrt Device's GDRAM. The runtime keeps its own table
// of live allocations (State::allocations) so that it can check each copy's
// device side before touching memory, tell device from host pointers
// (cnrtPointerGetAttributes, cnrtMemcpyNoDirection), and free through the
// right device. Copies on a queue (the *Async functions) run at once: the
// queue has nothing pending, and copies take no simulated time (the cost
// model covers the device, not the host link).
//
//===----------------------------------------------------------------------===//
#include "State.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <cstring>

using namespace bangsim;
using namespace bangsim::cnrt;

cnrtRet_t cnrtMalloc(void **ptr, size_t bytes) {
  if (!ptr)
    return fail(cnrtErrorArgsInvalid, "cnrtMalloc", "ptr is NULL");
  if (bytes == 0)
    return fail(cnrtErrorArgsInvalid, "cnrtMalloc", "0 bytes requested");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkCurrentDevice(state, "cnrtMalloc"))
    return e;
  int d = currentOrdinal();
  llvm::Expected<Device *> dev = state.open(d);
  if (!dev)
    return fail(cnrtErrorInit, "cnrtMalloc", toString(dev.takeError()));
  llvm::Expected<void *> p = (*dev)->malloc(bytes);
  if (!p)
    return fail(cnrtErrorNoMem, "cnrtMalloc", toString(p.takeError()));
  state.allocations[reinterpret_cast<uintptr_t>(*p)] = {bytes, d};
  *ptr = *p;
  return cnrtSuccess;
}

cnrtRet_t cnrtFree(void *ptr) {
  if (!ptr)
    return cnrtSuccess; // as free(NULL)
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  auto it = state.allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == state.allocations.end() || it->second.device < 0)
    return fail(cnrtErrorArgsInvalid, "cnrtFree",
                "pointer is not the start of a live cnrtMalloc allocation");
  int d = it->second.device;
  state.allocations.erase(it);
  llvm::Expected<Device *> dev = state.open(d);
  if (!dev)
    return fail(cnrtErrorInit, "cnrtFree", toString(dev.takeError()));
  if (llvm::Error e = (*dev)->free(ptr))
    return fail(cnrtErrorArgsInvalid, "cnrtFree", toString(std::move(e)));
  return cnrtSuccess;
}

cnrtRet_t cnrtHostMalloc(void **ptr, size_t bytes) {
  if (!ptr)
    return fail(cnrtErrorArgsInvalid, "cnrtHostMalloc", "ptr is NULL");
  if (bytes == 0)
    return fail(cnrtErrorArgsInvalid, "cnrtHostMalloc", "0 bytes requested");
  void *p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (!p)
    return fail(cnrtErrorSysNoMem, "cnrtHostMalloc",
                "out of host memory for " + llvm::Twine(bytes) + " bytes");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  state.allocations[reinterpret_cast<uintptr_t>(p)] = {bytes, -1};
  *ptr = p;
  return cnrtSuccess;
}

cnrtRet_t cnrtFreeHost(void *ptr) {
  if (!ptr)
    return cnrtSuccess;
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  auto it = state.allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == state.allocations.end() || it->second.device >= 0)
    return fail(cnrtErrorArgsInvalid, "cnrtFreeHost",
                "pointer is not the start of a live cnrtHostMalloc buffer");
  state.allocations.erase(it);
  std::free(ptr);
  return cnrtSuccess;
}

cnrtRet_t cnrtMemGetInfo(size_t *free, size_t *total) {
  if (!free || !total)
    return fail(cnrtErrorArgsInvalid, "cnrtMemGetInfo",
                "free or total is NULL");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkCurrentDevice(state, "cnrtMemGetInfo"))
    return e;
  int d = currentOrdinal();
  uint64_t used = 0;
  for (const auto &a : state.allocations)
    if (a.second.device == d)
      used += a.second.bytes;
  *total = size_t(state.devices()[d].spec.gdramBytes);
  *free = *total - size_t(used);
  return cnrtSuccess;
}

namespace {

const char *directionName(cnrtMemTransDir_t dir) {
  switch (dir) {
  case cnrtMemcpyHostToDev: return "host to device";
  case cnrtMemcpyDevToDev: return "device to device";
  case cnrtMemcpyDevToHost: return "device to host";
  case cnrtMemcpyHostToHost: return "host to host";
  case cnrtMemcpyPeerToPeer: return "peer to peer";
  case cnrtMemcpyNoDirection: return "no direction";
  }
  return "?";
}

/// One copy, with the state locked: checks each side against the
/// direction, then copies through the device that owns the device side.
cnrtRet_t copy(State &state, const char *function, void *dst, const void *src,
               size_t bytes, int rawDir) {
  if (unsigned(rawDir) > unsigned(cnrtMemcpyNoDirection))
    return fail(cnrtErrorMemcpyDirectionInvalid, function,
                "direction " + llvm::Twine(rawDir) +
                    " is not a cnrtMemTransDir_t");
  auto dir = cnrtMemTransDir_t(rawDir);
  if (bytes == 0)
    return cnrtSuccess;
  if (!dst || !src)
    return fail(cnrtErrorArgsInvalid, function,
                llvm::Twine(!dst ? "dst" : "src") + " is NULL");
  const auto *dstAlloc = state.find(dst, bytes, /*device=*/true);
  const auto *srcAlloc = state.find(src, bytes, /*device=*/true);
  if (dir == cnrtMemcpyNoDirection)
    dir = dstAlloc ? (srcAlloc ? cnrtMemcpyDevToDev : cnrtMemcpyHostToDev)
                   : (srcAlloc ? cnrtMemcpyDevToHost : cnrtMemcpyHostToHost);
  if (dir == cnrtMemcpyPeerToPeer)
    dir = cnrtMemcpyDevToDev;
  bool dstDevice = dir == cnrtMemcpyHostToDev || dir == cnrtMemcpyDevToDev;
  bool srcDevice = dir == cnrtMemcpyDevToHost || dir == cnrtMemcpyDevToDev;
  auto outside = [&](const char *side, const void *p) {
    return fail(cnrtErrorArgsInvalid, function,
                llvm::formatv("{0} copy of {1} bytes: {2} [{3}, +{1}) is not "
                              "inside one live cnrtMalloc allocation",
                              directionName(dir), bytes, side, p));
  };
  if (dstDevice && !dstAlloc)
    return outside("dst", dst);
  if (srcDevice && !srcAlloc)
    return outside("src", src);
  if (!dstDevice && !srcDevice) {
    std::memmove(dst, src, bytes);
    return cnrtSuccess;
  }
  int d = dstDevice ? dstAlloc->second.device : srcAlloc->second.device;
  llvm::Expected<Device *> dev = state.open(d);
  if (!dev)
    return fail(cnrtErrorInit, function, toString(dev.takeError()));
  llvm::Error e = dstDevice ? (*dev)->copyToDevice(dst, src, bytes)
                            : (*dev)->copyFromDevice(dst, src, bytes);
  if (e)
    return fail(cnrtErrorArgsInvalid, function, toString(std::move(e)));
  return cnrtSuccess;
}

cnrtRet_t checkQueue(State &state, cnrtQueue_t queue, const char *function) {
  if (cnrtRet_t e = checkCurrentDevice(state, function))
    return e;
  if (!resolveQueue(state, queue))
    return fail(cnrtErrorInvalidResourceHandle, function,
                "the queue is not a live cnrtQueue_t");
  return cnrtSuccess;
}

cnrtRet_t fill(State &state, const char *function, void *ptr,
               const void *pattern, size_t width, size_t count) {
  if (count == 0)
    return cnrtSuccess;
  if (!ptr)
    return fail(cnrtErrorArgsInvalid, function, "ptr is NULL");
  if (reinterpret_cast<uintptr_t>(ptr) % width)
    return fail(cnrtErrorArgsInvalid, function,
                llvm::formatv("ptr {0} is not {1}-byte aligned", ptr, width));
  if (count > SIZE_MAX / width ||
      !state.find(ptr, uint64_t(count) * width, /*device=*/true))
    return fail(cnrtErrorArgsInvalid, function,
                llvm::formatv("[{0}, +{1} x {2} bytes) is not inside one live "
                              "cnrtMalloc allocation",
                              ptr, count, width));
  char *p = static_cast<char *>(ptr);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(p + i * width, pattern, width);
  return cnrtSuccess;
}

} // namespace

cnrtRet_t cnrtMemcpy(void *dst, void *src, size_t bytes,
                     cnrtMemTransDir_t dir) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  return copy(state, "cnrtMemcpy", dst, src, bytes, rawEnum(dir));
}

cnrtRet_t cnrtMemcpyAsync(void *dst, void *src, size_t bytes,
                          cnrtQueue_t queue, cnrtMemTransDir_t dir) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkQueue(state, queue, "cnrtMemcpyAsync"))
    return e;
  return copy(state, "cnrtMemcpyAsync", dst, src, bytes, rawEnum(dir));
}

cnrtRet_t cnrtMemset(void *ptr, int value, size_t bytes) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  uint8_t b = uint8_t(value);
  return fill(state, "cnrtMemset", ptr, &b, 1, bytes);
}

cnrtRet_t cnrtMemsetAsync(void *ptr, int value, size_t bytes,
                          cnrtQueue_t queue) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkQueue(state, queue, "cnrtMemsetAsync"))
    return e;
  uint8_t b = uint8_t(value);
  return fill(state, "cnrtMemsetAsync", ptr, &b, 1, bytes);
}

cnrtRet_t cnrtMemsetD8(void *ptr, uint8_t value, size_t count) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  return fill(state, "cnrtMemsetD8", ptr, &value, 1, count);
}

cnrtRet_t cnrtMemsetD32(void *ptr, uint32_t value, size_t count) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  return fill(state, "cnrtMemsetD32", ptr, &value, 4, count);
}

cnrtRet_t cnrtMemsetD8Async(void *ptr, uint8_t value, size_t count,
                            cnrtQueue_t queue) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkQueue(state, queue, "cnrtMemsetD8Async"))
    return e;
  return fill(state, "cnrtMemsetD8Async", ptr, &value, 1, count);
}

cnrtRet_t cnrtMemsetD32Async(void *ptr, uint32_t value, size_t count,
                             cnrtQueue_t queue) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkQueue(state, queue, "cnrtMemsetD32Async"))
    return e;
  return fill(state, "cnrtMemsetD32Async", ptr, &value, 4, count);
}

cnrtRet_t cnrtPointerGetAttributes(cnrtPointerAttributes_t *attr,
                                   const void *ptr) {
  if (!attr)
    return fail(cnrtErrorArgsInvalid, "cnrtPointerGetAttributes",
                "attr is NULL");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  std::memset(attr, 0, sizeof *attr);
  attr->device = -1;
  attr->cacheMode = cnrtUvaNotSupport;
  if (const auto *a = state.find(ptr, 0, /*device=*/true)) {
    attr->type = cnrtMemTypeDevice;
    attr->device = a->second.device;
    attr->size = size_t(a->second.bytes);
    attr->devicePointer = const_cast<void *>(ptr);
    attr->deviceBasePointer = reinterpret_cast<void *>(a->first);
  } else if (const auto *h = state.find(ptr, 0, /*device=*/false)) {
    attr->type = cnrtMemTypeHost;
    attr->size = size_t(h->second.bytes);
    attr->hostPointer = const_cast<void *>(ptr);
  } else {
    attr->type = cnrtMemTypeUnregistered;
  }
  return cnrtSuccess;
}
