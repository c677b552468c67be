//===- ExecutorTest.cpp - Each compute block against an independent loop -===//
#include "TestUtil.h"

#include "graph/Builder.h"
#include "graph/Precision.h"
#include "graph/WeightInit.h"
#include "support/Half.h"

#include <functional>

#include <cmath>

using namespace bangc;
using namespace bangc::graph;
using namespace bangc::graph::test;
using namespace bangc::taskir;

namespace {

/// Zero-padded copy of an (H, W, C) tensor, in a plain nested layout.
struct Image {
  int64_t H, W, C;
  std::vector<double> V;
  double at(int64_t Y, int64_t X, int64_t Ch) const {
    if (Y < 0 || X < 0 || Y >= H || X >= W)
      return 0;
    return V[(Y * W + X) * C + Ch];
  }
};

/// Reference convolution written independently of the executor: for each
/// output pixel, an explicit dot product over the receptive field.
std::vector<double> refConv(const Image &In, const std::vector<double> &W,
                            const std::vector<double> &Bias, int64_t NF,
                            int64_t K, int64_t S, int64_t Pad, int64_t Dil,
                            int64_t OH, int64_t OW) {
  std::vector<double> Out;
  for (int64_t Y = 0; Y < OH; ++Y)
    for (int64_t X = 0; X < OW; ++X)
      for (int64_t F = 0; F < NF; ++F) {
        double Acc = Bias.empty() ? 0 : Bias[F];
        for (int64_t C = 0; C < In.C; ++C)
          for (int64_t A = 0; A < K; ++A)
            for (int64_t B = 0; B < K; ++B)
              Acc += In.at(Y * S - Pad + A * Dil, X * S - Pad + B * Dil, C) *
                     W[((F * In.C + C) * K + A) * K + B];
        Out.push_back(Acc);
      }
  return Out;
}

// support/DTypes.def's TASKIR column is the inverse of precisionDType (the
// .npy element type of a precision) wherever Task IR has the type.
TEST(Executor, DTypeTableAgreesWithPrecisionDType) {
  int Checked = 0;
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, CTYPE, NPY, ALIAS1,      \
                    ALIAS2, MLUOP, TASKIR)                                     \
  if (TASKIR != PRECISION_UNSPECIFIED) {                                       \
    EXPECT_EQ(precisionDType(TASKIR), DType::ENUM) << NAME;                    \
    ++Checked;                                                                 \
  }
#include "support/DTypes.def"
  EXPECT_EQ(Checked, 8);
}

TEST(Executor, ConvInt8ToInt32WithPaddingStrideDilation) {
  const int64_t H = 7, W = 6, C = 3, NF = 4, K = 3, S = 2, Pad = 2, Dil = 2;
  GraphBuilder GB;
  int64_t X = GB.input("x", INT8, H, W, C);
  std::vector<double> Wt = randomInts(NF * C * K * K, -128, 127, 1);
  std::vector<double> Bs = randomInts(NF, -1000, 1000, 2);
  int64_t Y = GB.conv2d(X, NF, Window{K, S, Pad, Dil},
                        Param::values(INT8, Wt), Param::values(INT32, Bs),
                        INT32, "conv");
  GB.output(Y, "y");
  Graph G = mustCreate(GB.take());
  std::vector<double> In = randomInts(H * W * C, -128, 127, 3);
  TensorMap Out = mustRun(G, {{"x", array(INT8, {H, W, C}, In)}});
  int64_t OH = (H + 2 * Pad - Dil * (K - 1) - 1) / S + 1;
  int64_t OW = (W + 2 * Pad - Dil * (K - 1) - 1) / S + 1;
  EXPECT_EQ(Out["y"].shape, (std::vector<int64_t>{OH, OW, NF}));
  EXPECT_EQ(values(Out["y"], INT32),
            refConv({H, W, C, In}, Wt, Bs, NF, K, S, Pad, Dil, OH, OW));
}

