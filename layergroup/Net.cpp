//===- Net.cpp - The layer view of a Task IR graph ------------------------===//
#include "layergroup/Net.h"

#include "graph/BlockInfo.h"
#include "graph/Graph.h"
#include "graph/WeightInit.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>

using namespace llvm;
using namespace bangc::graph;
namespace tir = bangc::taskir;

namespace bangc::lg {

const char *opKindName(OpKind K) {
  switch (K) {
  case OpKind::Conv: return "conv";
  case OpKind::MaxPool: return "maxpool";
  case OpKind::MinPool: return "minpool";
  case OpKind::SumPool: return "sumpool";
  case OpKind::Relu: return "relu";
  case OpKind::Clamp: return "clamp";
  case OpKind::Add: return "add";
  case OpKind::Scale: return "scale";
  }
  return "?";
}

int Net::addInput(std::string N, int64_t C, int64_t H, int64_t W) {
  Tensor T;
  T.Name = N;
  T.InputName = N;
  T.C = C, T.H = H, T.W = W;
  Tensors.push_back(T);
  return int(Tensors.size()) - 1;
}

int Net::addLayer(Layer L, std::vector<int> Ins, int64_t C, int64_t H,
                  int64_t W) {
  int Idx = int(Layers.size());
  Tensor T;
  T.Name = L.Name.empty() ? fmt::format("t{}", Tensors.size()) : L.Name;
  T.C = C, T.H = H, T.W = W;
  T.Producer = Idx;
  Tensors.push_back(T);
  L.Inputs = Ins;
  L.Output = int(Tensors.size()) - 1;
  if (L.Name.empty())
    L.Name = fmt::format("{}{}", opKindName(L.Kind), Idx);
  for (int I : Ins)
    Tensors[I].Consumers.push_back(Idx);
  Layers.push_back(std::move(L));
  return Idx;
}

void Net::markOutput(int T, std::string N) {
  Tensors[T].OutputNames.push_back(std::move(N));
}

static int64_t outSize(int64_t In, int64_t K, int64_t S, int64_t P0,
                       int64_t P1) {
  return (In + P0 + P1 - K) / S + 1;
}

int Net::conv(int In, int64_t F, int64_t K, int64_t S, int64_t P,
              std::string N, uint32_t Seed) {
  const Tensor &T = Tensors[In];
  Layer L;
  L.Kind = OpKind::Conv;
  L.Name = N;
  L.KY = L.KX = K, L.SY = L.SX = S, L.PU = L.PD = L.PL = L.PR = P;
  int64_t C = T.C;
  L.Weight.resize(F * C * K * K);
  uint64_t X = Seed * 2654435761u + 1;
  for (float &V : L.Weight) {
    X = X * 6364136223846793005ull + 1442695040888963407ull;
    V = float(double(X >> 11) / double(1ull << 53) - 0.5) * 0.2f;
  }
  L.Bias.resize(F);
  for (int64_t I = 0; I < F; ++I)
    L.Bias[I] = 0.01f * float(I % 7);
  int64_t OH = outSize(T.H, K, S, P, P), OW = outSize(T.W, K, S, P, P);
  return Layers[addLayer(std::move(L), {In}, F, OH, OW)].Output;
}

int Net::maxPool(int In, int64_t K, int64_t S, int64_t P, std::string N) {
  const Tensor &T = Tensors[In];
  Layer L;
  L.Kind = OpKind::MaxPool;
  L.Name = N;
  L.KY = L.KX = K, L.SY = L.SX = S, L.PU = L.PD = L.PL = L.PR = P;
  L.Cmp = -std::numeric_limits<double>::infinity();
  int64_t C = T.C, OH = outSize(T.H, K, S, P, P), OW = outSize(T.W, K, S, P, P);
  return Layers[addLayer(std::move(L), {In}, C, OH, OW)].Output;
}

int Net::relu(int In, std::string N) {
  const Tensor &T = Tensors[In];
  Layer L;
  L.Kind = OpKind::Relu;
  L.Name = N;
  int64_t C = T.C, H = T.H, W = T.W;
  return Layers[addLayer(std::move(L), {In}, C, H, W)].Output;
}

int Net::clamp(int In, double Cmp, bool Max, std::string N) {
  const Tensor &T = Tensors[In];
  Layer L;
  L.Kind = OpKind::Clamp;
  L.Name = N;
  L.Cmp = Cmp;
  L.ClampMax = Max;
  int64_t C = T.C, H = T.H, W = T.W;
  return Layers[addLayer(std::move(L), {In}, C, H, W)].Output;
}

int Net::add(int A, int B, std::string N) {
  const Tensor &T = Tensors[A];
  Layer L;
  L.Kind = OpKind::Add;
  L.Name = N;
  int64_t C = T.C, H = T.H, W = T.W;
  return Layers[addLayer(std::move(L), {A, B}, C, H, W)].Output;
}

int64_t Net::macs(int I) const {
  const Layer &L = Layers[I];
  const Tensor &O = Tensors[L.Output];
  if (L.Kind == OpKind::Conv)
    return O.elements() * Tensors[L.Inputs[0]].C * L.KY * L.KX;
  if (L.windowed())
    return O.elements() * L.KY * L.KX;
  return O.elements() * int64_t(L.Inputs.size());
}

std::vector<int> Net::inputs() const {
  std::vector<int> R;
  for (size_t I = 0; I < Tensors.size(); ++I)
    if (Tensors[I].Producer < 0)
      R.push_back(int(I));
  return R;
}

std::vector<int> Net::outputs() const {
  std::vector<int> R;
  for (size_t I = 0; I < Tensors.size(); ++I)
    if (Tensors[I].isOutput())
      R.push_back(int(I));
  return R;
}

// --- From a Task IR graph ---------------------------------------------------

static Error unsupported(const tir::TaskBlock &B, const std::string &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "layer group: " + describeBlock(B) +
                               ": not supported: " + Why);
}

