//===- ValidateTest.cpp - The bad-graph corpus and validation rules ------===//
#include "TestUtil.h"

#include "graph/GraphIO.h"
#include "graph/Validate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <regex>

using namespace bangc::graph;

namespace {

const std::string TestDir = BANGC_GRAPH_TEST_DIR;

/// The .json files of TestDir/Sub, sorted.
std::vector<std::string> jsonFiles(const std::string &sub) {
  std::error_code ec;
  std::vector<std::string> files;
  for (llvm::sys::fs::directory_iterator it(TestDir + "/" + sub, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".json"))
      files.push_back(it->path());
  EXPECT_FALSE(ec) << sub << ": " << ec.message();
  std::sort(files.begin(), files.end());
  return files;
}

std::string baseName(const std::string &path) {
  return llvm::sys::path::filename(path).str();
}

// The valid graphs the bad corpus starts from (make_bad_corpus.py).
TEST(Validate, GoodGraphsAreValid) {
  std::vector<std::string> files = jsonFiles("good");
  ASSERT_GE(files.size(), 9u) << "the valid graphs went missing";
  for (const std::string &f : files) {
    llvm::Expected<bangc::taskir::TaskGraph> g = readGraphFile(f);
    ASSERT_TRUE(bool(g)) << f << ": " << llvm::toString(g.takeError());
    EXPECT_EQ(collectGraphErrors(*g), std::vector<std::string>{}) << f;
  }
}

/// A bad graph of the corpus with the errors it must produce and those it
/// does produce.
struct BadCase {
  std::string Name;
  std::vector<std::string> Want, Got;
};

std::vector<BadCase> readCorpus() {
  std::vector<BadCase> cases;
  for (const std::string &f : jsonFiles("bad")) {
    BadCase c;
    c.Name = baseName(f);
    std::string expPath = f.substr(0, f.size() - 5) + ".expected";
    auto exp = llvm::MemoryBuffer::getFile(expPath);
    EXPECT_TRUE(bool(exp)) << "missing " << expPath;
    if (!exp)
      continue;
    llvm::SmallVector<llvm::StringRef, 4> lines;
    (*exp)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef l : lines)
      c.Want.push_back(l.str());
    llvm::Expected<bangc::taskir::TaskGraph> g = readGraphFile(f);
    EXPECT_TRUE(bool(g)) << f << ": " << llvm::toString(g.takeError());
    if (!g)
      continue;
    c.Got = collectGraphErrors(*g);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string joined(const std::vector<std::string> &lines) {
  std::string all;
  for (const std::string &l : lines)
    all += "\n  " + l;
  return all;
}

// Every bad/NAME.json must be rejected with exactly the errors listed in
// NAME.expected, in order.
TEST(Validate, BadGraphCorpus) {
  std::vector<BadCase> cases = readCorpus();
  ASSERT_GE(cases.size(), 85u) << "the corpus went missing";
  for (const BadCase &c : cases) {
    EXPECT_FALSE(c.Got.empty()) << c.Name << " was accepted";
    EXPECT_EQ(c.Got, c.Want)
        << c.Name << ": expected" << joined(c.Want) << "\ngot" << joined(c.Got);
  }
}

//===----------------------------------------------------------------------===//
// Every message of Validate.cpp has a bad graph
//===----------------------------------------------------------------------===//

/// One place in Validate.cpp that reports an error: the pattern of its
/// messages (placeholders match anything) and how many literal characters
/// the pattern has (the most literal pattern wins when several match).
struct Site {
  std::string Text; ///< the field and format strings, for messages
  std::regex Pattern;
  size_t Literal = 0;
};

/// Index just past the string literal starting at \p i.
size_t skipString(llvm::StringRef s, size_t i) {
  for (++i; i < s.size() && s[i] != '"'; ++i)
    if (s[i] == '\\')
      ++i;
  return i + 1;
}

/// The top-level arguments of the call whose '(' is at \p open.
std::vector<std::string> callArgs(llvm::StringRef s, size_t open) {
  std::vector<std::string> args;
  std::string cur;
  int depth = 0;
  for (size_t i = open; i < s.size();) {
    char c = s[i];
    if (c == '"') {
      size_t end = skipString(s, i);
      cur += s.slice(i, end).str();
      i = end;
      continue;
    }
    ++i;
    if (c == '(' || c == '[' || c == '{') {
      if (depth++ == 0)
        continue;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        args.push_back(llvm::StringRef(cur).trim().str());
        return args;
      }
    } else if (c == ',' && depth == 1) {
      args.push_back(llvm::StringRef(cur).trim().str());
      cur.clear();
      continue;
    }
    cur += c;
  }
  return {};
}

/// The concatenated string literals at the start of \p expr (C++ joins
/// adjacent literals), unescaped.
std::string leadingLiterals(llvm::StringRef expr) {
  std::string out;
  expr = expr.ltrim();
  while (expr.starts_with("\"")) {
    size_t end = skipString(expr, 0);
    llvm::StringRef body = expr.slice(1, end - 1);
    for (size_t i = 0; i < body.size(); ++i)
      out += body[i] == '\\' && i + 1 < body.size() ? body[++i] : body[i];
    expr = expr.drop_front(end).ltrim();
  }
  return out;
}

/// The format strings an expression can produce: the first argument of each
/// fmt::format in it, or its literals if it has none.
std::vector<std::string> formats(llvm::StringRef expr) {
  std::vector<std::string> out;
  for (size_t at = expr.find("fmt::format("); at != llvm::StringRef::npos;
       at = expr.find("fmt::format(", at + 1))
    out.push_back(
        leadingLiterals(callArgs(expr, at + strlen("fmt::format"))[0]));
  if (out.empty())
    out.push_back(leadingLiterals(expr));
  return out;
}

/// A regex for a format string ("{}" matches anything); counts literals.
std::string formatRegex(const std::string &fmt, size_t &literal) {
  std::string re;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt.compare(i, 2, "{}") == 0) {
      re += ".*";
      ++i;
      continue;
    }
    if (strchr(".^$|()[]{}*+?\\", fmt[i]))
      re += '\\';
    re += fmt[i];
    ++literal;
  }
  return re;
}