TEST(Executor, ConvFloat32) {
  const int64_t H = 5, W = 5, C = 2, NF = 3, K = 3;
  GraphBuilder GB;
  int64_t X = GB.input("x", FLOAT32, H, W, C);
  std::vector<double> Wt = randomReals(NF * C * K * K, 4);
  int64_t Y = GB.conv2d(X, NF, Window{K, 1, 1, 1}, Param::values(FLOAT32, Wt),
                        std::nullopt, FLOAT32, "conv");
  GB.output(Y, "y");
  Graph G = mustCreate(GB.take());
  std::vector<double> In = randomReals(H * W * C, 5);
  TensorMap Out = mustRun(G, {{"x", array(FLOAT32, {H, W, C}, In)}});
  std::vector<double> Want = refConv({H, W, C, In}, Wt, {}, NF, K, 1, 1, 1, H, W);
  std::vector<double> Got = values(Out["y"], FLOAT32);
  ASSERT_EQ(Got.size(), Want.size());
  for (size_t I = 0; I < Got.size(); ++I)
    EXPECT_EQ(Got[I], double(float(Want[I]))) << I;
}

TEST(Executor, VectorMatrixWithConstB) {
  const int64_t NR = 6, NF = 4;
  GraphBuilder GB;
  int64_t X = GB.addBlock(SIFC, INT16, Dims{{DR, NR}}, "x");
  std::vector<double> Wt = randomInts(NF * NR, -300, 300, 6);
  int64_t Sw = GB.addBlock(SWFC, INT16, Dims{{DF, NF}, {DR, NR}});
  GB.setParam(Sw, Param::values(INT16, Wt));
  int64_t C = GB.addBlock(CVM, INT32, Dims{{DF, NF}, {DR, NR}});
  GB.setAttr(C, CONST_B, -7);
  GB.connect(X, C, {}, InputRole::Data);
  GB.connect(Sw, C, {}, InputRole::Weight);
  int64_t O = GB.addBlock(SO, INT32, Dims{{DF, NF}}, "y");
  GB.connect(C, O);
  Graph G = mustCreate(GB.take());
  std::vector<double> In = randomInts(NR, -32768, 32767, 7);
  TensorMap Out = mustRun(G, {{"x", array(INT16, {NR}, In)}});
  std::vector<double> Got = values(Out["y"], INT32);
  for (int64_t F = 0; F < NF; ++F) {
    int64_t Acc = -7;
    for (int64_t R = 0; R < NR; ++R)
      Acc += int64_t(Wt[F * NR + R]) * int64_t(In[R]);
    EXPECT_EQ(Got[F], double(std::clamp<int64_t>(Acc, INT32_MIN, INT32_MAX)));
  }
}

/// Builds x (and x2) -> compute block of type T -> y, for element-wise
/// blocks, with an optional SB bias / alpha.
struct ElementwiseGraph {
  Graph G;
  static ElementwiseGraph make(BlockType T, Precision In, Precision Out,
                               int NumInputs, const std::vector<double> *Alpha,
                               const std::vector<double> *Bias,
                               std::function<void(GraphBuilder &, int64_t)> Attrs,
                               Precision BiasP = INT32) {
    GraphBuilder GB;
    Dims D{{DY, 2}, {DX, 3}, {DF, 4}};
    int64_t C = GB.addBlock(T, Out, D, "op");
    for (int I = 0; I < NumInputs; ++I) {
      int64_t X = GB.addBlock(SI, In, D, "x" + std::to_string(I));
      GB.connect(X, C, {}, InputRole::Data);
    }
    if (Alpha) {
      int64_t A = GB.addBlock(SB, BiasP, Dims{{DF, 4}});
      GB.setParam(A, Param::values(BiasP, *Alpha));
      GB.connect(A, C, {}, InputRole::Alpha);
    }
    if (Bias) {
      int64_t B = GB.addBlock(SB, BiasP, Dims{{DF, 4}});
      GB.setParam(B, Param::values(BiasP, *Bias));
      GB.connect(B, C, {}, InputRole::Bias);
    }
    if (Attrs)
      Attrs(GB, C);
    int64_t O = GB.addBlock(SO, Out, D, "y");
    GB.connect(C, O);
    return {mustCreate(GB.take())};
  }
};

