//===- Planner.cpp - LayerGroup planning: one group, step by step ---------===//
//
// planGroupWith plans one group with a given slicing as the sequence of
// passes in plan/ (see plan/GroupPass.h): slices, the per-channel vector
// tile, padded inputs, time steps and buffers, traffic and SRAM staging,
// step costs, NRAM and WRAM placement, cycles.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Planner.h"

#include "layergroup/plan/GroupPass.h"

#include <fmt/format.h>

namespace bangc::lg {

std::optional<GroupPlan>
planGroupWith(const Net &n, const bangsim::DeviceSpec &spec, int64_t batch,
              const GroupInfo &g, int nSecs, int hSecs, int wSecs, int fSecs,
              const PlanOptions &o, PlanError *why) {
  auto fail = [&](PlanError e) -> std::optional<GroupPlan> {
    if (why)
      *why = std::move(e);
    return std::nullopt;
  };
  // A view is loaded from GDRAM by strided DMA: its sources must be there
  // before the group starts (rearranging in NRAM is not implemented).
  for (int t : g.Inputs)
    for (int s : n.viewSources(t))
      if (s != t && g.computes(n, s))
        return fail({PlanFailure::ViewInGroup,
                     fmt::format("{} rearranges {}, which the group computes",
                                 n.Tensors[t].Name, n.Tensors[s].Name)});
  GroupPlan p;
  p.Info = g;
  if (auto e =
          plan::chooseSlices(p, n, spec, batch, nSecs, hSecs, wSecs, fSecs))
    return fail(*e);
  p.KeepRows = o.KeepRows && p.canKeepRows(n);
  p.StepsRunOn = o.StepsRunOn;
  plan::GroupPass pass(n, spec, g, o, p);
  plan::choosePaddedInputs(pass);
  plan::chooseStridedInputs(pass);
  plan::placeInTimeSteps(pass);
  plan::chooseReluTiles(pass);
  plan::chooseReluFloors(pass);
  p.chooseKeptTiles(n, o.KeptTiles);
  plan::Traffic traffic = plan::chooseStaging(pass);
  if (!p.keepsStateChains(n))
    return fail({PlanFailure::StateChain,
                 "a stateful layer's time steps would leave a core's NRAM"});
  plan::costTimeSteps(pass, traffic);
  if (auto e = plan::allocateMemories(pass)) {
    if (p.KeepRows) { // the kept rows' buffers held throughout may not fit
      PlanOptions without = o;
      without.KeepRows = false;
      return planGroupWith(n, spec, batch, g, nSecs, hSecs, wSecs, fSecs,
                           without, why);
    }
    return fail(*e);
  }
  plan::estimateCycles(pass, traffic);
  p.Floor = groupFloor(n, spec, batch, g);
  // The same slicing planned with option \p choice off, if the objective
  // prefers it.
  auto cheaperWithout =
      [&](bool PlanOptions::*choice) -> std::optional<GroupPlan> {
    PlanOptions without = o;
    without.*choice = false;
    auto alt =
        planGroupWith(n, spec, batch, g, nSecs, hSecs, wSecs, fSecs, without);
    if (alt && !(o.AtMinimumOnly && featureMapExcess(*alt) > 0) &&
        planObjective(*alt, spec, o) < planObjective(p, spec, o))
      return alt;
    return std::nullopt;
  };
  // A strided load reads fewer bytes in more, smaller segments (charged at
  // the strided efficiency): kept only if the objective says so.
  if (!p.StridedInputs.empty())
    if (auto alt = cheaperWithout(&PlanOptions::StridedLoads))
      return alt;
  // Staging a resident group's inputs reads fewer bytes but adds the
  // staging, unhidden: kept only if the objective says so.
  if (p.inputsInSram() && !p.global())
    if (auto alt = cheaperWithout(&PlanOptions::StageResidentInputs))
      return alt;
  // Kept rows hold their buffers for the whole kernel and order the items
  // down the columns: kept only if the objective says so.
  if (p.KeepRows)
    if (auto alt = cheaperWithout(&PlanOptions::KeepRows))
      return alt;
  return p;
}

std::optional<GroupPlan>
planGroupWith(const Net &n, const bangsim::DeviceSpec &spec, int64_t batch,
              const GroupInfo &g, int nSecs, int hSecs, int wSecs, int fSecs,
              const PlanOptions &o, std::string *why) {
  return plan::withMessage(why, [&](PlanError *e) {
    return planGroupWith(n, spec, batch, g, nSecs, hSecs, wSecs, fSecs, o, e);
  });
}

int64_t featureMapExcess(const GroupPlan &p) {
  return p.ReadBytes + p.WriteBytes - p.WeightReadBytes -
         p.Floor.featureMapBytes();
}

std::string formatTimeSteps(const Net &n, const GroupPlan &p) {
  std::string s;
  for (size_t ts = 0; ts < p.Steps.size(); ++ts) {
    const TimeStep &step = p.Steps[ts];
    std::vector<std::string> parts;
    for (int l : step.Compute)
      parts.push_back("compute " + n.Layers[l].Name);
    for (int t : step.LoadTensors)
      parts.push_back("load " + n.Tensors[t].Name);
    for (int l : step.LoadWeights)
      parts.push_back("load weights " + n.Layers[l].Name +
                      (p.weightsResident() ? " (resident)" : ""));
    for (int t : step.StoreTensors)
      parts.push_back("store " + n.Tensors[t].Name);
    std::string joined;
    for (size_t i = 0; i < parts.size(); ++i)
      joined += (i ? "; " : "") + parts[i];
    s += fmt::format("ts{}: {} [compute {:.0f}, dma {:.0f} cycles]\n", ts,
                     joined.empty() ? "-" : joined, step.ComputeCycles,
                     step.DmaCycles);
  }
  return s;
}

} // namespace bangc::lg
