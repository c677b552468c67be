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
  explicit Validator(const TaskGraph &G) : G(G) {}
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

  void error(const TaskBlock &B, const std::string &Field,
             const std::string &Msg) {
    Errors.push_back(fmt::format("{}: {}: {}", describeBlock(B), Field, Msg));
  }
  void error(const Edge &E, const std::string &Field, const std::string &Msg) {
    std::string Id = E.has_id() ? std::to_string(E.id()) : "<no id>";
    Errors.push_back(fmt::format("edge {}: {}: {}", Id, Field, Msg));
  }
  void graphError(const std::string &Msg) {
    Errors.push_back("graph: " + Msg);
  }

  const TaskBlock *block(int64_t Id) const {
    auto It = Blocks.find(Id);
    return It == Blocks.end() ? nullptr : It->second;
  }

  void checkBlockIds();
  void checkEdgeIds();
  void checkBlockBasics(const TaskBlock &B);
  bool checkShape(const TaskBlock &B);
  void checkClusters(const TaskBlock &B);
  void checkCluster(const TaskBlock &B, bool Input, int Idx,
                    const Dims &Expected, const std::string &What);
  void checkInterfaces(const TaskBlock &B, bool Input, int Idx);
  void checkEdgeLinks();
  void checkEdgeShape(const Edge &E, const IfaceRef &Src, const IfaceRef &Dst);
  void checkRolesAndPrecisions(const TaskBlock &B);
  void checkData(const TaskBlock &B);
  void checkAttributes(const TaskBlock &B);
  void checkWindow(const TaskBlock &B);
  void checkAcyclic();

  Precision clusterPrecision(const TaskBlock &B, int Cluster);
  std::vector<const TaskBlock *> clusterSources(const TaskBlock &B,
                                                int Cluster);
};

/// True if the tensor described by \p D has at most MaxVolume elements
/// (and all its dims are positive).
bool volumeFits(const Dims &D) {
  int64_t V = 1;
  for (int64_t N : D.present()) {
    if (N < 1 || V > MaxVolume / N)
      return false;
    V *= N;
  }
  return true;
}

std::string fieldName(bool Input, int Cluster) {
  return fmt::format("{}[{}]", Input ? "input_clusters" : "output_clusters",
                     Cluster);
}

Box interfaceBox(const Interface &I, const Dims &Cluster) {
  Box Bx;
  Bx.Pos = Dims::fromProto(I.position());
  Bx.Size = Dims::fromProto(I.size());
  if (Bx.Pos.mask() == 0 && !I.has_position())
    for (unsigned D = 0; D < NumDims; ++D)
      if (Cluster.has(D))
        Bx.Pos[D] = 0;
  if (Bx.Size.mask() == 0 && !I.has_size())
    Bx.Size = Cluster;
  return Bx;
}

//===----------------------------------------------------------------------===//
// Ids and basics
//===----------------------------------------------------------------------===//

void Validator::checkBlockIds() {
  for (const TaskBlock &B : G.blocks()) {
    if (!B.has_id()) {
      error(B, "id", "missing");
      continue;
    }
    if (!Blocks.emplace(B.id(), &B).second)
      error(B, "id", fmt::format("duplicate block id {}", B.id()));
  }
}

void Validator::checkEdgeIds() {
  for (const Edge &E : G.edges()) {
    if (!E.has_id()) {
      error(E, "id", "missing");
      continue;
    }
    if (!Edges.emplace(E.id(), &E).second) {
      error(E, "id", fmt::format("duplicate edge id {}", E.id()));
      continue;
    }
    if (!E.has_source())
      error(E, "source", "missing");
    else if (!block(E.source()))
      error(E, "source", fmt::format("block {} does not exist", E.source()));
    if (!E.has_destination())
      error(E, "destination", "missing");
    else if (!block(E.destination()))
      error(E, "destination",
            fmt::format("block {} does not exist", E.destination()));
    const TaskBlock *S = E.has_source() ? block(E.source()) : nullptr;
    const TaskBlock *D = E.has_destination() ? block(E.destination()) : nullptr;
    if (S && D && isComputeBlock(S->type()) && isComputeBlock(D->type()))
      error(E, "destination",
            fmt::format("joins two compute blocks ({} -> {}); a storage block "
                        "must sit between them",
                        describeBlock(*S), describeBlock(*D)));
  }
}

void Validator::checkBlockBasics(const TaskBlock &B) {
  if (B.type() == BLOCK_TYPE_UNSPECIFIED || !BlockType_IsValid(B.type()))
    error(B, "type", "missing or unknown block type");
  if (B.precision() == PRECISION_UNSPECIFIED || !Precision_IsValid(B.precision()))
    error(B, "precision", "missing or unknown precision");
}

