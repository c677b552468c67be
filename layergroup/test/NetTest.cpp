//===- NetTest.cpp - LayerGroup's layer view of Task IR graphs ------------===//
//
// buildNet on the example networks: tensor element types from the blocks'
// precisions, the reference's integer paths, CVM as a convolution over the
// flattened tensor, INT9, TERNARY and FLOAT16, and the parameters it
// refuses.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Net.h"

#include "graph/BlockInfo.h"
#include "graph/Graph.h"
#include "graph/WeightInit.h"

#include <gtest/gtest.h>

#include <tuple>

using namespace bangc;
using namespace bangc::lg;

namespace {

graph::Graph load(const char *Name) {
  auto G = graph::Graph::load(std::string(BANGC_EXAMPLES_DIR) + "/" + Name);
  EXPECT_TRUE(bool(G)) << toString(G.takeError());
  return std::move(*G);
}

const Layer &layerNamed(const Net &N, const std::string &Name) {
  for (const Layer &L : N.Layers)
    if (L.Name == Name)
      return L;
  ADD_FAILURE() << "no layer " << Name;
  return N.Layers.front();
}

} // namespace

TEST(BuildNet, LeNetInt8TypesAndIntegerPaths) {
  graph::Graph G = load("lenet.json");
  auto N = buildNet(G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  EXPECT_EQ(N->Layers.size(), 15u);
  ASSERT_EQ(N->inputs().size(), 1u);
  EXPECT_EQ(N->Tensors[N->inputs()[0]].Type, DType::I8);
  const Layer &Conv1 = layerNamed(*N, "conv1");
  EXPECT_EQ(Conv1.Kind, OpKind::Conv);
  EXPECT_TRUE(Conv1.Integer);
  EXPECT_FALSE(Conv1.RealMath);
  EXPECT_EQ(N->Tensors[Conv1.Output].Type, DType::I32);
  EXPECT_EQ(N->weightElemBytes(Conv1), 1);
  EXPECT_EQ(N->vectorElemBytes(Conv1), 4);
  // CONST_A 1/128 is a float: the reference's double path.
  const Layer &Q = layerNamed(*N, "conv1.requant");
  EXPECT_EQ(Q.Kind, OpKind::Scale);
  EXPECT_TRUE(Q.Integer && Q.RealMath);
  EXPECT_EQ(N->Tensors[Q.Output].Type, DType::I8);
  EXPECT_EQ(layerNamed(*N, "conv1.relu").Kind, OpKind::Relu);
  // The output SO keeps its [10] shape.
  ASSERT_EQ(N->outputs().size(), 1u);
  const Tensor &Y = N->Tensors[N->outputs()[0]];
  EXPECT_EQ(Y.Type, DType::I32);
  EXPECT_EQ(Y.OutputShapes.at("y"), (std::vector<int64_t>{10}));
}

TEST(BuildNet, CvmOverAFlattenedTensorIsAFullWindowConvolution) {
  graph::Graph G = load("lenet.json");
  auto N = buildNet(G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  // fc1 reads pool2's [5][5][16] through a RESHAPE to [400]: a 5x5
  // convolution over it, its weight [F][r = (y * 5 + x) * 16 + c]
  // rearranged to [F][C][KY][KX].
  const Layer &Fc1 = layerNamed(*N, "fc1");
  EXPECT_EQ(Fc1.Kind, OpKind::Conv);
  EXPECT_EQ(Fc1.KY, 5);
  EXPECT_EQ(Fc1.KX, 5);
  const Tensor &In = N->Tensors[Fc1.Inputs[0]];
  EXPECT_EQ(In.Name, "pool2");
  EXPECT_EQ(In.C, 16);
  const Tensor &Out = N->Tensors[Fc1.Output];
  EXPECT_EQ(Out.C, 120);
  EXPECT_EQ(Out.H * Out.W, 1);
  auto W = graph::blockValues(*G.findBlock("fc1.w"));
  ASSERT_TRUE(bool(W)) << toString(W.takeError());
  for (int64_t F : {0, 7, 119})
    for (int64_t C : {0, 5, 15})
      for (int64_t Y : {0, 2, 4})
        for (int64_t X : {0, 3, 4})
          EXPECT_EQ(Fc1.Weight[((F * 16 + C) * 5 + Y) * 5 + X],
                    (*W)[F * 400 + (Y * 5 + X) * 16 + C]);
  // fc2 reads a [1][1][120] tensor: a 1x1 convolution, weights as they are.
  const Layer &Fc2 = layerNamed(*N, "fc2");
  EXPECT_EQ(Fc2.KY * Fc2.KX, 1);
  EXPECT_EQ(N->Tensors[Fc2.Inputs[0]].C, 120);
}

/// \p Name with every block of precision \p From made \p To (as
/// bench/layergroup/to_precision.py does).
static graph::Graph converted(const char *Name, taskir::Precision From,
                              taskir::Precision To) {
  taskir::TaskGraph P = load(Name).proto();
  for (taskir::TaskBlock &B : *P.mutable_blocks())
    if (B.precision() == From)
      B.set_precision(To);
  auto G = graph::Graph::create(P);
  EXPECT_TRUE(bool(G)) << toString(G.takeError());
  return std::move(*G);
}

TEST(BuildNet, Int9AndTernaryHeldInWiderTypesAndNarrowed) {
  for (auto [To, Held, Narrowed, Lo, Hi] :
       {std::tuple{taskir::INT9, DType::I16, Tensor::Narrow::Int9, -256, 255},
        std::tuple{taskir::TERNARY, DType::I8, Tensor::Narrow::Ternary, -1,
                   1}}) {
    graph::Graph G = converted("lenet.json", taskir::INT8, To);
    auto N = buildNet(G);
    ASSERT_TRUE(bool(N)) << toString(N.takeError());
    const Tensor &X = N->Tensors[N->inputs()[0]];
    EXPECT_EQ(X.Type, Held);
    EXPECT_EQ(X.Narrowed, Narrowed);
    EXPECT_EQ(X.minValue(), Lo);
    EXPECT_EQ(X.maxValue(), Hi);
    // The requantisation stores into the narrow precision; the
    // convolutions read it (INT9 and TERNARY fit the matrix unit's int16
    // and int8) into INT32.
    const Layer &Q = layerNamed(*N, "conv1.requant");
    EXPECT_TRUE(Q.Integer && Q.RealMath);
    EXPECT_EQ(N->Tensors[Q.Output].Narrowed, Narrowed);
    const Layer &C2 = layerNamed(*N, "conv2");
    EXPECT_EQ(N->Tensors[C2.Inputs[0]].Type, Held);
    EXPECT_EQ(N->Tensors[C2.Output].Type, DType::I32);
    EXPECT_EQ(N->Tensors[C2.Output].Narrowed, Tensor::Narrow::None);
  }
}

TEST(BuildNet, Float16LayersTakeTheUnitsThatRoundAsTheReference) {
  graph::Graph G = converted("resnet18.json", taskir::FLOAT32, taskir::FLOAT16);
  auto N = buildNet(G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  for (const Tensor &T : N->Tensors)
    EXPECT_EQ(T.Type, DType::F16) << T.Name;
  // The matrix unit (float accumulation), and the vector unit where it
  // rounds as the reference does: ReLU, max pool, a CADD of two inputs.
  for (const char *Name : {"stem.conv", "stem.conv.relu", "stem.pool",
                           "layer1.0.add", "fc", "avgpool.sum"})
    EXPECT_FALSE(layerNamed(*N, Name).Integer) << Name;
  // The 7x7 CAVG (49 terms) in three exact float parts (HalfViaFloat).
  EXPECT_TRUE(layerNamed(*N, "avgpool.sum").HalfViaFloat);
  // The rest on the reference's double arithmetic in scalar loops: the
  // mean's 1/49 is not exact in half.
  const Layer &L = layerNamed(*N, "avgpool.scale");
  EXPECT_TRUE(L.Integer && L.RealMath);
}

TEST(BuildNet, RefusesFloat16WeightsNotExactInHalf) {
  // FLOAT16 convolutions with FLOAT32 weights (valid Task IR: both float)
  // whose values half does not hold.
  taskir::TaskGraph P = load("resnet18.json").proto();
  for (taskir::TaskBlock &B : *P.mutable_blocks())
    if (B.type() != taskir::SW && B.type() != taskir::SWFC &&
        B.precision() == taskir::FLOAT32)
      B.set_precision(taskir::FLOAT16);
  auto G = graph::Graph::create(P);
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  auto N = buildNet(*G);
  ASSERT_FALSE(bool(N));
  std::string Why = toString(N.takeError());
  EXPECT_NE(Why.find("stem.conv"), std::string::npos) << Why;
  EXPECT_NE(Why.find("not exact in FLOAT16"), std::string::npos) << Why;
}

TEST(BuildNet, SnnLifWidensSpikesAndKeepsClifParameters) {
  graph::Graph G = load("snn_lif.json");
  auto N = buildNet(G);
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  // fc1.widen fc1 lif1 fc2.widen fc2 lif2: UINT8 spikes into INT8 weights
  // read as INT16 (the matrix unit multiplies like types).
  ASSERT_EQ(N->Layers.size(), 6u);
  EXPECT_TRUE(N->stateful());
  const Layer &W = layerNamed(*N, "fc1.widen");
  EXPECT_EQ(W.Kind, OpKind::Scale);
  EXPECT_TRUE(W.Integer && !W.RealMath);
  EXPECT_EQ(N->Tensors[W.Inputs[0]].Type, DType::U8);
  EXPECT_EQ(N->Tensors[W.Output].Type, DType::I16);
  const Layer &Fc1 = layerNamed(*N, "fc1");
  EXPECT_EQ(Fc1.Inputs[0], W.Output);
  EXPECT_EQ(N->weightElemBytes(Fc1), 2);
  const Layer &L1 = layerNamed(*N, "lif1");
  EXPECT_EQ(L1.Kind, OpKind::Lif);
  EXPECT_TRUE(L1.stateful());
  EXPECT_EQ(L1.VTh, 64);
  EXPECT_EQ(L1.VLeak, 2);
  EXPECT_EQ(L1.Decay, 1);
  EXPECT_FALSE(L1.LifSoftReset);
  EXPECT_TRUE(L1.LifFloor); // an INT32 input
  EXPECT_EQ(N->Tensors[L1.Output].Type, DType::U8);
  const Layer &L2 = layerNamed(*N, "lif2");
  EXPECT_EQ(L2.Decay, 0.875);
  EXPECT_TRUE(L2.LifSoftReset);
  EXPECT_EQ(layerNamed(*N, "fc2").Inputs[0],
            layerNamed(*N, "fc2.widen").Output);
}
