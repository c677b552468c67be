//===- Search.cpp - LayerGroup planner: the slicings and the groups -------===//
//
// planGroup tries the slicings of one group in the order the design sets
// (N first, then H, then H x W tiles, then output channels) and keeps the
// cheapest by the objective; planNet runs the dynamic program over layer
// ranges and picks the groups.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Planner.h"

#include "support/Parallel.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>

using namespace llvm;

namespace bangc::lg {

namespace {

/// BANGC_LG_DEBUG, read once: 0 when unset, empty or 0; 1 prints every
/// group planned, 2 also every slicing tried.
int debugLevel() {
  static const int level = [] {
    const char *v = getenv("BANGC_LG_DEBUG");
    return v ? atoi(v) : 0;
  }();
  return level;
}

/// The candidates of one group and the best so far.
struct GroupSearch {
  const Net &net;
  const bangsim::DeviceSpec &spec;
  int64_t batch;
  const GroupInfo &group;
  const PlanOptions &options;
  std::optional<GroupPlan> best;
  PlanError lastWhy;

  /// Plans one slicing; keeps it if it is the best. False if not valid.
  bool consider(int nSecs, int hSecs, int wSecs, int fSecs) {
    PlanError why;
    auto p = planGroupWith(net, spec, batch, group, nSecs, hSecs, wSecs, fSecs,
                           options, &why);
    // BANGC_LG_DEBUG=2: every slicing tried, with its estimate and
    // objective or why it fails.
    static const bool all = debugLevel() >= 2;
    if (all)
      fprintf(stderr, "  slicing %d..%d n%d h%d w%d f%d: %s\n", group.First,
              group.Last, nSecs, hSecs, wSecs, fSecs,
              p ? fmt::format("cycles {:.0f} obj {:.0f} pipelined {}",
                              p->Cycles, planObjective(*p, spec, options),
                              p->pipelined())
                      .c_str()
                : why.Message.c_str());
    if (!p) {
      lastWhy = why;
      return false;
    }
    if (options.AtMinimumOnly && featureMapExcess(*p) > 0)
      return true; // valid, not kept
    if (!best ||
        planObjective(*p, spec, options) < planObjective(*best, spec, options))
      best = std::move(p);
    return true;
  }
  /// The last candidate failed on the h/2 rule: more H slices fail too.
  bool failedOnH(bool ok) const {
    return !ok && lastWhy.Kind == PlanFailure::HDuplication;
  }
  int64_t outRows() const {
    return group.Outputs.empty() ? 1 : net.Tensors[group.Outputs.back()].H;
  }
  int64_t outCols() const {
    return group.Outputs.empty() ? 1 : net.Tensors[group.Outputs.back()].W;
  }
  int maxHSecs() const {
    return int(std::min<int64_t>(outRows(), options.MaxHSecs));
  }
  /// True if \p hSecs H slices leave none empty.
  bool hSecsOk(int hSecs) const {
    int64_t step = (outRows() + hSecs - 1) / hSecs;
    return (hSecs - 1) * step < outRows();
  }