TEST(Executor, CaddSumsInputsAndBiasAndSaturatesInt8) {
  std::vector<double> Bias = {1, -1, 100, -100};
  ElementwiseGraph E =
      ElementwiseGraph::make(CADD, INT8, INT8, 3, nullptr, &Bias, nullptr);
  std::vector<double> A = randomInts(24, -128, 127, 8),
                      B = randomInts(24, -128, 127, 9),
                      C = randomInts(24, -128, 127, 10);
  TensorMap Out = mustRun(E.G, {{"x0", array(INT8, {2, 3, 4}, A)},
                                {"x1", array(INT8, {2, 3, 4}, B)},
                                {"x2", array(INT8, {2, 3, 4}, C)}});
  std::vector<double> Got = values(Out["y"], INT8);
  int Saturated = 0;
  for (int I = 0; I < 24; ++I) {
    double Sum = Bias[I % 4] + A[I] + B[I] + C[I];
    double Want = std::clamp(Sum, -128.0, 127.0);
    Saturated += Want != Sum;
    EXPECT_EQ(Got[I], Want) << I;
  }
  EXPECT_GT(Saturated, 0) << "the data should exercise saturation";
}

TEST(Executor, CvvhHadamard) {
  std::vector<double> Bias = {0.5, 0, -0.25, 1};
  ElementwiseGraph E = ElementwiseGraph::make(CVVH, FLOAT32, FLOAT32, 2, nullptr,
                                              &Bias, nullptr, FLOAT32);
  std::vector<double> A = randomReals(24, 11), B = randomReals(24, 12);
  TensorMap Out = mustRun(E.G, {{"x0", array(FLOAT32, {2, 3, 4}, A)},
                                {"x1", array(FLOAT32, {2, 3, 4}, B)}});
  std::vector<double> Got = values(Out["y"], FLOAT32);
  for (int I = 0; I < 24; ++I)
    EXPECT_EQ(Got[I], double(float(Bias[I % 4] + A[I] * B[I])));
}

TEST(Executor, CaxScalesPerChannel) {
  std::vector<double> Alpha = {2, -3, 0, 1000}, Bias = {5, 5, 5, 5};
  ElementwiseGraph E =
      ElementwiseGraph::make(CAX, INT16, INT16, 1, &Alpha, &Bias, nullptr);
  std::vector<double> A = randomInts(24, -1000, 1000, 13);
  TensorMap Out = mustRun(E.G, {{"x0", array(INT16, {2, 3, 4}, A)}});
  std::vector<double> Got = values(Out["y"], INT16);
  for (int I = 0; I < 24; ++I)
    EXPECT_EQ(Got[I], std::clamp(5 + Alpha[I % 4] * A[I], -32768.0, 32767.0));
}

TEST(Executor, CvsRequantisesWithFloatConstant) {
  ElementwiseGraph E = ElementwiseGraph::make(
      CVS, INT32, INT8, 1, nullptr, nullptr, [](GraphBuilder &GB, int64_t C) {
        GB.setAttrFloat(C, CONST_A, 1.0 / 64);
        GB.setAttr(C, CONST_B, 3);
      });
  std::vector<double> A = randomInts(24, -20000, 20000, 14);
  A[0] = 32; // 3 + 0.5 -> rounds half away from zero to 4
  A[1] = -224; // 3 - 3.5 = -0.5 -> -1
  TensorMap Out = mustRun(E.G, {{"x0", array(INT32, {2, 3, 4}, A)}});
  std::vector<double> Got = values(Out["y"], INT8);
  EXPECT_EQ(Got[0], 4);
  EXPECT_EQ(Got[1], -1);
  for (int I = 0; I < 24; ++I) {
    double R = 3 + A[I] / 64;
    double Want = std::clamp(std::round(R), -128.0, 127.0);
    EXPECT_EQ(Got[I], Want) << I;
  }
}

TEST(Executor, Int32OverflowSaturatesAndUint32StaysExact) {
  // CADD INT32 + INT32: the 64-bit sum is exact, the INT32 result saturates.
  ElementwiseGraph E =
      ElementwiseGraph::make(CADD, INT32, INT32, 2, nullptr, nullptr, nullptr);
  std::vector<double> A(24, 2147483647.0), B(24, 1.0);
  B[1] = -1;
  std::vector<double> A2 = A;
  A2[2] = -2147483648.0;
  B[2] = -5;
  TensorMap Out = mustRun(E.G, {{"x0", array(INT32, {2, 3, 4}, A2)},
                                {"x1", array(INT32, {2, 3, 4}, B)}});
  std::vector<double> Got = values(Out["y"], INT32);
  EXPECT_EQ(Got[0], 2147483647.0);
  EXPECT_EQ(Got[1], 2147483646.0);
  EXPECT_EQ(Got[2], -2147483648.0);
  // UINT32 CVVH: 4e9 * 1 stays exact, 70000 * 70000 saturates at 2^32-1.
  ElementwiseGraph U =
      ElementwiseGraph::make(CVVH, UINT32, UINT32, 2, nullptr, nullptr, nullptr);
  std::vector<double> P(24, 1), Q(24, 4000000000.0);
  P[1] = 70000;
  Q[1] = 70000;
  TensorMap UO = mustRun(U.G, {{"x0", array(UINT32, {2, 3, 4}, P)},
                               {"x1", array(UINT32, {2, 3, 4}, Q)}});
  std::vector<double> UG = values(UO["y"], UINT32);
  EXPECT_EQ(UG[0], 4000000000.0);
  EXPECT_EQ(UG[1], 4294967295.0);
}