static bool plainEdge(const Graph &G, int64_t E) {
  const tir::Edge &Ed = G.edge(E);
  for (const tir::Rearrange &R : Ed.rearranges())
    if (R.type() != tir::IDENTITY)
      return false;
  const Graph::End &S = G.sourceEnd(E);
  const Graph::End &D = G.destinationEnd(E);
  for (unsigned I = 0; I < NumDims; ++I)
    if ((S.Position.has(I) && S.Position[I] != 0) ||
        (D.Position.has(I) && D.Position[I] != 0))
      return false;
  auto isStorage = [](const taskir::TaskBlock &B) {
    switch (B.type()) {
    case taskir::SI: case taskir::SIC: case taskir::SIC2D: case taskir::SIFC:
    case taskir::SW: case taskir::SWFC: case taskir::SB: case taskir::SO:
      return true;
    default:
      return false;
    }
  };
  const taskir::TaskBlock &SB = G.block(S.Block);
  const taskir::TaskBlock &DB = G.block(D.Block);
  int64_t Whole = isStorage(SB) ? blockDims(SB).volume()
                                : blockDims(DB).volume();
  return S.Size.volume() == Whole && D.Size.volume() == Whole;
}

static Expected<std::vector<float>> floats(const tir::TaskBlock &B) {
  Expected<std::vector<double>> V = blockValues(B);
  if (!V)
    return V.takeError();
  return std::vector<float>(V->begin(), V->end());
}

