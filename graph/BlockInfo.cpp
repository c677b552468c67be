//===- BlockInfo.cpp - Typed accessors for one TaskBlock -----------------===//
#include "graph/BlockInfo.h"

#include "graph/Precision.h"

#include "llvm/Support/ErrorHandling.h"

#include <fmt/format.h>

using namespace bangc::taskir;

namespace bangc::graph {

std::string describeBlock(const TaskBlock &B) {
  std::string Id = B.has_id() ? std::to_string(B.id()) : "<no id>";
  std::string S = fmt::format("block {} ({}", Id, blockTypeName(B.type()));
  if (!B.name().empty())
    S += fmt::format(" '{}'", B.name());
  return S + ")";
}

const Attribute *findAttr(const TaskBlock &B, AttributeType T) {
  for (const Attribute &A : B.attributes())
    if (A.type() == T)
      return &A;
  return nullptr;
}

std::optional<double> attrNumber(const TaskBlock &B, AttributeType T) {
  const Attribute *A = findAttr(B, T);
  if (!A)
    return std::nullopt;
  if (A->value_case() == Attribute::kIntValue)
    return double(A->int_value());
  if (A->value_case() == Attribute::kFloatValue)
    return A->float_value();
  return std::nullopt;
}

bool attrIsFloat(const TaskBlock &B, AttributeType T) {
  const Attribute *A = findAttr(B, T);
  return A && A->value_case() == Attribute::kFloatValue;
}

static int64_t intAttrOr(const TaskBlock &B, AttributeType T, int64_t Def) {
  std::optional<double> V = attrNumber(B, T);
  return V ? int64_t(*V) : Def;
}

KernelParams kernelParams(const TaskBlock &B) {
  KernelParams K;
  Dims D = blockDims(B);
  K.KY = D.has(DKY) ? D[DKY] : 1;
  K.KX = D.has(DKX) ? D[DKX] : 1;
  K.SY = intAttrOr(B, STRIDE_Y, 1);
  K.SX = intAttrOr(B, STRIDE_X, 1);
  K.PadUp = intAttrOr(B, PAD_UP, 0);
  K.PadDown = intAttrOr(B, PAD_DOWN, 0);
  K.PadLeft = intAttrOr(B, PAD_LEFT, 0);
  K.PadRight = intAttrOr(B, PAD_RIGHT, 0);
  K.DY = intAttrOr(B, DILATION_Y, 1);
  K.DX = intAttrOr(B, DILATION_X, 1);
  return K;
}

int64_t windowOutputSize(int64_t In, int64_t PadA, int64_t PadB, int64_t K,
                         int64_t S, int64_t Dil) {
  int64_t Span = In + PadA + PadB - Dil * (K - 1) - 1;
  if (Span < 0 || S <= 0)
    return 0;
  return Span / S + 1;
}

bool hasWindow(BlockType T) {
  std::optional<BlockKind> K = blockKind(T);
  return K && hasWindow(*K);
}

bool takesBias(BlockType T) {
  std::optional<BlockKind> K = blockKind(T);
  return K && takesBias(*K);
}

const char *roleName(InputRole R) {
  switch (R) {
  case InputRole::Data:
    return "input";
  case InputRole::Weight:
    return "weight";
  case InputRole::Alpha:
    return "alpha";
  case InputRole::Bias:
    return "bias";
  }
  llvm_unreachable("bad role");
}

/// Whether \p T is fully connected: its data comes from SIFC (the READS
/// column), its weights from SWFC, its output is [F].
static bool fullyConnected(BlockType T) {
  std::optional<BlockKind> K = blockKind(T);
  return K && isCompute(*K) && dataSource(*K) == BlockKind::SIFC;
}

/// The fixed leading roles of each compute type, its INPUTS column (CADD is
/// variadic; storage types and types the table does not list have none).
static std::vector<InputRole> fixedRoles(BlockType T) {
  using R = InputRole;
  std::optional<BlockKind> K = blockKind(T);
  if (!K)
    return {};
  switch (inputLayout(*K)) {
  case InputLayout::Data:
    return {R::Data};
  case InputLayout::DataData:
    return {R::Data, R::Data};
  case InputLayout::DataWeight:
    return {R::Data, R::Weight};
  case InputLayout::DataAlpha:
    return {R::Data, R::Alpha};
  case InputLayout::Variadic:
  case InputLayout::None:
    return {};
  }
  llvm_unreachable("an INPUTS value of BlockKinds.def");
}

std::vector<InputRole> inputRoles(const TaskBlock &B) {
  int N = B.input_clusters_size();
  std::optional<BlockKind> K = blockKind(B.type());
  if (K && inputLayout(*K) == InputLayout::Variadic) {
    std::vector<InputRole> Roles(N, InputRole::Data);
    if (N >= 2 && Dims::fromProto(B.input_clusters(N - 1).shape()).mask() ==
                      dimMask({DF}))
      Roles.back() = InputRole::Bias;
    return Roles;
  }
  std::vector<InputRole> Roles = fixedRoles(B.type());
  if (takesBias(B.type()))
    Roles.push_back(InputRole::Bias);
  if (int(Roles.size()) > N)
    Roles.resize(N);
  return Roles;
}

Dims expectedInputCluster(const TaskBlock &B, InputRole R) {
  Dims D = blockDims(B);
  BlockType T = B.type();
  if (R == InputRole::Bias || R == InputRole::Alpha)
    return Dims{{DF, D[DF]}};
  if (R == InputRole::Weight) {
    if (fullyConnected(T))
      return Dims{{DF, D[DF]}, {DR, D[DR]}};
    return Dims{{DF, D[DF]}, {DR, D[DR]}, {DKY, D[DKY]}, {DKX, D[DKX]}};
  }
  Dims Same{{DY, D[DY]}, {DX, D[DX]}, {DF, D[DF]}};
  std::optional<BlockKind> K = blockKind(T);
  if (!K || isStorage(*K))
    return Same;
  // The data's shape is its source's (the READS column), seen through the
  // window if the kind slides one.
  BlockKind Source = dataSource(*K);
  if (Source == BlockKind::SIFC)
    return Dims{{DR, D[DR]}};
  if (Source == BlockKind::SIC || Source == BlockKind::SIC2D)
    return Dims{{DY, D[DIY]}, {DX, D[DIX]}, {DR, D[DR]}};
  if (hasWindow(*K))
    return Dims{{DY, D[DIY]}, {DX, D[DIX]}, {DF, D[DF]}};
  return Same;
}

Dims expectedOutputCluster(const TaskBlock &B) {
  Dims D = blockDims(B);
  if (isStorageBlock(B.type()))
    return D;
  if (fullyConnected(B.type()))
    return Dims{{DF, D[DF]}};
  return Dims{{DY, D[DY]}, {DX, D[DX]}, {DF, D[DF]}};
}

Dims expectedStorageInputCluster(const TaskBlock &B) {
  Dims D = blockDims(B);
  std::optional<BlockKind> K = blockKind(B.type());
  if (!K)
    return D;
  switch (*K) {
  case BlockKind::SIC:
  case BlockKind::SIC2D:
    return Dims{{DY, D[DY]}, {DX, D[DX]}, {DF, D[DR]}};
  case BlockKind::SIFC:
    return Dims{{DF, D[DR]}};
  case BlockKind::SI:
  case BlockKind::SW:
  case BlockKind::SWFC:
  case BlockKind::SB:
  case BlockKind::SO:
#include "graph/ComputeKindCases.inc"
    return D;
  }
  llvm_unreachable("a kind of BlockKinds.def");
}

std::vector<BlockType> allowedSources(BlockType Compute, InputRole R) {
  switch (R) {
  case InputRole::Bias:
  case InputRole::Alpha:
    return {SB};
  case InputRole::Weight:
    return fullyConnected(Compute) ? std::vector<BlockType>{SWFC}
                                   : std::vector<BlockType>{SW};
  case InputRole::Data: {
    std::optional<BlockKind> K = blockKind(Compute);
    if (!K || isStorage(*K))
      return {SI};
    return {BlockType(dataSource(*K))};
  }
  }
  llvm_unreachable("bad role");
}

} // namespace bangc::graph