TEST(Executor, Float16RoundsResults) {
  ElementwiseGraph E = ElementwiseGraph::make(
      CVS, FLOAT16, FLOAT16, 1, nullptr, nullptr, [](GraphBuilder &GB, int64_t C) {
        GB.setAttrFloat(C, CONST_A, 1.0 / 3);
      });
  std::vector<double> A(24);
  for (int I = 0; I < 24; ++I)
    A[I] = halfToFloat(floatToHalf(float(I) * 1.7f));
  TensorMap Out = mustRun(E.G, {{"x0", array(FLOAT16, {2, 3, 4}, A)}});
  std::vector<double> Got = values(Out["y"], FLOAT16);
  for (int I = 0; I < 24; ++I)
    EXPECT_EQ(Got[I], halfToFloat(floatToHalf(float(A[I] / 3)))) << I;
}

/// x (H, W, C) -> pooling block -> y.
Graph poolGraph(BlockType T, Precision P, int64_t H, int64_t W, int64_t C,
                Window Wd, std::optional<double> Cmp) {
  GraphBuilder GB;
  int64_t X = GB.input("x", P, H, W, C);
  int64_t Y = T == CCMPS || T == CCMPB ? GB.maxPool(X, Wd, "pool")
                                        : GB.sumPool(X, Wd, "pool");
  int64_t Blk = Y - 1;
  GB.block(Blk).set_type(T);
  if (Cmp)
    GB.setAttr(Blk, CMP, int64_t(*Cmp));
  GB.output(Y, "y");
  return mustCreate(GB.take());
}

TEST(Executor, PoolingWindows) {
  const int64_t H = 6, W = 5, C = 2;
  std::vector<double> In = randomInts(H * W * C, -50, 50, 15);
  Image Img{H, W, C, In};
  for (BlockType T : {CCMPB, CCMPS, CAVG}) {
    Window Wd{3, 2, 1, 1};
    Graph G = poolGraph(T, INT16, H, W, C, Wd, std::nullopt);
    TensorMap Out = mustRun(G, {{"x", array(INT16, {H, W, C}, In)}});
    int64_t OH = (H + 2 - 3) / 2 + 1, OW = (W + 2 - 3) / 2 + 1;
    std::vector<double> Got = values(Out["y"], INT16);
    ASSERT_EQ(Got.size(), size_t(OH * OW * C));
    for (int64_t Y = 0; Y < OH; ++Y)
      for (int64_t X = 0; X < OW; ++X)
        for (int64_t F = 0; F < C; ++F) {
          double Best = T == CCMPB ? -32768 : 32767, Sum = 0;
          for (int64_t A = 0; A < 3; ++A)
            for (int64_t B = 0; B < 3; ++B) {
              int64_t IY = Y * 2 - 1 + A, IX = X * 2 - 1 + B;
              if (IY < 0 || IX < 0 || IY >= H || IX >= W)
                continue; // padding: skipped by max/min, zero for sums
              double V = Img.at(IY, IX, F);
              Best = T == CCMPB ? std::max(Best, V) : std::min(Best, V);
              Sum += V;
            }
          EXPECT_EQ(Got[(Y * OW + X) * C + F], T == CAVG ? Sum : Best)
              << blockTypeName(T) << " at " << Y << "," << X << "," << F;
        }
  }
}

