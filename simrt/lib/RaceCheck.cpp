//===- RaceCheck.cpp - --check=race: DMA and cross-core races -------------===//
//
// See RaceCheck.h for what is reported. How:
//
//  * Each task keeps its asynchronous DMAs that no __sync has covered yet
//    (__sync and the barriers cover all, __sync_io those with a GDRAM side,
//    __sync_move those without, __sync_compute none). Every operand of a
//    compute intrinsic and every checked scalar access is compared with
//    them: touching what such a DMA writes, or writing what it reads, is a
//    race of kind (a). DMAs of one core run in issue order (docs/device.md),
//    so two DMAs of a task never race.
//  * Every access to SRAM or GDRAM (DMA operands, intrinsic operands, scalar
//    accesses) goes into a log with its task and the task's barrier counts:
//    k counts the __sync_cluster and __sync_all it passed, u the
//    __sync_all. Two accesses of different tasks are ordered when both
//    tasks are in one cluster of one union group and their k differ, or in
//    one union group and their u differ (barriers are collective, so every
//    member passes them in the same order); otherwise they are concurrent,
//    and overlapping bytes with a write among them are a race of kind (b).
//    Tasks of different union groups (every BLOCK task is its own) never
//    synchronise. The SRAM log is per wave: a cluster's SRAM serves one
//    union group at a time.
//  * Strided operands are compared segment by segment, so interleaved tiles
//    of different tasks are not a race. A log record grows while its task
//    goes on touching adjacent bytes from the same source line, so a loop of
//    scalar stores is one record.
//
//===----------------------------------------------------------------------===//
#include "RaceCheck.h"
#include "Sim.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

using namespace bangsim;

