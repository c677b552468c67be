//===- Graph.cpp - A validated Task IR graph in memory -------------------===//
#include "graph/Graph.h"

#include "graph/GraphIO.h"
#include "graph/Precision.h"
#include "graph/Validate.h"

#include <cassert>
#include <queue>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

const std::vector<int64_t> Graph::NoEdges;

static Dims orZero(const Interface &I, const Dims &C) {
  Dims D = Dims::fromProto(I.position());
  if (!I.has_position())
    for (unsigned K = 0; K < NumDims; ++K)
      if (C.has(K))
        D[K] = 0;
  return D;
}

static Dims orWhole(const Interface &I, const Dims &C) {
  return I.has_size() ? Dims::fromProto(I.size()) : C;
}

Expected<Graph> Graph::create(TaskGraph TG) {
  if (Error E = validateGraph(TG))
    return std::move(E);
  Graph G;
  auto Owned = std::make_shared<TaskGraph>(std::move(TG));
  G.P = Owned;
  const TaskGraph &PG = *G.P;
  for (int I = 0; I < PG.blocks_size(); ++I)
    G.BlockIdx[PG.blocks(I).id()] = I;
  for (int I = 0; I < PG.edges_size(); ++I)
    G.EdgeIdx[PG.edges(I).id()] = I;
  for (const TaskBlock &B : PG.blocks()) {
    for (int C = 0; C < B.input_clusters_size(); ++C) {
      const EdgeCluster &EC = B.input_clusters(C);
      Dims CD = Dims::fromProto(EC.shape());
      for (int K = 0; K < EC.interfaces_size(); ++K) {
        const Interface &If = EC.interfaces(K);
        G.Dst[If.edge_id()] = {B.id(), C, K, orZero(If, CD), orWhole(If, CD)};
        G.In[B.id()].push_back(If.edge_id());
      }
    }
    for (int C = 0; C < B.output_clusters_size(); ++C) {
      const EdgeCluster &EC = B.output_clusters(C);
      Dims CD = Dims::fromProto(EC.shape());
      for (int K = 0; K < EC.interfaces_size(); ++K) {
        const Interface &If = EC.interfaces(K);
        G.Src[If.edge_id()] = {B.id(), C, K, orZero(If, CD), orWhole(If, CD)};
        G.Out[B.id()].push_back(If.edge_id());
      }
    }
  }
  // Kahn's algorithm, always taking the ready block that comes first in the
  // file so the order is stable.
  std::map<int64_t, int> InDeg;
  for (const TaskBlock &B : PG.blocks())
    InDeg[B.id()] = 0;
  for (const Edge &E : PG.edges())
    ++InDeg[E.destination()];
  std::priority_queue<int, std::vector<int>, std::greater<int>> Ready;
  for (const TaskBlock &B : PG.blocks())
    if (InDeg[B.id()] == 0)
      Ready.push(G.BlockIdx[B.id()]);
  while (!Ready.empty()) {
    int64_t Id = PG.blocks(Ready.top()).id();
    Ready.pop();
    G.Order.push_back(Id);
    for (int64_t E : G.outEdges(Id)) {
      int64_t D = PG.edges(G.EdgeIdx[E]).destination();
      if (--InDeg[D] == 0)
        Ready.push(G.BlockIdx[D]);
    }
  }
  assert(G.Order.size() == size_t(PG.blocks_size()) &&
         "validation admitted a cyclic graph");
  for (const TaskBlock &B : PG.blocks()) {
    BlockType T = B.type();
    bool Fed = !G.inEdges(B.id()).empty();
    std::optional<BlockKind> K = blockKind(T);
    if (!Fed && K && blockRole(*K) == BlockRole::Tensor)
      G.Inputs.push_back(B.id());
    if (T == SO)
      G.Outputs.push_back(B.id());
  }
  return G;
}

Expected<Graph> Graph::load(StringRef Path) {
  Expected<TaskGraph> TG = readGraphFile(Path);
  if (!TG)
    return TG.takeError();
  Expected<Graph> G = create(std::move(*TG));
  if (!G)
    return createStringError(inconvertibleErrorCode(),
                             Path.str() + ": invalid graph: " +
                                 toString(G.takeError()));
  return G;
}

const TaskBlock &Graph::block(int64_t Id) const {
  auto It = BlockIdx.find(Id);
  assert(It != BlockIdx.end() && "no block with this id");
  return P->blocks(It->second);
}

const Edge &Graph::edge(int64_t Id) const {
  auto It = EdgeIdx.find(Id);
  assert(It != EdgeIdx.end() && "no edge with this id");
  return P->edges(It->second);
}

const std::vector<int64_t> &Graph::inEdges(int64_t Id) const {
  auto It = In.find(Id);
  return It == In.end() ? NoEdges : It->second;
}

const std::vector<int64_t> &Graph::outEdges(int64_t Id) const {
  auto It = Out.find(Id);
  return It == Out.end() ? NoEdges : It->second;
}

std::string Graph::ioName(const TaskBlock &B) {
  return B.name().empty() ? std::to_string(B.id()) : B.name();
}

const TaskBlock *Graph::findBlock(StringRef NameOrId) const {
  for (const TaskBlock &B : P->blocks())
    if (B.name() == NameOrId)
      return &B;
  int64_t Id;
  if (!NameOrId.getAsInteger(10, Id) && hasBlock(Id))
    return &block(Id);
  return nullptr;
}

Graph::Operands Graph::operands(int64_t Id) const {
  const TaskBlock &B = block(Id);
  Operands Ops;
  std::vector<InputRole> Roles = inputRoles(B);
  Ops.ClusterSources.resize(B.input_clusters_size());
  for (int64_t E : inEdges(Id)) {
    const End &D = Dst.at(E);
    int64_t S = edge(E).source();
    Ops.ClusterSources[D.Cluster].push_back(S);
    if (D.Cluster >= int(Roles.size()))
      continue;
    switch (Roles[D.Cluster]) {
    case InputRole::Data:
      Ops.Data.push_back(S);
      break;
    case InputRole::Weight:
      Ops.Weight = S;
      break;
    case InputRole::Alpha:
      Ops.Alpha = S;
      break;
    case InputRole::Bias:
      Ops.Bias = S;
      break;
    }
  }
  return Ops;
}

Precision Graph::inputPrecision(int64_t Id, int C) const {
  for (int64_t E : inEdges(Id))
    if (Dst.at(E).Cluster == C)
      return block(edge(E).source()).precision();
  return PRECISION_UNSPECIFIED;
}

} // namespace bangc::graph