TEST(Executor, CompareInitialValueActsAsReluClamp) {
  // CCMPB with CMP = 0 and a 1x1 window is max(x, 0).
  std::vector<double> In = randomInts(12, -9, 9, 16);
  Graph G = poolGraph(CCMPB, INT8, 2, 3, 2, Window{1, 1, 0, 1}, 0.0);
  TensorMap Out = mustRun(G, {{"x", array(INT8, {2, 3, 2}, In)}});
  std::vector<double> Got = values(Out["y"], INT8);
  for (int I = 0; I < 12; ++I)
    EXPECT_EQ(Got[I], std::max(In[I], 0.0));
  // CCMPS with CMP = 5 is min(x, 5).
  Graph G2 = poolGraph(CCMPS, INT8, 2, 3, 2, Window{1, 1, 0, 1}, 5.0);
  Out = mustRun(G2, {{"x", array(INT8, {2, 3, 2}, In)}});
  Got = values(Out["y"], INT8);
  for (int I = 0; I < 12; ++I)
    EXPECT_EQ(Got[I], std::min(In[I], 5.0));
}

TEST(Executor, LookupTableIndexedByInputValue) {
  GraphBuilder GB;
  Dims D{{DY, 1}, {DX, 4}, {DF, 8}};
  int64_t X = GB.addBlock(SI, INT8, D, "x");
  int64_t C = GB.addBlock(CLUT, INT16, D, "lut");
  std::vector<double> Table(256);
  for (int V = -128; V < 128; ++V)
    Table[V + 128] = V * V - 100; // an arbitrary function of the input
  GB.setParam(C, Param::values(INT16, Table));
  GB.connect(X, C);
  int64_t O = GB.addBlock(SO, INT16, D, "y");
  GB.connect(C, O);
  Graph G = mustCreate(GB.take());
  std::vector<double> In = randomInts(32, -128, 127, 17);
  In[0] = -128;
  In[1] = 127;
  TensorMap Out = mustRun(G, {{"x", array(INT8, {1, 4, 8}, In)}});
  std::vector<double> Got = values(Out["y"], INT16);
  for (int I = 0; I < 32; ++I)
    EXPECT_EQ(Got[I], In[I] * In[I] - 100);
}

TEST(Executor, LifIntegratesFiresAndResetsOverTime) {
  // One neuron per input; T = 6 steps with constant and varying currents.
  GraphBuilder GB;
  int64_t X = GB.input("i", INT32, 1, 1, 3);
  GraphBuilder::LifParams P;
  P.Threshold = 10;
  P.Reset = 0;
  P.Leak = 1;
  P.Decay = 0.5;
  int64_t S = GB.lif(X, P, UINT8, "lif");
  GB.output(S, "s");
  Graph G = mustCreate(GB.take());
  const int T = 6;
  std::vector<double> In;
  for (int t = 0; t < T; ++t)
    for (double V : {6.0, 12.0, double(3 * t)})
      In.push_back(V);
  RunOptions O;
  O.TimeSteps = T;
  TensorMap Out = mustRun(G, {{"i", array(INT32, {T, 1, 1, 3}, In)}}, O);
  EXPECT_EQ(Out["s"].shape, (std::vector<int64_t>{T, 1, 1, 3}));
  std::vector<double> Got = values(Out["s"], UINT8);
  // Independent simulation of the documented update.
  double V[3] = {0, 0, 0};
  for (int t = 0; t < T; ++t)
    for (int N = 0; N < 3; ++N) {
      double X = std::floor(0.5 * V[N] + In[t * 3 + N] - 1);
      bool Fire = X >= 10;
      V[N] = Fire ? 0 : X;
      EXPECT_EQ(Got[t * 3 + N], Fire ? 1 : 0) << "t=" << t << " n=" << N;
    }
  // Neuron 1 (12 per step) fires every step; neuron 0 (6 per step) never
  // reaches 10 with decay 0.5 (fixed point 10 - 1 - ... stays below).
  EXPECT_EQ(Got[1], 1);
  // Soft reset keeps the excess: with threshold 10, input 15, no leak:
  GraphBuilder GB2;
  int64_t X2 = GB2.input("i", INT32, 1, 1, 1);
  GraphBuilder::LifParams P2;
  P2.Threshold = 10;
  P2.SoftReset = true;
  GB2.output(GB2.lif(X2, P2, UINT8, "lif"), "s");
  Graph G2 = mustCreate(GB2.take());
  O.TimeSteps = 4;
  TensorMap Out2 = mustRun(G2, {{"i", array(INT32, {1, 1, 1}, {15})}}, O);
  // V: 15 -> fire, 5; 20 -> fire, 10; 25 -> fire, 15; 30 -> fire, 20.
  EXPECT_EQ(values(Out2["s"], UINT8), (std::vector<double>{1, 1, 1, 1}));
  TensorMap Out3 = mustRun(G2, {{"i", array(INT32, {1, 1, 1}, {6})}}, O);
  // 6 -> 12 fire (2) -> 8 -> 14 fire (4).
  EXPECT_EQ(values(Out3["s"], UINT8), (std::vector<double>{0, 1, 0, 1}));
}