namespace {

struct Piece {
  int64_t lo = 0, hi = 0;
};

/// The smallest range that holds every segment of `s`.
Piece hull(const Span &s) {
  int64_t a = s.n1 * s.s1, b = s.n2 * s.s2;
  int64_t base = int64_t(s.base);
  return {base + std::min<int64_t>(0, a) + std::min<int64_t>(0, b),
          base + std::max<int64_t>(0, a) + std::max<int64_t>(0, b) + s.seg};
}

/// The first bytes of [lo, hi) that one row of n + 1 segments of `seg`
/// bytes, `stride` apart from `r`, touches.
bool rowOverlap(int64_t r, int64_t seg, int64_t stride, int64_t n, int64_t lo,
                int64_t hi, Piece &out) {
  if (n == 0 || stride == 0)
    n = 0;
  if (stride < 0) {
    r += n * stride;
    stride = -stride;
  }
  if (n == 0 || stride < seg) { // one run of bytes
    int64_t end = r + n * stride + seg;
    if (end <= lo || hi <= r)
      return false;
    out = {std::max(lo, r), std::min(hi, end)};
    return true;
  }
  int64_t first = lo >= r + seg ? (lo - r - seg) / stride + 1 : 0;
  if (first > n)
    return false;
  int64_t start = r + first * stride;
  if (start >= hi)
    return false;
  out = {std::max(lo, start), std::min(hi, start + seg)};
  return true;
}

/// Outer rows compared one by one up to this many; beyond, the hull.
constexpr int64_t MaxRows = 1 << 16;

/// The first bytes of [lo, hi) that `s` touches.
bool overlap(const Span &s, int64_t lo, int64_t hi, Piece &out) {
  Piece h = hull(s);
  if (h.hi <= lo || hi <= h.lo)
    return false;
  if (s.n2 == 0)
    return rowOverlap(int64_t(s.base), s.seg, s.s1, s.n1, lo, hi, out);
  if (s.n2 > MaxRows) {
    out = {std::max(lo, h.lo), std::min(hi, h.hi)};
    return true;
  }
  for (int64_t i = 0; i <= s.n2; ++i)
    if (rowOverlap(int64_t(s.base) + i * s.s2, s.seg, s.s1, s.n1, lo, hi, out))
      return true;
  return false;
}

/// The first bytes both spans touch: each segment of the one with fewer
/// segments against the other.
bool overlap(const Span &a, const Span &b, Piece &out) {
  Piece ha = hull(a), hb = hull(b);
  if (ha.hi <= hb.lo || hb.hi <= ha.lo)
    return false;
  int64_t ca = (a.n1 + 1) * (a.n2 + 1), cb = (b.n1 + 1) * (b.n2 + 1);
  const Span &few = ca <= cb ? a : b, &other = ca <= cb ? b : a;
  if (std::min(ca, cb) > MaxRows) {
    out = {std::max(ha.lo, hb.lo), std::min(ha.hi, hb.hi)};
    return true;
  }
  for (int64_t i2 = 0; i2 <= few.n2; ++i2)
    for (int64_t i1 = 0; i1 <= few.n1; ++i1) {
      int64_t p = int64_t(few.base) + i1 * few.s1 + i2 * few.s2;
      if (overlap(other, p, p + few.seg, out))
        return true;
    }
  return false;
}

bool touchesGdram(int dir) {
  return isDirection(dir) && (directionTable[dir].src == MemSpace::Gdram ||
                              directionTable[dir].dst == MemSpace::Gdram);
}

std::string taskName(const Task &t) {
  return llvm::formatv("task {0} (core {1} of cluster {2})", t.ctx.taskId,
                       t.ctx.coreId, t.ctx.clusterId);
}

std::string at(const BangSrcLoc *loc) {
  if (!loc)
    return "kernel code (no source line)";
  return llvm::formatv("{0}:{1}:{2} in {3}, in {4}", loc->file, loc->line,
                       loc->col, loc->function, loc->intrinsic);
}

/// "__bang_add", "scalar store", "__memcpy_async GDRAM2NRAM".
std::string what(const BangSrcLoc *loc, int dir) {
  std::string name = loc ? loc->intrinsic : "kernel code";
  if (name == "load" || name == "store")
    name = "scalar " + name;
  if (dir >= 0)
    name += std::string(" ") + directionName(dir);
  return name;
}

/// An asynchronous DMA no __sync has covered yet.
struct Pending {
  Span dst, src;
  int dir;
  const BangSrcLoc *loc;
};

/// An access to SRAM or GDRAM.
struct Record {
  Span span;
  Piece range; ///< hull(span)
  int taskId, coreId, clusterId;
  int64_t group, cluster; ///< union group and cluster, unique in the launch
  int k, u;               ///< barriers passed (see the banner)
  bool write;
  int dir; ///< a DMA's direction, or -1
  const BangSrcLoc *loc;
};

/// Per task of the wave being run; only its own worker touches it.
struct TaskState {
  std::vector<Pending> pending;
  int k = 0, u = 0;
  /// The record a further adjacent access from the same line may extend,
  /// by log (GDRAM, SRAM) and by reads or writes.
  std::unordered_map<const BangSrcLoc *, uint32_t> last[2][2];
};

/// Log buckets: a record is listed in each bucket its hull touches.
constexpr int BucketShift = 16;
/// Records kept at most; past it the check gives up (reported).
constexpr size_t MaxRecords = size_t(1) << 22;
/// Races listed in the message at most (all are counted).
constexpr size_t MaxListed = 20;

/// Reads and writes are indexed apart: a read is compared with writes
/// only, and reads (most accesses) of shared inputs pile up.
struct Log {
  std::vector<Record> records;
  std::unordered_map<int64_t, std::vector<uint32_t>> buckets[2]; ///< by write
  void clear() {
    records.clear();
    buckets[0].clear();
    buckets[1].clear();
  }
  void index(uint32_t id, Piece from, Piece to) {
    auto &byBucket = buckets[records[id].write];
    for (int64_t b = to.lo >> BucketShift; b <= (to.hi - 1) >> BucketShift; ++b)
      if (b < (from.lo >> BucketShift) || b > ((from.hi - 1) >> BucketShift))
        byBucket[b].push_back(id);
  }
};

} // namespace

struct RaceChecker::Impl {
  Launch &launch;
  int waveStart = 0;
  std::vector<TaskState> tasks; ///< by physical core
  std::mutex mutex;             ///< the logs and the reports
  Log gdram, sram;
  std::vector<uint32_t> seen; ///< per record: last query that visited it
  uint32_t query = 0;
  bool gaveUp = false;
  std::set<std::tuple<const void *, const void *, int, int>> reported;
  std::vector<std::string> messages;
  size_t races = 0;

  explicit Impl(Launch &l) : launch(l) {}

  TaskState &state(const Task &t) { return tasks[t.physicalCore]; }

  /// Keeps `message` once per pair of source lines and kinds. Holds mutex.
  void add(const void *a, const void *b, int kindA, int kindB,
           std::string message) {
    if (a > b) {
      std::swap(a, b);
      std::swap(kindA, kindB);
    }
    if (!reported.insert({a, b, kindA, kindB}).second)
      return;
    ++races;
    if (messages.size() < MaxListed)
      messages.push_back(std::move(message));
  }

