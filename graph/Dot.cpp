//===- Dot.cpp - Drawing a Task IR graph with Graphviz -------------------===//
#include "graph/Dot.h"

#include "graph/Dims.h"
#include "graph/Precision.h"

#include <fmt/format.h>

using namespace bangc::taskir;

namespace bangc::graph {

static std::string escape(const std::string &S) {
  std::string R;
  for (char C : S) {
    if (C == '"' || C == '\\')
      R += '\\';
    R += C;
  }
  return R;
}

std::string graphToDot(const TaskGraph &G) {
  std::string Out = "digraph taskgraph {\n  rankdir=TB;\n"
                    "  node [fontname=\"monospace\", fontsize=10];\n";
  for (const TaskBlock &B : G.blocks()) {
    std::string Label = fmt::format("{}: {}", B.id(), blockTypeName(B.type()));
    if (!B.name().empty())
      Label += " " + B.name();
    Label += "\\n" + Dims::fromProto(B.shape()).str() + " " +
             precisionName(B.precision());
    bool Storage = isStorageBlock(B.type());
    Out += fmt::format("  b{} [shape={}, label=\"{}\"{}];\n", B.id(),
                       Storage ? "box" : "ellipse", escape(Label),
                       Storage ? "" : ", style=filled, fillcolor=lightblue");
  }
  for (const Edge &E : G.edges()) {
    std::string Label = fmt::format("e{}", E.id());
    for (const Rearrange &R : E.rearranges()) {
      Label += "\\n" + rearrangeName(R.type());
      if (R.params_size()) {
        Label += "(";
        for (int I = 0; I < R.params_size(); ++I)
          Label += fmt::format("{}{}", I ? "," : "", R.params(I));
        Label += ")";
      }
    }
    Out += fmt::format("  b{} -> b{} [label=\"{}\"];\n", E.source(),
                       E.destination(), escape(Label));
  }
  return Out + "}\n";
}

} // namespace bangc::graph
