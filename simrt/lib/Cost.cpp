//===- Cost.cpp - The cost model: the pipes of each core ------------------===//
//
// Each physical core has the pipes of an MLU core (mlu-ops
// docs/BANG-C-OPS-Develop-Guide.md §3.3.3, §5.3.2), each with its own clock
// in cycles: scalar (ALU), vector (VFU), tensor (TFU), IO-DMA (copies that
// touch GDRAM) and Move-DMA (copies between NRAM, WRAM and SRAM). A task
// issues its instructions in order; `issue` is where that has reached.
//  - Scalar code (its estimated cycle count / scalar_ipc) runs on the scalar
//    pipe and holds up the issue of what follows it.
//  - A vector or tensor instruction starts once it is issued, its pipe is
//    free and the other compute pipe is too (consecutive dependent compute
//    waits: §5.3.4); it does not hold up the issue.
//  - __memcpy_async is queued on its DMA pipe once issued and runs beside
//    the other pipes: the guide's cases (C)-(F) need a sync between it and
//    the compute that uses its data, which __sync() is (it waits for every
//    pipe). A synchronous __memcpy also waits for the compute pipes (the
//    `ld`/`st` without `async` of cases (C) and (D)) and holds up the issue
//    until it ends.
//  - A copy touching GDRAM costs dma_latency_cycles plus its GDRAM bytes
//    counted in whole aligned blocks (a partly written block costs a read
//    and a write of it), at the core's share of the card's bandwidth times
//    the efficiency of its pattern (contiguous or strided, read or write);
//    an on-chip copy costs dma_latency_cycles + bytes / onchip_gbps.
//  - A barrier aligns every clock of the tasks meeting there.
// The formulas are bangsim/CostModel.h's, shared with LayerGroup's planner.
//
//===----------------------------------------------------------------------===//
#include "Sim.h"

#include "bangsim/CostModel.h"

#include <algorithm>
#include <cmath>

using namespace bangsim;

namespace {

const int dtypeBytes[BANG_DT_NUM] = {1, 1, 2, 2, 4, 4, 8, 2, 4, 8};

/// A copy that reads or writes GDRAM takes the IO-DMA pipe (the core's
/// share of the card's bandwidth); any other the Move-DMA one.
bool touchesGdram(int dir) {
  return isDirection(dir) && (readsGdram(dir) || writesGdram(dir));
}

void record(Task &task, int pipe, double start, double cycles, const char *name,
            int64_t amount) {
  if (!task.launch->options.trace)
    return;
  bool dma = pipe == PipeIO || pipe == PipeMove;
  task.events.push_back(
      TraceEvent{task.physicalCore, dma, pipe, start, cycles, name, amount});
}

/// Runs \p cycles of work on \p pipe from \p start.
double run(Task &task, int pipe, double start, double cycles) {
  double end = start + cycles;
  task.pipes[pipe] = end;
  task.stats.pipeBusy[pipe] += cycles;
  return end;
}

/// The GDRAM bytes one side of a copy costs (whole blocks), and whether its
/// segments are strided (not one contiguous run).
double gdramSideBytes(const DeviceSpec &spec, int64_t seg, const CopySide &s,
                      bool write, bool &strided) {
  // Merge levels whose segments follow each other into longer segments.
  int64_t len = seg, stride = s.stride1, n = s.n1;
  int64_t stride2 = s.stride2, n2 = s.n2;
  if (n == 0 || stride == len) {
    len *= n + 1;
    stride = stride2, n = n2;
    stride2 = 0, n2 = 0;
    if (n == 0 || stride == len) {
      len *= n + 1;
      n = 0;
    }
  }
  uint64_t base = reinterpret_cast<uintptr_t>(s.base);
  if (n == 0 && n2 == 0)
    return cost::gdramSegmentBytes(spec, base, len, write);
  strided = true;
  int64_t block = spec.gdramAccessBytes;
  int64_t count = (n + 1) * (n2 + 1);
  // Strides of whole blocks: every segment has the first one's alignment.
  if (stride % block == 0 && stride2 % block == 0)
    return double(count) * cost::gdramSegmentBytes(spec, base, len, write);
  double total = 0;
  for (int64_t i2 = 0; i2 <= n2; ++i2)
    for (int64_t i1 = 0; i1 <= n; ++i1)
      total += cost::gdramSegmentBytes(
          spec, base + uint64_t(i1 * stride + i2 * stride2), len, write);
  return total;
}

} // namespace

