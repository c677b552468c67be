//===- FileFuzzer.cpp - libFuzzer target: the file formats we read -------===//
//
// Feeds each input to every reader of untrusted files: .npy arrays, device
// spec JSON, and Task IR in both forms (then validation, the graph model and
// its statistics, as `bangc-sim graph --stats` does). Each must accept the
// input or return an error; none may crash, hang or allocate without bound.
//
//===----------------------------------------------------------------------===//
#include "bangsim/DeviceSpec.h"
#include "graph/Graph.h"
#include "graph/GraphIO.h"
#include "graph/Stats.h"
#include "graph/Validate.h"
#include "support/Npy.h"

#include <cstddef>
#include <cstdint>

static void readNpy(llvm::StringRef bytes) {
  auto array = bangc::parseNpy(bytes, "fuzz.npy");
  if (!array) {
    llvm::consumeError(array.takeError());
    return;
  }
  // What parses must serialise again.
  auto again = bangc::serializeNpy(*array);
  if (!again)
    llvm::consumeError(again.takeError());
}

static void readSpec(llvm::StringRef bytes) {
  auto spec = bangsim::parseDeviceSpec(bytes, "fuzz.json");
  if (!spec)
    llvm::consumeError(spec.takeError());
}

static void readGraph(llvm::StringRef bytes) {
  auto parsed = bangc::graph::parseGraph(bytes, "fuzz.taskir");
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return;
  }
  if (llvm::Error e = bangc::graph::validateGraph(*parsed)) {
    llvm::consumeError(std::move(e));
    return;
  }
  auto graph = bangc::graph::Graph::create(std::move(*parsed));
  if (!graph) {
    llvm::consumeError(graph.takeError());
    return;
  }
  (void)bangc::graph::formatStats(bangc::graph::computeStats(*graph));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  readNpy(bytes);
  readSpec(bytes);
  readGraph(bytes);
  return 0;
}