  void tryImageSlices();
  void tryRowSlices();
  void tryTiles();
  void tryChannelSlices();
};

// N first, down to one image per slice.
void GroupSearch::tryImageSlices() {
  int64_t prevNB = -1;
  for (int nSecs = 1; nSecs <= batch; ++nSecs) {
    int64_t nb = (batch + nSecs - 1) / nSecs;
    if (nb == prevNB)
      continue;
    prevNB = nb;
    consider(nSecs, 1, 1, 1);
  }
}

// Then H, until the h/2 rule fails.
void GroupSearch::tryRowSlices() {
  for (int hSecs = 2; hSecs <= maxHSecs(); ++hSecs) {
    if (!hSecsOk(hSecs))
      continue;
    if (failedOnH(consider(int(batch), hSecs, 1, 1)))
      break;
  }
}

// Then H x W tiles, for rows too wide to hold several of them: W slice
// counts by doubling while the w/2 rule holds; per count the H slices from
// 1 until a tile fits, the items fill the cores twice over and two more
// counts were tried (more H slices only add halo rows).
void GroupSearch::tryTiles() {
  int cores = spec.numCores();
  for (int wSecs = 2; wSecs <= std::min<int64_t>(outCols(), options.MaxWSecs);
       wSecs *= 2) {
    if (!sliceW(net, group, wSecs))
      break;
    int extra = -1;
    for (int hSecs = 1; hSecs <= maxHSecs() && extra < 2; ++hSecs) {
      if (hSecs > 1 && !hSecsOk(hSecs))
        continue;
      bool ok = consider(int(batch), hSecs, wSecs, 1);
      if (failedOnH(ok))
        break;
      if (extra >= 0 || (ok && batch * hSecs * wSecs >= 2 * cores))
        ++extra;
    }
  }
}

// A convolution followed by channel-wise layers may also slice its output
// channels (a global group): fewer weights per core, each slice re-reads
// the input. Every power-of-two count is tried, and per count the H slices
// from 1 until the items fill the cores twice over.
void GroupSearch::tryChannelSlices() {
  if (!channelSliceable(net, group))
    return;
  int cores = spec.numCores();
  int64_t channels = net.Tensors[group.Outputs[0]].C;
  for (int fSecs = 2; fSecs <= std::min<int64_t>(channels, options.MaxFSecs);
       fSecs *= 2) {
    bool fit = false;
    for (int hSecs = 1; hSecs <= maxHSecs(); ++hSecs) {
      if (hSecs > 1 && !hSecsOk(hSecs))
        continue;
      bool ok = consider(int(batch), hSecs, 1, fSecs);
      if (failedOnH(ok))
        break;
      fit |= ok;
      if (fit && batch * hSecs * fSecs >= 2 * cores)
        break;
    }
  }
}

std::string debugLine(const std::optional<GroupPlan> &p,
                      const std::string &why) {
  if (!p)
    return why;
  return fmt::format("nsecs {} hsecs {} wsecs {} fsecs {} cycles {:.0f} peak "
                     "{} wram {} bytes {} (weights {})",
                     p->NSecs, p->HSecs, p->WSecs, p->FSecs, p->Cycles,
                     p->PeakBytes, p->WramPeakBytes,
                     p->ReadBytes + p->WriteBytes, p->WeightReadBytes);
}

using GroupTable = std::vector<std::vector<std::optional<GroupPlan>>>;

/// Plans every group [i, j] the search considers. A longer group only needs
/// more memory and duplicates more rows: extending stops once a
/// single-output group fails.
///
/// The rows i of the table (groups i..j for growing j) are independent and
/// every entry is a function of (i, j) alone, so the rows are planned on
/// every host thread, each row whole by one thread, taken in order as
/// threads come free: the table, the count and the error (the first layer
/// that does not fit alone) are those of one thread, on any number.
/// BANGC_LG_DEBUG prints the groups in order on one thread.
Error planGroups(const Net &net, const bangsim::DeviceSpec &spec, int64_t batch,
                 const PlanOptions &o, GroupTable &table, NetPlan &result) {
  int layers = int(net.Layers.size());
  // BANGC_LG_DEBUG=1 (any number above 0): every group planned; unset,
  // empty or 0: off.
  static const bool debug = debugLevel() >= 1;
  std::vector<int64_t> evaluations(size_t(layers), 0);
  std::vector<std::optional<std::string>> tooBig(static_cast<size_t>(layers));
  // The next row to take, and the first layer found not to fit alone.
  std::atomic<int> next{0}, firstFailed{layers};
  auto planRow = [&](int i) {
    int maxJ =
        o.LayerByLayer ? i : std::min(layers - 1, i + o.MaxGroupLayers - 1);
    for (int j = i; j <= maxJ; ++j) {
      std::string why;
      table[i][j] = planGroup(net, spec, batch, i, j, o, &why);
      ++evaluations[size_t(i)];
      if (debug)
        fprintf(stderr, "group %d..%d: %s\n", i, j,
                debugLine(table[i][j], why).c_str());
      if (!table[i][j] && i == j) {
        tooBig[size_t(i)] = why;
        for (int f = firstFailed; i < f;)
          if (firstFailed.compare_exchange_weak(f, i))
            break;
        return;
      }
      if (!table[i][j] && j > i && groupInfo(net, i, j).Outputs.size() == 1)
        break;
    }
  };
  // Rows after a layer that does not fit are not needed; every row before
  // it was taken before it and is planned, so the first such layer is
  // found.
  // No more threads than rows: a thread past the last row would only start
  // and end (BANGC_HOST_THREADS may be up to 1024).
  unsigned threads =
      debug ? 1 : unsigned(std::min<int64_t>(hostThreads(), layers));
  parallelFor(
      threads, 1,
      [&](int64_t, int64_t) {
        for (int i = next++; i < layers && i < firstFailed; i = next++)
          planRow(i);
      },
      threads);
  for (int i = 0; i < layers; ++i)
    if (tooBig[size_t(i)])
      return createStringError(
          inconvertibleErrorCode(),
          fmt::format("layer group: layer '{}' does not fit in NRAM: {}",
                      net.Layers[i].Name, *tooBig[size_t(i)]));
  for (int64_t e : evaluations)
    result.GroupEvaluations += e;
  return Error::success();
}

/// The dynamic program cost[i][j] = min(group(i..j), min_k cost[i][k] +
/// cost[k+1][j]); returns the layer ranges of the cheapest grouping.
std::vector<std::pair<int, int>> bestRanges(const GroupTable &table,
                                            const bangsim::DeviceSpec &spec,
                                            const PlanOptions &o) {
  int layers = int(table.size());
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> cost(layers,
                                        std::vector<double>(layers, inf));
  std::vector<std::vector<int>> split(layers, std::vector<int>(layers, -1));
  for (int len = 1; len <= layers; ++len)
    for (int i = 0; i + len - 1 < layers; ++i) {
      int j = i + len - 1;
      if (table[i][j])
        cost[i][j] = planObjective(*table[i][j], spec, o);
      for (int k = i; k < j; ++k) {
        double c = cost[i][k] + cost[k + 1][j];
        if (c < cost[i][j]) {
          cost[i][j] = c;
          split[i][j] = k;
        }
      }
    }
  std::vector<std::pair<int, int>> stack{{0, layers - 1}}, ranges;
  while (!stack.empty()) {
    auto [i, j] = stack.back();
    stack.pop_back();
    if (split[i][j] < 0) {
      ranges.push_back({i, j});
      continue;
    }
    stack.push_back({split[i][j] + 1, j});
    stack.push_back({i, split[i][j]});
  }
  return ranges;
}

/// The objective of the groups \p ranges of \p table (infinite if one is
/// missing) and their feature-map bytes above the minimum.
std::pair<double, int64_t>
rangesObjective(const GroupTable &table,
                const std::vector<std::pair<int, int>> &ranges,
                const bangsim::DeviceSpec &spec, const PlanOptions &o) {
  double obj = 0;
  int64_t excess = 0;
  for (auto [i, j] : ranges) {
    if (!table[i][j])
      return {std::numeric_limits<double>::infinity(), 0};
    obj += planObjective(*table[i][j], spec, o);
    excess += featureMapExcess(*table[i][j]);
  }
  return {obj, excess};
}

/// PlanOptions::ExcessMargin: when the best grouping re-reads feature maps,
/// the search again with only plans at their minimum; its grouping replaces
/// the best if its objective is within the margin.
void atMinimumWithin(const Net &n, const bangsim::DeviceSpec &spec,
                     int64_t batch, const PlanOptions &o, GroupTable &table,
                     std::vector<std::pair<int, int>> &ranges,
                     NetPlan &result) {
  auto [best, excess] = rangesObjective(table, ranges, spec, o);
  if (excess == 0)
    return;
  PlanOptions m = o;
  m.AtMinimumOnly = true;
  int layers = int(n.Layers.size());
  GroupTable atMin(layers, std::vector<std::optional<GroupPlan>>(layers));
  NetPlan counts;
  if (Error e = planGroups(n, spec, batch, m, atMin, counts)) {
    consumeError(std::move(e)); // a layer with no plan at its minimum
    return;
  }
  result.GroupEvaluations += counts.GroupEvaluations;
  std::vector<std::pair<int, int>> r = bestRanges(atMin, spec, o);
  double obj = rangesObjective(atMin, r, spec, o).first;
  if (!(obj <= best * (1 + o.ExcessMargin)))
    return;
  table = std::move(atMin);
  ranges = std::move(r);
}

} // namespace

std::optional<GroupPlan> planGroup(const Net &n,
                                   const bangsim::DeviceSpec &spec,
                                   int64_t batch, int first, int last,
                                   const PlanOptions &o, std::string *why) {
  GroupInfo g = groupInfo(n, first, last);
  GroupSearch search{n, spec, batch, g, o, std::nullopt, {}};
  search.tryImageSlices();
  search.tryRowSlices();
  search.tryTiles();
  search.tryChannelSlices();
  if (!search.best && why)
    *why = search.lastWhy.Message;
  return search.best;
}

Expected<NetPlan> planNet(const Net &n, const bangsim::DeviceSpec &spec,
                          int64_t batch, const PlanOptions &o) {
  auto t0 = std::chrono::steady_clock::now();
  int layers = int(n.Layers.size());
  NetPlan result;
  if (layers == 0)
    return result;
  GroupTable table(layers, std::vector<std::optional<GroupPlan>>(layers));
  if (Error e = planGroups(n, spec, batch, o, table, result))
    return std::move(e);
  std::vector<std::pair<int, int>> ranges = bestRanges(table, spec, o);
  if (o.ExcessMargin > 0)
    atMinimumWithin(n, spec, batch, o, table, ranges, result);
  for (auto [i, j] : ranges) {
    const GroupPlan &p = *table[i][j];
    result.Groups.push_back(p);
    result.Cycles += p.Cycles;
    result.ReadBytes += p.ReadBytes;
    result.WriteBytes += p.WriteBytes;
    result.WeightReadBytes += p.WeightReadBytes;
    result.FloorCycles += p.Floor.cycles();
  }
  result.SearchSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  return result;
}

} // namespace bangc::lg
