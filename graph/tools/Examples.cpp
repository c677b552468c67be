//===- Examples.cpp - The example graphs of examples/graphs --------------===//
#include "Examples.h"

#include "graph/Builder.h"

#include <cmath>

using namespace bangc::taskir;

namespace bangc::graph {

namespace {

/// He-uniform scale for a layer with \p fanIn inputs.
double heScale(int64_t fanIn) { return std::sqrt(6.0 / double(fanIn)); }

/// conv + ReLU in FLOAT32 (or \p prec) with init-based weights.
int64_t convRelu(GraphBuilder &gb, int64_t in, int64_t nf, Window w,
                 uint32_t &seed, const std::string &name, bool relu = true,
                 Precision prec = FLOAT32) {
  int64_t nr = blockDims(gb.block(in))[DF];
  // Bias first: the order of the checked-in example files. (Two Seed++ in
  // one call's arguments would depend on the compiler's evaluation order.)
  Param bias = Param::uniform(prec, seed++, 0.05);
  Param weights = Param::uniform(prec, seed++, heScale(nr * w.K * w.K));
  int64_t out = gb.conv2d(in, nf, w, weights, bias, prec, name);
  return relu ? gb.relu(out, name + ".relu") : out;
}

} // namespace

TaskGraph buildLeNet() {
  GraphBuilder gb;
  uint32_t seed = 100;
  auto weights = [&](double scale) {
    return Param::uniform(INT8, seed++, scale);
  };
  auto bias = [&]() { return Param::uniform(INT32, seed++, 512); };
  // Requantise INT32 accumulators to INT8 and apply ReLU.
  auto requant = [&](int64_t in, const std::string &name) {
    int64_t s = gb.scale(in, 1.0 / 128, INT8, name + ".requant");
    return gb.relu(s, name + ".relu");
  };
  int64_t x = gb.input("x", INT8, 28, 28, 1);
  // Each layer draws its bias seed, then its weight seed.
  Param b = bias();
  int64_t c1 =
      gb.conv2d(x, 6, Window{5, 1, 2, 1}, weights(64), b, INT32, "conv1");
  int64_t p1 = gb.maxPool(requant(c1, "conv1"), Window{2, 2, 0, 1}, "pool1");
  b = bias();
  int64_t c2 =
      gb.conv2d(p1, 16, Window{5, 1, 0, 1}, weights(32), b, INT32, "conv2");
  int64_t p2 = gb.maxPool(requant(c2, "conv2"), Window{2, 2, 0, 1}, "pool2");
  b = bias();
  int64_t f1 = gb.fullyConnected(p2, 120, weights(16), b, INT32, "fc1");
  int64_t r1 = requant(
      gb.reshape(f1, Dims{{DY, 1}, {DX, 1}, {DF, 120}}, "fc1.hwc"), "fc1");
  b = bias();
  int64_t f2 = gb.fullyConnected(r1, 84, weights(16), b, INT32, "fc2");
  int64_t r2 = requant(
      gb.reshape(f2, Dims{{DY, 1}, {DX, 1}, {DF, 84}}, "fc2.hwc"), "fc2");
  b = bias();
  int64_t f3 = gb.fullyConnected(r2, 10, weights(16), b, INT32, "fc3");
  gb.output(f3, "y");
  return gb.take();
}

TaskGraph buildVgg16Convs() {
  GraphBuilder gb;
  uint32_t seed = 1600;
  int64_t t = gb.input("image", FLOAT32, 224, 224, 3);
  const int stages[5][2] = {{64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}};
  for (int s = 0; s < 5; ++s) {
    for (int l = 0; l < stages[s][1]; ++l)
      t = convRelu(gb, t, stages[s][0], Window{3, 1, 1, 1}, seed,
                   "conv" + std::to_string(s + 1) + "_" +
                       std::to_string(l + 1));
    t = gb.maxPool(t, Window{2, 2, 0, 1}, "pool" + std::to_string(s + 1));
  }
  gb.output(t, "features");
  return gb.take();
}

TaskGraph buildResNet18() {
  GraphBuilder gb;
  uint32_t seed = 1800;
  int64_t t = gb.input("image", FLOAT32, 224, 224, 3);
  t = convRelu(gb, t, 64, Window{7, 2, 3, 1}, seed, "stem.conv");
  t = gb.maxPool(t, Window{3, 2, 1, 1}, "stem.pool");
  const int widths[4] = {64, 128, 256, 512};
  for (int stage = 0; stage < 4; ++stage) {
    for (int blk = 0; blk < 2; ++blk) {
      std::string n =
          "layer" + std::to_string(stage + 1) + "." + std::to_string(blk);
      int64_t stride = (stage > 0 && blk == 0) ? 2 : 1;
      int64_t a = convRelu(gb, t, widths[stage], Window{3, stride, 1, 1}, seed,
                           n + ".conv1");
      int64_t b = convRelu(gb, a, widths[stage], Window{3, 1, 1, 1}, seed,
                           n + ".conv2", /*Relu=*/false);
      int64_t shortcut = t;
      if (stride != 1)
        shortcut = convRelu(gb, t, widths[stage], Window{1, 2, 0, 1}, seed,
                            n + ".downsample", /*Relu=*/false);
      t = gb.relu(gb.add({b, shortcut}, FLOAT32, n + ".add"), n + ".relu");
    }
  }
  // Global average pool: CAVG sums the 7x7 window (as the seed's loop
  // does), CVS divides by 49.
  int64_t sum = gb.sumPool(t, Window{7, 1, 0, 1}, "avgpool.sum");
  int64_t avg = gb.scale(sum, 1.0 / 49, FLOAT32, "avgpool.scale");
  Param fcBias = Param::uniform(FLOAT32, seed++, 0.05);
  Param fcWeights = Param::uniform(FLOAT32, seed++, heScale(512));
  int64_t fc = gb.fullyConnected(avg, 1000, fcWeights, fcBias, FLOAT32, "fc");
  gb.output(fc, "logits");
  return gb.take();
}

TaskGraph buildSmallSnn() {
  GraphBuilder gb;
  uint32_t seed = 700;
  int64_t in = gb.input("spikes", UINT8, 4, 4, 2);
  GraphBuilder::LifParams lif;
  lif.Threshold = 64;
  lif.Leak = 2;
  lif.Reset = 0;
  Param fc1Bias = Param::uniform(INT32, seed++, 8, /*Materialize=*/true);
  Param fc1Weights = Param::uniform(INT8, seed++, 40, /*Materialize=*/true);
  int64_t h = gb.fullyConnected(in, 24, fc1Weights, fc1Bias, INT32, "fc1");
  h = gb.reshape(h, Dims{{DY, 1}, {DX, 1}, {DF, 24}}, "fc1.hwc");
  h = gb.lif(h, lif, UINT8, "lif1");
  int64_t o = gb.fullyConnected(
      h, 10, Param::uniform(INT8, seed++, 60, /*Materialize=*/true),
      std::nullopt, INT32, "fc2");
  o = gb.reshape(o, Dims{{DY, 1}, {DX, 1}, {DF, 10}}, "fc2.hwc");
  lif.SoftReset = true;
  lif.Decay = 0.875;
  o = gb.lif(o, lif, UINT8, "lif2");
  gb.output(o, "out");
  return gb.take();
}

TaskGraph buildSmallFp16() {
  GraphBuilder gb;
  uint32_t seed = 2000;
  int64_t t = gb.input("image", FLOAT16, 16, 16, 3);
  t = convRelu(gb, t, 16, Window{3, 1, 1, 1}, seed, "conv1", true, FLOAT16);
  int64_t a = convRelu(gb, t, 16, Window{3, 1, 1, 1}, seed, "block.conv1", true,
                       FLOAT16);
  int64_t b = convRelu(gb, a, 16, Window{3, 1, 1, 1}, seed, "block.conv2",
                       false, FLOAT16);
  t = gb.relu(gb.add({b, t}, FLOAT16, "block.add"), "block.relu");
  t = gb.maxPool(t, Window{2, 2, 0, 1}, "pool");
  int64_t sum = gb.sumPool(t, Window{8, 1, 0, 1}, "avgpool.sum");
  int64_t avg = gb.scale(sum, 1.0 / 64, FLOAT16, "avgpool.scale");
  Param fcBias = Param::uniform(FLOAT16, seed++, 0.05);
  Param fcWeights = Param::uniform(FLOAT16, seed++, heScale(16));
  int64_t fc = gb.fullyConnected(avg, 10, fcWeights, fcBias, FLOAT16, "fc");
  gb.output(fc, "logits");
  return gb.take();
}

std::vector<std::pair<std::string, TaskGraph>> allExamples() {
  return {{"lenet.json", buildLeNet()},
          {"vgg16_convs.json", buildVgg16Convs()},
          {"resnet18.json", buildResNet18()},
          {"snn_lif.json", buildSmallSnn()},
          {"small_fp16.json", buildSmallFp16()}};
}

} // namespace bangc::graph