/// Required and optional dims of a compute kind: from its data's source (the
/// READS column) and its window.
std::pair<unsigned, unsigned> computeShapeRule(BlockKind K) {
  if (inputLayout(K) == InputLayout::Variadic)
    return {dimMask({DY, DX, DF}), dimMask({DKY, DKX})};
  BlockKind Source = dataSource(K);
  if (Source == BlockKind::SIFC)
    return {dimMask({DF, DR}), 0};
  if (Source == BlockKind::SIC || Source == BlockKind::SIC2D)
    return {(1u << NumDims) - 1, 0};
  if (hasWindow(K))
    return {dimMask({DY, DX, DF, DKY, DKX, DIY, DIX}), 0};
  return {dimMask({DY, DX, DF}), 0};
}

/// Required and optional dims per block type (the seed's shape tables).
std::pair<unsigned, unsigned> shapeRule(BlockKind K) {
  switch (K) {
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
    return computeShapeRule(K);
  }
  llvm_unreachable("a kind of BlockKinds.def");
}

bool Validator::checkShape(const TaskBlock &B) {
  if (B.type() == BLOCK_TYPE_UNSPECIFIED || !BlockType_IsValid(B.type()))
    return false;
  Dims D = blockDims(B);
  bool Ok = true;
  for (unsigned I = 0; I < NumDims; ++I)
    if (D[I] == 0 || D[I] < -1) {
      error(B, "shape", fmt::format("dimension '{}' is {}; used dimensions "
                                    "must be >= 1 and unused ones -1",
                                    dimName(I), D[I]));
      Ok = false;
    }
  if (!Ok)
    return false;
  auto [Req, Opt] = shapeRule(kindOf(B));
  for (unsigned I = 0; I < NumDims; ++I) {
    bool Used = D.has(I);
    if ((Req >> I & 1) && !Used) {
      error(B, "shape", fmt::format("dimension '{}' is required for {}",
                                    dimName(I), blockTypeName(B.type())));
      Ok = false;
    } else if (!(Req >> I & 1) && !(Opt >> I & 1) && Used) {
      error(B, "shape", fmt::format("dimension '{}' must be -1 (unused) for {}",
                                    dimName(I), blockTypeName(B.type())));
      Ok = false;
    }
  }
  if (B.type() == CADD && ((D.has(DKY) && D[DKY] != 1) ||
                           (D.has(DKX) && D[DKX] != 1))) {
    error(B, "shape", "CADD's ky and kx are 1 (or -1)");
    Ok = false;
  }
  // Storage shapes are tensors; compute shapes are loop nests whose
  // tensors (clusters) are checked in checkCluster.
  if (Ok && isStorageBlock(B.type()) && !volumeFits(D)) {
    error(B, "shape", fmt::format("{} is too large", D.str()));
    return false;
  }
  return Ok;
}

//===----------------------------------------------------------------------===//
// Clusters and interfaces
//===----------------------------------------------------------------------===//

void Validator::checkCluster(const TaskBlock &B, bool Input, int Idx,
                             const Dims &Expected, const std::string &What) {
  const EdgeCluster &C =
      Input ? B.input_clusters(Idx) : B.output_clusters(Idx);
  Dims Got = Dims::fromProto(C.shape());
  if (!volumeFits(Expected)) {
    error(B, fieldName(Input, Idx) + ".shape",
          fmt::format("{} is too large", Expected.str()));
    return;
  }
  if (Got != Expected) {
    BadClusters.insert(&B);
    error(B, fieldName(Input, Idx) + ".shape",
          fmt::format("expected {} ({}), got {}", Expected.str(), What,
                      Got.str()));
    return;
  }
  checkInterfaces(B, Input, Idx);
}

