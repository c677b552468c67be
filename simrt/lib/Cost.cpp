//===- Cost.cpp - The cost model: each core's DMA queue and compute unit --===//
//
// Each physical core has two clocks, in cycles: when its compute unit is
// free, and when its DMA queue is free.
//  - A synchronous __memcpy blocks the core: it starts when both are free and
//    both are busy until it ends.
//  - __memcpy_async is queued on the DMA clock and runs beside compute;
//    __sync waits for the queue to drain.
//  - A copy costs dma_latency_cycles + bytes / bandwidth. Copies touching
//    GDRAM get the core's share of the card's bandwidth: the smaller of
//    gdram_core_gbps and gdram_gbps / (cores of the launch); on-chip copies
//    use onchip_gbps.
//  - A vector operation costs (elements x element size) / the spec's
//    vector_bytes_per_cycle for its class (at least one cycle); the matrix
//    unit costs MACs / macs_per_cycle (a quarter of the rate for float).
//  - Plain C++ code costs its estimated instruction count / scalar_ipc.
//  - A barrier aligns the clocks of the tasks meeting there.
//
//===----------------------------------------------------------------------===//
#include "Sim.h"

#include "bangsim/CostModel.h"

#include <algorithm>
#include <cmath>

using namespace bangsim;

namespace {

const int dtypeBytes[BANG_DT_NUM] = {1, 1, 2, 2, 4, 4, 8, 2, 4, 8};

/// A copy that reads or writes GDRAM takes the GDRAM pipe (the core's share
/// of the card's bandwidth); any other the on-chip one.
bool touchesGdram(int dir) {
  return isDirection(dir) && (readsGdram(dir) || writesGdram(dir));
}

void record(Task &task, bool dma, double start, double cycles,
            const char *name, int64_t amount) {
  if (!task.launch->options.trace)
    return;
  task.events.push_back(
      TraceEvent{task.physicalCore, dma, start, cycles, name, amount});
}

} // namespace

Rate::Rate(double rate) : rate(rate), reciprocal(1 / rate) {
  int exponent;
  exact = rate > 0 && std::frexp(rate, &exponent) == 0.5;
}

void bangsim::chargeDma(Task &task, int dir, int64_t bytes, int64_t segments,
                        bool async, const char *name) {
  const DeviceSpec &spec = *task.launch->spec;
  double perCycle = touchesGdram(dir) ? task.launch->gdramBytesPerCycle
                                      : cost::onchipBytesPerCycle(spec);
  double cycles = cost::dmaCycles(spec, double(bytes), perCycle);
  (void)segments; // strided copies cost by bytes alone (docs/device.md)
  // Either kind starts once the queue is free and the core has issued it.
  double start = std::max(task.dma, task.compute);
  double end = start + cycles;
  task.dma = end;
  if (!async)
    task.compute = end;
  task.stats.dmaBusy += cycles;
  if (isDirection(dir))
    task.bytes[dir] += bytes;
  record(task, true, start, cycles, name, bytes);
}

void bangsim::chargeCompute(Task &task, int opClass, int dtype, int64_t count,
                            const char *name) {
  const DeviceSpec &spec = *task.launch->spec;
  double cycles;
  if (opClass == BANG_OP_MAC) {
    cycles = double(count) / cost::matrixMacsPerCycle(spec, dtype);
  } else {
    int size = dtype >= 0 && dtype < BANG_DT_NUM ? dtypeBytes[dtype] : 4;
    cycles =
        task.launch->vectorBytesPerCycle[opClass].divide(double(count) * size);
  }
  cycles = cost::computeCycles(cycles);
  double start = task.compute;
  task.compute += cycles;
  task.stats.computeBusy += cycles;
  task.ops[opClass] += count;
  record(task, false, start, cycles, name, count);
}

void bangsim::chargeScalar(Task &task, int64_t instructions) {
  if (instructions <= 0)
    return;
  double cycles = task.launch->scalarIPC.divide(double(instructions));
  task.compute += cycles;
  task.stats.computeBusy += cycles;
  task.scalar += instructions;
}

void bangsim::chargePendingScalar(Task &task) {
  int64_t pending = task.ctx.scalarPending;
  task.ctx.scalarPending = 0;
  chargeScalar(task, pending);
}

void bangsim::chargeSync(Task &task) {
  task.compute = std::max(task.compute, task.dma);
}

void bangsim::chargeBarrier(std::vector<Task *> &tasks) {
  double t = 0;
  for (Task *task : tasks)
    t = std::max({t, task->compute, task->dma});
  for (Task *task : tasks)
    task->compute = task->dma = t;
}
