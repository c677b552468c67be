//===- View.cpp - LayerGroup: rearranging edges as strided views ----------===//
//
// The element map of an input cluster its edges fill (sub-boxes and
// rearrangements, as the reference executor applies them), and its fit by
// strided boxes that lg_load_view copies. See View.h.
//
//===----------------------------------------------------------------------===//
#include "layergroup/View.h"

#include "graph/Graph.h"
#include "graph/Rearrange.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstdint>
#include <numeric>

using namespace llvm;
using namespace bangc::graph;
namespace tir = bangc::taskir;

namespace bangc::lg {

namespace {

Error viewError(const std::string &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}

/// Follows element \p i of view \p v to the tensor it reads.
void resolve(const Tensor &v, int64_t i, int &source, int64_t &index) {
  if (v.gathered()) { // the source whose table has the element
    size_t e = size_t(v.elements());
    for (size_t k = 0; k < v.View.size(); ++k)
      if (v.Gather[k * e + size_t(i)] >= 0) {
        source = v.View[k].Source, index = v.Gather[k * e + size_t(i)];
        return;
      }
    source = -1, index = -1;
    return;
  }
  int64_t c = i % v.C, w = (i / v.C) % v.W, h = i / (v.C * v.W);
  for (const ViewPiece &p : v.View)
    if (h >= p.H0 && h < p.H1 && w >= p.W0 && w < p.W1 && c >= p.C0 &&
        c < p.C1) {
      source = p.Source;
      index = p.Off + (h / p.DH) * p.SH + (w / p.DW) * p.SW + c * p.SC;
      return;
    }
  assert(false && "the pieces of a view tile it");
  source = -1, index = -1;
}

} // namespace

Expected<ViewMap> clusterViewMap(const Graph &g, const Net &n,
                                 const tir::TaskBlock &b, int cluster,
                                 const std::function<int(int64_t)> &tensorOf) {
  Dims cd = Dims::fromProto(b.input_clusters(cluster).shape());
  ViewMap m;
  m.Source.assign(size_t(cd.volume()), -1);
  m.Index.assign(size_t(cd.volume()), -1);
  for (int64_t e : g.inEdges(b.id())) {
    const Graph::End &d = g.destinationEnd(e);
    if (d.Cluster != cluster)
      continue;
    const Graph::End &s = g.sourceEnd(e);
    int t = tensorOf(s.Block);
    if (t < 0)
      return viewError("input from an unsupported block");
    const tir::TaskBlock &sb = g.block(s.Block);
    if (sb.precision() != g.inputPrecision(b.id(), cluster))
      return viewError("a concatenation of several precisions");
    Dims sc = Dims::fromProto(sb.output_clusters(s.Cluster).shape());
    if (sc.volume() != n.Tensors[t].elements())
      return viewError("a source cluster that is not its whole tensor");
    std::vector<int64_t> cur = boxIndexes(sc, s.Position, s.Size);
    std::vector<int64_t> shape = s.Size.present();
    for (const tir::Rearrange &r : g.edge(e).rearranges()) {
      std::vector<int64_t> out;
      Expected<std::vector<int64_t>> map = rearrangeGatherMap(r, shape, out);
      if (!map)
        return map.takeError();
      std::vector<int64_t> next(map->size());
      for (size_t i = 0; i < next.size(); ++i)
        next[i] = (*map)[i] < 0 ? -1 : cur[size_t((*map)[i])];
      cur = std::move(next);
      shape = std::move(out);
    }
    std::vector<int64_t> dst = boxIndexes(cd, d.Position, d.Size);
    if (dst.size() != cur.size())
      return viewError(fmt::format("edge {}: {} elements into {}", e,
                                   cur.size(), dst.size()));
    for (size_t i = 0; i < dst.size(); ++i) {
      if (cur[i] < 0)
        continue; // zero fill
      int source = t;
      int64_t index = cur[i];
      if (n.Tensors[t].isView())
        resolve(n.Tensors[t], index, source, index);
      m.Source[size_t(dst[i])] = source;
      m.Index[size_t(dst[i])] = index;
    }
  }
  return m;
}

namespace {

/// The fewest strided boxes (DH 1) giving \p m over [h][w][c], or none.
std::vector<ViewPiece> fitBoxes(const ViewMap &m, int64_t h, int64_t w,
                                int64_t c, size_t maxPieces, std::string &why) {
  auto at = [&](int64_t y, int64_t x, int64_t k) {
    return size_t((y * w + x) * c + k);
  };
  std::vector<ViewPiece> pieces;
  std::vector<ViewPiece> work{ViewPiece{-1, 0, h, 0, w, 0, c}};
  while (!work.empty()) {
    ViewPiece b = work.back();
    work.pop_back();
    size_t o = at(b.H0, b.W0, b.C0);
    int src = m.Source[o];
    int64_t base = m.Index[o];
    // Strides from the box's first element to its neighbours (0 along an
    // axis of one element); the first element that breaks them splits the
    // box there.
    auto step = [&](int64_t extent, size_t next) -> int64_t {
      return extent > 1 && m.Source[next] == src ? m.Index[next] - base : 0;
    };
    int64_t sc = step(b.C1 - b.C0, o + 1);
    int64_t sw = step(b.W1 - b.W0, o + size_t(c));
    int64_t sh = step(b.H1 - b.H0, o + size_t(w * c));
    int64_t by = -1, bx = -1, bk = -1;
    for (int64_t y = b.H0; y < b.H1 && by < 0; ++y)
      for (int64_t x = b.W0; x < b.W1 && by < 0; ++x)
        for (int64_t k = b.C0; k < b.C1; ++k) {
          size_t i = at(y, x, k);
          int64_t want =
              base + (y - b.H0) * sh + (x - b.W0) * sw + (k - b.C0) * sc;
          if (m.Source[i] != src || (src >= 0 && m.Index[i] != want)) {
            by = y, bx = x, bk = k;
            break;
          }
        }
    if (by < 0) {
      b.Source = src; // -1: a box of zeros
      b.SH = sh, b.SW = sw, b.SC = b.C1 - b.C0 > 1 ? sc : 1;
      b.Off = base - b.H0 * sh - b.W0 * sw - b.C0 * b.SC;
      pieces.push_back(b);
      continue;
    }
    ViewPiece lo = b, hi = b;
    if (by > b.H0)
      lo.H1 = hi.H0 = by;
    else if (bx > b.W0)
      lo.W1 = hi.W0 = bx;
    else
      lo.C1 = hi.C0 = bk;
    work.push_back(hi);
    work.push_back(lo);
    if (pieces.size() + work.size() > maxPieces) {
      why =
          fmt::format("a map that is not {} or fewer strided boxes", maxPieces);
      return {};
    }
  }
  return pieces;
}

/// Whether elements \p a and \p b of \p m read the same element.
bool same(const ViewMap &m, size_t a, size_t b) {
  return m.Source[a] == m.Source[b] && m.Index[a] == m.Index[b];
}

/// The largest d > 1 such that rows (\p cols false) or columns come in
/// runs of d equal ones from the first (the last run may be shorter), or
/// 1: the gcd of the rows (columns) that differ from the one before.
int64_t repeats(const ViewMap &m, int64_t h, int64_t w, int64_t c,
                bool cols) {
  int64_t n = cols ? w : h, d = 0;
  for (int64_t i = 1; i < n; ++i) {
    bool equal = true;
    for (int64_t j = 0; j < (cols ? h : w) && equal; ++j)
      for (int64_t k = 0; k < c && equal; ++k) {
        int64_t y = cols ? j : i, x = cols ? i : j;
        size_t at = size_t((y * w + x) * c + k);
        equal = same(m, at, at - size_t(cols ? c : w * c));
      }
    if (!equal)
      d = std::gcd(d, i);
  }
  return d == 0 ? n : d;
}

/// Boxes over one row of each run of \p dh rows and one column of each run
/// of \p dw columns of \p m, scaled back to [h][w][c] with DH and DW.
std::vector<ViewPiece> fitRepeated(const ViewMap &m, int64_t h, int64_t w,
                                   int64_t c, int64_t dh, int64_t dw,
                                   size_t maxPieces) {
  int64_t rows = (h + dh - 1) / dh, cols = (w + dw - 1) / dw;
  ViewMap r;
  for (int64_t y = 0; y < rows; ++y)
    for (int64_t x = 0; x < cols; ++x)
      for (int64_t k = 0; k < c; ++k) {
        size_t at = size_t((y * dh * w + x * dw) * c + k);
        r.Source.push_back(m.Source[at]);
        r.Index.push_back(m.Index[at]);
      }
  std::string why;
  std::vector<ViewPiece> pieces = fitBoxes(r, rows, cols, c, maxPieces, why);
  for (ViewPiece &p : pieces) {
    if (dw > 1 && p.Source >= 0 && p.SC != 1)
      return {}; // lg_view_copy_cols copies contiguous channels
    p.H0 *= dh, p.H1 = std::min(h, p.H1 * dh), p.DH = dh;
    p.W0 *= dw, p.W1 = std::min(w, p.W1 * dw), p.DW = dw;
  }
  return pieces;
}

} // namespace

std::vector<ViewPiece> fitViewPieces(const ViewMap &m, int64_t h, int64_t w,
                                     int64_t c, size_t maxPieces,
                                     std::string &why) {
  // Rows repeated d times (nearest upsampling): fit one row of each run;
  // each source row is then read once and repeated in NRAM, where boxes
  // with row stride 0 would read it d times (and need a box per run).
  // Columns repeated: the DMA repeats each pixel, in one box where boxes
  // with column stride 0 would need one per run.
  int64_t dh = repeats(m, h, w, c, false);
  if (dh > 1) {
    std::vector<ViewPiece> p = fitRepeated(m, h, w, c, dh, 1, maxPieces);
    if (!p.empty())
      return p;
  }
  std::vector<ViewPiece> p = fitBoxes(m, h, w, c, maxPieces, why);
  int64_t dw = p.empty() ? repeats(m, h, w, c, true) : 1;
  if (dw > 1) {
    p = fitRepeated(m, h, w, c, dh, dw, maxPieces);
    if (!p.empty())
      why.clear();
  }
  return p;
}

bool gatherView(const ViewMap &m, int64_t h, int64_t w, int64_t c, Tensor &t,
                std::string &why) {
  std::vector<int> sources; // in order of first use
  for (int s : m.Source)
    if (s >= 0 && std::find(sources.begin(), sources.end(), s) == sources.end())
      sources.push_back(s);
  if (sources.empty()) {
    why = "a map that reads nothing (all zeros)";
    return false;
  }
  if (sources.size() > MaxGatherSources) {
    why = fmt::format("a gathered map of more than {} tensors",
                      MaxGatherSources);
    return false;
  }
  if (m.Index.size() > size_t(INT32_MAX / 2)) {
    why = "a gathered map over 2^30 elements";
    return false;
  }
  size_t e = m.Index.size(), k = sources.size();
  t.View.clear();
  for (int s : sources)
    t.View.push_back(ViewPiece{s, 0, h, 0, w, 0, c});
  t.Gather.assign(k * e, -1);
  t.GatherRowLo.assign(k * size_t(h), INT32_MAX);
  t.GatherRowHi.assign(k * size_t(h), 0);
  for (size_t i = 0; i < e; ++i) {
    if (m.Source[i] < 0)
      continue;
    size_t j = size_t(std::find(sources.begin(), sources.end(), m.Source[i]) -
                      sources.begin());
    int32_t x = int32_t(m.Index[i]);
    size_t r = j * size_t(h) + i / size_t(w * c);
    t.Gather[j * e + i] = x;
    t.GatherRowLo[r] = std::min(t.GatherRowLo[r], x);
    t.GatherRowHi[r] = std::max(t.GatherRowHi[r], x + 1);
  }
  return true;
}

} // namespace bangc::lg
