//===- CostModel.h - The cost model's formulas ------------------*- C++ -*-===//
//
// The formulas the simulated device charges (simrt/lib/Cost.cpp, described
// there and in docs/device.md), public so that a planner estimating a
// kernel before it runs (LayerGroup) uses the same ones instead of
// restating them: the bytes per cycle of a copy, the cycles of a copy (on
// chip, or GDRAM's blocks and access patterns), of the tensor unit, of a
// vector operation and of scalar code. Each rule names the section of
// mlu-ops' BANG-C-OPS-Develop-Guide.md it follows.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_COSTMODEL_H
#define BANGSIM_COSTMODEL_H

#include "bangsim/DeviceSpec.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

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

/// Cycles of one copy of \p bytes at \p bytesPerCycle: a descriptor's
/// start-up, then the bytes.
inline double dmaCycles(const DeviceSpec &spec, double bytes,
                        double bytesPerCycle) {
  return double(spec.dmaLatencyCycles) + bytes / bytesPerCycle;
}

/// GDRAM moves whole blocks of gdram_access_bytes at aligned addresses
/// (mlu-ops BANG-C-OPS-Develop-Guide.md §5.3.3, for the 370). The bytes a
/// segment of \p bytes at \p addr costs: reading it reads every block it
/// touches; writing it writes every block, and a block it covers only in
/// part costs a read of the block as well (read-modify-write).
inline double gdramSegmentBytes(const DeviceSpec &spec, uint64_t addr,
                                int64_t bytes, bool write) {
  if (bytes <= 0)
    return 0;
  uint64_t block = uint64_t(spec.gdramAccessBytes);
  uint64_t first = addr / block, last = (addr + uint64_t(bytes) - 1) / block;
  uint64_t blocks = last - first + 1;
  if (!write)
    return double(blocks * block);
  uint64_t partial = 0;
  if (addr % block)
    ++partial;
  if ((addr + uint64_t(bytes)) % block && (last != first || !partial))
    ++partial;
  return double((blocks + partial) * block);
}

/// The bandwidth of a GDRAM access as a fraction of a contiguous read's:
/// contiguous read > contiguous write > strided read > strided write
/// (Develop-Guide §5.3.3; the fractions are the spec's).
inline double gdramEfficiency(const DeviceSpec &spec, bool write,
                              bool strided) {
  if (strided)
    return write ? spec.gdramStridedWriteEfficiency
                 : spec.gdramStridedReadEfficiency;
  return write ? spec.gdramWriteEfficiency : 1.0;
}

/// Cycles of moving \p readBytes from and \p writeBytes into GDRAM at
/// \p bytesPerCycle, without a descriptor's start-up: the bandwidth part
/// of a copy, and alone the GDRAM floor of a roofline (LayerGroup).
inline double gdramStreamCycles(const DeviceSpec &spec, double bytesPerCycle,
                                double readBytes, double writeBytes,
                                bool strided) {
  return readBytes / (bytesPerCycle * gdramEfficiency(spec, false, strided)) +
         writeBytes / (bytesPerCycle * gdramEfficiency(spec, true, strided));
}

/// Cycles of one IO-DMA copy that reads \p readBytes and writes
/// \p writeBytes of GDRAM (counted in whole blocks, gdramSegmentBytes), at
/// the core's share \p bytesPerCycle of the card's bandwidth.
inline double gdramCopyCycles(const DeviceSpec &spec, double bytesPerCycle,
                              double readBytes, double writeBytes,
                              bool strided) {
  return double(spec.dmaLatencyCycles) +
         gdramStreamCycles(spec, bytesPerCycle, readBytes, writeBytes, strided);
}

/// A planner's estimate of a contiguous, block-aligned copy of \p bytes to
/// or from GDRAM (\p write: into GDRAM).
inline double gdramCopyCycles(const DeviceSpec &spec, double bytesPerCycle,
                              double bytes, bool write) {
  double block = double(spec.gdramAccessBytes);
  double moved = std::ceil(bytes / block) * block;
  return gdramCopyCycles(spec, bytesPerCycle, write ? 0 : moved,
                         write ? moved : 0, false);
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

/// Cycles of \p bytes of destination at the vector rate of class
/// \p opClass, without start-up or granules: the rate alone.
inline double vectorStreamCycles(const DeviceSpec &spec, int opClass,
                                 double bytes) {
  return bytes / spec.vectorBytesPerCycle[opClass];
}

/// Cycles of a vector operation of class \p opClass over \p bytes: a
/// start-up, then whole granules of vector_granule_bytes (less than one
/// costs a whole one: Develop-Guide §5.3.4) at the class's rate.
inline double vectorCycles(const DeviceSpec &spec, int opClass, double bytes) {
  double granule = double(spec.vectorGranuleBytes);
  double granules = std::max(1.0, std::ceil(bytes / granule));
  return double(spec.computeStartupCycles) +
         vectorStreamCycles(spec, opClass, granules * granule);
}

/// Cycles of \p macs multiply-accumulates on the tensor unit: a start-up,
/// then the MACs at the rate for \p dtype (at least one cycle).
inline double tensorCycles(const DeviceSpec &spec, int dtype, double macs) {
  return double(spec.computeStartupCycles) +
         computeCycles(macs / matrixMacsPerCycle(spec, dtype));
}

/// Cycles of \p instructions of scalar code.
inline double scalarCycles(const DeviceSpec &spec, double instructions) {
  return instructions / spec.scalarIPC;
}

} // namespace bangsim::cost

#endif // BANGSIM_COSTMODEL_H
