//===- Examples.h - The example graphs of examples/graphs -------*- C++ -*-===//
//
// Built with the GraphBuilder from fixed seeds, so that regenerating them
// reproduces the checked-in files byte for byte.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_TOOLS_EXAMPLES_H
#define BANGC_GRAPH_TOOLS_EXAMPLES_H

#include "graph/proto/taskir.pb.h"

#include <string>
#include <utility>
#include <vector>

namespace bangc::graph {

/// INT8 LeNet-5 style CNN on a 28x28x1 input "x" with output "y" (10).
taskir::TaskGraph buildLeNet();
/// VGG-16 conv1_1 .. conv5_3 with ReLUs and the five max pools, FLOAT32,
/// input "image" 224x224x3, output "features" 7x7x512.
taskir::TaskGraph buildVgg16Convs();
/// ResNet-18 (batch norm folded): stem, four stages of basic blocks with
/// residual CADD, global sum pool + scale, and the 1000-way classifier.
taskir::TaskGraph buildResNet18();
/// A two-layer spiking network with CLIF neurons, explicit INT8 weights.
taskir::TaskGraph buildSmallSnn();
/// A small FLOAT16 residual CNN, every block FLOAT16: conv + ReLU, a basic
/// block (two 3x3 convolutions, CADD, ReLU), max pool, global average pool
/// (CAVG + CVS) and a fully connected CVM; input "image" 16x16x3, output
/// "logits" (10).
taskir::TaskGraph buildSmallFp16();

/// (file name, graph) for every example.
std::vector<std::pair<std::string, taskir::TaskGraph>> allExamples();

} // namespace bangc::graph

#endif // BANGC_GRAPH_TOOLS_EXAMPLES_H