void Validator::checkInterfaces(const TaskBlock &B, bool Input, int Idx) {
  const EdgeCluster &C =
      Input ? B.input_clusters(Idx) : B.output_clusters(Idx);
  Dims CD = Dims::fromProto(C.shape());
  std::vector<Box> Boxes;
  bool AllOk = true;
  for (int I = 0; I < C.interfaces_size(); ++I) {
    const Interface &If = C.interfaces(I);
    std::string F = fmt::format("{}.interfaces[{}]", fieldName(Input, Idx), I);
    Box Bx = interfaceBox(If, CD);
    bool Ok = true;
    if (Bx.Pos.mask() != CD.mask()) {
      error(B, F + ".position",
            fmt::format("uses dimensions {} but the cluster has {}",
                        maskStr(Bx.Pos.mask()), maskStr(CD.mask())));
      Ok = false;
    }
    if (Bx.Size.mask() != CD.mask()) {
      error(B, F + ".size",
            fmt::format("uses dimensions {} but the cluster has {}",
                        maskStr(Bx.Size.mask()), maskStr(CD.mask())));
      Ok = false;
    }
    for (unsigned D = 0; Ok && D < NumDims; ++D) {
      if (!CD.has(D))
        continue;
      if (Bx.Pos[D] < 0 || Bx.Size[D] < 1 ||
          Bx.Pos[D] + Bx.Size[D] > CD[D]) {
        error(B, F,
              fmt::format("position {} size {} lies outside the cluster shape "
                          "{} in dimension '{}'",
                          Bx.Pos.str(), Bx.Size.str(), CD.str(), dimName(D)));
        Ok = false;
      }
    }
    if (!If.has_edge_id()) {
      error(B, F + ".edge_id", "missing");
      Ok = false;
    } else {
      auto It = Edges.find(If.edge_id());
      if (It == Edges.end()) {
        error(B, F + ".edge_id",
              fmt::format("edge {} does not exist", If.edge_id()));
        Ok = false;
      } else {
        const Edge &E = *It->second;
        int64_t End = Input ? E.destination() : E.source();
        if ((Input ? !E.has_destination() : !E.has_source()) || End != B.id()) {
          error(B, F + ".edge_id",
                fmt::format("edge {} has {} {}, not this block", E.id(),
                            Input ? "destination" : "source", End));
          Ok = false;
        } else {
          (Input ? EdgeIns : EdgeOuts)[E.id()].push_back({&B, Input, Idx, I});
        }
      }
    }
    AllOk &= Ok;
    Boxes.push_back(Bx);
  }
  if (!Input || !AllOk || Boxes.empty())
    return;
  // Input interfaces must tile the cluster: no overlap, no gap.
  int64_t Sum = 0;
  for (size_t I = 0; I < Boxes.size(); ++I) {
    Sum += Boxes[I].Size.volume();
    for (size_t J = 0; J < I; ++J) {
      bool Overlap = true;
      for (unsigned D = 0; D < NumDims; ++D)
        if (CD.has(D) &&
            (Boxes[I].Pos[D] >= Boxes[J].Pos[D] + Boxes[J].Size[D] ||
             Boxes[J].Pos[D] >= Boxes[I].Pos[D] + Boxes[I].Size[D]))
          Overlap = false;
      if (Overlap) {
        error(B, fieldName(Input, Idx) + ".interfaces",
              fmt::format("input interfaces {} and {} overlap", J, I));
        return;
      }
    }
  }
  if (Sum != CD.volume())
    error(B, fieldName(Input, Idx) + ".interfaces",
          fmt::format("input interfaces cover {} of the cluster's {} elements; "
                      "they must cover it exactly",
                      Sum, CD.volume()));
}

void Validator::checkClusters(const TaskBlock &B) {
  BlockType T = B.type();
  if (isStorageBlock(T)) {
    if (B.input_clusters_size() > 1) {
      BadClusters.insert(&B);
      error(B, "input_clusters",
            fmt::format("storage blocks have at most one input cluster, got "
                        "{}",
                        B.input_clusters_size()));
    } else if (B.input_clusters_size() == 1) {
      checkCluster(B, true, 0, expectedStorageInputCluster(B), "input");
    }
    if (T == SO && B.output_clusters_size() > 0) {
      BadClusters.insert(&B);
      error(B, "output_clusters", "SO blocks have no output cluster");
    } else if (B.output_clusters_size() > 1) {
      BadClusters.insert(&B);
      error(B, "output_clusters",
            fmt::format("storage blocks have at most one output cluster, got "
                        "{}",
                        B.output_clusters_size()));
    } else if (B.output_clusters_size() == 1) {
      checkCluster(B, false, 0, expectedOutputCluster(B), "output");
    }
    return;
  }
  // Compute blocks. A wrong number of clusters leaves their interfaces
  // unindexed: BadClusters keeps the edges from repeating the problem.
  if (B.output_clusters_size() != 1) {
    BadClusters.insert(&B);
    error(B, "output_clusters",
          fmt::format("compute blocks have exactly one output cluster, got {}",
                      B.output_clusters_size()));
  } else {
    checkCluster(B, false, 0, expectedOutputCluster(B), "output");
  }

  std::vector<InputRole> Roles = inputRoles(B);
  int N = B.input_clusters_size();
  int NumData = int(count(Roles, InputRole::Data));
  int Fixed = 0;
  std::string Layout;
  bool Variadic = inputLayout(kindOf(B)) == InputLayout::Variadic;
  switch (inputLayout(kindOf(B))) {
  case InputLayout::Variadic:
    Fixed = 1, Layout = "input1[, input2, ...]";
    break;
  case InputLayout::DataData:
    Fixed = 2, Layout = "input1, input2";
    break;
  case InputLayout::DataWeight:
    Fixed = 2, Layout = "input, weight";
    break;
  case InputLayout::DataAlpha:
    Fixed = 2, Layout = "input, alpha";
    break;
  case InputLayout::Data:
    Fixed = 1, Layout = "input";
    break;
  case InputLayout::None:
    llvm_unreachable("storage blocks returned above");
  }
  if (takesBias(T))
    Layout += "[, bias]";
  int Max = Variadic ? INT32_MAX : Fixed + (takesBias(T) ? 1 : 0);
  if (N < Fixed || N > Max || (Variadic && NumData < 1)) {
    BadClusters.insert(&B);
    error(B, "input_clusters",
          fmt::format("{} takes input clusters ({}), got {}", blockTypeName(T),
                      Layout, N));
    return;
  }
  for (int I = 0; I < N; ++I) {
    if (B.input_clusters(I).interfaces_size() == 0) {
      error(B, fieldName(true, I),
            fmt::format("the {} cluster has no interfaces; every compute "
                        "input must be fed by an edge",
                        roleName(Roles[I])));
      continue;
    }
    checkCluster(B, true, I, expectedInputCluster(B, Roles[I]),
                 roleName(Roles[I]));
  }
}

