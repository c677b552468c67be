//===- Dims.h - The eight-dimensional Task IR shape -------------*- C++ -*-===//
//
// Task IR shapes name up to eight loop dimensions [y, x, f, r, ky, kx, iy,
// ix]; -1 marks an unused dimension. A tensor described by a Dims has the
// used dimensions as its axes, in that order.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_DIMS_H
#define BANGC_GRAPH_DIMS_H

#include "graph/proto/taskir.pb.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace bangc::graph {

enum Dim : unsigned { DY, DX, DF, DR, DKY, DKX, DIY, DIX, NumDims };

/// Lower-case name of a dimension ("y", "x", ..., "ix").
const char *dimName(unsigned d);

struct Dims {
  std::array<int64_t, NumDims> v{-1, -1, -1, -1, -1, -1, -1, -1};

  Dims() = default;
  /// Dims with the listed (dimension, size) pairs set, others unused.
  Dims(std::initializer_list<std::pair<Dim, int64_t>> init);

  static Dims fromProto(const taskir::Shape &s);
  void toProto(taskir::Shape *s) const;

  int64_t operator[](unsigned d) const { return v[d]; }
  int64_t &operator[](unsigned d) { return v[d]; }
  bool has(unsigned d) const { return v[d] != -1; }
  /// Bit set of the used dimensions.
  unsigned mask() const;
  /// Sizes of the used dimensions in canonical order (tensor shape).
  std::vector<int64_t> present() const;
  /// Product of the used dimensions (1 if none). Caller ensures all >= 0.
  int64_t volume() const;
  bool operator==(const Dims &o) const { return v == o.v; }
  bool operator!=(const Dims &o) const { return v != o.v; }
  /// "[y=28, x=28, f=6]" (used dimensions only), or "[]".
  std::string str() const;
};

/// Mask of the given dimensions.
unsigned dimMask(std::initializer_list<Dim> ds);
/// "[y, x, f]" for a mask.
std::string maskStr(unsigned mask);
/// "[2, 3, 4]".
std::string shapeStr(const std::vector<int64_t> &shape);

/// Flat indexes (C order of \p full's used dimensions) of the elements of
/// the sub-box [pos, pos + size), in C order of the box: what an edge's
/// Position/Size select (the reference executor's box copies and
/// LayerGroup's views both read them here).
std::vector<int64_t> boxIndexes(const Dims &full, const Dims &pos,
                                const Dims &size);

} // namespace bangc::graph

#endif // BANGC_GRAPH_DIMS_H
