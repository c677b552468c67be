//===- CostModel.h - The cost model's formulas ------------------*- C++ -*-===//
//
// The formulas the simulated device charges (simrt/lib/Cost.cpp, described
// there and in docs/device.md), public so that a planner estimating a
// kernel before it runs (LayerGroup) uses the same ones instead of
// restating them: the bytes per cycle of a copy, the cycles of a copy, of
// the matrix unit, of a vector operation and of scalar code.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_COSTMODEL_H
#define BANGSIM_COSTMODEL_H

#include "bangsim/DeviceSpec.h"

#include <algorithm>

namespace bangsim::cost {

/// Bytes per cycle of one core's copies touching GDRAM in a launch running
/// on \p activeCores cores: its share of the card's bandwidth, at most
/// gdram_core_gbps.
inline double gdramBytesPerCycle(const DeviceSpec &spec, int activeCores) {
  return std::min(spec.gdramCoreGBps, spec.gdramGBps / activeCores) /
         spec.clockGHz;
}

/// Bytes per cycle of an on-chip copy (NRAM, WRAM, SRAM, between clusters).
inline double onchipBytesPerCycle(const DeviceSpec &spec) {
  return spec.onchipGBps / spec.clockGHz;
}

/// Cycles of one copy of \p bytes at \p bytesPerCycle.
inline double dmaCycles(const DeviceSpec &spec, double bytes,
                        double bytesPerCycle) {
  return double(spec.dmaLatencyCycles) + bytes / bytesPerCycle;
}

/// Multiply-accumulates per cycle of the matrix unit for \p dtype (a
/// quarter of the 16-bit rate for float).
inline double matrixMacsPerCycle(const DeviceSpec &spec, int dtype) {
  double rate = spec.macsPerCycle;
  if (dtype == BANG_DT_F32)
    rate /= 4;
  return rate;
}

/// A compute operation takes at least one cycle.
inline double computeCycles(double cycles) { return std::max(1.0, cycles); }

/// Cycles of a vector operation of class \p opClass over \p bytes. (The
/// device divides by the same rate through a precomputed reciprocal when
/// that is exact, which gives the same result.)
inline double vectorCycles(const DeviceSpec &spec, int opClass, double bytes) {
  return computeCycles(bytes / spec.vectorBytesPerCycle[opClass]);
}

/// Cycles of \p instructions of scalar code.
inline double scalarCycles(const DeviceSpec &spec, double instructions) {
  return instructions / spec.scalarIPC;
}

} // namespace bangsim::cost

#endif // BANGSIM_COSTMODEL_H