//===----------------------------------------------------------------------===//
// Edges
//===----------------------------------------------------------------------===//

void Validator::checkEdgeLinks() {
  for (const Edge &E : G.edges()) {
    if (!E.has_id() || Edges[E.id()] != &E)
      continue;
    const TaskBlock *S = E.has_source() ? block(E.source()) : nullptr;
    const TaskBlock *D = E.has_destination() ? block(E.destination()) : nullptr;
    auto &Outs = EdgeOuts[E.id()];
    auto &Ins = EdgeIns[E.id()];
    bool Ok = true;
    if (S && ShapeOk.count(S) && !BadClusters.count(S) && Outs.size() != 1) {
      error(E, "source",
            Outs.empty()
                ? fmt::format("no output interface of {} refers to this edge",
                              describeBlock(*S))
                : fmt::format("{} output interfaces refer to this edge; "
                              "exactly one must",
                              Outs.size()));
      Ok = false;
    }
    if (D && ShapeOk.count(D) && !BadClusters.count(D) && Ins.size() != 1) {
      error(E, "destination",
            Ins.empty()
                ? fmt::format("no input interface of {} refers to this edge",
                              describeBlock(*D))
                : fmt::format("{} input interfaces refer to this edge; "
                              "exactly one must",
                              Ins.size()));
      Ok = false;
    }
    for (int I = 0; I < E.rearranges_size(); ++I) {
      RearrangeType T = E.rearranges(I).type();
      if (T == REARRANGE_UNSPECIFIED || !RearrangeType_IsValid(T)) {
        error(E, fmt::format("rearranges[{}].type", I),
              "missing or unknown rearrangement type");
        Ok = false;
      }
    }
    if (Ok && Outs.size() == 1 && Ins.size() == 1)
      checkEdgeShape(E, Outs[0], Ins[0]);
  }
}

void Validator::checkEdgeShape(const Edge &E, const IfaceRef &Src,
                               const IfaceRef &Dst) {
  const EdgeCluster &SC = Src.Block->output_clusters(Src.Cluster);
  const EdgeCluster &DC = Dst.Block->input_clusters(Dst.Cluster);
  Box SB = interfaceBox(SC.interfaces(Src.Index), Dims::fromProto(SC.shape()));
  Box DB = interfaceBox(DC.interfaces(Dst.Index), Dims::fromProto(DC.shape()));
  std::vector<int64_t> Shape = SB.Size.present();
  for (int I = 0; I < E.rearranges_size(); ++I) {
    Expected<std::vector<int64_t>> Next =
        rearrangedShape(E.rearranges(I), Shape);
    if (!Next) {
      error(E, fmt::format("rearranges[{}]", I),
            fmt::format("{} (input shape {})", toString(Next.takeError()),
                        shapeStr(Shape)));
      return;
    }
    Shape = *Next;
  }
  std::vector<int64_t> Want = DB.Size.present();
  if (Shape == Want)
    return;
  if (E.rearranges_size() == 0)
    error(E, "rearranges",
          fmt::format("source interface size {} does not match destination "
                      "interface size {}; add a rearrangement (e.g. RESHAPE)",
                      SB.Size.str(), DB.Size.str()));
  else
    error(E, "rearranges",
          fmt::format("rearrangements turn the source interface size {} into "
                      "{}, but the destination interface size is {}",
                      SB.Size.str(), shapeStr(Shape), DB.Size.str()));
}

//===----------------------------------------------------------------------===//
// Roles and precisions
//===----------------------------------------------------------------------===//

std::vector<const TaskBlock *> Validator::clusterSources(const TaskBlock &B,
                                                         int Cluster) {
  std::vector<const TaskBlock *> Srcs;
  for (const Interface &If : B.input_clusters(Cluster).interfaces()) {
    auto It = Edges.find(If.edge_id());
    if (It == Edges.end() || !It->second->has_source())
      continue;
    if (const TaskBlock *S = block(It->second->source()))
      Srcs.push_back(S);
  }
  return Srcs;
}

