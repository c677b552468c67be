//===- Runtime.cpp - The runtime functions compiled kernels call ----------===//
//
// These are the __bangsim_* functions of bangsim/KernelABI.h. Each checks
// its operands against the memory map before touching memory, so a faulting
// DMA stops its task without writing a byte, and charges its cost.
//
//===----------------------------------------------------------------------===//
#include "RaceCheck.h"
#include "Sim.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <cstring>
#include <type_traits>

using namespace bangsim;

namespace {

/// The place a copy's operand in `space` must be in.
Place::Kind placeOf(MemSpace space) {
  switch (space) {
  case MemSpace::Gdram:
    return Place::Gdram;
  case MemSpace::Nram:
    return Place::Nram;
  case MemSpace::Wram:
    return Place::Wram;
  case MemSpace::Sram:
    return Place::Sram;
  }
  llvm_unreachable("a space of MemcpyDirections.def");
}

/// The current task, on entry to a runtime function: charges the scalar work
/// kernel code did since the last call, and stops the task if its launch
/// stopped or its time is up.
Task &task() {
  Task *t = currentTask();
  assert(t && "a runtime function called outside kernel code");
  chargePendingScalar(*t);
  Launch &l = *t->launch;
  if (l.stopped.load(std::memory_order_relaxed))
    stopCurrentTask();
  // --timeout: look at the clock every 256 runtime calls.
  if (l.hasDeadline && (++t->runtimeCalls & 255) == 0 &&
      std::chrono::steady_clock::now() > l.deadline)
    timeoutCurrentTask();
  return *t;
}

std::string range(uintptr_t lo, uintptr_t hi) {
  return llvm::formatv("[{0:x}, {1:x}) ({2} bytes)", lo, hi, hi - lo);
}

/// Describes the region `p` names, e.g. "NRAM of core 3 [0x.., 0x..)".
std::string regionName(const Place &p, const MemoryMap &memory, uintptr_t at) {
  switch (p.kind) {
  case Place::Gdram:
  case Place::FreedGdram:
    return llvm::formatv("{0}buffer #{1} [{2:x}, {3:x}) of {4} bytes",
                         p.kind == Place::FreedGdram ? "freed GDRAM " : "GDRAM ",
                         p.alloc->id, p.regionBase, p.regionEnd,
                         p.alloc->bytes);
  case Place::Nram:
  case Place::Wram:
    return llvm::formatv("{0} of core {1} [{2:x}, {3:x})",
                         placeKindName(p.kind), p.index, p.regionBase,
                         p.regionEnd);
  case Place::Sram:
    return llvm::formatv("SRAM of cluster {0} [{1:x}, {2:x})", p.index,
                         p.regionBase, p.regionEnd);
  case Place::Nowhere:
    break;
  }
  return "no device memory (" + memory.nearest(at) + ")";
}

/// Checks that [lo, hi) lies wholly in `want` and belongs to this task;
/// records a fault and returns false otherwise. `what` names the operand.
bool checkRange(Task &t, uintptr_t lo, uintptr_t hi, Place::Kind want,
                const char *what, const char *context) {
  const MemoryMap &memory = t.launch->device->memory;
  Place p = memory.locate(lo, hi - lo);
  if (p.kind == Place::FreedGdram)
    return recordTaskFault(llvm::formatv("{0}: {1} {2} is in {3}: use of a freed "
                                   "buffer",
                                   context, what, range(lo, hi),
                                   regionName(p, memory, lo)));
  if (p.kind != want)
    return recordTaskFault(llvm::formatv(
        "{0}: {1} {2} must be in {3} but is in {4}", context, what,
        range(lo, hi), placeKindName(want), regionName(p, memory, lo)));
  int own = want == Place::Sram ? t.ctx.clusterId : t.physicalCore;
  if (want != Place::Gdram && p.index != own)
    return recordTaskFault(llvm::formatv(
        "{0}: {1} {2} is in {3}, not this task's own {4}", context, what,
        range(lo, hi), regionName(p, memory, lo), placeKindName(want)));
  if (!p.whole)
    return recordTaskFault(llvm::formatv("{0}: {1} {2} is out of bounds of {3}",
                                         context, what, range(lo, hi),
                                         regionName(p, memory, lo)));
  return true;
}

/// The bytes a strided copy touches: segnum+1 segments of `seg` bytes, `stride`
/// apart.
std::pair<uintptr_t, uintptr_t> extent(const void *p, int64_t seg,
                                       int64_t stride, int64_t segnum) {
  uintptr_t base = reinterpret_cast<uintptr_t>(p);
  int64_t last = segnum * stride;
  uintptr_t lo = base + std::min<int64_t>(0, last);
  uintptr_t hi = base + std::max<int64_t>(0, last) + seg;
  return {lo, hi};
}

/// A checked DMA; false after recording a fault.
bool copy(Task &t, void *dst, const void *src, int64_t seg, int32_t dir,
          int64_t dstStride, int64_t srcStride, int64_t segnum, int32_t async) {
  const char *name = async ? "__memcpy_async" : "__memcpy";
  if (!isDirection(dir))
    return recordTaskFault(
        llvm::formatv("{0}: unknown direction {1}", name, dir));
  const DirectionInfo &direction = directionTable[dir];
  std::string context = std::string(name) + " " + direction.name;
  if (seg < 0 || segnum < 0)
    return recordTaskFault(llvm::formatv(
        "{0}: negative size: {1} bytes per segment, segnum {2}", context, seg,
        segnum));
  if (seg == 0)
    return true;
  auto [dlo, dhi] = extent(dst, seg, segnum ? dstStride : 0, segnum);
  auto [slo, shi] = extent(src, seg, segnum ? srcStride : 0, segnum);
  if (!checkRange(t, dlo, dhi, placeOf(direction.dst), "destination",
                  context.c_str()) ||
      !checkRange(t, slo, shi, placeOf(direction.src), "source",
                  context.c_str()))
    return false;
  if (RaceChecker *races = t.launch->races)
    races->dma(t, {uintptr_t(dst), seg, dstStride, segnum, 0, 0},
               {uintptr_t(src), seg, srcStride, segnum, 0, 0}, dir, async);
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  for (int64_t i = 0; i <= segnum; ++i)
    std::memmove(d + i * dstStride, s + i * srcStride, size_t(seg));
  chargeDma(t, dir, seg, CopySide{dst, dstStride, segnum},
            CopySide{src, srcStride, segnum}, async, direction.name);
  return true;
}

/// The bytes a 2-level strided region touches: (n1+1) * (n2+1) segments of
/// `seg` bytes, at p + i1 * s1 + i2 * s2.
std::pair<uintptr_t, uintptr_t> extent2(const void *p, int64_t seg,
                                        int64_t s1, int64_t n1, int64_t s2,
                                        int64_t n2) {
  uintptr_t base = reinterpret_cast<uintptr_t>(p);
  int64_t a = n1 * s1, b = n2 * s2;
  uintptr_t lo = base + std::min<int64_t>(0, a) + std::min<int64_t>(0, b);
  uintptr_t hi = base + std::max<int64_t>(0, a) + std::max<int64_t>(0, b) + seg;
  return {lo, hi};
}

/// The 3-level strided copy (KernelABI.h); false after recording a fault.
bool copy3d(Task &t, void *dst, const void *src, int64_t seg, int32_t dir,
            int64_t ds0, int64_t dn1, int64_t ds1, int64_t dn2, int64_t ss0,
            int64_t sn1, int64_t ss1, int64_t sn2, int32_t async) {
  const char *name = async ? "__memcpy_async" : "__memcpy";
  if (!isDirection(dir))
    return recordTaskFault(
        llvm::formatv("{0}: unknown direction {1}", name, dir));
  const DirectionInfo &direction = directionTable[dir];
  std::string context = std::string(name) + " " + direction.name;
  if (seg < 0 || dn1 < 0 || dn2 < 0 || sn1 < 0 || sn2 < 0)
    return recordTaskFault(llvm::formatv(
        "{0}: negative size: {1} bytes per segment, destination segnums {2} "
        "and {3}, source segnums {4} and {5}",
        context, seg, dn1, dn2, sn1, sn2));
  int64_t count = (dn1 + 1) * (dn2 + 1);
  if (count != (sn1 + 1) * (sn2 + 1))
    return recordTaskFault(llvm::formatv(
        "{0}: the destination has {1} segments ((segnum1 + 1) * (segnum2 + "
        "1)) but the source {2}",
        context, count, (sn1 + 1) * (sn2 + 1)));
  if (seg == 0)
    return true;
  auto [dlo, dhi] = extent2(dst, seg, ds0, dn1, ds1, dn2);
  auto [slo, shi] = extent2(src, seg, ss0, sn1, ss1, sn2);
  if (!checkRange(t, dlo, dhi, placeOf(direction.dst), "destination",
                  context.c_str()) ||
      !checkRange(t, slo, shi, placeOf(direction.src), "source",
                  context.c_str()))
    return false;
  if (RaceChecker *races = t.launch->races)
    races->dma(t, {uintptr_t(dst), seg, ds0, dn1, ds1, dn2},
               {uintptr_t(src), seg, ss0, sn1, ss1, sn2}, dir, async);
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  if (dn1 == sn1) { // the same shape: two plain loops
    for (int64_t i2 = 0; i2 <= dn2; ++i2)
      for (int64_t i1 = 0; i1 <= dn1; ++i1)
        std::memmove(d + i1 * ds0 + i2 * ds1, s + i1 * ss0 + i2 * ss1,
                     size_t(seg));
  } else {
    for (int64_t k = 0; k < count; ++k)
      std::memmove(d + (k % (dn1 + 1)) * ds0 + (k / (dn1 + 1)) * ds1,
                   s + (k % (sn1 + 1)) * ss0 + (k / (sn1 + 1)) * ss1,
                   size_t(seg));
  }
  chargeDma(t, dir, seg, CopySide{dst, ds0, dn1, ds1, dn2},
            CopySide{src, ss0, sn1, ss1, sn2}, async, direction.name);
  return true;
}

/// A fill of GDRAM is charged as a copy into GDRAM, a fill of NRAM as a copy
/// within NRAM.
constexpr int32_t Nram2Gdram = directionValue(MemcpyDirection::NRAM2GDRAM),
                  Nram2Nram = directionValue(MemcpyDirection::NRAM2NRAM);

/// __gdramset / __nramset_async (KernelABI.h); false after recording a fault.
bool fill(Task &t, void *dst, const void *value, int32_t elemBytes, int64_t n,
          int64_t stride, int64_t segnum, int32_t space, int32_t async) {
  const char *name = t.ctx.loc ? t.ctx.loc->intrinsic
                     : space == BANG_IN_GDRAM ? "__gdramset"
                                              : "__nramset_async";
  if (n < 0 || segnum < 0)
    return recordTaskFault(llvm::formatv(
        "{0}: negative size: {1} elements, segnum {2}", name, n, segnum));
  int64_t seg = n * elemBytes;
  if (seg == 0)
    return true;
  Place::Kind want = space == BANG_IN_GDRAM ? Place::Gdram : Place::Nram;
  auto [lo, hi] = extent(dst, seg, segnum ? stride : 0, segnum);
  if (!checkRange(t, lo, hi, want, "destination", name))
    return false;
  int dir = want == Place::Gdram ? Nram2Gdram : Nram2Nram;
  if (RaceChecker *races = t.launch->races)
    races->dma(t, {uintptr_t(dst), seg, stride, segnum, 0, 0}, Span(), dir,
               async);
  char *d = static_cast<char *>(dst);
  for (int64_t i = 0; i <= segnum; ++i)
    for (int64_t e = 0; e < n; ++e)
      std::memcpy(d + i * stride + e * elemBytes, value, size_t(elemBytes));
  chargeDma(t, dir, seg, CopySide{dst, stride, segnum}, CopySide{}, async,
            name);
  return true;
}


/// Checks the direction and cluster of a copy to another cluster's SRAM;
/// false after recording a fault. `context` names the intrinsic.
bool checkClusterCopy(Task &t, uintptr_t dst, uintptr_t src, int64_t bytes,
                      int32_t dir, int32_t cluster,
                      const std::string &context) {
  if (bytes < 0)
    return recordTaskFault(
        llvm::formatv("{0}: negative size: {1} bytes", context, bytes));
  // The one direction a copy to another cluster may take.
  if (dir != directionValue(MemcpyDirection::SRAM2SRAM))
    return recordTaskFault(llvm::formatv(
        "{0}: destination {1}, source {2}: only SRAM2SRAM copies take a "
        "destination cluster",
        context, range(dst, dst + bytes), range(src, src + bytes)));
  if (cluster < 0 || cluster >= t.ctx.clusterDim)
    return recordTaskFault(llvm::formatv(
        "{0}: destination {1}: cluster {2} is not in this task's union, "
        "whose clusters are 0..{3} (clusterDim {4})",
        context, range(dst, dst + bytes), cluster, t.ctx.clusterDim - 1,
        t.ctx.clusterDim));
  return true;
}

/// A checked copy of `bytes` from this cluster's SRAM at `src` to the SRAM
/// of logical cluster `cluster` of the union, at the address `dst` names in
/// this cluster's SRAM; false after recording a fault.
bool copyToCluster(Task &t, void *dst, const void *src, int64_t bytes,
                   int32_t dir, int32_t cluster, int32_t async) {
  const char *name = async ? "__memcpy_async" : "__memcpy";
  if (!isDirection(dir))
    return recordTaskFault(
        llvm::formatv("{0}: unknown direction {1}", name, dir));
  std::string context = llvm::formatv("{0} {1} to cluster {2}", name,
                                      directionTable[dir].name, cluster);
  uintptr_t d = reinterpret_cast<uintptr_t>(dst);
  uintptr_t s = reinterpret_cast<uintptr_t>(src);
  if (!checkClusterCopy(t, d, s, bytes, dir, cluster, context))
    return false;
  if (bytes == 0)
    return true;
  // Both addresses are this cluster's view: the destination is the same
  // offset in the other cluster's SRAM.
  if (!checkRange(t, d, d + bytes, Place::Sram, "destination",
                  context.c_str()) ||
      !checkRange(t, s, s + bytes, Place::Sram, "source", context.c_str()))
    return false;
  const MemoryMap &memory = t.launch->device->memory;
  char *to =
      memory.sram(t.firstCluster + cluster) + (d - uintptr_t(t.ctx.sram));
  if (RaceChecker *races = t.launch->races)
    races->dma(t, Span::plain(to, bytes), Span::plain(src, bytes), dir, async);
  std::memmove(to, src, size_t(bytes));
  chargeDma(t, dir, bytes, CopySide{dst}, CopySide{src}, async,
            directionTable[dir].name);
  return true;
}

/// Checks a vector operand; false after recording a fault.
bool checkVector(Task &t, const void *p, int64_t bytes, int32_t spaces,
                 int32_t access) {
  const char *intrinsic = t.ctx.loc ? t.ctx.loc->intrinsic : "intrinsic";
  if (bytes < 0)
    return recordTaskFault(
        llvm::formatv("{0}: negative size ({1} bytes)", intrinsic, bytes));
  if (bytes == 0)
    return true;
  uintptr_t lo = reinterpret_cast<uintptr_t>(p);
  Place::Kind want = (spaces & BANG_IN_NRAM)   ? Place::Nram
                     : (spaces & BANG_IN_WRAM) ? Place::Wram
                     : (spaces & BANG_IN_SRAM) ? Place::Sram
                                               : Place::Gdram;
  // Accept any of the allowed spaces; name the first in messages.
  Place place = t.launch->device->memory.locate(lo, bytes);
  const int kindBit[] = {0, BANG_IN_GDRAM, BANG_IN_NRAM, BANG_IN_WRAM,
                         BANG_IN_SRAM, 0};
  if (kindBit[place.kind] & spaces)
    want = place.kind;
  if (!checkRange(t, lo, lo + bytes, want,
                  access == BANG_WRITE ? "destination" : "source", intrinsic))
    return false;
  if (RaceChecker *races = t.launch->races)
    races->access(t, p, bytes, access == BANG_WRITE, t.ctx.loc);
  return true;
}

/// A checked atomic reduction; false after recording a fault.
bool atomic(Task &t, void *dst, const void *src, int64_t n, int32_t op,
            int32_t dtype) {
  const char *intrinsic = t.ctx.loc ? t.ctx.loc->intrinsic : "atomic";
  if (n < 0)
    return recordTaskFault(
        llvm::formatv("{0}: negative count {1}", intrinsic, n));
  int size = dtype == BANG_DT_F16 ? 2 : 4;
  // BANG_ATOMIC_SCALAR: src is one value of the kernel (not an NRAM array)
  // that every element of dst takes.
  bool scalar = op & BANG_ATOMIC_SCALAR;
  op &= ~BANG_ATOMIC_SCALAR;
  uintptr_t d = reinterpret_cast<uintptr_t>(dst);
  uintptr_t s = reinterpret_cast<uintptr_t>(src);
  if (!checkRange(t, d, d + n * size, Place::Gdram, "destination",
                  intrinsic) ||
      (!scalar &&
       !checkRange(t, s, s + n * size, Place::Nram, "source", intrinsic)))
    return false;
  // Atomics do not race with each other; their NRAM source may still be
  // on its way in.
  if (RaceChecker *races = t.launch->races; races && !scalar)
    races->access(t, src, n * size, false, t.ctx.loc);
  {
    std::lock_guard lock(t.launch->device->atomicMutex);
    auto apply = [&](auto *out, const auto *in) {
      using T = std::remove_reference_t<decltype(*out)>;
      for (int64_t i = 0; i < n; ++i) {
        T v = in[scalar ? 0 : i];
        if (op == 0) {
          if constexpr (std::is_integral_v<T>) // wraps, like the vector add
            out[i] = T(std::make_unsigned_t<T>(out[i]) +
                       std::make_unsigned_t<T>(v));
          else
            out[i] = out[i] + v;
        } else if (op == 1 ? v > out[i] || v != v : v < out[i] || v != v) {
          out[i] = v; // max (1) or min (2); a NaN from src wins
        }
      }
    };
    if (dtype == BANG_DT_F16)
      apply(static_cast<_Float16 *>(dst), static_cast<const _Float16 *>(src));
    else if (dtype == BANG_DT_F32)
      apply(static_cast<float *>(dst), static_cast<const float *>(src));
    else
      apply(static_cast<int32_t *>(dst), static_cast<const int32_t *>(src));
  }
  chargeCompute(t, BANG_OP_ATOMIC, dtype, n, intrinsic);
  chargeDma(t, directionValue(MemcpyDirection::NRAM2GDRAM), n * size,
            CopySide{dst}, CopySide{src}, false, intrinsic);
  return true;
}

/// Checks a scalar access under --check; false after recording a fault.
bool checkAccess(Task &t, const void *p, int64_t bytes, int32_t isStore,
                 const BangSrcLoc *loc) {
  uintptr_t lo = reinterpret_cast<uintptr_t>(p);
  uintptr_t stack = reinterpret_cast<uintptr_t>(t.stack);
  if (lo >= stack && lo + bytes <= stack + t.stackBytes)
    return true; // a local of the task
  const MemoryMap &memory = t.launch->device->memory;
  Place place = memory.locate(lo, bytes);
  bool own = place.kind == Place::Gdram ||
             (place.kind == Place::Sram && place.index == t.ctx.clusterId) ||
             ((place.kind == Place::Nram || place.kind == Place::Wram) &&
              place.index == t.physicalCore);
  if (own && place.whole) {
    if (RaceChecker *races = t.launch->races)
      races->access(t, p, bytes, isStore, loc);
    return true;
  }
  t.ctx.loc = loc;
  return recordTaskFault(llvm::formatv(
      "scalar {0} of {1} bytes at {2:x} is outside {3}: it is in {4}",
      isStore ? "store" : "load", bytes, lo,
      place.kind == Place::Nowhere ? "every device buffer" : "its region",
      regionName(place, memory, lo)));
}

} // namespace