TEST(Executor, ConcatenationThroughInterfaces) {
  // Two (2, 2, 1) inputs written side by side into one (2, 4, 1) SI, the
  // second one reflected left-right on its edge.
  GraphBuilder GB;
  Dims Half{{DY, 2}, {DX, 2}, {DF, 1}}, Full{{DY, 2}, {DX, 4}, {DF, 1}};
  int64_t A = GB.addBlock(SI, INT8, Half, "a");
  int64_t B = GB.addBlock(SI, INT8, Half, "b");
  int64_t Cat = GB.addBlock(SI, INT8, Full, "cat");
  Dims Z{{DY, 0}, {DX, 0}, {DF, 0}}, Right{{DY, 0}, {DX, 2}, {DF, 0}};
  GB.connectBox(A, Z, Half, Cat, 0, Full, Z, Half);
  GB.connectBox(B, Z, Half, Cat, 0, Full, Right, Half,
                {makeRearrange(REFLECT, {1})});
  GB.output(Cat, "y");
  Graph G = mustCreate(GB.take());
  TensorMap Out = mustRun(G, {{"a", array(INT8, {2, 2, 1}, {1, 2, 3, 4})},
                              {"b", array(INT8, {2, 2, 1}, {5, 6, 7, 8})}});
  EXPECT_EQ(values(Out["y"], INT8),
            (std::vector<double>{1, 2, 6, 5, 3, 4, 8, 7}));
}

TEST(Executor, InputErrorsAreClear) {
  GraphBuilder GB;
  GB.output(GB.input("x", INT8, 2, 2, 1), "y");
  Graph G = mustCreate(GB.take());
  auto Err = [&](const TensorMap &In) {
    llvm::Expected<TensorMap> R = runGraph(G, In);
    return R ? std::string() : llvm::toString(R.takeError());
  };
  EXPECT_NE(Err({}).find("input 'x'"), std::string::npos);
  EXPECT_NE(Err({{"x", array(INT8, {2, 2}, {1, 2, 3, 4})}}).find("does not match"),
            std::string::npos);
  EXPECT_NE(Err({{"x", array(INT16, {2, 2, 1}, {1, 2, 3, 4})}})
                .find("expected a i8 array"),
            std::string::npos);
  EXPECT_NE(Err({{"x", array(INT8, {2, 2, 1}, {1, 2, 3, 4})},
                 {"z", array(INT8, {1}, {1})}})
                .find("no input block"),
            std::string::npos);
}

TEST(Executor, WeightInitIsDeterministic) {
  GraphBuilder GB;
  int64_t X = GB.input("x", FLOAT32, 3, 3, 2);
  GB.output(GB.conv2d(X, 2, Window{3, 1, 0, 1},
                      Param::uniform(FLOAT32, 42, 0.5), std::nullopt, FLOAT32,
                      "c"),
            "y");
  TaskGraph P = GB.take();
  // The same graph with the weights materialised as data.
  TaskGraph Q = P;
  for (TaskBlock &B : *Q.mutable_blocks())
    if (B.has_init()) {
      std::vector<double> V = materializeInit(B.init(), B.precision(),
                                              blockDims(B).volume());
      B.clear_init();
      for (double X : V)
        B.mutable_data()->add_float_data(float(X));
      // The documented generator: element 0 of seed 42.
      EXPECT_EQ(V[0], double(float(0.5 * (2 * initUniform01(42, 0) - 1))));
    }
  std::vector<double> In = randomReals(18, 18);
  Graph GP = mustCreate(P), GQ = mustCreate(Q);
  TensorMap A = mustRun(GP, {{"x", array(FLOAT32, {3, 3, 2}, In)}});
  TensorMap B = mustRun(GQ, {{"x", array(FLOAT32, {3, 3, 2}, In)}});
  EXPECT_EQ(A["y"].data, B["y"].data);
}

} // namespace