/// Precision of the data arriving in an input cluster, or UNSPECIFIED if
/// unknown (no source) or mixed (reported).
Precision Validator::clusterPrecision(const TaskBlock &B, int Cluster) {
  Precision P = PRECISION_UNSPECIFIED;
  for (const TaskBlock *S : clusterSources(B, Cluster)) {
    if (P != PRECISION_UNSPECIFIED && S->precision() != P) {
      error(B, fieldName(true, Cluster),
            fmt::format("interfaces receive mixed precisions {} and {}",
                        precisionName(P), precisionName(S->precision())));
      return PRECISION_UNSPECIFIED;
    }
    P = S->precision();
  }
  return P;
}

void Validator::checkRolesAndPrecisions(const TaskBlock &B) {
  if (isStorageBlock(B.type())) {
    // Storage blocks store what they receive: the precision must match.
    if (B.input_clusters_size() != 1)
      return;
    for (const TaskBlock *S : clusterSources(B, 0))
      if (S->precision() != B.precision() &&
          Precision_IsValid(S->precision()) &&
          S->precision() != PRECISION_UNSPECIFIED)
        error(B, "precision",
              fmt::format("is {} but its source {} produces {}; storage "
                          "blocks do not convert precisions",
                          precisionName(B.precision()), describeBlock(*S),
                          precisionName(S->precision())));
    return;
  }
  std::vector<InputRole> Roles = inputRoles(B);
  Precision DataP = PRECISION_UNSPECIFIED, WeightP = PRECISION_UNSPECIFIED;
  Precision BiasP = PRECISION_UNSPECIFIED, AlphaP = PRECISION_UNSPECIFIED;
  bool HasBias = false;
  for (int I = 0; I < int(Roles.size()); ++I) {
    InputRole R = Roles[I];
    std::vector<BlockType> Allowed = allowedSources(B.type(), R);
    for (const TaskBlock *S : clusterSources(B, I))
      if (!is_contained(Allowed, S->type())) {
        std::string Names;
        for (BlockType T : Allowed)
          Names += (Names.empty() ? "" : " or ") + blockTypeName(T);
        error(B, fieldName(true, I),
              fmt::format("the {} of {} must come from {}, but {} feeds it",
                          roleName(R), blockTypeName(B.type()), Names,
                          describeBlock(*S)));
      }
    Precision P = clusterPrecision(B, I);
    if (P == PRECISION_UNSPECIFIED)
      continue;
    switch (R) {
    case InputRole::Data:
      if (DataP != PRECISION_UNSPECIFIED &&
          isFloatPrecision(DataP) != isFloatPrecision(P))
        error(B, fieldName(true, I),
              fmt::format("mixes float and integer inputs ({} and {})",
                          precisionName(DataP), precisionName(P)));
      DataP = P;
      break;
    case InputRole::Weight:
      WeightP = P;
      break;
    case InputRole::Alpha:
      AlphaP = P;
      break;
    case InputRole::Bias:
      HasBias = true;
      BiasP = P;
      break;
    }
  }
  if (DataP == PRECISION_UNSPECIFIED)
    return;
  bool FloatIn = isFloatPrecision(DataP);
  Precision Out = B.precision();
  std::string DataName = precisionName(DataP);
  BlockType T = B.type();
  auto Class = [](Precision P) { return isFloatPrecision(P) ? "float" : "integer"; };
  if (WeightP != PRECISION_UNSPECIFIED && isFloatPrecision(WeightP) != FloatIn)
    error(B, "precision",
          fmt::format("{} inputs with {} weights; both must be integer or both "
                      "float",
                      DataName, precisionName(WeightP)));
  if (AlphaP != PRECISION_UNSPECIFIED && isFloatPrecision(AlphaP) != FloatIn)
    error(B, "precision",
          fmt::format("{} inputs with {} alpha; both must be integer or both "
                      "float",
                      DataName, precisionName(AlphaP)));
  if (HasBias) {
    bool BiasOk = FloatIn ? isFloatPrecision(BiasP) : BiasP == INT32;
    if (!BiasOk)
      error(B, "precision",
            fmt::format("bias is {} but {} inputs need a {} bias", 
                        precisionName(BiasP), Class(DataP),
                        FloatIn ? "FLOAT16 or FLOAT32" : "INT32"));
  }
  // The output precision each compute kind produces from its inputs.
  switch (outputRule(kindOf(B))) {
  case OutputRule::Accumulates:
    if (!FloatIn && Out != INT32)
      error(B, "precision",
            fmt::format("{} with {} inputs must produce INT32, got {}",
                        blockTypeName(T), DataName, precisionName(Out)));
    if (FloatIn && !isFloatPrecision(Out))
      error(B, "precision",
            fmt::format("{} with {} inputs must produce FLOAT16 or FLOAT32, "
                        "got {}",
                        blockTypeName(T), DataName, precisionName(Out)));
    break;
  case OutputRule::Keeps:
    if (Out != DataP)
      error(B, "precision",
            fmt::format("{} keeps its input precision {}, got {}",
                        blockTypeName(T), DataName, precisionName(Out)));
    break;
  case OutputRule::Table: {
    int64_t TableSize = B.data().int32_data_size() +
                        B.data().uint32_data_size() +
                        B.data().float_data_size();
    if (FloatIn || DataP == INT32 || DataP == UINT32)
      error(B, "precision",
            fmt::format("CLUT indexes its table with the input value; {} "
                        "inputs are not supported (use INT8, UINT8, INT9, "
                        "INT16, UINT16 or TERNARY)",
                        DataName));
    else if (TableSize > 0 && // no table: reported by checkData
             TableSize != precisionMax(DataP) - precisionMin(DataP) + 1)
      error(B, "data",
            fmt::format("CLUT table for {} inputs needs {} entries (one per "
                        "input value from {}), got {}",
                        DataName, precisionMax(DataP) - precisionMin(DataP) + 1,
                        precisionMin(DataP), TableSize));
    break;
  }
  case OutputRule::Any:
    break;
  case OutputRule::SameClass:
    if (isFloatPrecision(Out) != FloatIn)
      error(B, "precision",
            fmt::format(
                "{} with {} inputs must have {} output precision, got {}",
                blockTypeName(T), DataName, Class(DataP), precisionName(Out)));
    break;
  case OutputRule::Stored:
    llvm_unreachable("storage blocks returned above");
  }
}

