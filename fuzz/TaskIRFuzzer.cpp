//===- TaskIRFuzzer.cpp - libFuzzer target: the Task IR reader ------------===//
//
// Each input is a Task IR graph, protobuf binary or JSON (`bangc-sim graph
// FILE`): parsed, validated, built into the graph model and measured, as
// `graph --stats` does. Each step accepts it or returns an error; none may
// crash, hang or allocate without bound.
//
//===----------------------------------------------------------------------===//
#include "graph/Graph.h"
#include "graph/GraphIO.h"
#include "graph/Stats.h"
#include "graph/Validate.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto parsed = bangc::graph::parseGraph(bytes, "fuzz.taskir");
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return 0;
  }
  if (llvm::Error e = bangc::graph::validateGraph(*parsed)) {
    llvm::consumeError(std::move(e));
    return 0;
  }
  auto graph = bangc::graph::Graph::create(std::move(*parsed));
  if (!graph) {
    llvm::consumeError(graph.takeError());
    return 0;
  }
  (void)bangc::graph::formatStats(bangc::graph::computeStats(*graph));
  return 0;
}