Expected<Net> buildNet(const Graph &G) {
  Net N;
  std::map<int64_t, int> StorageTensor; // storage block -> tensor
  std::map<int64_t, int> ComputeTensor; // compute block -> output tensor
  for (int64_t Id : G.topologicalOrder()) {
    const tir::TaskBlock &B = G.block(Id);
    tir::BlockType T = B.type();
    Dims D = blockDims(B);
    auto dim = [&](Dim X, int64_t Def) { return D.has(X) ? D[X] : Def; };
    switch (T) {
    case tir::SW:
    case tir::SWFC:
    case tir::SB:
      continue;
    case tir::SI:
    case tir::SIC:
    case tir::SIC2D:
    case tir::SO: {
      if (B.precision() != tir::FLOAT32)
        return unsupported(B, "precision (FLOAT32 only)");
      const auto &In = G.inEdges(Id);
      if (In.empty()) {
        if (T == tir::SO)
          return unsupported(B, "SO without input");
        int64_t C = T == tir::SI ? dim(DF, 1) : dim(DR, 1);
        StorageTensor[Id] =
            N.addInput(Graph::ioName(B), C, dim(DY, 1), dim(DX, 1));
        continue;
      }
      if (In.size() != 1 || !plainEdge(G, In[0]))
        return unsupported(B, "edges with rearrangements or sub-boxes");
      int64_t Src = G.sourceEnd(In[0]).Block;
      int Tn;
      if (ComputeTensor.count(Src))
        Tn = ComputeTensor[Src];
      else if (StorageTensor.count(Src))
        Tn = StorageTensor[Src];
      else
        return unsupported(B, "input from an unsupported block");
      StorageTensor[Id] = Tn;
      if (T == tir::SO)
        N.markOutput(Tn, Graph::ioName(B));
      continue;
    }
    default:
      break;
    }
    // A compute block.
    if (B.precision() != tir::FLOAT32)
      return unsupported(B, "precision (FLOAT32 only)");
    Graph::Operands Ops = G.operands(Id);
    Layer L;
    L.Name = B.name().empty() ? fmt::format("b{}", Id) : B.name();
    L.BlockId = Id;
    KernelParams KP;
    if (hasWindow(T)) {
      KP = kernelParams(B);
      L.KY = KP.KY, L.KX = KP.KX, L.SY = KP.SY, L.SX = KP.SX;
      L.PU = KP.PadUp, L.PD = KP.PadDown, L.PL = KP.PadLeft,
      L.PR = KP.PadRight, L.DY = KP.DY, L.DX = KP.DX;
    }
    switch (T) {
    case tir::CC:
    case tir::CC2D:
      L.Kind = OpKind::Conv;
      break;
    case tir::CCMPB:
    case tir::CCMPS: {
      bool Max = T == tir::CCMPB;
      double Inf = std::numeric_limits<double>::infinity();
      L.Cmp = attrNumber(B, tir::CMP).value_or(Max ? -Inf : Inf);
      bool Pointwise = L.KY == 1 && L.KX == 1 && L.SY == 1 && L.SX == 1 &&
                       L.PU == 0 && L.PD == 0 && L.PL == 0 && L.PR == 0;
      L.ClampMax = Max;
      if (Pointwise)
        L.Kind = (Max && L.Cmp == 0) ? OpKind::Relu : OpKind::Clamp;
      else
        L.Kind = Max ? OpKind::MaxPool : OpKind::MinPool;
      break;
    }
    case tir::CAVG:
      L.Kind = OpKind::SumPool;
      break;
    case tir::CADD:
      L.Kind = OpKind::Add;
      break;
    case tir::CVS:
      L.Kind = OpKind::Scale;
      L.ConstA = attrNumber(B, tir::CONST_A).value_or(1.0);
      break;
    case tir::CAX:
      L.Kind = OpKind::Scale;
      break;
    default:
      return unsupported(B, "block type (LayerGroup handles CC CC2D CCMPB "
                            "CCMPS CAVG CADD CVS CAX)");
    }
    L.ConstB = attrNumber(B, tir::CONST_B).value_or(0.0);
    if (Ops.Weight) {
      auto W = floats(G.block(*Ops.Weight));
      if (!W)
        return W.takeError();
      L.Weight = std::move(*W);
    }
    if (Ops.Bias) {
      auto V = floats(G.block(*Ops.Bias));
      if (!V)
        return V.takeError();
      L.Bias = std::move(*V);
    }
    if (Ops.Alpha) {
      auto V = floats(G.block(*Ops.Alpha));
      if (!V)
        return V.takeError();
      L.Alpha = std::move(*V);
    }
    std::vector<int> Ins;
    for (int64_t S : Ops.Data) {
      if (!StorageTensor.count(S))
        return unsupported(B, "data input from an unsupported block");
      Ins.push_back(StorageTensor[S]);
    }
    for (const auto &CS : Ops.ClusterSources)
      if (CS.size() > 1)
        return unsupported(B, "concatenated input cluster");
    if (Ins.empty())
      return unsupported(B, "no data input");
    if (L.Kind != OpKind::Add && Ins.size() != 1)
      return unsupported(B, "more than one data input");
    int64_t C = dim(DF, 1), H = dim(DY, 1), W = dim(DX, 1);
    // The reference adds CONST_B when there is no SB bias.
    bool TakesBias = L.Kind == OpKind::Conv || L.Kind == OpKind::SumPool ||
                     L.Kind == OpKind::Add || L.Kind == OpKind::Scale;
    if (TakesBias && L.Bias.empty() && L.ConstB != 0)
      L.Bias.assign(size_t(C), float(L.ConstB));
    int Li = N.addLayer(std::move(L), Ins, C, H, W);
    ComputeTensor[Id] = N.Layers[Li].Output;
  }
  return N;
}

} // namespace bangc::lg