//===----------------------------------------------------------------------===//
// Data and attributes
//===----------------------------------------------------------------------===//

void Validator::checkData(const TaskBlock &B) {
  const Data &D = B.data();
  BlockType T = B.type();
  int NI = D.int32_data_size(), NU = D.uint32_data_size(),
      NF = D.float_data_size();
  bool HasData = NI + NU + NF > 0;
  bool HasInit = B.has_init();
  bool CarriesData = carriesData(kindOf(B));
  if (HasData && !CarriesData) {
    error(B, "data", "only SW, SWFC, SB and CLUT blocks carry data");
    return;
  }
  if (HasInit && blockRole(kindOf(B)) != BlockRole::Param) {
    error(B, "init", "only SW, SWFC and SB blocks may be initialised");
    return;
  }
  if (!CarriesData)
    return;
  if (HasInit) {
    const WeightInit &I = B.init();
    if (I.kind() != WeightInit::UNIFORM && I.kind() != WeightInit::CONSTANT)
      error(B, "init.kind", "must be UNIFORM or CONSTANT");
    if (!std::isfinite(I.scale()) ||
        (I.kind() == WeightInit::UNIFORM && I.scale() < 0))
      error(B, "init.scale",
            fmt::format("must be finite (and >= 0 for UNIFORM), got {}",
                        I.scale()));
  }
  bool HasProducer = B.input_clusters_size() > 0 &&
                     B.input_clusters(0).interfaces_size() > 0;
  if (T != CLUT) {
    int Sources = int(HasData) + int(HasInit) + int(HasProducer);
    if (Sources == 0) {
      error(B, "data",
            "has neither data, init nor a producing edge; weights and biases "
            "need values");
      return;
    }
    if (Sources > 1) {
      error(B, "data",
            "more than one of data, init and a producing edge give this "
            "block's values");
      return;
    }
  }
  if (!HasData) {
    if (T == CLUT)
      error(B, "data", "CLUT needs its table in data");
    return;
  }
  if (!Precision_IsValid(B.precision()) ||
      B.precision() == PRECISION_UNSPECIFIED)
    return;
  Precision P = B.precision();
  DataContainer C = dataContainer(P);
  const char *Want = C == DataContainer::Float    ? "float_data"
                     : C == DataContainer::UInt32 ? "uint32_data"
                                                  : "int32_data";
  int Wrong = C == DataContainer::Float    ? NI + NU
              : C == DataContainer::UInt32 ? NI + NF
                                           : NU + NF;
  if (Wrong) {
    error(B, "data",
          fmt::format("{} values belong in {}, but {} values are in other "
                      "containers",
                      precisionName(P), Want, Wrong));
    return;
  }
  if (D.precision() != PRECISION_UNSPECIFIED && D.precision() != P)
    error(B, "data.precision",
          fmt::format("is {} but the block precision is {}",
                      precisionName(D.precision()), precisionName(P)));
  int N = NI + NU + NF;
  if (T != CLUT) {
    std::vector<int64_t> Shape = storageShape(B);
    int64_t Need = blockDims(B).volume();
    if (N != Need)
      error(B, "data",
            fmt::format("has {} values but shape {} needs {}", N,
                        blockDims(B).str(), Need));
    if (D.shape_size() &&
        std::vector<int64_t>(D.shape().begin(), D.shape().end()) != Shape)
      error(B, "data.shape",
            fmt::format("{} does not match the block shape {}",
                        shapeStr(std::vector<int64_t>(D.shape().begin(),
                                                      D.shape().end())),
                        shapeStr(Shape)));
  } else if (D.shape_size() && (D.shape_size() != 1 || D.shape(0) != N)) {
    error(B, "data.shape", fmt::format("a CLUT table is 1-D with {} entries", N));
  }
  if (C == DataContainer::Float) {
    for (int I = 0; I < NF; ++I)
      if (!std::isfinite(D.float_data(I))) {
        error(B, "data", fmt::format("float_data[{}] is not finite", I));
        return;
      }
    return;
  }
  for (int I = 0; I < N; ++I) {
    int64_t V = C == DataContainer::UInt32 ? int64_t(D.uint32_data(I))
                                           : int64_t(D.int32_data(I));
    if (V < precisionMin(P) || V > precisionMax(P)) {
      error(B, "data",
            fmt::format("{}[{}] = {} is outside the {} range [{}, {}]", Want, I,
                        V, precisionName(P), precisionMin(P),
                        precisionMax(P)));
      return;
    }
  }
}

