//===- Emitter.h - LayerGroup: a small writer of indented source -*- C++
//-*-===//
//
// The codegen writes each kernel line by line at the current depth (two
// spaces a level); a block's scope closes it, so the generated nesting
// follows the writer's own, with no re-indentation afterwards:
//
//   {
//     auto loop = e.block("for (int i = 0; i < n; ++i)");
//     e.line("x[i] = 0;");
//   } // writes "}" at the block's depth
//
// call() spells a call statement from its arguments.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_EMITTER_H
#define BANGC_LAYERGROUP_EMITTER_H

#include <initializer_list>
#include <string>

namespace bangc::lg {

class Emitter {
public:
  /// Closes a block (writes its closing line) or an indentation level when
  /// it goes out of scope.
  class Scope {
  public:
    Scope(Emitter &e, std::string close) : e(&e), close(std::move(close)) {
      ++e.depth;
    }
    Scope(Scope &&o) noexcept : e(o.e), close(std::move(o.close)) {
      o.e = nullptr;
    }
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;
    Scope &operator=(Scope &&) = delete;
    ~Scope() {
      if (!e)
        return;
      --e->depth;
      if (!close.empty())
        e->line(close);
    }

  private:
    Emitter *e;
    std::string close;
  };

  /// One line at the current depth (an empty one unindented).
  void line(const std::string &text) {
    if (!text.empty())
      out.append(2 * depth, ' ');
    out += text;
    out += '\n';
  }
  /// `head {` (with a trailing `// comment` if given), then one level
  /// deeper until the scope closes it with `}`.
  [[nodiscard]] Scope block(const std::string &head,
                            const std::string &comment = "") {
    line(head + " {" + (comment.empty() ? "" : " // " + comment));
    return Scope(*this, "}");
  }
  /// One level deeper, without braces (the body of an unbraced `for`).
  [[nodiscard]] Scope indent() { return Scope(*this, ""); }

  const std::string &text() const { return out; }

private:
  std::string out;
  int depth = 0;
};

/// `fn(a, b, ...);`
inline std::string call(const std::string &fn,
                        std::initializer_list<std::string> args) {
  std::string s = fn + "(";
  bool first = true;
  for (const std::string &a : args) {
    s += (first ? "" : ", ") + a;
    first = false;
  }
  return s + ");";
}

} // namespace bangc::lg

#endif // BANGC_LAYERGROUP_EMITTER_H
