//===- Dot.cpp - Drawing a Task IR graph with Graphviz -------------------===//
#include "graph/Dot.h"

#include "graph/Dims.h"
#include "graph/Precision.h"

#include <fmt/format.h>

using namespace bangc::taskir;

namespace bangc::graph {

static std::string escape(const std::string &s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\')
      r += '\\';
    r += c;
  }
  return r;
}

std::string graphToDot(const TaskGraph &g) {
  std::string out = "digraph taskgraph {\n  rankdir=TB;\n"
                    "  node [fontname=\"monospace\", fontsize=10];\n";
  for (const TaskBlock &b : g.blocks()) {
    std::string label = fmt::format("{}: {}", b.id(), blockTypeName(b.type()));
    if (!b.name().empty())
      label += " " + b.name();
    label += "\\n" + Dims::fromProto(b.shape()).str() + " " +
             precisionName(b.precision());
    bool storage = isStorageBlock(b.type());
    out += fmt::format("  b{} [shape={}, label=\"{}\"{}];\n", b.id(),
                       storage ? "box" : "ellipse", escape(label),
                       storage ? "" : ", style=filled, fillcolor=lightblue");
  }
  for (const Edge &e : g.edges()) {
    std::string label = fmt::format("e{}", e.id());
    for (const Rearrange &r : e.rearranges()) {
      label += "\\n" + rearrangeName(r.type());
      if (r.params_size()) {
        label += "(";
        for (int i = 0; i < r.params_size(); ++i)
          label += fmt::format("{}{}", i ? "," : "", r.params(i));
        label += ")";
      }
    }
    out += fmt::format("  b{} -> b{} [label=\"{}\"];\n", e.source(),
                       e.destination(), escape(label));
  }
  return out + "}\n";
}

} // namespace bangc::graph
