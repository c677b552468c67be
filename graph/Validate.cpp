//===- Validate.cpp - Task IR graph validation ---------------------------===//
#include "graph/Validate.h"

#include "graph/BlockInfo.h"
#include "graph/Dims.h"
#include "graph/Precision.h"
#include "graph/Rearrange.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

namespace {

constexpr int64_t MaxVolume = int64_t(1) << 28; // 256 Mi elements per tensor

/// Where an interface sits: block, input or output side, cluster, index.
struct IfaceRef {
  const TaskBlock *Block;
  bool Input;
  int Cluster;
  int Index;
};

/// Interface position and size with the conveniences applied (absent
/// position = origin, absent size = whole cluster).
struct Box {
  Dims Pos, Size;
};

class Validator {
public:
  explicit Validator(const TaskGraph &g) : G(g) {}
  std::vector<std::string> run();

private:
  const TaskGraph &G;
  std::vector<std::string> Errors;
  std::map<int64_t, const TaskBlock *> Blocks;
  std::map<int64_t, const Edge *> Edges;
  /// Blocks whose type, precision and shape are sound; later checks that
  /// depend on them run only for these, avoiding cascades.
  std::set<const TaskBlock *> ShapeOk;
  std::map<int64_t, std::vector<IfaceRef>> EdgeOuts, EdgeIns;
  /// Blocks with a cluster error: their interfaces were not indexed, so
  /// edge-link errors about them would only repeat the first problem.
  std::set<const TaskBlock *> BadClusters;

  void error(const TaskBlock &b, const std::string &field,
             const std::string &msg) {
    Errors.push_back(fmt::format("{}: {}: {}", describeBlock(b), field, msg));
  }
  void error(const Edge &e, const std::string &field, const std::string &msg) {
    std::string id = e.has_id() ? std::to_string(e.id()) : "<no id>";
    Errors.push_back(fmt::format("edge {}: {}: {}", id, field, msg));
  }
  void graphError(const std::string &msg) { Errors.push_back("graph: " + msg); }

  const TaskBlock *block(int64_t id) const {
    auto it = Blocks.find(id);
    return it == Blocks.end() ? nullptr : it->second;
  }

  void checkBlockIds();
  void checkEdgeIds();
  void checkBlockBasics(const TaskBlock &b);
  bool checkShape(const TaskBlock &b);
  void checkClusters(const TaskBlock &b);
  void checkCluster(const TaskBlock &b, bool input, int idx,
                    const Dims &expected, const std::string &what);
  void checkInterfaces(const TaskBlock &b, bool input, int idx);
  void checkEdgeLinks();
  void checkEdgeShape(const Edge &e, const IfaceRef &src, const IfaceRef &dst);
  void checkRolesAndPrecisions(const TaskBlock &b);
  void checkData(const TaskBlock &b);
  void checkAttributes(const TaskBlock &b);
  void checkWindow(const TaskBlock &b);
  void checkAcyclic();