/// A regex for a field expression: its literal parts, ".*" for the rest
/// (e.g. `F + ".position"`).
std::string fieldRegex(const std::string &expr, size_t &literal) {
  std::string re;
  llvm::SmallVector<llvm::StringRef, 4> parts;
  llvm::StringRef(expr).split(parts, " + ");
  for (llvm::StringRef p : parts) {
    p = p.trim();
    if (p.starts_with("\""))
      re += formatRegex(leadingLiterals(p), literal);
    else if (p.starts_with("fmt::format("))
      re += formatRegex(formats(p)[0], literal);
    else
      re += ".*";
  }
  return re;
}

/// Every error(...) and graphError(...) call of Validate.cpp as sites.
std::vector<Site> validatorSites() {
  std::string path = TestDir + "/../Validate.cpp";
  auto buf = llvm::MemoryBuffer::getFile(path);
  EXPECT_TRUE(bool(buf)) << path;
  if (!buf)
    return {};
  llvm::StringRef s = (*buf)->getBuffer();
  std::vector<Site> sites;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '"') {
      i = skipString(s, i);
      continue;
    }
    if (s.substr(i).starts_with("//")) {
      i = s.find('\n', i);
      continue;
    }
    bool graph = s.substr(i).starts_with("graphError(");
    bool block = s.substr(i).starts_with("error(");
    bool start = i == 0 || !(isalnum(s[i - 1]) || s[i - 1] == '_');
    if (!start || (!graph && !block)) {
      ++i;
      continue;
    }
    size_t open = s.find('(', i);
    std::vector<std::string> args = callArgs(s, open);
    i = open + 1;
    if (args.empty() || llvm::StringRef(args[0]).starts_with("const "))
      continue; // the definitions of error() and graphError()
    EXPECT_EQ(args.size(), graph ? 1u : 3u)
        << "unexpected call at offset " << open << " of " << path;
    if (args.size() != (graph ? 1u : 3u))
      continue;
    std::string prefix = graph            ? "graph: "
                         : args[0] == "e" ? "edge .*: "
                                          : "block .*: ";
    size_t fieldLiteral = 0;
    std::string field = graph ? "" : fieldRegex(args[1], fieldLiteral) + ": ";
    for (const std::string &fmt : formats(args.back())) {
      Site st;
      st.Literal = fieldLiteral;
      std::string re = prefix + field + formatRegex(fmt, st.Literal);
      st.Text = (graph ? "graph" : args[1]) + ": " + fmt;
      st.Pattern = std::regex(re);
      sites.push_back(std::move(st));
    }
  }
  return sites;
}

// Each message Validate.cpp can emit (each format string of each error
// call) is produced by some bad graph of the corpus: a new rule without a
// bad graph fails here. Each corpus error is attributed to the most
// literal pattern it matches.
TEST(Validate, EveryMessageHasABadGraph) {
  std::vector<Site> sites = validatorSites();
  ASSERT_GE(sites.size(), 80u) << "the scan of Validate.cpp found too few "
                                  "error calls";
  std::vector<std::vector<std::string>> coveredBy(sites.size());
  for (const BadCase &c : readCorpus())
    for (const std::string &e : c.Got) {
      int best = -1;
      bool tie = false;
      for (size_t i = 0; i < sites.size(); ++i) {
        if (!std::regex_match(e, sites[i].Pattern))
          continue;
        if (best < 0 || sites[i].Literal > sites[best].Literal) {
          best = int(i);
          tie = false;
        } else if (sites[i].Literal == sites[best].Literal) {
          tie = true;
        }
      }
      EXPECT_GE(best, 0) << c.Name << ": '" << e
                         << "' matches no error call of Validate.cpp";
      EXPECT_FALSE(tie) << c.Name << ": '" << e
                        << "' matches several error calls equally";
      if (best >= 0)
        coveredBy[best].push_back(c.Name);
    }
  size_t covered = 0;
  for (size_t i = 0; i < sites.size(); ++i) {
    covered += !coveredBy[i].empty();
    EXPECT_FALSE(coveredBy[i].empty())
        << "no bad graph in graph/test/bad produces the message '"
        << sites[i].Text
        << "' of graph/Validate.cpp; add one to make_bad_corpus.py";
  }
  EXPECT_EQ(covered, sites.size());
}

TEST(Validate, GraphCreateReportsAllProblems) {
  llvm::Expected<bangc::taskir::TaskGraph> g =
      readGraphFile(TestDir + "/bad/data_length.json");
  ASSERT_TRUE(bool(g));
  g->mutable_blocks(3)->mutable_shape()->set_r(2);
  llvm::Expected<Graph> r = Graph::create(*g);
  ASSERT_FALSE(bool(r));
  std::string msg = llvm::toString(r.takeError());
  EXPECT_NE(msg.find("dimension 'r' must be -1"), std::string::npos) << msg;
}

} // namespace
