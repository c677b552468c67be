//===- TinShiftPolicy.h - How tin_shift splits its work --------*- C++ -*-===//
#ifndef MLU_OP_TINSHIFTPOLICY_H
#define MLU_OP_TINSHIFTPOLICY_H

#include "bangsim/DeviceSpec.h"

#include <cstdint>
#include <string>

namespace mluop {

/// The regime (1 channels, 2 split T, 3 split HW), the chunk sizes, the
/// work items and the UNION1 task count; chosen to minimise a DMA cost
/// estimate from the device spec (bandwidth per core, latency, cores).
struct TinShiftPolicy {
  int regime = 1;
  int64_t cChunk = 1, tChunk = 1, hwChunk = 1, items = 0;
  uint32_t taskDim = 1;
  double estCycles = 0;
  std::string describe() const;
};

TinShiftPolicy chooseTinShiftPolicy(const bangsim::DeviceSpec &spec, int64_t N,
                                    int64_t T, int64_t C, int64_t HW,
                                    int64_t G, int64_t elemBytes);

} // namespace mluop

#endif
