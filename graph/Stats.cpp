//===- Stats.cpp - Parameters, operations and storage of a graph ---------===//
#include "graph/Stats.h"

#include "graph/BlockKind.h"
#include "graph/Precision.h"

#include <fmt/format.h>

using namespace bangc::taskir;

namespace bangc::graph {

/// Parameter elements: a parameter block's shape, or the data another kind
/// carries (CLUT's table).
static int64_t paramElements(const TaskBlock &B) {
  BlockKind K = kindOf(B);
  if (blockRole(K) == BlockRole::Param)
    return blockDims(B).volume();
  if (carriesData(K))
    return B.data().int32_data_size() + B.data().uint32_data_size() +
           B.data().float_data_size();
  return 0;
}

static BlockStats blockStats(const Graph &G, const TaskBlock &B) {
  BlockStats S;
  S.Id = B.id();
  S.Name = B.name();
  S.Type = B.type();
  Dims D = blockDims(B);
  if (isStorageBlock(B.type())) {
    S.Params = paramElements(B);
    S.StorageBytes = (D.volume() * precisionBits(B.precision()) + 7) / 8;
    return S;
  }
  S.Params = paramElements(B);
  for (const std::vector<int64_t> &Srcs : G.operands(B.id()).ClusterSources)
    for (int64_t Src : Srcs)
      S.Params += paramElements(G.block(Src));
  int64_t Out = D.has(DY) ? D[DY] * D[DX] * D[DF] : D[DF];
  int64_t Window = D.has(DKY) ? D[DKY] * D[DKX] : 1;
  switch (kindOf(B)) {
  case BlockKind::CC:
  case BlockKind::CC2D:
    S.MACs = Out * D[DR] * Window;
    break;
  case BlockKind::CVM:
    S.MACs = D[DF] * D[DR];
    break;
  case BlockKind::CVVH:
  case BlockKind::CAX:
  case BlockKind::CVS:
    S.MACs = Out;
    break;
  case BlockKind::CADD:
    S.Ops = Out * std::max<int64_t>(B.input_clusters_size() - 1, 0);
    break;
  case BlockKind::CAVG:
  case BlockKind::CCMPB:
  case BlockKind::CCMPS:
    S.Ops = Out * Window;
    break;
  case BlockKind::CLUT:
  case BlockKind::CLIF:
    S.Ops = Out;
    break;
#include "graph/StorageKindCases.inc"
    break; // returned above
  }
  return S;
}

GraphStats computeStats(const Graph &G) {
  GraphStats R;
  for (int64_t Id : G.topologicalOrder()) {
    const TaskBlock &B = G.block(Id);
    BlockStats S = blockStats(G, B);
    // Totals count each parameter once: at its storage block (or table).
    if (isStorageBlock(B.type()) || carriesData(kindOf(B)))
      R.Params += paramElements(B);
    R.MACs += S.MACs;
    R.Ops += S.Ops;
    R.StorageBytes += S.StorageBytes;
    R.Blocks.push_back(std::move(S));
  }
  return R;
}

std::string formatStats(const GraphStats &S) {
  std::string Out = fmt::format("{:>6} {:<6} {:<24} {:>12} {:>14} {:>12} {:>12}\n",
                                "id", "type", "name", "params", "MACs", "ops",
                                "bytes");
  for (const BlockStats &B : S.Blocks)
    Out += fmt::format("{:>6} {:<6} {:<24} {:>12} {:>14} {:>12} {:>12}\n", B.Id,
                       blockTypeName(B.Type), B.Name, B.Params, B.MACs, B.Ops,
                       B.StorageBytes);
  Out += fmt::format("total: {} blocks, {} params, {} MACs, {} other ops, {} "
                     "storage bytes\n",
                     S.Blocks.size(), S.Params, S.MACs, S.Ops, S.StorageBytes);
  return Out;
}

} // namespace bangc::graph
