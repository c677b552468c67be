//===- RaceCheck.h - --check=race: DMA and cross-core races ----*- C++ -*-===//
//
// The race checker of a launch with LaunchOptions::checkRaces. simrt copies
// eagerly (an asynchronous DMA has moved its bytes when __memcpy_async
// returns), so a kernel that forgets a __sync or a barrier computes the
// right answer here and a wrong one on a card. The checker finds those
// kernels from what the runtime functions see:
//
//  (a) a compute intrinsic or scalar access of a task that touches a range
//      an asynchronous DMA of the same task writes (or writes a range it
//      reads), with no __sync covering that DMA between them;
//  (b) two tasks touching the same SRAM or GDRAM bytes, at least one
//      writing, with no barrier between them (happens-before by barrier
//      generation: each task counts the barriers it passed).
//
// Races do not stop the launch: it runs to the end, like compute-sanitizer's
// racecheck, and then fails with one message listing every distinct race
// (docs/device.md, "Race check").
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_RACECHECK_H
#define BANGSIM_RACECHECK_H

#include "bangsim/KernelABI.h"

#include <cstdint>
#include <memory>
#include <string>

namespace bangsim {

struct Launch;
struct Task;

/// The bytes a (strided) copy operand touches: (n1 + 1) * (n2 + 1) segments
/// of `seg` bytes at base + i1 * s1 + i2 * s2. A plain range has n1 = n2 = 0.
struct Span {
  uintptr_t base = 0;
  int64_t seg = 0, s1 = 0, n1 = 0, s2 = 0, n2 = 0;
  static Span plain(const void *p, int64_t bytes) {
    return {reinterpret_cast<uintptr_t>(p), bytes, 0, 0, 0, 0};
  }
};

/// What the __sync family waits for, as __bangsim_sync's kind gives it.
enum SyncKind {
  SyncAll = 0,     ///< __sync, __sync_io_move_compute: all of this core's DMA
  SyncCluster = 1, ///< __sync_cluster: a barrier (drains DMA too)
  SyncUnion = 2,   ///< __sync_all: a barrier (drains DMA too)
  SyncIO = 3,      ///< __sync_io: DMA to or from GDRAM
  SyncCompute = 4, ///< __sync_compute: compute only, no DMA
  SyncMove = 5,    ///< __sync_move: on-chip DMA (no GDRAM side)
};

class RaceChecker {
public:
  explicit RaceChecker(Launch &launch);
  ~RaceChecker();

  /// A wave of tasks is about to run: per-task state is reset and accesses
  /// to SRAM forgotten (a cluster's SRAM belongs to one group at a time).
  void beginWave(int waveStart);

  /// A DMA of `t` in direction `dir` (a MemcpyDirection value) writing
  /// `dst` and reading `src`, asynchronous or not.
  void dma(Task &t, const Span &dst, const Span &src, int dir, bool async);

  /// A compute intrinsic's operand or a scalar access of `t` at source
  /// location `loc`.
  void access(Task &t, const void *p, int64_t bytes, bool write,
              const BangSrcLoc *loc);

  /// `t` passed a __sync of `kind` (after the barrier, for kinds 1 and 2).
  void sync(Task &t, int kind);

  /// Every race found, as one fault message; empty if none.
  std::string report() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace bangsim

#endif // BANGSIM_RACECHECK_H
