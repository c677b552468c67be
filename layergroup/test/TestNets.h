//===- TestNets.h - Small networks shared by the LayerGroup tests ---------===//
//
// Networks that both the planner tests (what is planned) and the run tests
// (what the kernels compute) use, written once so both test the same net.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_TEST_TESTNETS_H
#define BANGC_LAYERGROUP_TEST_TESTNETS_H

#include "layergroup/Net.h"

namespace bangc::lg::test {

/// A residual block with a strided main branch whose first ReLU also feeds
/// the 1x1/2 downsample of the next group: x (24 x 20) -> c1 3x3/1 -> r1
/// (24 rows) -> c2 3x3/2 -> r2 (12 rows); then c3 3x3/1 over r2, ds 1x1/2
/// over r1, add, ReLU. Layers [0, 3] are a group with two outputs, r1 and
/// r2.
inline Net downsampleBlock() {
  Net N;
  int X = N.addInput("x", 4, 24, 20);
  int R1 = N.relu(N.conv(X, 8, 3, 1, 1, "c1"), "r1");
  int R2 = N.relu(N.conv(R1, 8, 3, 2, 1, "c2"), "r2");
  int C3 = N.conv(R2, 8, 3, 1, 1, "c3");
  int Ds = N.conv(R1, 8, 1, 2, 0, "ds");
  N.markOutput(N.relu(N.add(C3, Ds, "add"), "relu"), "y");
  return N;
}

/// A VGG conv block: x (c x h x w) -> c1 3x3/1 pad 1 of f channels -> r1
/// -> c2 3x3/1 pad 1 of f channels -> r2 -> p 2x2/2 max pool -> y. At 3 x
/// 224 x 224 with f = 64 it is VGG-16's conv1_1 .. pool1.
inline Net convBlock(int c, int h, int w, int f) {
  Net N;
  int X = N.addInput("x", c, h, w);
  X = N.relu(N.conv(X, f, 3, 1, 1, "c1"), "r1");
  X = N.relu(N.conv(X, f, 3, 1, 1, "c2"), "r2");
  N.markOutput(N.maxPool(X, 2, 2, 0, "p"), "y");
  return N;
}

/// One convolution and its ReLU: x (c x h x w) -> c 3x3/1 pad 1 of f
/// channels -> r -> y. At 256 x 56 x 56 with f = 256 it is VGG-16's
/// conv3_2 and its ReLU, a global group.
inline Net convRelu(int c, int h, int w, int f) {
  Net N;
  int X = N.addInput("x", c, h, w);
  N.markOutput(N.relu(N.conv(X, f, 3, 1, 1, "c"), "r"), "y");
  return N;
}

} // namespace bangc::lg::test

#endif // BANGC_LAYERGROUP_TEST_TESTNETS_H
