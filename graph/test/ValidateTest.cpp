//===- ValidateTest.cpp - The bad-graph corpus and validation rules ------===//
#include "TestUtil.h"

#include "graph/GraphIO.h"
#include "graph/Validate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace bangc::graph;

namespace {

const std::string TestDir = BANGC_GRAPH_TEST_DIR;

TEST(Validate, GoodGraphIsValid) {
  llvm::Expected<bangc::taskir::TaskGraph> G =
      readGraphFile(TestDir + "/good/small_conv.json");
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_EQ(collectGraphErrors(*G), std::vector<std::string>{});
}

// Every bad/NAME.json must be rejected with the message in NAME.expected.
TEST(Validate, BadGraphCorpus) {
  std::error_code EC;
  std::vector<std::string> Files;
  for (llvm::sys::fs::directory_iterator It(TestDir + "/bad", EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json"))
      Files.push_back(It->path());
  ASSERT_FALSE(EC) << EC.message();
  std::sort(Files.begin(), Files.end());
  ASSERT_GE(Files.size(), 50u) << "the corpus went missing";
  for (const std::string &F : Files) {
    std::string ExpPath = F.substr(0, F.size() - 5) + ".expected";
    auto Exp = llvm::MemoryBuffer::getFile(ExpPath);
    ASSERT_TRUE(bool(Exp)) << "missing " << ExpPath;
    std::string Want = (*Exp)->getBuffer().trim().str();
    llvm::Expected<bangc::taskir::TaskGraph> G = readGraphFile(F);
    ASSERT_TRUE(bool(G)) << F << ": " << llvm::toString(G.takeError());
    std::vector<std::string> Errs = collectGraphErrors(*G);
    ASSERT_FALSE(Errs.empty()) << F << " was accepted";
    bool Found = std::any_of(Errs.begin(), Errs.end(), [&](const std::string &E) {
      return E.find(Want) != std::string::npos;
    });
    std::string All;
    for (const std::string &E : Errs)
      All += "\n  " + E;
    EXPECT_TRUE(Found) << llvm::sys::path::filename(F).str() << ": expected '"
                       << Want << "' among:" << All;
  }
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
