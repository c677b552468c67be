//===- View.h - LayerGroup: rearranging edges as strided views --*- C++ -*-===//
//
// A Task IR edge may take a sub-box of its source, rearrange it (RESHAPE,
// PERMUTE, SHIFT, REFLECT, ...) and write it into a sub-box of its
// destination; several edges may tile one input cluster (concatenation).
// LayerGroup does not run such an edge as a layer: the tensor it makes is a
// view (Tensor::View), boxes of its sources that a strided DMA copies, and
// the group that reads it loads those boxes from GDRAM straight into its
// NRAM slice (lg_load_view), after zeroing the slice when some boxes are
// zero fill. This file computes the element map of an input cluster from
// graph/Rearrange's gather maps (the reference executor's own semantics)
// and fits it with as few strided boxes as it can; a map that needs too
// many boxes is gathered in NRAM instead (gatherView, lg_gather_view).
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_VIEW_H
#define BANGC_LAYERGROUP_VIEW_H

#include "layergroup/Net.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bangc::taskir {
class TaskBlock;
}

namespace bangc::lg {

/// For each element of an input cluster (C order of its used dimensions,
/// the [H][W][C] tensor it becomes): the tensor and the element of one
/// image of it that it reads, or tensor -1 (zero, or not written).
struct ViewMap {
  std::vector<int> Source;
  std::vector<int64_t> Index;
};

/// The map of input cluster \p cluster of block \p b: each edge's source
/// sub-box (\p tensorOf gives the tensor of a source block, -1 if none),
/// rearranged, placed at its destination sub-box. Elements of views are
/// followed to the tensors the views read.
llvm::Expected<ViewMap>
clusterViewMap(const graph::Graph &g, const Net &n, const taskir::TaskBlock &b,
               int cluster, const std::function<int(int64_t)> &tensorOf);

/// The fewest boxes (at most \p maxPieces) whose affine strided reads give
/// \p m over a [h][w][c] tensor (boxes of zeros have Source -1), or an
/// empty list and \p why.
std::vector<ViewPiece> fitViewPieces(const ViewMap &m, int64_t h, int64_t w,
                                     int64_t c, size_t maxPieces,
                                     std::string &why);

/// Makes \p t (a view [h][w][c]) gather \p m in NRAM (Tensor::Gather):
/// a whole box per source tensor naming it, per source the index table and
/// each row's span of source elements. False and \p why when \p m reads
/// nothing or more than MaxGatherSources tensors.
bool gatherView(const ViewMap &m, int64_t h, int64_t w, int64_t c, Tensor &t,
                std::string &why);

/// The most source tensors of a gathered view (its kernel takes a pointer
/// to each; lg_gather_view copies a window of each per image).
inline constexpr size_t MaxGatherSources = 4;

/// The most boxes of one view: each is a strided DMA per image (per row
/// when it moves the channel axis) of every item that reads it.
inline constexpr size_t MaxViewPieces = 16;

} // namespace bangc::lg

#endif // BANGC_LAYERGROUP_VIEW_H
