//===- Executor.cpp - The reference engine ("Task Rabbit") ---------------===//
#include "graph/Executor.h"

#include "graph/Kernels.h"
#include "graph/Precision.h"
#include "graph/Rearrange.h"
#include "graph/WeightInit.h"

#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <cstring>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

static Error runError(const std::string &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Expected<std::vector<double>> npyToValues(const NpyArray &A, Precision P,
                                          StringRef What) {
  DType Want = precisionDType(P);
  if (A.dtype != Want)
    return runError(fmt::format("{}: expected a {} array for {} data, got {}",
                                What.str(), dtypeName(Want).str(),
                                precisionName(P), dtypeName(A.dtype).str()));
  std::vector<double> V(A.numElements());
  loadValues(A.dtype, A.data.data(), V);
  if (isIntegerPrecision(P))
    for (size_t I = 0; I < V.size(); ++I)
      if (V[I] < precisionMin(P) || V[I] > precisionMax(P))
        return runError(fmt::format("{}: element {} = {} is outside the {} "
                                    "range [{}, {}]",
                                    What.str(), I, V[I], precisionName(P),
                                    precisionMin(P), precisionMax(P)));
  return V;
}

NpyArray valuesToNpy(const std::vector<double> &V,
                     const std::vector<int64_t> &Shape, Precision P) {
  NpyArray A(precisionDType(P), Shape);
  assert(size_t(A.numElements()) == V.size() && "shape/value mismatch");
  storeValues(A.dtype, V, A.data.data());
  return A;
}

namespace {

/// Copies the sub-box [Pos, Pos+Size) of a tensor of shape \p Full (all in
/// the used dims of a Dims) to or from a dense tensor of shape Size.
void copyBox(const Dims &Full, const Dims &Pos, const Dims &Size,
             std::vector<double> &Big, std::vector<double> &Small,
             bool ToSmall) {
  std::vector<int64_t> F = Full.present(), P = Pos.present(),
                       S = Size.present();
  size_t Rank = F.size();
  std::vector<int64_t> Stride(Rank, 1);
  for (int I = int(Rank) - 2; I >= 0; --I)
    Stride[I] = Stride[I + 1] * F[I + 1];
  std::vector<int64_t> Idx(Rank, 0);
  for (size_t K = 0; K < Small.size(); ++K) {
    int64_t Off = 0;
    for (size_t D = 0; D < Rank; ++D)
      Off += (P[D] + Idx[D]) * Stride[D];
    if (ToSmall)
      Small[K] = Big[Off];
    else
      Big[Off] = Small[K];
    for (int D = int(Rank) - 1; D >= 0; --D) {
      if (++Idx[D] < S[D])
        break;
      Idx[D] = 0;
    }
  }
}

class Engine {
public:
  Engine(const Graph &G, const RunOptions &O) : G(G), O(O) {}
  Expected<TensorMap> run(const TensorMap &Inputs);

private:
  const Graph &G;
  RunOptions O;
  std::map<int64_t, std::vector<double>> Consts, State, Value, HostIn;
  std::map<int64_t, int64_t> HostFrames; // 1 or T frames per input

  Error prepareInputs(const TensorMap &Inputs);
  Error prepareConstants();
  Expected<std::vector<double>> gather(const TaskBlock &B, int Cluster);
  Error evaluate(const TaskBlock &B, int Step);
};

Error Engine::prepareInputs(const TensorMap &Inputs) {
  for (auto &[Name, A] : Inputs)
    if (!G.findBlock(Name) ||
        !is_contained(G.inputBlocks(), G.findBlock(Name)->id()))
      return runError(fmt::format("input '{}': the graph has no input block "
                                  "of that name",
                                  Name));
  for (int64_t Id : G.inputBlocks()) {
    const TaskBlock &B = G.block(Id);
    std::string Name = Graph::ioName(B);
    auto It = Inputs.find(Name);
    if (It == Inputs.end())
      return runError(fmt::format("input '{}' ({}) was not given", Name,
                                  describeBlock(B)));
    std::vector<int64_t> Shape = storageShape(B);
    std::vector<int64_t> Timed = Shape;
    Timed.insert(Timed.begin(), O.TimeSteps);
    const NpyArray &A = It->second;
    if (A.shape == Shape)
      HostFrames[Id] = 1;
    else if (O.TimeSteps > 1 && A.shape == Timed)
      HostFrames[Id] = O.TimeSteps;
    else
      return runError(fmt::format(
          "input '{}': shape {} does not match the block shape {}{}", Name,
          shapeStr(A.shape), shapeStr(Shape),
          O.TimeSteps > 1 ? " (or " + shapeStr(Timed) + " with time)" : ""));
    Expected<std::vector<double>> V =
        npyToValues(A, B.precision(), "input '" + Name + "'");
    if (!V)
      return V.takeError();
    HostIn[Id] = std::move(*V);
  }
  return Error::success();
}

Error Engine::prepareConstants() {
  for (int64_t Id : G.topologicalOrder()) {
    const TaskBlock &B = G.block(Id);
    BlockType T = B.type();
    bool Carries = carriesData(kindOf(B));
    if (!Carries || (T != CLUT && !G.inEdges(Id).empty()))
      continue;
    Expected<std::vector<double>> V = blockValues(B);
    if (!V)
      return V.takeError();
    Consts[Id] = std::move(*V);
  }
  return Error::success();
}

Expected<std::vector<double>> Engine::gather(const TaskBlock &B, int Cluster) {
  const EdgeCluster &C = B.input_clusters(Cluster);
  Dims CD = Dims::fromProto(C.shape());
  std::vector<double> Out(CD.volume(), 0.0);
  for (const Interface &If : C.interfaces()) {
    int64_t EId = If.edge_id();
    const Edge &E = G.edge(EId);
    const Graph::End &S = G.sourceEnd(EId);
    const Graph::End &D = G.destinationEnd(EId);
    const TaskBlock &SB = G.block(S.Block);
    Dims SrcCluster = Dims::fromProto(SB.output_clusters(S.Cluster).shape());
    std::vector<double> Piece(S.Size.volume());
    copyBox(SrcCluster, S.Position, S.Size, Value.at(S.Block), Piece, true);
    std::vector<int64_t> Shape = S.Size.present();
    Expected<std::vector<double>> R = applyRearranges(
        E.rearranges(), Shape, std::move(Piece));
    if (!R)
      return runError(fmt::format("edge {}: {}", EId, toString(R.takeError())));
    copyBox(CD, D.Position, D.Size, Out, *R, false);
  }
  return Out;
}

Error Engine::evaluate(const TaskBlock &B, int Step) {
  int64_t Id = B.id();
  if (isStorageBlock(B.type())) {
    if (auto It = HostIn.find(Id); It != HostIn.end()) {
      size_t N = size_t(blockDims(B).volume());
      size_t Frame = HostFrames[Id] > 1 ? size_t(Step) : 0;
      Value[Id].assign(It->second.begin() + Frame * N,
                       It->second.begin() + (Frame + 1) * N);
    } else if (auto CIt = Consts.find(Id); CIt != Consts.end()) {
      Value[Id] = CIt->second;
    } else {
      // Fed by its input cluster; the buffer is the same C-order data.
      Expected<std::vector<double>> V = gather(B, 0);
      if (!V)
        return V.takeError();
      Value[Id] = std::move(*V);
    }
    return Error::success();
  }
  KernelArgs A;
  for (int C = 0; C < B.input_clusters_size(); ++C) {
    Expected<std::vector<double>> V = gather(B, C);
    if (!V)
      return V.takeError();
    A.Clusters.push_back(std::move(*V));
  }
  A.DataPrecision = G.inputPrecision(Id, 0);
  if (auto It = Consts.find(Id); It != Consts.end())
    A.Table = &It->second;
  A.State = &State[Id];
  Expected<std::vector<double>> Out = runComputeBlock(B, A);
  if (!Out)
    return Out.takeError();
  Value[Id] = std::move(*Out);
  return Error::success();
}

Expected<TensorMap> Engine::run(const TensorMap &Inputs) {
  if (O.TimeSteps < 1 || O.TimeSteps > MaxTimeSteps)
    return runError(fmt::format("time steps must be in [1, {}], got {}",
                                MaxTimeSteps, O.TimeSteps));
  // The outputs of all steps are collected (as doubles) before they are
  // written: bound them before the first step runs.
  uint64_t PerStep = 0;
  for (int64_t Id : G.outputBlocks()) {
    uint64_t N = 1;
    for (int64_t D : storageShape(G.block(Id)))
      N = D <= 0                                 ? 0
          : N <= MaxCollectedValues / uint64_t(D) ? N * uint64_t(D)
                                                  : MaxCollectedValues + 1;
    PerStep = std::min<uint64_t>(PerStep + N, MaxCollectedValues + 1);
  }
  if (PerStep > MaxCollectedValues / uint64_t(O.TimeSteps))
    return runError(fmt::format(
        "{} time steps of {} output values each exceed the limit of {} values "
        "collected in one run",
        O.TimeSteps, PerStep, MaxCollectedValues));
  if (Error E = prepareInputs(Inputs))
    return std::move(E);
  if (Error E = prepareConstants())
    return std::move(E);
  std::map<int64_t, std::vector<double>> Collected;
  for (int Step = 0; Step < O.TimeSteps; ++Step) {
    Value.clear();
    for (int64_t Id : G.topologicalOrder())
      if (Error E = evaluate(G.block(Id), Step))
        return std::move(E);
    for (int64_t Id : G.outputBlocks()) {
      std::vector<double> &V = Collected[Id];
      V.insert(V.end(), Value[Id].begin(), Value[Id].end());
    }
  }
  TensorMap Out;
  for (int64_t Id : G.outputBlocks()) {
    const TaskBlock &B = G.block(Id);
    std::vector<int64_t> Shape = storageShape(B);
    if (O.TimeSteps > 1)
      Shape.insert(Shape.begin(), O.TimeSteps);
    Out[Graph::ioName(B)] = valuesToNpy(Collected[Id], Shape, B.precision());
  }
  return Out;
}

} // namespace

Expected<TensorMap> runGraph(const Graph &G, const TensorMap &Inputs,
                             const RunOptions &Opts) {
  return Engine(G, Opts).run(Inputs);
}

} // namespace bangc::graph
