//===- OpRegistry.h - The operators `bangc-sim op` can run -----*- C++ -*-===//
//
// The CLI's table of library operators: for each, its inputs, outputs and
// integer attributes, and how to run it through the C API (kernels/include/
// mlu_op.h) from host arrays. It belongs to the command, not to the op
// library: an operator is usable from C without a row here.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TOOLS_OPREGISTRY_H
#define BANGC_TOOLS_OPREGISTRY_H

#include "mlu_op.h"

#include "support/Npy.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace bangc::tools {

struct OpAttr {
  std::string name, help;
  bool required = false;
  int64_t defaultValue = 0;
};

struct OpRun {
  mluOpHandle_t handle = nullptr;
  std::map<std::string, bangc::NpyArray> inputs;
  std::map<std::string, int64_t> attrs;
  std::map<std::string, bangc::NpyArray> outputs; ///< filled by run
  std::string error; ///< when run fails before or after the operator
};

struct OpDef {
  std::string name, summary;
  std::vector<std::string> inputs, outputs;
  std::vector<OpAttr> attrs;
  /// Copies inputs to the device, calls the C API, copies outputs back.
  std::function<mluOpStatus_t(OpRun &)> run;
};

const std::vector<OpDef> &registeredOps();
const OpDef *findOp(const std::string &name);

} // namespace bangc::tools

#endif
