//===- main.cpp - bangc-graph: the graph subcommand as its own tool ------===//
#include "graph/GraphCommand.h"

#include <vector>

int main(int argc, char **argv) {
  std::vector<const char *> Args(argv + 1, argv + argc);
  return bangc::graph::runGraphCommand(Args);
}
