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

static Dims orZero(const Interface &i, const Dims &c) {
  Dims d = Dims::fromProto(i.position());
  if (!i.has_position())
    for (unsigned k = 0; k < NumDims; ++k)
      if (c.has(k))
        d[k] = 0;
  return d;
}

static Dims orWhole(const Interface &i, const Dims &c) {
  return i.has_size() ? Dims::fromProto(i.size()) : c;
}

Expected<Graph> Graph::create(TaskGraph tg) {
  if (Error e = validateGraph(tg))
    return std::move(e);
  Graph g;
  auto owned = std::make_shared<TaskGraph>(std::move(tg));
  g.P = owned;
  const TaskGraph &pg = *g.P;
  for (int i = 0; i < pg.blocks_size(); ++i)
    g.BlockIdx[pg.blocks(i).id()] = i;
  for (int i = 0; i < pg.edges_size(); ++i)
    g.EdgeIdx[pg.edges(i).id()] = i;
  for (const TaskBlock &b : pg.blocks()) {
    for (int c = 0; c < b.input_clusters_size(); ++c) {
      const EdgeCluster &ec = b.input_clusters(c);
      Dims cd = Dims::fromProto(ec.shape());
      for (int k = 0; k < ec.interfaces_size(); ++k) {
        const Interface &iface = ec.interfaces(k);
        g.Dst[iface.edge_id()] = {b.id(), c, k, orZero(iface, cd),
                                  orWhole(iface, cd)};
        g.In[b.id()].push_back(iface.edge_id());
      }
    }
    for (int c = 0; c < b.output_clusters_size(); ++c) {
      const EdgeCluster &ec = b.output_clusters(c);
      Dims cd = Dims::fromProto(ec.shape());
      for (int k = 0; k < ec.interfaces_size(); ++k) {
        const Interface &iface = ec.interfaces(k);
        g.Src[iface.edge_id()] = {b.id(), c, k, orZero(iface, cd),
                                  orWhole(iface, cd)};
        g.Out[b.id()].push_back(iface.edge_id());
      }
    }
  }
  // Kahn's algorithm, always taking the ready block that comes first in the
  // file so the order is stable.
  std::map<int64_t, int> inDeg;
  for (const TaskBlock &b : pg.blocks())
    inDeg[b.id()] = 0;
  for (const Edge &e : pg.edges())
    ++inDeg[e.destination()];
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (const TaskBlock &b : pg.blocks())
    if (inDeg[b.id()] == 0)
      ready.push(g.BlockIdx[b.id()]);
  while (!ready.empty()) {
    int64_t id = pg.blocks(ready.top()).id();
    ready.pop();
    g.Order.push_back(id);
    for (int64_t e : g.outEdges(id)) {
      int64_t d = pg.edges(g.EdgeIdx[e]).destination();
      if (--inDeg[d] == 0)
        ready.push(g.BlockIdx[d]);
    }
  }
  assert(g.Order.size() == size_t(pg.blocks_size()) &&
         "validation admitted a cyclic graph");
  for (const TaskBlock &b : pg.blocks()) {
    BlockType t = b.type();
    bool fed = !g.inEdges(b.id()).empty();
    std::optional<BlockKind> k = blockKind(t);
    if (!fed && k && blockRole(*k) == BlockRole::Tensor)
      g.Inputs.push_back(b.id());
    if (t == SO)
      g.Outputs.push_back(b.id());
  }
  return g;
}

Expected<Graph> Graph::load(StringRef path) {
  Expected<TaskGraph> tg = readGraphFile(path);
  if (!tg)
    return tg.takeError();
  Expected<Graph> g = create(std::move(*tg));
  if (!g)
    return createStringError(inconvertibleErrorCode(),
                             path.str() +
                                 ": invalid graph: " + toString(g.takeError()));
  return g;
}

const TaskBlock &Graph::block(int64_t id) const {
  auto it = BlockIdx.find(id);
  assert(it != BlockIdx.end() && "no block with this id");
  return P->blocks(it->second);
}

const Edge &Graph::edge(int64_t id) const {
  auto it = EdgeIdx.find(id);
  assert(it != EdgeIdx.end() && "no edge with this id");
  return P->edges(it->second);
}

const std::vector<int64_t> &Graph::inEdges(int64_t id) const {
  auto it = In.find(id);
  return it == In.end() ? NoEdges : it->second;
}

const std::vector<int64_t> &Graph::outEdges(int64_t id) const {
  auto it = Out.find(id);
  return it == Out.end() ? NoEdges : it->second;
}

std::string Graph::ioName(const TaskBlock &b) {
  return b.name().empty() ? std::to_string(b.id()) : b.name();
}

const TaskBlock *Graph::findBlock(StringRef nameOrId) const {
  for (const TaskBlock &b : P->blocks())
    if (b.name() == nameOrId)
      return &b;
  int64_t id;
  if (!nameOrId.getAsInteger(10, id) && hasBlock(id))
    return &block(id);
  return nullptr;
}

Graph::Operands Graph::operands(int64_t id) const {
  const TaskBlock &b = block(id);
  Operands ops;
  std::vector<InputRole> roles = inputRoles(b);
  ops.ClusterSources.resize(b.input_clusters_size());
  for (int64_t e : inEdges(id)) {
    const End &d = Dst.at(e);
    int64_t s = edge(e).source();
    ops.ClusterSources[d.Cluster].push_back(s);
    if (d.Cluster >= int(roles.size()))
      continue;
    switch (roles[d.Cluster]) {
    case InputRole::Data:
      ops.Data.push_back(s);
      break;
    case InputRole::Weight:
      ops.Weight = s;
      break;
    case InputRole::Alpha:
      ops.Alpha = s;
      break;
    case InputRole::Bias:
      ops.Bias = s;
      break;
    }
  }
  return ops;
}

Precision Graph::inputPrecision(int64_t id, int c) const {
  for (int64_t e : inEdges(id))
    if (Dst.at(e).Cluster == c)
      return block(edge(e).source()).precision();
  return PRECISION_UNSPECIFIED;
}

} // namespace bangc::graph
