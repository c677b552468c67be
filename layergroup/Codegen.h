//===- Codegen.h - LayerGroup: one .mlu kernel per group --------*- C++ -*-===//
#ifndef BANGC_LAYERGROUP_CODEGEN_H
#define BANGC_LAYERGROUP_CODEGEN_H

#include "layergroup/Planner.h"

#include <string>
#include <vector>

namespace bangc::lg {

/// One kernel parameter, in order.
struct KernelParamRef {
  /// ViewTable: a gathered view's index table (Tensor::Gather, int32).
  enum Kind { Tensor, Weight, Bias, Alpha, ViewTable } K;
  int Index; ///< tensor (Tensor, ViewTable) or layer index
};

struct GroupKernel {
  std::string Name;   ///< kernel (and file) name
  std::string Source; ///< .mlu text; includes "lg_ops.mlu"
  std::vector<KernelParamRef> Params;
  int Tasks = 1;
  /// Clusters per union: 0 a BLOCK launch, 1 UNION1 (SRAM staged per
  /// cluster), 2, 4 or 8 (staged once per chip, GroupPlan::SramBroadcast).
  int Union = 0;
};

/// Writes the kernel of group \p index of a plan.
GroupKernel emitGroupKernel(const Net &n, const GroupPlan &p, int index);

/// The text of layergroup/lg_ops.mlu (embedded at build time).
const char *lgOpsSource();

/// \p k's source with the lg_ops include replaced by its text.
std::string selfContainedSource(const GroupKernel &k);

} // namespace bangc::lg

#endif