const char *bangsim::directionName(int dir) {
  return isDirection(dir) ? directionTable[dir].name : "?";
}

extern "C" {

const BangTaskContext *__bangsim_ctx(void) {
  Task *t = currentTask();
  assert(t && "__bangsim_ctx outside kernel code");
  return &t->ctx;
}

void __bangsim_sync(int32_t kind) {
  Task &t = task();
  chargeSync(t);
  if (kind == SyncCluster || kind == SyncUnion)
    barrierWait(t, kind);
  if (RaceChecker *races = t.launch->races)
    races->sync(t, kind);
}

void __bangsim_compute(int32_t opClass, int32_t dtype, int64_t count) {
  Task &t = task();
  if (opClass < 0 || opClass >= BANG_OP_NUM_CLASSES) {
    recordTaskFault("internal error: unknown op class");
    stopCurrentTask();
  }
  chargeCompute(t, opClass, dtype, count,
                t.ctx.loc ? t.ctx.loc->intrinsic : "vector");
}

// Each entry point below leaves a faulting task only after the checks have
// returned: no frame that owns memory is left on the fiber's stack.

void __bangsim_memcpy(void *dst, const void *src, int64_t seg, int32_t dir,
                      int64_t dstStride, int64_t srcStride, int64_t segnum,
                      int32_t async) {
  if (!copy(task(), dst, src, seg, dir, dstStride, srcStride, segnum, async))
    stopCurrentTask();
}

void __bangsim_memcpy3d(void *dst, const void *src, int64_t seg, int32_t dir,
                        int64_t ds0, int64_t dn1, int64_t ds1, int64_t dn2,
                        int64_t ss0, int64_t sn1, int64_t ss1, int64_t sn2,
                        int32_t async) {
  if (!copy3d(task(), dst, src, seg, dir, ds0, dn1, ds1, dn2, ss0, sn1, ss1,
              sn2, async))
    stopCurrentTask();
}

void __bangsim_fill(void *dst, const void *value, int32_t elemBytes, int64_t n,
                    int64_t stride, int64_t segnum, int32_t space,
                    int32_t async) {
  if (!fill(task(), dst, value, elemBytes, n, stride, segnum, space, async))
    stopCurrentTask();
}

int32_t __bangsim_space_of(const void *p) {
  Task &t = task();
  Place place =
      t.launch->device->memory.locate(reinterpret_cast<uintptr_t>(p), 1);
  switch (place.kind) {
  case Place::Gdram:
  case Place::FreedGdram:
    return BANG_IN_GDRAM;
  case Place::Nram:
    return BANG_IN_NRAM;
  case Place::Wram:
    return BANG_IN_WRAM;
  case Place::Sram:
    return BANG_IN_SRAM;
  case Place::Nowhere:
    break;
  }
  return 0;
}

void __bangsim_memcpy_to_cluster(void *dst, const void *src, int64_t bytes,
                                 int32_t dir, int32_t cluster, int32_t async) {
  if (!copyToCluster(task(), dst, src, bytes, dir, cluster, async))
    stopCurrentTask();
}

void __bangsim_check_vec(const void *p, int64_t bytes, int32_t spaces,
                         int32_t access) {
  if (!checkVector(task(), p, bytes, spaces, access))
    stopCurrentTask();
}

void __bangsim_atomic(void *dst, const void *src, int64_t n, int32_t op,
                      int32_t dtype) {
  if (!atomic(task(), dst, src, n, op, dtype))
    stopCurrentTask();
}

void __bangsim_check_access(const void *p, int64_t bytes, int32_t isStore,
                            const BangSrcLoc *loc) {
  if (!checkAccess(task(), p, bytes, isStore, loc))
    stopCurrentTask();
}

void __bangsim_fault(const char *message) {
  recordTaskFault(message);
  stopCurrentTask();
}

} // extern "C"

std::vector<std::pair<std::string, void *>> bangsim::runtimeSymbols() {
  // Every row of bangsim/RuntimeFunctions.def: a row simrt does not
  // define does not link.
  return {
#define BANGSIM_RUNTIME_FUNCTION(NAME, RET, PARAMS, ATTRS)                     \
  {#NAME, reinterpret_cast<void *>(&NAME)},
#include "bangsim/RuntimeFunctions.def"
#undef BANGSIM_RUNTIME_FUNCTION
  };
}