/// The attributes of a block kind, in groups.
enum class AttrGroup { Window, Dilation, Cmp, ConstA, ConstB, Neuron, None };

AttrGroup attrGroup(AttributeType A) {
  switch (A) {
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

/// Whether attribute group \p G (not the window's, which follows the WINDOW
/// column) applies to kind \p K: its ATTRS column. CC and CC2D take a bias
/// only as an SB cluster, not as CONST_B.
bool kindTakes(BlockKind K, AttrGroup G) {
  switch (attrSet(K)) {
  case AttrSet::Dilation:
    return G == AttrGroup::Dilation;
  case AttrSet::Cmp:
    return G == AttrGroup::Cmp;
  case AttrSet::ConstAB:
    return G == AttrGroup::ConstA || G == AttrGroup::ConstB;
  case AttrSet::ConstB:
    return G == AttrGroup::ConstB;
  case AttrSet::Neuron:
    return G == AttrGroup::Neuron;
  case AttrSet::None:
    return false;
  }
  llvm_unreachable("an ATTRS value of BlockKinds.def");
}

/// Block kinds an attribute applies to.
bool attrApplies(AttributeType A, BlockKind K) {
  AttrGroup G = attrGroup(A);
  if (G == AttrGroup::Window)
    return hasWindow(K);
  return G != AttrGroup::None && kindTakes(K, G);
}

void Validator::checkAttributes(const TaskBlock &B) {
  std::set<int> Seen;
  BlockType T = B.type();
  for (int I = 0; I < B.attributes_size(); ++I) {
    const Attribute &A = B.attributes(I);
    std::string F = fmt::format("attributes[{}]", I);
    AttributeType AT = A.type();
    if (AT == ATTRIBUTE_UNSPECIFIED || !AttributeType_IsValid(AT)) {
      error(B, F + ".type", "missing or unknown attribute type");
      continue;
    }
    std::string Name = attributeName(AT);
    if (!Seen.insert(AT).second) {
      error(B, F, fmt::format("{} is given more than once", Name));
      continue;
    }
    if (!attrApplies(AT, kindOf(B))) {
      error(B, F, fmt::format("{} does not apply to {}", Name,
                              blockTypeName(T)));
      continue;
    }
    if (A.value_case() == Attribute::VALUE_NOT_SET) {
      error(B, F, fmt::format("{} has no int_value or float_value", Name));
      continue;
    }
    double V = A.value_case() == Attribute::kIntValue ? double(A.int_value())
                                                      : A.float_value();
    if (!std::isfinite(V)) {
      error(B, F, fmt::format("{} is not finite", Name));
      continue;
    }
    bool IntOnly = AT <= DILATION_Y || AT == RESET_MODE;
    if (IntOnly && A.value_case() != Attribute::kIntValue) {
      error(B, F, fmt::format("{} must be an int_value", Name));
      continue;
    }
    Dims D = blockDims(B);
    if ((AT == KERNEL_X && D.has(DKX) && V != D[DKX]) ||
        (AT == KERNEL_Y && D.has(DKY) && V != D[DKY]))
      error(B, F,
            fmt::format("{} = {} disagrees with the shape's {} = {}", Name, V,
                        AT == KERNEL_X ? "kx" : "ky",
                        AT == KERNEL_X ? D[DKX] : D[DKY]));
    else if ((AT == STRIDE_X || AT == STRIDE_Y || AT == DILATION_X ||
              AT == DILATION_Y) &&
             V < 1)
      error(B, F, fmt::format("{} must be >= 1, got {}", Name, V));
    else if (AT >= PAD_UP && AT <= PAD_RIGHT && V < 0)
      error(B, F, fmt::format("{} must be >= 0, got {}", Name, V));
    else if (AT == RESET_MODE && V != 0 && V != 1)
      error(B, F,
            fmt::format("RESET_MODE must be 0 (reset to V_RESET) or 1 "
                        "(subtract V_TH), got {}",
                        V));
    else if (AT == DECAY && (V < 0 || V > 1))
      error(B, F, fmt::format("DECAY must lie in [0, 1], got {}", V));
  }
  if (T == CVS && !findAttr(B, CONST_A))
    error(B, "attributes", "CVS needs CONST_A (the scale)");
  if (T == CLIF && !findAttr(B, V_TH))
    error(B, "attributes", "CLIF needs V_TH (the firing threshold)");
  if (findAttr(B, CONST_B) && B.input_clusters_size() > 0) {
    std::vector<InputRole> Roles = inputRoles(B);
    if (is_contained(Roles, InputRole::Bias))
      error(B, "attributes",
            "the bias is given both by an SB input cluster and by CONST_B");
  }
}

void Validator::checkWindow(const TaskBlock &B) {
  if (!hasWindow(B.type()))
    return;
  Dims D = blockDims(B);
  KernelParams K = kernelParams(B);
  if (K.SY < 1 || K.SX < 1 || K.DY < 1 || K.DX < 1 || K.PadUp < 0 ||
      K.PadDown < 0 || K.PadLeft < 0 || K.PadRight < 0)
    return; // reported by checkAttributes
  int64_t OY = windowOutputSize(D[DIY], K.PadUp, K.PadDown, K.KY, K.SY, K.DY);
  int64_t OX =
      windowOutputSize(D[DIX], K.PadLeft, K.PadRight, K.KX, K.SX, K.DX);
  if (OY != D[DY])
    error(B, "shape",
          fmt::format("y = {} but the window gives (iy {} + pad {} + {} - "
                      "dilation {} * (ky {} - 1) - 1) / stride {} + 1 = {}",
                      D[DY], D[DIY], K.PadUp, K.PadDown, K.DY, K.KY, K.SY, OY));
  if (OX != D[DX])
    error(B, "shape",
          fmt::format("x = {} but the window gives (ix {} + pad {} + {} - "
                      "dilation {} * (kx {} - 1) - 1) / stride {} + 1 = {}",
                      D[DX], D[DIX], K.PadLeft, K.PadRight, K.DX, K.KX, K.SX,
                      OX));
}

//===----------------------------------------------------------------------===//
// Acyclicity
//===----------------------------------------------------------------------===//

void Validator::checkAcyclic() {
  std::map<int64_t, std::vector<int64_t>> Succ;
  std::map<int64_t, int> InDeg;
  for (auto &[Id, B] : Blocks)
    InDeg[Id] = 0;
  for (auto &[Id, E] : Edges) {
    if (!E->has_source() || !E->has_destination() || !block(E->source()) ||
        !block(E->destination()))
      continue;
    Succ[E->source()].push_back(E->destination());
    ++InDeg[E->destination()];
  }
  std::vector<int64_t> Ready;
  for (auto &[Id, D] : InDeg)
    if (D == 0)
      Ready.push_back(Id);
  size_t Done = 0;
  while (!Ready.empty()) {
    int64_t Id = Ready.back();
    Ready.pop_back();
    ++Done;
    for (int64_t S : Succ[Id])
      if (--InDeg[S] == 0)
        Ready.push_back(S);
  }
  if (Done == InDeg.size())
    return;
  std::string Ids;
  for (auto &[Id, D] : InDeg)
    if (D > 0)
      Ids += (Ids.empty() ? "" : ", ") + std::to_string(Id);
  graphError(fmt::format("has a cycle (Task IR 1.0 graphs must be acyclic); "
                         "blocks on or after it: {}",
                         Ids));
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
  std::map<std::string, const TaskBlock *> Names;
  for (const TaskBlock &B : G.blocks()) {
    checkBlockBasics(B);
    if (!B.name().empty() && !Names.emplace(B.name(), &B).second)
      error(B, "name",
            fmt::format("'{}' is also the name of {}", B.name(),
                        describeBlock(*Names[B.name()])));
    if (checkShape(B) && B.has_id() && Blocks[B.id()] == &B &&
        Precision_IsValid(B.precision()) &&
        B.precision() != PRECISION_UNSPECIFIED)
      ShapeOk.insert(&B);
  }
  for (const TaskBlock &B : G.blocks())
    if (ShapeOk.count(&B)) {
      checkClusters(B);
      checkAttributes(B);
      checkWindow(B);
    }
  checkEdgeLinks();
  for (const TaskBlock &B : G.blocks())
    if (ShapeOk.count(&B)) {
      checkData(B);
      checkRolesAndPrecisions(B);
    }
  checkAcyclic();
  return Errors;
}

} // namespace

std::vector<std::string> collectGraphErrors(const TaskGraph &G) {
  return Validator(G).run();
}

Error validateGraph(const TaskGraph &G) {
  std::vector<std::string> Errs = collectGraphErrors(G);
  if (Errs.empty())
    return Error::success();
  std::string Msg = Errs.size() == 1
                        ? Errs[0]
                        : fmt::format("{} problems:", Errs.size());
  if (Errs.size() > 1)
    for (const std::string &E : Errs)
      Msg += "\n  " + E;
  return createStringError(inconvertibleErrorCode(), Msg);
}

} // namespace bangc::graph
