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
std::vector<std::string> jsonFiles(const std::string &Sub) {
  std::error_code EC;
  std::vector<std::string> Files;
  for (llvm::sys::fs::directory_iterator It(TestDir + "/" + Sub, EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json"))
      Files.push_back(It->path());
  EXPECT_FALSE(EC) << Sub << ": " << EC.message();
  std::sort(Files.begin(), Files.end());
  return Files;
}

std::string baseName(const std::string &Path) {
  return llvm::sys::path::filename(Path).str();
}

// The valid graphs the bad corpus starts from (make_bad_corpus.py).
TEST(Validate, GoodGraphsAreValid) {
  std::vector<std::string> Files = jsonFiles("good");
  ASSERT_GE(Files.size(), 9u) << "the valid graphs went missing";
  for (const std::string &F : Files) {
    llvm::Expected<bangc::taskir::TaskGraph> G = readGraphFile(F);
    ASSERT_TRUE(bool(G)) << F << ": " << llvm::toString(G.takeError());
    EXPECT_EQ(collectGraphErrors(*G), std::vector<std::string>{}) << F;
  }
}

/// A bad graph of the corpus with the errors it must produce and those it
/// does produce.
struct BadCase {
  std::string Name;
  std::vector<std::string> Want, Got;
};

std::vector<BadCase> readCorpus() {
  std::vector<BadCase> Cases;
  for (const std::string &F : jsonFiles("bad")) {
    BadCase C;
    C.Name = baseName(F);
    std::string ExpPath = F.substr(0, F.size() - 5) + ".expected";
    auto Exp = llvm::MemoryBuffer::getFile(ExpPath);
    EXPECT_TRUE(bool(Exp)) << "missing " << ExpPath;
    if (!Exp)
      continue;
    llvm::SmallVector<llvm::StringRef, 4> Lines;
    (*Exp)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef L : Lines)
      C.Want.push_back(L.str());
    llvm::Expected<bangc::taskir::TaskGraph> G = readGraphFile(F);
    EXPECT_TRUE(bool(G)) << F << ": " << llvm::toString(G.takeError());
    if (!G)
      continue;
    C.Got = collectGraphErrors(*G);
    Cases.push_back(std::move(C));
  }
  return Cases;
}

std::string joined(const std::vector<std::string> &Lines) {
  std::string All;
  for (const std::string &L : Lines)
    All += "\n  " + L;
  return All;
}

// Every bad/NAME.json must be rejected with exactly the errors listed in
// NAME.expected, in order.
TEST(Validate, BadGraphCorpus) {
  std::vector<BadCase> Cases = readCorpus();
  ASSERT_GE(Cases.size(), 85u) << "the corpus went missing";
  for (const BadCase &C : Cases) {
    EXPECT_FALSE(C.Got.empty()) << C.Name << " was accepted";
    EXPECT_EQ(C.Got, C.Want)
        << C.Name << ": expected" << joined(C.Want) << "\ngot" << joined(C.Got);
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

/// Index just past the string literal starting at \p I.
size_t skipString(llvm::StringRef S, size_t I) {
  for (++I; I < S.size() && S[I] != '"'; ++I)
    if (S[I] == '\\')
      ++I;
  return I + 1;
}

/// The top-level arguments of the call whose '(' is at \p Open.
std::vector<std::string> callArgs(llvm::StringRef S, size_t Open) {
  std::vector<std::string> Args;
  std::string Cur;
  int Depth = 0;
  for (size_t I = Open; I < S.size();) {
    char C = S[I];
    if (C == '"') {
      size_t End = skipString(S, I);
      Cur += S.slice(I, End).str();
      I = End;
      continue;
    }
    ++I;
    if (C == '(' || C == '[' || C == '{') {
      if (Depth++ == 0)
        continue;
    } else if (C == ')' || C == ']' || C == '}') {
      if (--Depth == 0) {
        Args.push_back(llvm::StringRef(Cur).trim().str());
        return Args;
      }
    } else if (C == ',' && Depth == 1) {
      Args.push_back(llvm::StringRef(Cur).trim().str());
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  return {};
}

/// The concatenated string literals at the start of \p Expr (C++ joins
/// adjacent literals), unescaped.
std::string leadingLiterals(llvm::StringRef Expr) {
  std::string Out;
  Expr = Expr.ltrim();
  while (Expr.starts_with("\"")) {
    size_t End = skipString(Expr, 0);
    llvm::StringRef Body = Expr.slice(1, End - 1);
    for (size_t I = 0; I < Body.size(); ++I)
      Out += Body[I] == '\\' && I + 1 < Body.size() ? Body[++I] : Body[I];
    Expr = Expr.drop_front(End).ltrim();
  }
  return Out;
}

/// The format strings an expression can produce: the first argument of each
/// fmt::format in it, or its literals if it has none.
std::vector<std::string> formats(llvm::StringRef Expr) {
  std::vector<std::string> Out;
  for (size_t At = Expr.find("fmt::format("); At != llvm::StringRef::npos;
       At = Expr.find("fmt::format(", At + 1))
    Out.push_back(
        leadingLiterals(callArgs(Expr, At + strlen("fmt::format"))[0]));
  if (Out.empty())
    Out.push_back(leadingLiterals(Expr));
  return Out;
}

/// A regex for a format string ("{}" matches anything); counts literals.
std::string formatRegex(const std::string &Fmt, size_t &Literal) {
  std::string Re;
  for (size_t I = 0; I < Fmt.size(); ++I) {
    if (Fmt.compare(I, 2, "{}") == 0) {
      Re += ".*";
      ++I;
      continue;
    }
    if (strchr(".^$|()[]{}*+?\\", Fmt[I]))
      Re += '\\';
    Re += Fmt[I];
    ++Literal;
  }
  return Re;
}

/// A regex for a field expression: its literal parts, ".*" for the rest
/// (e.g. `F + ".position"`).
std::string fieldRegex(const std::string &Expr, size_t &Literal) {
  std::string Re;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(Expr).split(Parts, " + ");
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    if (P.starts_with("\""))
      Re += formatRegex(leadingLiterals(P), Literal);
    else if (P.starts_with("fmt::format("))
      Re += formatRegex(formats(P)[0], Literal);
    else
      Re += ".*";
  }
  return Re;
}

/// Every error(...) and graphError(...) call of Validate.cpp as sites.
std::vector<Site> validatorSites() {
  std::string Path = TestDir + "/../Validate.cpp";
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  EXPECT_TRUE(bool(Buf)) << Path;
  if (!Buf)
    return {};
  llvm::StringRef S = (*Buf)->getBuffer();
  std::vector<Site> Sites;
  for (size_t I = 0; I < S.size();) {
    if (S[I] == '"') {
      I = skipString(S, I);
      continue;
    }
    if (S.substr(I).starts_with("//")) {
      I = S.find('\n', I);
      continue;
    }
    bool Graph = S.substr(I).starts_with("graphError(");
    bool Block = S.substr(I).starts_with("error(");
    bool Start = I == 0 || !(isalnum(S[I - 1]) || S[I - 1] == '_');
    if (!Start || (!Graph && !Block)) {
      ++I;
      continue;
    }
    size_t Open = S.find('(', I);
    std::vector<std::string> Args = callArgs(S, Open);
    I = Open + 1;
    if (Args.empty() || llvm::StringRef(Args[0]).starts_with("const "))
      continue; // the definitions of error() and graphError()
    EXPECT_EQ(Args.size(), Graph ? 1u : 3u)
        << "unexpected call at offset " << Open << " of " << Path;
    if (Args.size() != (Graph ? 1u : 3u))
      continue;
    std::string Prefix = Graph            ? "graph: "
                         : Args[0] == "E" ? "edge .*: "
                                          : "block .*: ";
    size_t FieldLiteral = 0;
    std::string Field = Graph ? "" : fieldRegex(Args[1], FieldLiteral) + ": ";
    for (const std::string &Fmt : formats(Args.back())) {
      Site St;
      St.Literal = FieldLiteral;
      std::string Re = Prefix + Field + formatRegex(Fmt, St.Literal);
      St.Text = (Graph ? "graph" : Args[1]) + ": " + Fmt;
      St.Pattern = std::regex(Re);
      Sites.push_back(std::move(St));
    }
  }
  return Sites;
}

// Each message Validate.cpp can emit (each format string of each error
// call) is produced by some bad graph of the corpus: a new rule without a
// bad graph fails here. Each corpus error is attributed to the most
// literal pattern it matches.
TEST(Validate, EveryMessageHasABadGraph) {
  std::vector<Site> Sites = validatorSites();
  ASSERT_GE(Sites.size(), 80u) << "the scan of Validate.cpp found too few "
                                  "error calls";
  std::vector<std::vector<std::string>> CoveredBy(Sites.size());
  for (const BadCase &C : readCorpus())
    for (const std::string &E : C.Got) {
      int Best = -1;
      bool Tie = false;
      for (size_t I = 0; I < Sites.size(); ++I) {
        if (!std::regex_match(E, Sites[I].Pattern))
          continue;
        if (Best < 0 || Sites[I].Literal > Sites[Best].Literal) {
          Best = int(I);
          Tie = false;
        } else if (Sites[I].Literal == Sites[Best].Literal) {
          Tie = true;
        }
      }
      EXPECT_GE(Best, 0) << C.Name << ": '" << E
                         << "' matches no error call of Validate.cpp";
      EXPECT_FALSE(Tie) << C.Name << ": '" << E
                        << "' matches several error calls equally";
      if (Best >= 0)
        CoveredBy[Best].push_back(C.Name);
    }
  size_t Covered = 0;
  for (size_t I = 0; I < Sites.size(); ++I) {
    Covered += !CoveredBy[I].empty();
    EXPECT_FALSE(CoveredBy[I].empty())
        << "no bad graph in graph/test/bad produces the message '"
        << Sites[I].Text
        << "' of graph/Validate.cpp; add one to make_bad_corpus.py";
  }
  EXPECT_EQ(Covered, Sites.size());
}

TEST(Validate, GraphCreateReportsAllProblems) {
  llvm::Expected<bangc::taskir::TaskGraph> G =
      readGraphFile(TestDir + "/bad/data_length.json");
  ASSERT_TRUE(bool(G));
  G->mutable_blocks(3)->mutable_shape()->set_r(2);
  llvm::Expected<Graph> R = Graph::create(*G);
  ASSERT_FALSE(bool(R));
  std::string Msg = llvm::toString(R.takeError());
  EXPECT_NE(Msg.find("dimension 'r' must be -1"), std::string::npos) << Msg;
}

} // namespace