  Precision clusterPrecision(const TaskBlock &b, int cluster);
  std::vector<const TaskBlock *> clusterSources(const TaskBlock &b,
                                                int cluster);
};

/// True if the tensor described by \p d has at most MaxVolume elements
/// (and all its dims are positive).
bool volumeFits(const Dims &d) {
  int64_t v = 1;
  for (int64_t n : d.present()) {
    if (n < 1 || v > MaxVolume / n)
      return false;
    v *= n;
  }
  return true;
}

std::string fieldName(bool input, int cluster) {
  return fmt::format("{}[{}]", input ? "input_clusters" : "output_clusters",
                     cluster);
}

Box interfaceBox(const Interface &i, const Dims &cluster) {
  Box bx;
  bx.Pos = Dims::fromProto(i.position());
  bx.Size = Dims::fromProto(i.size());
  if (bx.Pos.mask() == 0 && !i.has_position())
    for (unsigned d = 0; d < NumDims; ++d)
      if (cluster.has(d))
        bx.Pos[d] = 0;
  if (bx.Size.mask() == 0 && !i.has_size())
    bx.Size = cluster;
  return bx;
}

//===----------------------------------------------------------------------===//
// Ids and basics
//===----------------------------------------------------------------------===//

void Validator::checkBlockIds() {
  for (const TaskBlock &b : G.blocks()) {
    if (!b.has_id()) {
      error(b, "id", "missing");
      continue;
    }
    if (!Blocks.emplace(b.id(), &b).second)
      error(b, "id", fmt::format("duplicate block id {}", b.id()));
  }
}

void Validator::checkEdgeIds() {
  for (const Edge &e : G.edges()) {
    if (!e.has_id()) {
      error(e, "id", "missing");
      continue;
    }
    if (!Edges.emplace(e.id(), &e).second) {
      error(e, "id", fmt::format("duplicate edge id {}", e.id()));
      continue;
    }
    if (!e.has_source())
      error(e, "source", "missing");
    else if (!block(e.source()))
      error(e, "source", fmt::format("block {} does not exist", e.source()));
    if (!e.has_destination())
      error(e, "destination", "missing");
    else if (!block(e.destination()))
      error(e, "destination",
            fmt::format("block {} does not exist", e.destination()));
    const TaskBlock *s = e.has_source() ? block(e.source()) : nullptr;
    const TaskBlock *d = e.has_destination() ? block(e.destination()) : nullptr;
    if (s && d && isComputeBlock(s->type()) && isComputeBlock(d->type()))
      error(e, "destination",
            fmt::format("joins two compute blocks ({} -> {}); a storage block "
                        "must sit between them",
                        describeBlock(*s), describeBlock(*d)));
  }
}

void Validator::checkBlockBasics(const TaskBlock &b) {
  if (b.type() == BLOCK_TYPE_UNSPECIFIED || !BlockType_IsValid(b.type()))
    error(b, "type", "missing or unknown block type");
  if (b.precision() == PRECISION_UNSPECIFIED ||
      !Precision_IsValid(b.precision()))
    error(b, "precision", "missing or unknown precision");
}

/// Required and optional dims of a compute kind: from its data's source (the
/// READS column) and its window.
std::pair<unsigned, unsigned> computeShapeRule(BlockKind k) {
  if (inputLayout(k) == InputLayout::Variadic)
    return {dimMask({DY, DX, DF}), dimMask({DKY, DKX})};
  BlockKind source = dataSource(k);
  if (source == BlockKind::SIFC)
    return {dimMask({DF, DR}), 0};
  if (source == BlockKind::SIC || source == BlockKind::SIC2D)
    return {(1u << NumDims) - 1, 0};
  if (hasWindow(k))
    return {dimMask({DY, DX, DF, DKY, DKX, DIY, DIX}), 0};
  return {dimMask({DY, DX, DF}), 0};
}

/// Required and optional dims per block type (the seed's shape tables).
std::pair<unsigned, unsigned> shapeRule(BlockKind k) {
  switch (k) {
  case BlockKind::SI:
  case BlockKind::SO:
    return {dimMask({DF}), dimMask({DY, DX})};
  case BlockKind::SIC:
  case BlockKind::SIC2D:
    return {dimMask({DY, DX, DR}), 0};
  case BlockKind::SIFC:
    return {dimMask({DR}), 0};
  case BlockKind::SW:
    return {dimMask({DF, DR, DKY, DKX}), 0};
  case BlockKind::SWFC:
    return {dimMask({DF, DR}), 0};
  case BlockKind::SB:
    return {dimMask({DF}), 0};
#include "graph/ComputeKindCases.inc"
    return computeShapeRule(k);
  }
  llvm_unreachable("a kind of BlockKinds.def");
}

bool Validator::checkShape(const TaskBlock &b) {
  if (b.type() == BLOCK_TYPE_UNSPECIFIED || !BlockType_IsValid(b.type()))
    return false;
  Dims d = blockDims(b);
  bool ok = true;
  for (unsigned i = 0; i < NumDims; ++i)
    if (d[i] == 0 || d[i] < -1) {
      error(b, "shape",
            fmt::format("dimension '{}' is {}; used dimensions "
                        "must be >= 1 and unused ones -1",
                        dimName(i), d[i]));
      ok = false;
    }
  if (!ok)
    return false;
  auto [Req, Opt] = shapeRule(kindOf(b));
  for (unsigned i = 0; i < NumDims; ++i) {
    bool used = d.has(i);
    if ((Req >> i & 1) && !used) {
      error(b, "shape",
            fmt::format("dimension '{}' is required for {}", dimName(i),
                        blockTypeName(b.type())));
      ok = false;
    } else if (!(Req >> i & 1) && !(Opt >> i & 1) && used) {
      error(b, "shape",
            fmt::format("dimension '{}' must be -1 (unused) for {}", dimName(i),
                        blockTypeName(b.type())));
      ok = false;
    }
  }
  if (b.type() == CADD &&
      ((d.has(DKY) && d[DKY] != 1) || (d.has(DKX) && d[DKX] != 1))) {
    error(b, "shape", "CADD's ky and kx are 1 (or -1)");
    ok = false;
  }
  // Storage shapes are tensors; compute shapes are loop nests whose
  // tensors (clusters) are checked in checkCluster.
  if (ok && isStorageBlock(b.type()) && !volumeFits(d)) {
    error(b, "shape", fmt::format("{} is too large", d.str()));
    return false;
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Clusters and interfaces
//===----------------------------------------------------------------------===//

void Validator::checkCluster(const TaskBlock &b, bool input, int idx,
                             const Dims &expected, const std::string &what) {
  const EdgeCluster &c = input ? b.input_clusters(idx) : b.output_clusters(idx);
  Dims got = Dims::fromProto(c.shape());
  if (!volumeFits(expected)) {
    error(b, fieldName(input, idx) + ".shape",
          fmt::format("{} is too large", expected.str()));
    return;
  }
  if (got != expected) {
    BadClusters.insert(&b);
    error(b, fieldName(input, idx) + ".shape",
          fmt::format("expected {} ({}), got {}", expected.str(), what,
                      got.str()));
    return;
  }
  checkInterfaces(b, input, idx);
}

void Validator::checkInterfaces(const TaskBlock &b, bool input, int idx) {
  const EdgeCluster &c = input ? b.input_clusters(idx) : b.output_clusters(idx);
  Dims cd = Dims::fromProto(c.shape());
  std::vector<Box> boxes;
  bool allOk = true;
  for (int i = 0; i < c.interfaces_size(); ++i) {
    const Interface &iface = c.interfaces(i);
    std::string f = fmt::format("{}.interfaces[{}]", fieldName(input, idx), i);
    Box bx = interfaceBox(iface, cd);
    bool ok = true;
    if (bx.Pos.mask() != cd.mask()) {
      error(b, f + ".position",
            fmt::format("uses dimensions {} but the cluster has {}",
                        maskStr(bx.Pos.mask()), maskStr(cd.mask())));
      ok = false;
    }
    if (bx.Size.mask() != cd.mask()) {
      error(b, f + ".size",
            fmt::format("uses dimensions {} but the cluster has {}",
                        maskStr(bx.Size.mask()), maskStr(cd.mask())));
      ok = false;
    }
    for (unsigned d = 0; ok && d < NumDims; ++d) {
      if (!cd.has(d))
        continue;
      if (bx.Pos[d] < 0 || bx.Size[d] < 1 || bx.Pos[d] + bx.Size[d] > cd[d]) {
        error(b, f,
              fmt::format("position {} size {} lies outside the cluster shape "
                          "{} in dimension '{}'",
                          bx.Pos.str(), bx.Size.str(), cd.str(), dimName(d)));
        ok = false;
      }
    }
    if (!iface.has_edge_id()) {
      error(b, f + ".edge_id", "missing");
      ok = false;
    } else {
      auto it = Edges.find(iface.edge_id());
      if (it == Edges.end()) {
        error(b, f + ".edge_id",
              fmt::format("edge {} does not exist", iface.edge_id()));
        ok = false;
      } else {
        const Edge &e = *it->second;
        int64_t end = input ? e.destination() : e.source();
        if ((input ? !e.has_destination() : !e.has_source()) || end != b.id()) {
          error(b, f + ".edge_id",
                fmt::format("edge {} has {} {}, not this block", e.id(),
                            input ? "destination" : "source", end));
          ok = false;
        } else {
          (input ? EdgeIns : EdgeOuts)[e.id()].push_back({&b, input, idx, i});
        }
      }
    }
    allOk &= ok;
    boxes.push_back(bx);
  }
  if (!input || !allOk || boxes.empty())
    return;
  // Input interfaces must tile the cluster: no overlap, no gap.
  int64_t sum = 0;
  for (size_t i = 0; i < boxes.size(); ++i) {
    sum += boxes[i].Size.volume();
    for (size_t j = 0; j < i; ++j) {
      bool overlap = true;
      for (unsigned d = 0; d < NumDims; ++d)
        if (cd.has(d) &&
            (boxes[i].Pos[d] >= boxes[j].Pos[d] + boxes[j].Size[d] ||
             boxes[j].Pos[d] >= boxes[i].Pos[d] + boxes[i].Size[d]))
          overlap = false;
      if (overlap) {
        error(b, fieldName(input, idx) + ".interfaces",
              fmt::format("input interfaces {} and {} overlap", j, i));
        return;
      }
    }
  }
  if (sum != cd.volume())
    error(b, fieldName(input, idx) + ".interfaces",
          fmt::format("input interfaces cover {} of the cluster's {} elements; "
                      "they must cover it exactly",
                      sum, cd.volume()));
}

void Validator::checkClusters(const TaskBlock &b) {
  BlockType t = b.type();
  if (isStorageBlock(t)) {
    if (b.input_clusters_size() > 1) {
      BadClusters.insert(&b);
      error(b, "input_clusters",
            fmt::format("storage blocks have at most one input cluster, got "
                        "{}",
                        b.input_clusters_size()));
    } else if (b.input_clusters_size() == 1) {
      checkCluster(b, true, 0, expectedStorageInputCluster(b), "input");
    }
    if (t == SO && b.output_clusters_size() > 0) {
      BadClusters.insert(&b);
      error(b, "output_clusters", "SO blocks have no output cluster");
    } else if (b.output_clusters_size() > 1) {
      BadClusters.insert(&b);
      error(b, "output_clusters",
            fmt::format("storage blocks have at most one output cluster, got "
                        "{}",
                        b.output_clusters_size()));
    } else if (b.output_clusters_size() == 1) {
      checkCluster(b, false, 0, expectedOutputCluster(b), "output");
    }
    return;
  }
  // Compute blocks. A wrong number of clusters leaves their interfaces
  // unindexed: BadClusters keeps the edges from repeating the problem.
  if (b.output_clusters_size() != 1) {
    BadClusters.insert(&b);
    error(b, "output_clusters",
          fmt::format("compute blocks have exactly one output cluster, got {}",
                      b.output_clusters_size()));
  } else {
    checkCluster(b, false, 0, expectedOutputCluster(b), "output");
  }

  std::vector<InputRole> roles = inputRoles(b);
  int n = b.input_clusters_size();
  int numData = int(count(roles, InputRole::Data));
  int fixed = 0;
  std::string layout;
  bool variadic = inputLayout(kindOf(b)) == InputLayout::Variadic;
  switch (inputLayout(kindOf(b))) {
  case InputLayout::Variadic:
    fixed = 1, layout = "input1[, input2, ...]";
    break;
  case InputLayout::DataData:
    fixed = 2, layout = "input1, input2";
    break;
  case InputLayout::DataWeight:
    fixed = 2, layout = "input, weight";
    break;
  case InputLayout::DataAlpha:
    fixed = 2, layout = "input, alpha";
    break;
  case InputLayout::Data:
    fixed = 1, layout = "input";
    break;
  case InputLayout::None:
    llvm_unreachable("storage blocks returned above");
  }
  if (takesBias(t))
    layout += "[, bias]";
  int max = variadic ? INT32_MAX : fixed + (takesBias(t) ? 1 : 0);
  if (n < fixed || n > max || (variadic && numData < 1)) {
    BadClusters.insert(&b);
    error(b, "input_clusters",
          fmt::format("{} takes input clusters ({}), got {}", blockTypeName(t),
                      layout, n));
    return;
  }
  for (int i = 0; i < n; ++i) {
    if (b.input_clusters(i).interfaces_size() == 0) {
      error(b, fieldName(true, i),
            fmt::format("the {} cluster has no interfaces; every compute "
                        "input must be fed by an edge",
                        roleName(roles[i])));
      continue;
    }
    checkCluster(b, true, i, expectedInputCluster(b, roles[i]),
                 roleName(roles[i]));
  }
}

//===----------------------------------------------------------------------===//
// Edges
//===----------------------------------------------------------------------===//

void Validator::checkEdgeLinks() {
  for (const Edge &e : G.edges()) {
    if (!e.has_id() || Edges[e.id()] != &e)
      continue;
    const TaskBlock *s = e.has_source() ? block(e.source()) : nullptr;
    const TaskBlock *d = e.has_destination() ? block(e.destination()) : nullptr;
    auto &outs = EdgeOuts[e.id()];
    auto &ins = EdgeIns[e.id()];
    bool ok = true;
    if (s && ShapeOk.count(s) && !BadClusters.count(s) && outs.size() != 1) {
      error(e, "source",
            outs.empty()
                ? fmt::format("no output interface of {} refers to this edge",
                              describeBlock(*s))
                : fmt::format("{} output interfaces refer to this edge; "
                              "exactly one must",
                              outs.size()));
      ok = false;
    }
    if (d && ShapeOk.count(d) && !BadClusters.count(d) && ins.size() != 1) {
      error(e, "destination",
            ins.empty()
                ? fmt::format("no input interface of {} refers to this edge",
                              describeBlock(*d))
                : fmt::format("{} input interfaces refer to this edge; "
                              "exactly one must",
                              ins.size()));
      ok = false;
    }
    for (int i = 0; i < e.rearranges_size(); ++i) {
      RearrangeType t = e.rearranges(i).type();
      if (t == REARRANGE_UNSPECIFIED || !RearrangeType_IsValid(t)) {
        error(e, fmt::format("rearranges[{}].type", i),
              "missing or unknown rearrangement type");
        ok = false;
      }
    }
    if (ok && outs.size() == 1 && ins.size() == 1)
      checkEdgeShape(e, outs[0], ins[0]);
  }
}

void Validator::checkEdgeShape(const Edge &e, const IfaceRef &src,
                               const IfaceRef &dst) {
  const EdgeCluster &sc = src.Block->output_clusters(src.Cluster);
  const EdgeCluster &dc = dst.Block->input_clusters(dst.Cluster);
  Box sb = interfaceBox(sc.interfaces(src.Index), Dims::fromProto(sc.shape()));
  Box db = interfaceBox(dc.interfaces(dst.Index), Dims::fromProto(dc.shape()));
  std::vector<int64_t> shape = sb.Size.present();
  for (int i = 0; i < e.rearranges_size(); ++i) {
    Expected<std::vector<int64_t>> next =
        rearrangedShape(e.rearranges(i), shape);
    if (!next) {
      error(e, fmt::format("rearranges[{}]", i),
            fmt::format("{} (input shape {})", toString(next.takeError()),
                        shapeStr(shape)));
      return;
    }
    shape = *next;
  }
  std::vector<int64_t> want = db.Size.present();
  if (shape == want)
    return;
  if (e.rearranges_size() == 0)
    error(e, "rearranges",
          fmt::format("source interface size {} does not match destination "
                      "interface size {}; add a rearrangement (e.g. RESHAPE)",
                      sb.Size.str(), db.Size.str()));
  else
    error(e, "rearranges",
          fmt::format("rearrangements turn the source interface size {} into "
                      "{}, but the destination interface size is {}",
                      sb.Size.str(), shapeStr(shape), db.Size.str()));
}

//===----------------------------------------------------------------------===//
// Roles and precisions
//===----------------------------------------------------------------------===//

std::vector<const TaskBlock *> Validator::clusterSources(const TaskBlock &b,
                                                         int cluster) {
  std::vector<const TaskBlock *> srcs;
  for (const Interface &iface : b.input_clusters(cluster).interfaces()) {
    auto it = Edges.find(iface.edge_id());
    if (it == Edges.end() || !it->second->has_source())
      continue;
    if (const TaskBlock *s = block(it->second->source()))
      srcs.push_back(s);
  }
  return srcs;
}

/// Precision of the data arriving in an input cluster, or UNSPECIFIED if
/// unknown (no source) or mixed (reported).
Precision Validator::clusterPrecision(const TaskBlock &b, int cluster) {
  Precision p = PRECISION_UNSPECIFIED;
  for (const TaskBlock *s : clusterSources(b, cluster)) {
    if (p != PRECISION_UNSPECIFIED && s->precision() != p) {
      error(b, fieldName(true, cluster),
            fmt::format("interfaces receive mixed precisions {} and {}",
                        precisionName(p), precisionName(s->precision())));
      return PRECISION_UNSPECIFIED;
    }
    p = s->precision();
  }
  return p;
}

void Validator::checkRolesAndPrecisions(const TaskBlock &b) {
  if (isStorageBlock(b.type())) {
    // Storage blocks store what they receive: the precision must match.
    if (b.input_clusters_size() != 1)
      return;
    for (const TaskBlock *s : clusterSources(b, 0))
      if (s->precision() != b.precision() &&
          Precision_IsValid(s->precision()) &&
          s->precision() != PRECISION_UNSPECIFIED)
        error(b, "precision",
              fmt::format("is {} but its source {} produces {}; storage "
                          "blocks do not convert precisions",
                          precisionName(b.precision()), describeBlock(*s),
                          precisionName(s->precision())));
    return;
  }
  std::vector<InputRole> roles = inputRoles(b);
  Precision dataP = PRECISION_UNSPECIFIED, weightP = PRECISION_UNSPECIFIED;
  Precision biasP = PRECISION_UNSPECIFIED, alphaP = PRECISION_UNSPECIFIED;
  bool hasBias = false;
  for (int i = 0; i < int(roles.size()); ++i) {
    InputRole r = roles[i];
    std::vector<BlockType> allowed = allowedSources(b.type(), r);
    for (const TaskBlock *s : clusterSources(b, i))
      if (!is_contained(allowed, s->type())) {
        std::string names;
        for (BlockType t : allowed)
          names += (names.empty() ? "" : " or ") + blockTypeName(t);
        error(b, fieldName(true, i),
              fmt::format("the {} of {} must come from {}, but {} feeds it",
                          roleName(r), blockTypeName(b.type()), names,
                          describeBlock(*s)));
      }
    Precision p = clusterPrecision(b, i);
    if (p == PRECISION_UNSPECIFIED)
      continue;
    switch (r) {
    case InputRole::Data:
      if (dataP != PRECISION_UNSPECIFIED &&
          isFloatPrecision(dataP) != isFloatPrecision(p))
        error(b, fieldName(true, i),
              fmt::format("mixes float and integer inputs ({} and {})",
                          precisionName(dataP), precisionName(p)));
      dataP = p;
      break;
    case InputRole::Weight:
      weightP = p;
      break;
    case InputRole::Alpha:
      alphaP = p;
      break;
    case InputRole::Bias:
      hasBias = true;
      biasP = p;
      break;
    }
  }
  if (dataP == PRECISION_UNSPECIFIED)
    return;
  bool floatIn = isFloatPrecision(dataP);
  Precision out = b.precision();
  std::string dataName = precisionName(dataP);
  BlockType t = b.type();
  auto precisionClass = [](Precision p) {
    return isFloatPrecision(p) ? "float" : "integer";
  };
  if (weightP != PRECISION_UNSPECIFIED && isFloatPrecision(weightP) != floatIn)
    error(b, "precision",
          fmt::format("{} inputs with {} weights; both must be integer or both "
                      "float",
                      dataName, precisionName(weightP)));
  if (alphaP != PRECISION_UNSPECIFIED && isFloatPrecision(alphaP) != floatIn)
    error(b, "precision",
          fmt::format("{} inputs with {} alpha; both must be integer or both "
                      "float",
                      dataName, precisionName(alphaP)));
  if (hasBias) {
    bool biasOk = floatIn ? isFloatPrecision(biasP) : biasP == INT32;
    if (!biasOk)
      error(b, "precision",
            fmt::format("bias is {} but {} inputs need a bias of {}",
                        precisionName(biasP), precisionClass(dataP),
                        floatIn ? "FLOAT16 or FLOAT32" : "INT32"));
  }
  // The output precision each compute kind produces from its inputs.
  switch (outputRule(kindOf(b))) {
  case OutputRule::Accumulates:
    if (!floatIn && out != INT32)
      error(b, "precision",
            fmt::format("{} with {} inputs must produce INT32, got {}",
                        blockTypeName(t), dataName, precisionName(out)));
    if (floatIn && !isFloatPrecision(out))
      error(b, "precision",
            fmt::format("{} with {} inputs must produce FLOAT16 or FLOAT32, "
                        "got {}",
                        blockTypeName(t), dataName, precisionName(out)));
    break;
  case OutputRule::Keeps:
    if (out != dataP)
      error(b, "precision",
            fmt::format("{} keeps its input precision {}, got {}",
                        blockTypeName(t), dataName, precisionName(out)));
    break;
  case OutputRule::Table: {
    int64_t tableSize = b.data().int32_data_size() +
                        b.data().uint32_data_size() +
                        b.data().float_data_size();
    if (floatIn || dataP == INT32 || dataP == UINT32)
      error(b, "precision",
            fmt::format("CLUT indexes its table with the input value; {} "
                        "inputs are not supported (use INT8, UINT8, INT9, "
                        "INT16, UINT16 or TERNARY)",
                        dataName));
    else if (tableSize > 0 && // no table: reported by checkData
             tableSize != precisionMax(dataP) - precisionMin(dataP) + 1)
      error(b, "data",
            fmt::format("CLUT table for {} inputs needs {} entries (one per "
                        "input value from {}), got {}",
                        dataName, precisionMax(dataP) - precisionMin(dataP) + 1,
                        precisionMin(dataP), tableSize));
    break;
  }
  case OutputRule::Any:
    break;
  case OutputRule::SameClass:
    if (isFloatPrecision(out) != floatIn)
      error(
          b, "precision",
          fmt::format("{} with {} inputs must have {} output precision, got {}",
                      blockTypeName(t), dataName, precisionClass(dataP),
                      precisionName(out)));
    break;
  case OutputRule::Stored:
    llvm_unreachable("storage blocks returned above");
  }
}

//===----------------------------------------------------------------------===//
// Data and attributes
//===----------------------------------------------------------------------===//

void Validator::checkData(const TaskBlock &b) {
  const Data &d = b.data();
  BlockType t = b.type();
  int ni = d.int32_data_size(), nu = d.uint32_data_size(),
      nf = d.float_data_size();
  bool hasData = ni + nu + nf > 0;
  bool hasInit = b.has_init();
  bool carries = carriesData(kindOf(b));
  if (hasData && !carries) {
    error(b, "data", "only SW, SWFC, SB and CLUT blocks carry data");
    return;
  }
  if (hasInit && blockRole(kindOf(b)) != BlockRole::Param) {
    error(b, "init", "only SW, SWFC and SB blocks may be initialised");
    return;
  }
  if (!carries)
    return;
  if (hasInit) {
    const WeightInit &i = b.init();
    if (i.kind() != WeightInit::UNIFORM && i.kind() != WeightInit::CONSTANT)
      error(b, "init.kind", "must be UNIFORM or CONSTANT");
    if (!std::isfinite(i.scale()) ||
        (i.kind() == WeightInit::UNIFORM && i.scale() < 0))
      error(b, "init.scale",
            fmt::format("must be finite (and >= 0 for UNIFORM), got {}",
                        i.scale()));
  }
  bool hasProducer =
      b.input_clusters_size() > 0 && b.input_clusters(0).interfaces_size() > 0;
  if (t != CLUT) {
    int sources = int(hasData) + int(hasInit) + int(hasProducer);
    if (sources == 0) {
      error(b, "data",
            "has neither data, init nor a producing edge; weights and biases "
            "need values");
      return;
    }
    if (sources > 1) {
      error(b, "data",
            "more than one of data, init and a producing edge give this "
            "block's values");
      return;
    }
  }
  if (!hasData) {
    if (t == CLUT)
      error(b, "data", "CLUT needs its table in data");
    return;
  }
  if (!Precision_IsValid(b.precision()) ||
      b.precision() == PRECISION_UNSPECIFIED)
    return;
  Precision p = b.precision();
  DataContainer c = dataContainer(p);
  const char *want = c == DataContainer::Float    ? "float_data"
                     : c == DataContainer::UInt32 ? "uint32_data"
                                                  : "int32_data";
  int wrong = c == DataContainer::Float    ? ni + nu
              : c == DataContainer::UInt32 ? ni + nf
                                           : nu + nf;
  if (wrong) {
    error(b, "data",
          fmt::format("{} values belong in {}, but {} values are in other "
                      "containers",
                      precisionName(p), want, wrong));
    return;
  }
  if (d.precision() != PRECISION_UNSPECIFIED && d.precision() != p)
    error(b, "data.precision",
          fmt::format("is {} but the block precision is {}",
                      precisionName(d.precision()), precisionName(p)));
  int n = ni + nu + nf;
  if (t != CLUT) {
    std::vector<int64_t> shape = storageShape(b);
    int64_t need = blockDims(b).volume();
    if (n != need)
      error(b, "data",
            fmt::format("has {} values but shape {} needs {}", n,
                        blockDims(b).str(), need));
    if (d.shape_size() &&
        std::vector<int64_t>(d.shape().begin(), d.shape().end()) != shape)
      error(b, "data.shape",
            fmt::format("{} does not match the block shape {}",
                        shapeStr(std::vector<int64_t>(d.shape().begin(),
                                                      d.shape().end())),
                        shapeStr(shape)));
  } else if (d.shape_size() && (d.shape_size() != 1 || d.shape(0) != n)) {
    error(b, "data.shape",
          fmt::format("a CLUT table is 1-D with {} entries", n));
  }
  if (c == DataContainer::Float) {
    for (int i = 0; i < nf; ++i)
      if (!std::isfinite(d.float_data(i))) {
        error(b, "data", fmt::format("float_data[{}] is not finite", i));
        return;
      }
    return;
  }
  for (int i = 0; i < n; ++i) {
    int64_t v = c == DataContainer::UInt32 ? int64_t(d.uint32_data(i))
                                           : int64_t(d.int32_data(i));
    if (v < precisionMin(p) || v > precisionMax(p)) {
      error(b, "data",
            fmt::format("{}[{}] = {} is outside the {} range [{}, {}]", want, i,
                        v, precisionName(p), precisionMin(p), precisionMax(p)));
      return;
    }
  }
}

/// The attributes of a block kind, in groups.
enum class AttrGroup { Window, Dilation, Cmp, ConstA, ConstB, Neuron, None };

AttrGroup attrGroup(AttributeType a) {
  switch (a) {
  case KERNEL_X:
  case KERNEL_Y:
  case STRIDE_X:
  case STRIDE_Y:
  case PAD_UP:
  case PAD_DOWN:
  case PAD_LEFT:
  case PAD_RIGHT:
    return AttrGroup::Window;
  case DILATION_X:
  case DILATION_Y:
    return AttrGroup::Dilation;
  case CMP:
    return AttrGroup::Cmp;
  case CONST_A:
    return AttrGroup::ConstA;
  case CONST_B:
    return AttrGroup::ConstB;
  case V_TH:
  case V_RESET:
  case V_LEAK:
  case DECAY:
  case RESET_MODE:
    return AttrGroup::Neuron;
  default:
    return AttrGroup::None;
  }
}

/// Whether attribute group \p g (not the window's, which follows the WINDOW
/// column) applies to kind \p k: its ATTRS column. CC and CC2D take a bias
/// only as an SB cluster, not as CONST_B.
bool kindTakes(BlockKind k, AttrGroup g) {
  switch (attrSet(k)) {
  case AttrSet::Dilation:
    return g == AttrGroup::Dilation;
  case AttrSet::Cmp:
    return g == AttrGroup::Cmp;
  case AttrSet::ConstAB:
    return g == AttrGroup::ConstA || g == AttrGroup::ConstB;
  case AttrSet::ConstB:
    return g == AttrGroup::ConstB;
  case AttrSet::Neuron:
    return g == AttrGroup::Neuron;
  case AttrSet::None:
    return false;
  }
  llvm_unreachable("an ATTRS value of BlockKinds.def");
}

/// Block kinds an attribute applies to.
bool attrApplies(AttributeType a, BlockKind k) {
  AttrGroup g = attrGroup(a);
  if (g == AttrGroup::Window)
    return hasWindow(k);
  return g != AttrGroup::None && kindTakes(k, g);
}

void Validator::checkAttributes(const TaskBlock &b) {
  std::set<int> seen;
  BlockType t = b.type();
  for (int i = 0; i < b.attributes_size(); ++i) {
    const Attribute &a = b.attributes(i);
    std::string f = fmt::format("attributes[{}]", i);
    AttributeType at = a.type();
    if (at == ATTRIBUTE_UNSPECIFIED || !AttributeType_IsValid(at)) {
      error(b, f + ".type", "missing or unknown attribute type");
      continue;
    }
    std::string name = attributeName(at);
    if (!seen.insert(at).second) {
      error(b, f, fmt::format("{} is given more than once", name));
      continue;
    }
    if (!attrApplies(at, kindOf(b))) {
      error(b, f,
            fmt::format("{} does not apply to {}", name, blockTypeName(t)));
      continue;
    }
    if (a.value_case() == Attribute::VALUE_NOT_SET) {
      error(b, f, fmt::format("{} has no int_value or float_value", name));
      continue;
    }
    double v = a.value_case() == Attribute::kIntValue ? double(a.int_value())
                                                      : a.float_value();
    if (!std::isfinite(v)) {
      error(b, f, fmt::format("{} is not finite", name));
      continue;
    }
    bool intOnly = at <= DILATION_Y || at == RESET_MODE;
    if (intOnly && a.value_case() != Attribute::kIntValue) {
      error(b, f, fmt::format("{} must be an int_value", name));
      continue;
    }
    Dims d = blockDims(b);
    if ((at == KERNEL_X && d.has(DKX) && v != d[DKX]) ||
        (at == KERNEL_Y && d.has(DKY) && v != d[DKY]))
      error(b, f,
            fmt::format("{} = {} disagrees with the shape's {} = {}", name, v,
                        at == KERNEL_X ? "kx" : "ky",
                        at == KERNEL_X ? d[DKX] : d[DKY]));
    else if ((at == STRIDE_X || at == STRIDE_Y || at == DILATION_X ||
              at == DILATION_Y) &&
             v < 1)
      error(b, f, fmt::format("{} must be >= 1, got {}", name, v));
    else if (at >= PAD_UP && at <= PAD_RIGHT && v < 0)
      error(b, f, fmt::format("{} must be >= 0, got {}", name, v));
    else if (at == RESET_MODE && v != 0 && v != 1)
      error(b, f,
            fmt::format("RESET_MODE must be 0 (reset to V_RESET) or 1 "
                        "(subtract V_TH), got {}",
                        v));
    else if (at == DECAY && (v < 0 || v > 1))
      error(b, f, fmt::format("DECAY must lie in [0, 1], got {}", v));
  }
  if (t == CVS && !findAttr(b, CONST_A))
    error(b, "attributes", "CVS needs CONST_A (the scale)");
  if (t == CLIF && !findAttr(b, V_TH))
    error(b, "attributes", "CLIF needs V_TH (the firing threshold)");
  if (findAttr(b, CONST_B) && b.input_clusters_size() > 0) {
    std::vector<InputRole> roles = inputRoles(b);
    if (is_contained(roles, InputRole::Bias))
      error(b, "attributes",
            "the bias is given both by an SB input cluster and by CONST_B");
  }
}

void Validator::checkWindow(const TaskBlock &b) {
  if (!hasWindow(b.type()))
    return;
  Dims d = blockDims(b);
  KernelParams k = kernelParams(b);
  if (k.SY < 1 || k.SX < 1 || k.DY < 1 || k.DX < 1 || k.PadUp < 0 ||
      k.PadDown < 0 || k.PadLeft < 0 || k.PadRight < 0)
    return; // reported by checkAttributes
  int64_t oy = windowOutputSize(d[DIY], k.PadUp, k.PadDown, k.KY, k.SY, k.DY);
  int64_t ox =
      windowOutputSize(d[DIX], k.PadLeft, k.PadRight, k.KX, k.SX, k.DX);
  if (oy != d[DY])
    error(b, "shape",
          fmt::format("y = {} but the window gives (iy {} + pad {} + {} - "
                      "dilation {} * (ky {} - 1) - 1) / stride {} + 1 = {}",
                      d[DY], d[DIY], k.PadUp, k.PadDown, k.DY, k.KY, k.SY, oy));
  if (ox != d[DX])
    error(b, "shape",
          fmt::format("x = {} but the window gives (ix {} + pad {} + {} - "
                      "dilation {} * (kx {} - 1) - 1) / stride {} + 1 = {}",
                      d[DX], d[DIX], k.PadLeft, k.PadRight, k.DX, k.KX, k.SX,
                      ox));
}

//===----------------------------------------------------------------------===//
// Acyclicity
//===----------------------------------------------------------------------===//

void Validator::checkAcyclic() {
  std::map<int64_t, std::vector<int64_t>> succ;
  std::map<int64_t, int> inDeg;
  for (auto &[Id, B] : Blocks)
    inDeg[Id] = 0;
  for (auto &[Id, E] : Edges) {
    if (!E->has_source() || !E->has_destination() || !block(E->source()) ||
        !block(E->destination()))
      continue;
    succ[E->source()].push_back(E->destination());
    ++inDeg[E->destination()];
  }
  std::vector<int64_t> ready;
  for (auto &[Id, D] : inDeg)
    if (D == 0)
      ready.push_back(Id);
  size_t done = 0;
  while (!ready.empty()) {
    int64_t id = ready.back();
    ready.pop_back();
    ++done;
    for (int64_t s : succ[id])
      if (--inDeg[s] == 0)
        ready.push_back(s);
  }
  if (done == inDeg.size())
    return;
  std::string ids;
  for (auto &[Id, D] : inDeg)
    if (D > 0)
      ids += (ids.empty() ? "" : ", ") + std::to_string(Id);
  graphError(fmt::format("has a cycle (Task IR 1.0 graphs must be acyclic); "
                         "blocks on or after it: {}",
                         ids));
}

std::vector<std::string> Validator::run() {
  if (!G.version().empty() && G.version() != "1.0")
    graphError(fmt::format("version '{}' is not supported (expected 1.0)",
                           G.version()));
  if (G.blocks_size() == 0) {
    graphError("has no blocks");
    return Errors;
  }
  checkBlockIds();
  checkEdgeIds();
  std::map<std::string, const TaskBlock *> names;
  for (const TaskBlock &b : G.blocks()) {
    checkBlockBasics(b);
    if (!b.name().empty() && !names.emplace(b.name(), &b).second)
      error(b, "name",
            fmt::format("'{}' is also the name of {}", b.name(),
                        describeBlock(*names[b.name()])));
    if (checkShape(b) && b.has_id() && Blocks[b.id()] == &b &&
        Precision_IsValid(b.precision()) &&
        b.precision() != PRECISION_UNSPECIFIED)
      ShapeOk.insert(&b);
  }
  for (const TaskBlock &b : G.blocks())
    if (ShapeOk.count(&b)) {
      checkClusters(b);
      checkAttributes(b);
      checkWindow(b);
    }
  checkEdgeLinks();
  for (const TaskBlock &b : G.blocks())
    if (ShapeOk.count(&b)) {
      checkData(b);
      checkRolesAndPrecisions(b);
    }
  checkAcyclic();
  return Errors;
}

} // namespace

std::vector<std::string> collectGraphErrors(const TaskGraph &g) {
  return Validator(g).run();
}

Error validateGraph(const TaskGraph &g) {
  std::vector<std::string> errs = collectGraphErrors(g);
  if (errs.empty())
    return Error::success();
  std::string msg =
      errs.size() == 1 ? errs[0] : fmt::format("{} problems:", errs.size());
  if (errs.size() > 1)
    for (const std::string &e : errs)
      msg += "\n  " + e;
  return createStringError(inconvertibleErrorCode(), msg);
}

} // namespace bangc::graph
