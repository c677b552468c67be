//===- Dot.h - Drawing a Task IR graph with Graphviz ------------*- C++ -*-===//
#ifndef BANGC_GRAPH_DOT_H
#define BANGC_GRAPH_DOT_H

#include "graph/proto/taskir.pb.h"

#include <string>

namespace bangc::graph {

/// Graphviz source: storage blocks as boxes, compute blocks as ellipses,
/// labelled with id, type, name, shape and precision; edges labelled with
/// their rearrangements. Works on unvalidated graphs too (for debugging).
std::string graphToDot(const taskir::TaskGraph &g);

} // namespace bangc::graph

#endif // BANGC_GRAPH_DOT_H