Rate::Rate(double rate) : rate(rate), reciprocal(1 / rate) {
  int exponent;
  exact = rate > 0 && std::frexp(rate, &exponent) == 0.5;
}

const char *bangsim::pipeName(int pipe) {
  static const char *const names[NumPipes] = {"scalar", "vector", "tensor",
                                              "io-dma", "move-dma"};
  return pipe >= 0 && pipe < NumPipes ? names[pipe] : "?";
}

void bangsim::chargeDma(Task &task, int dir, int64_t seg, const CopySide &dst,
                        const CopySide &src, bool async, const char *name) {
  const DeviceSpec &spec = *task.launch->spec;
  int64_t bytes = seg * (dst.n1 + 1) * (dst.n2 + 1);
  bool gdram = touchesGdram(dir);
  double cycles;
  if (gdram) {
    bool strided = false;
    double readBytes =
        readsGdram(dir) ? gdramSideBytes(spec, seg, src, false, strided) : 0;
    double writeBytes =
        writesGdram(dir) ? gdramSideBytes(spec, seg, dst, true, strided) : 0;
    cycles = cost::gdramCopyCycles(spec, task.launch->gdramBytesPerCycle,
                                   readBytes, writeBytes, strided);
  } else {
    cycles =
        cost::dmaCycles(spec, double(bytes), cost::onchipBytesPerCycle(spec));
  }
  int pipe = gdram ? PipeIO : PipeMove;
  double start = std::max(task.issue, task.pipes[pipe]);
  if (!async)
    start = std::max({start, task.pipes[PipeVector], task.pipes[PipeTensor]});
  double end = run(task, pipe, start, cycles);
  if (!async)
    task.issue = end;
  if (isDirection(dir))
    task.bytes[dir] += bytes;
  record(task, pipe, start, cycles, name, bytes);
}

void bangsim::chargeCompute(Task &task, int opClass, int dtype, int64_t count,
                            const char *name) {
  const DeviceSpec &spec = *task.launch->spec;
  double cycles;
  int pipe = opClass == BANG_OP_MAC ? PipeTensor : PipeVector;
  if (opClass == BANG_OP_MAC) {
    cycles = cost::tensorCycles(spec, dtype, double(count));
  } else {
    int size = dtype >= 0 && dtype < BANG_DT_NUM ? dtypeBytes[dtype] : 4;
    cycles = cost::vectorCycles(spec, opClass, double(count) * size);
  }
  double start =
      std::max({task.issue, task.pipes[PipeVector], task.pipes[PipeTensor]});
  run(task, pipe, start, cycles);
  task.ops[opClass] += count;
  record(task, pipe, start, cycles, name, count);
}

void bangsim::chargeScalar(Task &task, int64_t instructions) {
  if (instructions <= 0)
    return;
  double cycles = task.launch->scalarIPC.divide(double(instructions));
  double start = std::max(task.issue, task.pipes[PipeScalar]);
  task.issue = run(task, PipeScalar, start, cycles);
  task.scalar += instructions;
}

void bangsim::chargePendingScalar(Task &task) {
  int64_t pending = task.ctx.scalarPending;
  task.ctx.scalarPending = 0;
  chargeScalar(task, pending);
}

void bangsim::chargeSync(Task &task) { task.issue = task.end(); }

void bangsim::chargeBarrier(std::vector<Task *> &tasks) {
  double t = 0;
  for (Task *task : tasks)
    t = std::max(t, task->end());
  for (Task *task : tasks) {
    task->issue = t;
    task->pipes.fill(t);
  }
}
