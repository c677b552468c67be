//===- IOTest.cpp - Binary and JSON round trips, malformed files ---------===//
#include "TestUtil.h"

#include "Examples.h"
#include "graph/GraphIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/util/message_differencer.h>

#include <fstream>

using namespace bangc::graph;
using namespace bangc::taskir;

namespace {

const std::string TestDir = BANGC_GRAPH_TEST_DIR;

bool same(const TaskGraph &A, const TaskGraph &B) {
  return google::protobuf::util::MessageDifferencer::Equals(A, B);
}

std::string tempFile(const char *Name) {
  llvm::SmallString<128> P;
  llvm::sys::fs::createTemporaryFile(Name, "", P);
  return std::string(P);
}

TEST(GraphIO, RoundTripsEveryExample) {
  for (auto &[Name, G] : allExamples()) {
    llvm::Expected<std::string> Json = graphToJson(G);
    ASSERT_TRUE(bool(Json));
    llvm::Expected<TaskGraph> FromJson = parseGraph(*Json, Name);
    ASSERT_TRUE(bool(FromJson)) << llvm::toString(FromJson.takeError());
    EXPECT_TRUE(same(G, *FromJson)) << Name;
    llvm::Expected<TaskGraph> FromBin = parseGraph(graphToBinary(G), Name);
    ASSERT_TRUE(bool(FromBin)) << llvm::toString(FromBin.takeError());
    EXPECT_TRUE(same(G, *FromBin)) << Name;
  }
}

TEST(GraphIO, FileRoundTripBinaryAndJson) {
  llvm::Expected<TaskGraph> G = readGraphFile(TestDir + "/good/small_conv.json");
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_EQ(G->blocks(4).name(), "conv");
  EXPECT_EQ(G->blocks(3).data().int32_data(1), -20);
  std::string Bin = tempFile("g.pb"), Js = tempFile("g.json");
  ASSERT_FALSE(bool(writeGraphBinary(Bin, *G)));
  ASSERT_FALSE(bool(writeGraphJson(Js, *G)));
  llvm::Expected<TaskGraph> B = readGraphFile(Bin), J = readGraphFile(Js);
  ASSERT_TRUE(bool(B) && bool(J));
  EXPECT_TRUE(same(*G, *B));
  EXPECT_TRUE(same(*G, *J));
  // Absent shape dims stay absent (unused), explicit zeros stay present.
  EXPECT_FALSE(B->blocks(3).shape().has_y());
  EXPECT_TRUE(J->blocks(0).output_clusters(0).shape().has_f());
  llvm::sys::fs::remove(Bin);
  llvm::sys::fs::remove(Js);
}

std::string readError(const std::string &Bytes) {
  std::string P = tempFile("bad");
  std::ofstream(P, std::ios::binary) << Bytes;
  llvm::Expected<TaskGraph> G = readGraphFile(P);
  llvm::sys::fs::remove(P);
  if (G)
    return "";
  return llvm::toString(G.takeError());
}

TEST(GraphIO, MalformedFilesAreClearErrors) {
  EXPECT_NE(readError("").find("empty file"), std::string::npos);
  EXPECT_NE(readError("{\"blocks\": [").find("invalid TaskGraph JSON"),
            std::string::npos);
  EXPECT_NE(readError("{\"blokcs\": []}").find("invalid TaskGraph JSON"),
            std::string::npos);
  EXPECT_NE(readError("{\"blocks\": [{\"type\": \"CFOO\"}]}")
                .find("invalid TaskGraph JSON"),
            std::string::npos);
  EXPECT_NE(readError("{\"blocks\": [{\"id\": \"x\"}]}")
                .find("invalid TaskGraph JSON"),
            std::string::npos);
  EXPECT_NE(readError("\x93NUMPY garbage").find("not a valid binary TaskGraph"),
            std::string::npos);
  // Truncated binary: every prefix of a real graph is either rejected or
  // parses; nothing crashes.
  llvm::Expected<TaskGraph> G = readGraphFile(TestDir + "/good/small_conv.json");
  ASSERT_TRUE(bool(G));
  std::string Bin = graphToBinary(*G);
  for (size_t N = 1; N < Bin.size(); N += 7) {
    llvm::Expected<TaskGraph> P = parseGraphBinary(Bin.substr(0, N), "t");
    if (!P)
      llvm::consumeError(P.takeError());
  }
  llvm::Expected<TaskGraph> Missing = readGraphFile("/nonexistent/g.json");
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(llvm::toString(Missing.takeError()).find("/nonexistent/g.json: "
                                                     "cannot open"),
            std::string::npos);
}

} // namespace
