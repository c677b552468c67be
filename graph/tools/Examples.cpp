//===- Examples.cpp - The example graphs of examples/graphs --------------===//
#include "Examples.h"

#include "graph/Builder.h"

#include <cmath>

using namespace bangc::taskir;

namespace bangc::graph {

namespace {

/// He-uniform scale for a layer with \p FanIn inputs.
double heScale(int64_t FanIn) { return std::sqrt(6.0 / double(FanIn)); }

/// conv + ReLU in FLOAT32 with init-based weights.
int64_t convRelu(GraphBuilder &GB, int64_t In, int64_t NF, Window W,
                 uint32_t &Seed, const std::string &Name, bool Relu = true) {
  int64_t NR = blockDims(GB.block(In))[DF];
  // Bias first: the order of the checked-in example files. (Two Seed++ in
  // one call's arguments would depend on the compiler's evaluation order.)
  Param Bias = Param::uniform(FLOAT32, Seed++, 0.05);
  Param Weights = Param::uniform(FLOAT32, Seed++, heScale(NR * W.K * W.K));
  int64_t Out = GB.conv2d(In, NF, W, Weights, Bias, FLOAT32, Name);
  return Relu ? GB.relu(Out, Name + ".relu") : Out;
}

} // namespace

TaskGraph buildLeNet() {
  GraphBuilder GB;
  uint32_t Seed = 100;
  auto Weights = [&](double Scale) {
    return Param::uniform(INT8, Seed++, Scale);
  };
  auto Bias = [&]() { return Param::uniform(INT32, Seed++, 512); };
  // Requantise INT32 accumulators to INT8 and apply ReLU.
  auto Requant = [&](int64_t In, const std::string &Name) {
    int64_t S = GB.scale(In, 1.0 / 128, INT8, Name + ".requant");
    return GB.relu(S, Name + ".relu");
  };
  int64_t X = GB.input("x", INT8, 28, 28, 1);
  // Each layer draws its bias seed, then its weight seed.
  Param B = Bias();
  int64_t C1 = GB.conv2d(X, 6, Window{5, 1, 2, 1}, Weights(64), B, INT32,
                         "conv1");
  int64_t P1 = GB.maxPool(Requant(C1, "conv1"), Window{2, 2, 0, 1}, "pool1");
  B = Bias();
  int64_t C2 = GB.conv2d(P1, 16, Window{5, 1, 0, 1}, Weights(32), B, INT32,
                         "conv2");
  int64_t P2 = GB.maxPool(Requant(C2, "conv2"), Window{2, 2, 0, 1}, "pool2");
  B = Bias();
  int64_t F1 = GB.fullyConnected(P2, 120, Weights(16), B, INT32, "fc1");
  int64_t R1 = Requant(GB.reshape(F1, Dims{{DY, 1}, {DX, 1}, {DF, 120}},
                                  "fc1.hwc"),
                       "fc1");
  B = Bias();
  int64_t F2 = GB.fullyConnected(R1, 84, Weights(16), B, INT32, "fc2");
  int64_t R2 = Requant(GB.reshape(F2, Dims{{DY, 1}, {DX, 1}, {DF, 84}},
                                  "fc2.hwc"),
                       "fc2");
  B = Bias();
  int64_t F3 = GB.fullyConnected(R2, 10, Weights(16), B, INT32, "fc3");
  GB.output(F3, "y");
  return GB.take();
}

TaskGraph buildVgg16Convs() {
  GraphBuilder GB;
  uint32_t Seed = 1600;
  int64_t T = GB.input("image", FLOAT32, 224, 224, 3);
  const int Stages[5][2] = {{64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}};
  for (int S = 0; S < 5; ++S) {
    for (int L = 0; L < Stages[S][1]; ++L)
      T = convRelu(GB, T, Stages[S][0], Window{3, 1, 1, 1}, Seed,
                   "conv" + std::to_string(S + 1) + "_" + std::to_string(L + 1));
    T = GB.maxPool(T, Window{2, 2, 0, 1}, "pool" + std::to_string(S + 1));
  }
  GB.output(T, "features");
  return GB.take();
}

TaskGraph buildResNet18() {
  GraphBuilder GB;
  uint32_t Seed = 1800;
  int64_t T = GB.input("image", FLOAT32, 224, 224, 3);
  T = convRelu(GB, T, 64, Window{7, 2, 3, 1}, Seed, "stem.conv");
  T = GB.maxPool(T, Window{3, 2, 1, 1}, "stem.pool");
  const int Widths[4] = {64, 128, 256, 512};
  for (int Stage = 0; Stage < 4; ++Stage) {
    for (int Blk = 0; Blk < 2; ++Blk) {
      std::string N = "layer" + std::to_string(Stage + 1) + "." +
                      std::to_string(Blk);
      int64_t Stride = (Stage > 0 && Blk == 0) ? 2 : 1;
      int64_t A = convRelu(GB, T, Widths[Stage], Window{3, Stride, 1, 1}, Seed,
                           N + ".conv1");
      int64_t B = convRelu(GB, A, Widths[Stage], Window{3, 1, 1, 1}, Seed,
                           N + ".conv2", /*Relu=*/false);
      int64_t Short = T;
      if (Stride != 1)
        Short = convRelu(GB, T, Widths[Stage], Window{1, 2, 0, 1}, Seed,
                         N + ".downsample", /*Relu=*/false);
      T = GB.relu(GB.add({B, Short}, FLOAT32, N + ".add"), N + ".relu");
    }
  }
  // Global average pool: CAVG sums the 7x7 window (as the seed's loop
  // does), CVS divides by 49.
  int64_t Sum = GB.sumPool(T, Window{7, 1, 0, 1}, "avgpool.sum");
  int64_t Avg = GB.scale(Sum, 1.0 / 49, FLOAT32, "avgpool.scale");
  Param FcBias = Param::uniform(FLOAT32, Seed++, 0.05);
  Param FcWeights = Param::uniform(FLOAT32, Seed++, heScale(512));
  int64_t Fc = GB.fullyConnected(Avg, 1000, FcWeights, FcBias, FLOAT32, "fc");
  GB.output(Fc, "logits");
  return GB.take();
}

TaskGraph buildSmallSnn() {
  GraphBuilder GB;
  uint32_t Seed = 700;
  int64_t In = GB.input("spikes", UINT8, 4, 4, 2);
  GraphBuilder::LifParams Lif;
  Lif.Threshold = 64;
  Lif.Leak = 2;
  Lif.Reset = 0;
  Param Fc1Bias = Param::uniform(INT32, Seed++, 8, /*Materialize=*/true);
  Param Fc1Weights = Param::uniform(INT8, Seed++, 40, /*Materialize=*/true);
  int64_t H = GB.fullyConnected(In, 24, Fc1Weights, Fc1Bias, INT32, "fc1");
  H = GB.reshape(H, Dims{{DY, 1}, {DX, 1}, {DF, 24}}, "fc1.hwc");
  H = GB.lif(H, Lif, UINT8, "lif1");
  int64_t O = GB.fullyConnected(
      H, 10, Param::uniform(INT8, Seed++, 60, /*Materialize=*/true),
      std::nullopt, INT32, "fc2");
  O = GB.reshape(O, Dims{{DY, 1}, {DX, 1}, {DF, 10}}, "fc2.hwc");
  Lif.SoftReset = true;
  Lif.Decay = 0.875;
  O = GB.lif(O, Lif, UINT8, "lif2");
  GB.output(O, "out");
  return GB.take();
}

std::vector<std::pair<std::string, TaskGraph>> allExamples() {
  return {{"lenet.json", buildLeNet()},
          {"vgg16_convs.json", buildVgg16Convs()},
          {"resnet18.json", buildResNet18()},
          {"snn_lif.json", buildSmallSnn()}};
}

} // namespace bangc::graph
