//===- Stats.h - What a launch cost on the simulated device ---*- C++ -*-===//
#ifndef BANGSIM_STATS_H
#define BANGSIM_STATS_H

#include "bangsim/KernelABI.h"
#include "bangsim/MemcpyDirection.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace bangsim {

struct DeviceSpec;

/// The name of memcpy direction `dir` (bangsim/MemcpyDirections.def), or
/// "?".
const char *directionName(int dir);

/// The instruction pipelines of an MLU core, each with its own queue
/// (mlu-ops docs/BANG-C-OPS-Develop-Guide.md §3.3.3, §5.3.2): scalar (ALU),
/// vector (VFU), tensor (TFU: conv, matmul), IO-DMA (copies touching GDRAM)
/// and Move-DMA (copies between NRAM, WRAM and SRAM).
enum Pipe { PipeScalar, PipeVector, PipeTensor, PipeIO, PipeMove, NumPipes };

/// "scalar", "vector", "tensor", "io-dma", "move-dma".
const char *pipeName(int pipe);

/// One event of the timeline: on one pipe of a core.
struct TraceEvent {
  int core;      ///< physical core
  bool dma;      ///< a DMA pipe (IO or Move), else compute
  int pipe;      ///< Pipe
  double start;  ///< cycles
  double cycles; ///< duration
  std::string name; ///< copied: the module that named it may be gone
  int64_t bytes; ///< DMA bytes or element count
};

struct CoreStats {
  double computeBusy = 0; ///< cycles the busier of vector and tensor worked
  double dmaBusy = 0;     ///< cycles the IO-DMA and Move-DMA pipes worked
  std::array<double, NumPipes> pipeBusy{}; ///< cycles each pipe worked
  double end = 0;         ///< cycle the core finished
  int tasks = 0;
};

struct LaunchStats {
  std::string kernel;
  std::string device;
  int tasks = 0;
  double cycles = 0; ///< simulated cycles of the whole launch
  double seconds = 0;
  double clockGHz = 1;
  std::array<int64_t, NumDirections> bytesByDirection{};
  std::array<int64_t, BANG_OP_NUM_CLASSES> opsByClass{};
  int64_t scalarInstructions = 0;
  int64_t gdramReadBytes = 0, gdramWriteBytes = 0;
  double peakGdramGBps = 0;
  double ioEfficiency = 0;      ///< GDRAM bytes / (time x peak bandwidth)
  double computeEfficiency = 0; ///< compute-busy cycles / (cycles x cores)
  /// Each pipe's busy cycles over all cores, and the pipe that bounds the
  /// launch (the busiest).
  std::array<double, NumPipes> pipeBusy{};
  int boundPipe = PipeScalar;
  std::vector<CoreStats> cores; ///< per physical core used
  double hostSeconds = 0;       ///< wall time of the launch on this host
  /// The worker process that ran an isolated launch (docs/isolation.md:
  /// launches in one worker show the same id), else 0.
  int workerPid = 0;
  std::vector<TraceEvent> events; ///< when tracing
};

/// Where a launch stands against mlu-ops' performance acceptance standard
/// (docs/MLU-OPS-Performance-Acceptance-Standard.md): its bottleneck is IO
/// when IO efficiency exceeds compute efficiency, and that side's
/// efficiency must reach 60% on common network shapes, 30% on others.
struct AcceptanceVerdict {
  bool ioBound = false;
  double efficiency = 0;
  bool meetsNetwork = false, meetsGeneral = false;
};
AcceptanceVerdict acceptanceVerdict(const LaunchStats &stats);

/// Prints the --profile table.
void printProfile(llvm::raw_ostream &os, const LaunchStats &stats);

/// Writes Chrome trace-event JSON (opens in Perfetto): a DMA track and a
/// compute track per core, times in simulated microseconds.
llvm::Error writeChromeTrace(llvm::StringRef path, const LaunchStats &stats);

/// The stats as a JSON object (without events).
std::string statsToJSON(const LaunchStats &stats);

} // namespace bangsim

#endif // BANGSIM_STATS_H
