//===- BlockInfo.cpp - Typed accessors for one TaskBlock -----------------===//
#include "graph/BlockInfo.h"

#include "graph/Precision.h"

#include "llvm/Support/ErrorHandling.h"

#include <fmt/format.h>

using namespace bangc::taskir;

namespace bangc::graph {

std::string describeBlock(const TaskBlock &b) {
  std::string id = b.has_id() ? std::to_string(b.id()) : "<no id>";
  std::string s = fmt::format("block {} ({}", id, blockTypeName(b.type()));
  if (!b.name().empty())
    s += fmt::format(" '{}'", b.name());
  return s + ")";
}

const Attribute *findAttr(const TaskBlock &b, AttributeType t) {
  for (const Attribute &a : b.attributes())
    if (a.type() == t)
      return &a;
  return nullptr;
}

std::optional<double> attrNumber(const TaskBlock &b, AttributeType t) {
  const Attribute *a = findAttr(b, t);
  if (!a)
    return std::nullopt;
  if (a->value_case() == Attribute::kIntValue)
    return double(a->int_value());
  if (a->value_case() == Attribute::kFloatValue)
    return a->float_value();
  return std::nullopt;
}

bool attrIsFloat(const TaskBlock &b, AttributeType t) {
  const Attribute *a = findAttr(b, t);
  return a && a->value_case() == Attribute::kFloatValue;
}

static int64_t intAttrOr(const TaskBlock &b, AttributeType t, int64_t def) {
  std::optional<double> v = attrNumber(b, t);
  return v ? int64_t(*v) : def;
}

KernelParams kernelParams(const TaskBlock &b) {
  KernelParams k;
  Dims d = blockDims(b);
  k.KY = d.has(DKY) ? d[DKY] : 1;
  k.KX = d.has(DKX) ? d[DKX] : 1;
  k.SY = intAttrOr(b, STRIDE_Y, 1);
  k.SX = intAttrOr(b, STRIDE_X, 1);
  k.PadUp = intAttrOr(b, PAD_UP, 0);
  k.PadDown = intAttrOr(b, PAD_DOWN, 0);
  k.PadLeft = intAttrOr(b, PAD_LEFT, 0);
  k.PadRight = intAttrOr(b, PAD_RIGHT, 0);
  k.DY = intAttrOr(b, DILATION_Y, 1);
  k.DX = intAttrOr(b, DILATION_X, 1);
  return k;
}

int64_t windowOutputSize(int64_t in, int64_t padA, int64_t padB, int64_t k,
                         int64_t s, int64_t dil) {
  int64_t span = in + padA + padB - dil * (k - 1) - 1;
  if (span < 0 || s <= 0)
    return 0;
  return span / s + 1;
}

bool hasWindow(BlockType t) {
  std::optional<BlockKind> k = blockKind(t);
  return k && hasWindow(*k);
}

bool takesBias(BlockType t) {
  std::optional<BlockKind> k = blockKind(t);
  return k && takesBias(*k);
}

const char *roleName(InputRole r) {
  switch (r) {
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

/// Whether \p t is fully connected: its data comes from SIFC (the READS
/// column), its weights from SWFC, its output is [F].
static bool fullyConnected(BlockType t) {
  std::optional<BlockKind> k = blockKind(t);
  return k && isCompute(*k) && dataSource(*k) == BlockKind::SIFC;
}

/// The fixed leading roles of each compute type, its INPUTS column (CADD is
/// variadic; storage types and types the table does not list have none).
static std::vector<InputRole> fixedRoles(BlockType t) {
  using R = InputRole;
  std::optional<BlockKind> k = blockKind(t);
  if (!k)
    return {};
  switch (inputLayout(*k)) {
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

std::vector<InputRole> inputRoles(const TaskBlock &b) {
  int n = b.input_clusters_size();
  std::optional<BlockKind> k = blockKind(b.type());
  if (k && inputLayout(*k) == InputLayout::Variadic) {
    std::vector<InputRole> roles(n, InputRole::Data);
    if (n >= 2 && Dims::fromProto(b.input_clusters(n - 1).shape()).mask() ==
                      dimMask({DF}))
      roles.back() = InputRole::Bias;
    return roles;
  }
  std::vector<InputRole> roles = fixedRoles(b.type());
  if (takesBias(b.type()))
    roles.push_back(InputRole::Bias);
  if (int(roles.size()) > n)
    roles.resize(n);
  return roles;
}

Dims expectedInputCluster(const TaskBlock &b, InputRole r) {
  Dims d = blockDims(b);
  BlockType t = b.type();
  if (r == InputRole::Bias || r == InputRole::Alpha)
    return Dims{{DF, d[DF]}};
  if (r == InputRole::Weight) {
    if (fullyConnected(t))
      return Dims{{DF, d[DF]}, {DR, d[DR]}};
    return Dims{{DF, d[DF]}, {DR, d[DR]}, {DKY, d[DKY]}, {DKX, d[DKX]}};
  }
  Dims same{{DY, d[DY]}, {DX, d[DX]}, {DF, d[DF]}};
  std::optional<BlockKind> k = blockKind(t);
  if (!k || isStorage(*k))
    return same;
  // The data's shape is its source's (the READS column), seen through the
  // window if the kind slides one.
  BlockKind source = dataSource(*k);
  if (source == BlockKind::SIFC)
    return Dims{{DR, d[DR]}};
  if (source == BlockKind::SIC || source == BlockKind::SIC2D)
    return Dims{{DY, d[DIY]}, {DX, d[DIX]}, {DR, d[DR]}};
  if (hasWindow(*k))
    return Dims{{DY, d[DIY]}, {DX, d[DIX]}, {DF, d[DF]}};
  return same;
}

Dims expectedOutputCluster(const TaskBlock &b) {
  Dims d = blockDims(b);
  if (isStorageBlock(b.type()))
    return d;
  if (fullyConnected(b.type()))
    return Dims{{DF, d[DF]}};
  return Dims{{DY, d[DY]}, {DX, d[DX]}, {DF, d[DF]}};
}

Dims expectedStorageInputCluster(const TaskBlock &b) {
  Dims d = blockDims(b);
  std::optional<BlockKind> k = blockKind(b.type());
  if (!k)
    return d;
  switch (*k) {
  case BlockKind::SIC:
  case BlockKind::SIC2D:
    return Dims{{DY, d[DY]}, {DX, d[DX]}, {DF, d[DR]}};
  case BlockKind::SIFC:
    return Dims{{DF, d[DR]}};
  case BlockKind::SI:
  case BlockKind::SW:
  case BlockKind::SWFC:
  case BlockKind::SB:
  case BlockKind::SO:
#include "graph/ComputeKindCases.inc"
    return d;
  }
  llvm_unreachable("a kind of BlockKinds.def");
}

std::vector<BlockType> allowedSources(BlockType compute, InputRole r) {
  switch (r) {
  case InputRole::Bias:
  case InputRole::Alpha:
    return {SB};
  case InputRole::Weight:
    return fullyConnected(compute) ? std::vector<BlockType>{SWFC}
                                   : std::vector<BlockType>{SW};
  case InputRole::Data: {
    std::optional<BlockKind> k = blockKind(compute);
    if (!k || isStorage(*k))
      return {SI};
    return {BlockType(dataSource(*k))};
  }
  }
  llvm_unreachable("bad role");
}

} // namespace bangc::graph
