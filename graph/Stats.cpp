//===- Stats.cpp - Parameters, operations and storage of a graph ---------===//
#include "graph/Stats.h"

#include "graph/BlockKind.h"
#include "graph/Precision.h"

#include <fmt/format.h>

using namespace bangc::taskir;

namespace bangc::graph {

/// Parameter elements: a parameter block's shape, or the data another kind
/// carries (CLUT's table).
static int64_t paramElements(const TaskBlock &b) {
  BlockKind k = kindOf(b);
  if (blockRole(k) == BlockRole::Param)
    return blockDims(b).volume();
  if (carriesData(k))
    return b.data().int32_data_size() + b.data().uint32_data_size() +
           b.data().float_data_size();
  return 0;
}

static BlockStats blockStats(const Graph &g, const TaskBlock &b) {
  BlockStats s;
  s.Id = b.id();
  s.Name = b.name();
  s.Type = b.type();
  Dims d = blockDims(b);
  if (isStorageBlock(b.type())) {
    s.Params = paramElements(b);
    s.StorageBytes = (d.volume() * precisionBits(b.precision()) + 7) / 8;
    return s;
  }
  s.Params = paramElements(b);
  for (const std::vector<int64_t> &srcs : g.operands(b.id()).ClusterSources)
    for (int64_t src : srcs)
      s.Params += paramElements(g.block(src));
  int64_t out = d.has(DY) ? d[DY] * d[DX] * d[DF] : d[DF];
  int64_t window = d.has(DKY) ? d[DKY] * d[DKX] : 1;
  switch (countRule(kindOf(b))) {
  case CountRule::ConvMacs:
    s.MACs = out * d[DR] * window;
    break;
  case CountRule::MatVecMacs:
    s.MACs = d[DF] * d[DR];
    break;
  case CountRule::OutputMacs:
    s.MACs = out;
    break;
  case CountRule::SumOps:
    s.Ops = out * std::max<int64_t>(b.input_clusters_size() - 1, 0);
    break;
  case CountRule::WindowOps:
    s.Ops = out * window;
    break;
  case CountRule::OutputOps:
    s.Ops = out;
    break;
  case CountRule::None:
    break;
  }
  return s;
}

GraphStats computeStats(const Graph &g) {
  GraphStats r;
  for (int64_t id : g.topologicalOrder()) {
    const TaskBlock &b = g.block(id);
    BlockStats s = blockStats(g, b);
    // Totals count each parameter once: at its storage block (or table).
    if (isStorageBlock(b.type()) || carriesData(kindOf(b)))
      r.Params += paramElements(b);
    r.MACs += s.MACs;
    r.Ops += s.Ops;
    r.StorageBytes += s.StorageBytes;
    r.Blocks.push_back(std::move(s));
  }
  return r;
}

std::string formatStats(const GraphStats &s) {
  std::string out =
      fmt::format("{:>6} {:<6} {:<24} {:>12} {:>14} {:>12} {:>12}\n", "id",
                  "type", "name", "params", "MACs", "ops", "bytes");
  for (const BlockStats &b : s.Blocks)
    out += fmt::format("{:>6} {:<6} {:<24} {:>12} {:>14} {:>12} {:>12}\n", b.Id,
                       blockTypeName(b.Type), b.Name, b.Params, b.MACs, b.Ops,
                       b.StorageBytes);
  out += fmt::format("total: {} blocks, {} params, {} MACs, {} other ops, {} "
                     "storage bytes\n",
                     s.Blocks.size(), s.Params, s.MACs, s.Ops, s.StorageBytes);
  return out;
}

} // namespace bangc::graph
