//===- Report.h - LayerGroup: summaries, JSON report, NRAM drawing -*- C++
//-*-===//
//
// How a plan and its runs are shown: the plan summary the command prints,
// the JSON of --report (docs/layergroup.md, "Report") and the SVG of the
// NRAM allocation (--lmem-svg). Nothing here runs anything.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_REPORT_H
#define BANGC_LAYERGROUP_REPORT_H

#include "layergroup/Planner.h"
#include "layergroup/Runner.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace bangc::lg {

/// "layer group: N layers in G groups ..." and a line per group.
std::string planSummary(const Net &n, const NetPlan &p);

/// "grouped: C cycles, GDRAM read R write W bytes (P of parameters)" (with
/// \p what for "grouped").
std::string runSummary(const char *what, const RunResult &r);

/// "grouped: C cycles = k x the roofline floor of F cycles" and a line per
/// group: its simulated cycles against its floor (GroupPlan::Floor).
std::string floorSummary(const char *what, const NetPlan &p,
                         const RunResult &r);

/// "grouped: feature maps B GDRAM bytes, group-boundary minimum M (excess
/// E)" and a line per group above (or below) its minimum: the simulated
/// GDRAM bytes other than parameters against GroupPlan::Floor's inputs
/// (each element its layers read, once) and outputs, with what re-reads
/// them (halos, skipped columns, per channel slice or cluster).
std::string featureMapSummary(const Net &n, const char *what,
                              const NetPlan &p, const RunResult &r);

/// The plan's groups, estimates and search, with the simulated figures of
/// \p r if given.
llvm::json::Object runJson(const Net &n, const NetPlan &p, const RunResult *r);

/// The errors of a run against the reference executor.
struct Accuracy {
  double maxAbsErr = 0, maxAbsRef = 0;
  double maxAbsErrLayerByLayer = 0;
  double relative() const {
    return maxAbsRef > 0 ? maxAbsErr / maxAbsRef : maxAbsErr;
  }
};

/// The comparison part of the report: grouped against layer by layer
/// (bytes and cycles) and both against the reference.
void addComparison(llvm::json::Object &report, const RunResult &grouped,
                   const RunResult &layerByLayer, const Accuracy &accuracy);

/// The NRAM allocation of every group as an SVG (time across, address up),
/// with each group's roofline floor and, given \p r, its simulated cycles.
std::string lmemSvg(const Net &n, const NetPlan &p, int64_t capacity,
                    const RunResult *r = nullptr);

} // namespace bangc::lg

#endif // BANGC_LAYERGROUP_REPORT_H
