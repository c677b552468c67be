//===- Memory.cpp - GDRAM allocations and on-chip memories ----------------===//
//
// GDRAM buffers are host memory, tracked in an address map so every DMA can
// be checked against the one allocation it must stay inside. NRAM and WRAM of
// every core and SRAM of every cluster live in one reserved arena, so the
// space of any pointer is known from its address alone.
//
//===----------------------------------------------------------------------===//
#include "Sim.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <sys/mman.h>

using namespace bangsim;

const char *bangsim::placeKindName(Place::Kind kind) {
  switch (kind) {
  case Place::Gdram:
    return "GDRAM";
  case Place::Nram:
    return "NRAM";
  case Place::Wram:
    return "WRAM";
  case Place::Sram:
    return "SRAM";
  case Place::FreedGdram:
    return "freed GDRAM";
  case Place::Nowhere:
    break;
  }
  return "no device memory";
}

static uint64_t roundUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

MemoryMap::MemoryMap(const DeviceSpec &spec) : spec(spec) {
  coreStride = roundUp(spec.nramBytes + spec.wramBytes, 4096);
  sramStride = roundUp(spec.sramBytes, 4096);
  chipBytes = coreStride * spec.numCores() + sramStride * spec.clusters;
  void *p = mmap(nullptr, chipBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  assert(p != MAP_FAILED && "cannot reserve the on-chip memories");
  chip = static_cast<char *>(p);
  sramBase = chip + coreStride * spec.numCores();
}

MemoryMap::~MemoryMap() {
  munmap(chip, chipBytes);
  for (auto &[base, a] : live)
    munmap(reinterpret_cast<void *>(base), roundUp(a.bytes ? a.bytes : 1, 4096));
}

llvm::Expected<void *> MemoryMap::allocate(uint64_t bytes) {
  std::unique_lock lock(mutex);
  if (bytes > uint64_t(spec.gdramBytes) - liveBytes)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("out of GDRAM: {0} bytes requested, {1} of {2} in use",
                      bytes, liveBytes, spec.gdramBytes));
  // Fresh pages: zero filled, and freed ranges are unmapped so a stale
  // pointer faults instead of reading another buffer. Shared, so that the
  // worker process of an isolated launch (Isolate.cpp) writes these pages.
  size_t mapped = roundUp(bytes ? bytes : 1, 4096);
  void *p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "host out of memory for %llu bytes",
                                   (unsigned long long)bytes);
  uintptr_t base = reinterpret_cast<uintptr_t>(p);
  live[base] = Allocation{base, bytes, nextId++, false};
  freed.erase(base);
  liveBytes += bytes;
  ++changes;
  return p;
}

llvm::Error MemoryMap::release(void *ptr) {
  std::unique_lock lock(mutex);
  uintptr_t base = reinterpret_cast<uintptr_t>(ptr);
  auto it = live.find(base);
  if (it == live.end()) {
    bool wasFreed = freed.count(base);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        wasFreed ? "free of %p: that buffer was already freed"
                 : "free of %p: not the start of a GDRAM buffer",
        ptr);
  }
  Allocation a = it->second;
  live.erase(it);
  liveBytes -= a.bytes;
  munmap(ptr, roundUp(a.bytes ? a.bytes : 1, 4096));
  a.freed = true;
  freed[base] = a;
  ++changes;
  return llvm::Error::success();
}

uint64_t MemoryMap::allocatedBytes() const {
  std::shared_lock lock(mutex);
  return liveBytes;
}

std::vector<std::pair<uintptr_t, uint64_t>> MemoryMap::liveRanges() const {
  std::shared_lock lock(mutex);
  std::vector<std::pair<uintptr_t, uint64_t>> ranges;
  for (const auto &[base, a] : live)
    ranges.emplace_back(base, a.bytes);
  return ranges;
}

const Allocation *MemoryMap::liveContaining(uintptr_t p, uint64_t bytes) const {
  std::shared_lock lock(mutex);
  auto it = live.upper_bound(p);
  if (it == live.begin())
    return nullptr;
  --it;
  const Allocation &a = it->second;
  if (p >= a.base && p - a.base <= a.bytes && bytes <= a.bytes - (p - a.base))
    return &a;
  return nullptr;
}

Place MemoryMap::locate(uintptr_t p, uint64_t bytes) const {
  Place place;
  uintptr_t chipBase = reinterpret_cast<uintptr_t>(chip);
  uintptr_t end = p + bytes;
  if (p >= chipBase && p < chipBase + chipBytes) {
    uintptr_t sram = reinterpret_cast<uintptr_t>(sramBase);
    if (p < sram) {
      int core = int((p - chipBase) / coreStride);
      uintptr_t n = reinterpret_cast<uintptr_t>(nram(core));
      uintptr_t w = n + spec.nramBytes;
      if (p < w) {
        place = {Place::Nram, core, false, nullptr, n, w};
      } else {
        place = {Place::Wram, core, false, nullptr, w, w + spec.wramBytes};
      }
    } else {
      int cluster = int((p - sram) / sramStride);
      uintptr_t s =
          reinterpret_cast<uintptr_t>(sramBase) + cluster * sramStride;
      place = {Place::Sram, cluster, false, nullptr, s, s + spec.sramBytes};
    }
    place.whole = p >= place.regionBase && end <= place.regionEnd &&
                  end >= p;
    return place;
  }
  std::shared_lock lock(mutex);
  auto it = live.upper_bound(p);
  if (it != live.begin()) {
    const Allocation &a = std::prev(it)->second;
    if (p < a.base + std::max<uint64_t>(a.bytes, 1)) {
      place = {Place::Gdram, -1, false, &a, a.base, a.base + a.bytes};
      place.whole = end <= a.base + a.bytes && end >= p;
      return place;
    }
  }
  auto f = freed.upper_bound(p);
  if (f != freed.begin()) {
    const Allocation &a = std::prev(f)->second;
    if (p < a.base + std::max<uint64_t>(a.bytes, 1))
      return {Place::FreedGdram, -1, false, &a, a.base, a.base + a.bytes};
  }
  return place;
}

std::string MemoryMap::nearest(uintptr_t p) const {
  std::shared_lock lock(mutex);
  const Allocation *best = nullptr;
  uint64_t bestDistance = ~uint64_t(0);
  auto consider = [&](const Allocation &a) {
    uint64_t d = p < a.base ? a.base - p
                 : p >= a.base + a.bytes ? p - (a.base + a.bytes) + 1
                                         : 0;
    if (d < bestDistance) {
      bestDistance = d;
      best = &a;
    }
  };
  auto it = live.upper_bound(p);
  if (it != live.end())
    consider(it->second);
  if (it != live.begin())
    consider(std::prev(it)->second);
  if (!best)
    return "no GDRAM buffer is allocated";
  return llvm::formatv("nearest buffer #{0} [{1:x}, {2:x}) of {3} bytes",
                       best->id, best->base, best->base + best->bytes,
                       best->bytes);
}
