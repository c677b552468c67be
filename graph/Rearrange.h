//===- Rearrange.h - Edge data rearrangements -------------------*- C++ -*-===//
//
// The data rearrangements an edge applies, in order, to the tensor taken
// from its source interface (axes = the interface's used dimensions). Each
// is expressed as a gather: output element i reads input element map[i], or
// is zero when map[i] is -1. Parameters (Rearrange.params) are documented in
// docs/taskir.md "Rearrangements"; in brief:
//
//   IDENTITY  []
//   RESHAPE   [d0, d1, ...]           new shape, same C-order data; one -1
//   PERMUTE   [p0, p1, ...]           out axis i = in axis p_i (transpose)
//   SHIFT     [axis, k, mode=0]       out[i] = in[i-k]; mode 0 cyclic, 1 zero
//   ROTATE    [q, a=0, b=1]           q quarter turns counterclockwise in the
//                                     (a, b) plane, as numpy.rot90
//   SCALE     [s0, s1, ...]           per leading axis: s>1 repeat each
//                                     element s times; s<-1 keep every |s|th
//   SHEAR     [a, b, ax0=0, ax1=1]    zero-fill: (u, v) -> (u+a*v, b*u+v),
//                                     output (m+a*n, n+b*m)
//   REFLECT   [axis=0]                out[i] = in[n-1-i]
//   AFFINE    [a11 a12 b1 a21 a22 b2 (, m', n')]
//   PROJECT   [a11 a12 b1 a21 a22 b2 a31 a32 b3 (, m', n')]
//                                     (x, y) = A(u, v) + b on axes 0, 1,
//                                     (projective: divided by z); sampled
//                                     backwards with nearest rounding, zero
//                                     outside the input
//   SHUFFLE   [axis, p0, ..., pn-1]   out[i] = in[p_i] along axis; axis -1
//                                     permutes all elements (flat)
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_REARRANGE_H
#define BANGC_GRAPH_REARRANGE_H

#include "graph/proto/taskir.pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace bangc::graph {

/// Output shape of one rearrangement applied to a tensor of shape \p in, or
/// an error naming the offending parameter (without the edge; callers add
/// it).
llvm::Expected<std::vector<int64_t>>
rearrangedShape(const taskir::Rearrange &r, llvm::ArrayRef<int64_t> in);

/// Gather map of one rearrangement (see file comment). \p out receives the
/// output shape.
llvm::Expected<std::vector<int64_t>>
rearrangeGatherMap(const taskir::Rearrange &r, llvm::ArrayRef<int64_t> in,
                   std::vector<int64_t> &out);

/// Applies a list of rearrangements to \p data of shape \p shape; on return
/// \p shape is the final shape.
llvm::Expected<std::vector<double>>
applyRearranges(const google::protobuf::RepeatedPtrField<taskir::Rearrange> &rs,
                std::vector<int64_t> &shape, std::vector<double> data);

} // namespace bangc::graph

#endif // BANGC_GRAPH_REARRANGE_H