  std::string describe(int64_t lo, int64_t hi) const {
    Place p = launch.device->memory.locate(uintptr_t(lo), uint64_t(hi - lo));
    std::string where;
    switch (p.kind) {
    case Place::Gdram:
    case Place::FreedGdram:
      where = llvm::formatv("GDRAM buffer #{0}", p.alloc->id);
      break;
    case Place::Nram:
    case Place::Wram:
      where = llvm::formatv("{0} of core {1}", placeKindName(p.kind), p.index);
      break;
    case Place::Sram:
      where = llvm::formatv("SRAM of cluster {0}", p.index);
      break;
    case Place::Nowhere:
      where = "memory";
      break;
    }
    return llvm::formatv("{0} [{1:x}, {2:x}) ({3} bytes)", where, lo, hi,
                         hi - lo);
  }

  /// Kind (a): `t` touches `span` while one of its DMAs is in flight.
  void checkPending(Task &t, const Span &span, bool write,
                    const BangSrcLoc *loc) {
    for (const Pending &p : state(t).pending) {
      Piece piece;
      bool intoIt = overlap(p.dst, span, piece);
      if (!intoIt && !(write && overlap(p.src, span, piece)))
        continue;
      std::string message = llvm::formatv(
          "kernel '{0}' {1}: race: {2} {3} {4} while the asynchronous {5} "
          "issued before it is still {6} it, with no __sync covering the "
          "DMA between them\n  at {7}\n  and {8} (the DMA)",
          launch.kernel->pretty, taskName(t), what(loc, -1),
          write ? "writes" : "reads", describe(piece.lo, piece.hi),
          what(p.loc, p.dir), intoIt ? "writing" : "reading", at(loc),
          at(p.loc));
      std::lock_guard lock(mutex);
      add(loc, p.loc, write ? 1 : 0, intoIt ? 3 : 2, std::move(message));
    }
  }

  static bool ordered(const Record &a, const Record &b) {
    if (a.group != b.group)
      return false;
    if (a.cluster == b.cluster)
      return a.k != b.k;
    return a.u != b.u;
  }

  /// Kind (b): checks `r` against the log and records it. Holds mutex.
  void logAccess(Log &log, bool isSram, TaskState &s, Record r) {
    if (gaveUp)
      return;
    uint32_t q = ++query;
    for (int kind = r.write ? 0 : 1; kind < 2; ++kind)
      for (int64_t b = r.range.lo >> BucketShift;
           b <= (r.range.hi - 1) >> BucketShift; ++b) {
        auto it = log.buckets[kind].find(b);
        if (it == log.buckets[kind].end())
          continue;
        for (uint32_t id : it->second) {
          if (seen[id] == q)
            continue;
          seen[id] = q;
          const Record &o = log.records[id];
          if (o.taskId == r.taskId || ordered(o, r))
            continue;
          Piece piece;
          if (!overlap(o.span, r.span, piece))
            continue;
          reportPair(o, r, piece);
        }
      }
    // Extend this task's last record from the same line, or add one.
    auto &last = s.last[isSram][r.write];
    auto found = last.find(r.loc);
    bool plain = r.span.n1 == 0 && r.span.n2 == 0;
    if (found != last.end() && found->second < log.records.size()) {
      Record &o = log.records[found->second];
      if (o.taskId == r.taskId && o.k == r.k && o.u == r.u && plain &&
          o.span.n1 == 0 && o.span.n2 == 0 && r.range.lo <= o.range.hi &&
          o.range.lo <= r.range.hi) {
        Piece from = o.range;
        o.range = {std::min(o.range.lo, r.range.lo),
                   std::max(o.range.hi, r.range.hi)};
        o.span = Span::plain(reinterpret_cast<void *>(o.range.lo),
                             o.range.hi - o.range.lo);
        log.index(found->second, from, o.range);
        return;
      }
    }
    if (log.records.size() >= MaxRecords) {
      gaveUp = true;
      return;
    }
    uint32_t id = uint32_t(log.records.size());
    log.records.push_back(r);
    if (seen.size() <= id)
      seen.resize(id + 1, 0);
    log.index(id, {0, 0}, r.range);
    last[r.loc] = id;
  }

