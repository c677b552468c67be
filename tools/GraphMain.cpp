//===- GraphMain.cpp - bangc-graph: the graph command as its own tool ----===//
//
// The graph command without LayerGroup, for BANGC_GRAPH_ONLY builds (no
// compiler) and the graph tests.
//
//===----------------------------------------------------------------------===//
#include "tools/GraphCommand.h"

#include <vector>

int main(int argc, char **argv) {
  std::vector<const char *> args(argv + 1, argv + argc);
  return bangc::tools::runGraphCommand(args);
}
