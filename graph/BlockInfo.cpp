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
  return T == CAVG || T == CC || T == CC2D || T == CCMPB || T == CCMPS;
}

bool takesBias(BlockType T) {
  return T == CADD || T == CAVG || T == CVVH || T == CVM || T == CC ||
         T == CC2D || T == CAX || T == CVS;
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

/// The fixed leading roles of each compute type (CADD is variadic).
static std::vector<InputRole> fixedRoles(BlockType T) {
  using R = InputRole;
  switch (T) {
  case CVVH:
    return {R::Data, R::Data};
  case CVM:
  case CC:
  case CC2D:
    return {R::Data, R::Weight};
  case CAX:
    return {R::Data, R::Alpha};
  case CAVG:
  case CVS:
  case CCMPB:
  case CCMPS:
  case CLUT:
  case CLIF:
    return {R::Data};
  default:
    return {};
  }
}

std::vector<InputRole> inputRoles(const TaskBlock &B) {
  int N = B.input_clusters_size();
  if (B.type() == CADD) {
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
    if (T == CVM)
      return Dims{{DF, D[DF]}, {DR, D[DR]}};
    return Dims{{DF, D[DF]}, {DR, D[DR]}, {DKY, D[DKY]}, {DKX, D[DKX]}};
  }
  switch (T) {
  case CVM:
    return Dims{{DR, D[DR]}};
  case CC:
  case CC2D:
    return Dims{{DY, D[DIY]}, {DX, D[DIX]}, {DR, D[DR]}};
  case CAVG:
  case CCMPB:
  case CCMPS:
    return Dims{{DY, D[DIY]}, {DX, D[DIX]}, {DF, D[DF]}};
  default:
    return Dims{{DY, D[DY]}, {DX, D[DX]}, {DF, D[DF]}};
  }
}

Dims expectedOutputCluster(const TaskBlock &B) {
  Dims D = blockDims(B);
  if (isStorageBlock(B.type()))
    return D;
  if (B.type() == CVM)
    return Dims{{DF, D[DF]}};
  return Dims{{DY, D[DY]}, {DX, D[DX]}, {DF, D[DF]}};
}

Dims expectedStorageInputCluster(const TaskBlock &B) {
  Dims D = blockDims(B);
  switch (B.type()) {
  case SIC:
  case SIC2D:
    return Dims{{DY, D[DY]}, {DX, D[DX]}, {DF, D[DR]}};
  case SIFC:
    return Dims{{DF, D[DR]}};
  default:
    return D;
  }
}

std::vector<BlockType> allowedSources(BlockType Compute, InputRole R) {
  switch (R) {
  case InputRole::Bias:
  case InputRole::Alpha:
    return {SB};
  case InputRole::Weight:
    return Compute == CVM ? std::vector<BlockType>{SWFC}
                          : std::vector<BlockType>{SW};
  case InputRole::Data:
    if (Compute == CC)
      return {SIC};
    if (Compute == CC2D)
      return {SIC2D};
    if (Compute == CVM)
      return {SIFC};
    return {SI};
  }
  llvm_unreachable("bad role");
}

} // namespace bangc::graph