  void reportPair(const Record &a, const Record &b, Piece piece) {
    // Name the writer first.
    const Record &first = a.write ? a : b, &second = a.write ? b : a;
    std::string message = llvm::formatv(
        "kernel '{0}': race: {1} writes {2} by {3} and {4} {5} it by {6}, "
        "with no barrier between them{7}\n  at {8} ({9})\n  and {10} ({11})",
        launch.kernel->pretty, recordTask(first), describe(piece.lo, piece.hi),
        what(first.loc, first.dir), recordTask(second),
        second.write ? "writes" : "reads", what(second.loc, second.dir),
        first.group != second.group
            ? " (tasks of different union groups never synchronise)"
            : "",
        at(first.loc), taskIdText(first), at(second.loc), taskIdText(second));
    add(first.loc, second.loc, first.write, 2 + second.write,
        std::move(message));
  }

  static std::string recordTask(const Record &r) {
    return llvm::formatv("task {0} (core {1} of cluster {2})", r.taskId,
                         r.coreId, r.clusterId);
  }

  static std::string taskIdText(const Record &r) {
    return "task " + std::to_string(r.taskId);
  }

  void shared(Task &t, const Span &span, bool write, int dir,
              const BangSrcLoc *loc) {
    if (span.seg <= 0)
      return;
    Piece range = hull(span);
    Place p = launch.device->memory.locate(uintptr_t(range.lo),
                                           uint64_t(range.hi - range.lo));
    if (p.kind != Place::Gdram && p.kind != Place::Sram)
      return;
    TaskState &s = state(t);
    Record r{span,
             range,
             t.ctx.taskId,
             t.ctx.coreId,
             t.ctx.clusterId,
             int64_t(waveStart) * (1 << 24) + t.unionGroup,
             int64_t(waveStart) * (1 << 24) + t.barrierGroup,
             s.k,
             s.u,
             write,
             dir,
             loc};
    std::lock_guard lock(mutex);
    bool isSram = p.kind == Place::Sram;
    logAccess(isSram ? sram : gdram, isSram, s, r);
  }
};

RaceChecker::RaceChecker(Launch &launch)
    : impl(std::make_unique<Impl>(launch)) {}

RaceChecker::~RaceChecker() = default;

void RaceChecker::beginWave(int waveStart) {
  std::lock_guard lock(impl->mutex);
  impl->waveStart = waveStart;
  impl->tasks.assign(impl->launch.tasks.size(), TaskState());
  impl->sram.clear();
  // Records of earlier waves stay in the GDRAM log but can no longer be
  // extended: their tasks' states are gone.
}

void RaceChecker::dma(Task &t, const Span &dst, const Span &src, int dir,
                      bool async) {
  const BangSrcLoc *loc = t.ctx.loc;
  impl->shared(t, dst, true, dir, loc);
  impl->shared(t, src, false, dir, loc);
  if (async)
    impl->state(t).pending.push_back({dst, src, dir, loc});
}

void RaceChecker::access(Task &t, const void *p, int64_t bytes, bool write,
                         const BangSrcLoc *loc) {
  if (bytes <= 0)
    return;
  Span span = Span::plain(p, bytes);
  if (!impl->state(t).pending.empty())
    impl->checkPending(t, span, write, loc);
  impl->shared(t, span, write, -1, loc);
}

void RaceChecker::sync(Task &t, int kind) {
  TaskState &s = impl->state(t);
  auto drop = [&](auto covered) {
    s.pending.erase(std::remove_if(s.pending.begin(), s.pending.end(), covered),
                    s.pending.end());
  };
  switch (kind) {
  case SyncIO:
    drop([](const Pending &p) { return touchesGdram(p.dir); });
    return;
  case SyncMove:
    drop([](const Pending &p) { return !touchesGdram(p.dir); });
    return;
  case SyncCompute:
    return;
  case SyncUnion:
    s.u++;
    [[fallthrough]];
  case SyncCluster:
    s.k++;
    [[fallthrough]];
  default:
    s.pending.clear();
    for (auto &byLog : s.last) // a record never spans a barrier
      for (auto &byAccess : byLog)
        byAccess.clear();
  }
}

std::string RaceChecker::report() const {
  std::lock_guard lock(impl->mutex);
  if (!impl->races && !impl->gaveUp)
    return "";
  std::string out = llvm::formatv(
      "kernel '{0}': --check=race found {1} race{2} (each pair of source "
      "lines once; the launch ran to its end)",
      impl->launch.kernel->pretty, impl->races, impl->races == 1 ? "" : "s");
  if (impl->gaveUp)
    out += llvm::formatv("; it stopped logging shared-memory accesses after "
                         "{0} records, so later ones were not checked",
                         MaxRecords);
  for (const std::string &m : impl->messages)
    out += "\n" + m;
  if (impl->races > impl->messages.size())
    out += llvm::formatv("\n... and {0} more",
                         impl->races - impl->messages.size());
  return out;
}
