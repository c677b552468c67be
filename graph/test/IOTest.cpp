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

bool same(const TaskGraph &a, const TaskGraph &b) {
  return google::protobuf::util::MessageDifferencer::Equals(a, b);
}

std::string tempFile(const char *name) {
  llvm::SmallString<128> p;
  llvm::sys::fs::createTemporaryFile(name, "", p);
  return std::string(p);
}

TEST(GraphIO, RoundTripsEveryExample) {
  for (auto &[Name, G] : allExamples()) {
    llvm::Expected<std::string> json = graphToJson(G);
    ASSERT_TRUE(bool(json));
    llvm::Expected<TaskGraph> fromJson = parseGraph(*json, Name);
    ASSERT_TRUE(bool(fromJson)) << llvm::toString(fromJson.takeError());
    EXPECT_TRUE(same(G, *fromJson)) << Name;
    llvm::Expected<TaskGraph> fromBin = parseGraph(graphToBinary(G), Name);
    ASSERT_TRUE(bool(fromBin)) << llvm::toString(fromBin.takeError());
    EXPECT_TRUE(same(G, *fromBin)) << Name;
  }
}

TEST(GraphIO, FileRoundTripBinaryAndJson) {
  llvm::Expected<TaskGraph> g =
      readGraphFile(TestDir + "/good/small_conv.json");
  ASSERT_TRUE(bool(g)) << llvm::toString(g.takeError());
  EXPECT_EQ(g->blocks(4).name(), "conv");
  EXPECT_EQ(g->blocks(3).data().int32_data(1), -20);
  std::string bin = tempFile("g.pb"), js = tempFile("g.json");
  ASSERT_FALSE(bool(writeGraphBinary(bin, *g)));
  ASSERT_FALSE(bool(writeGraphJson(js, *g)));
  llvm::Expected<TaskGraph> b = readGraphFile(bin), j = readGraphFile(js);
  ASSERT_TRUE(bool(b) && bool(j));
  EXPECT_TRUE(same(*g, *b));
  EXPECT_TRUE(same(*g, *j));
  // Absent shape dims stay absent (unused), explicit zeros stay present.
  EXPECT_FALSE(b->blocks(3).shape().has_y());
  EXPECT_TRUE(j->blocks(0).output_clusters(0).shape().has_f());
  llvm::sys::fs::remove(bin);
  llvm::sys::fs::remove(js);
}

std::string readError(const std::string &bytes) {
  std::string p = tempFile("bad");
  std::ofstream(p, std::ios::binary) << bytes;
  llvm::Expected<TaskGraph> g = readGraphFile(p);
  llvm::sys::fs::remove(p);
  if (g)
    return "";
  return llvm::toString(g.takeError());
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
  llvm::Expected<TaskGraph> g =
      readGraphFile(TestDir + "/good/small_conv.json");
  ASSERT_TRUE(bool(g));
  std::string bin = graphToBinary(*g);
  for (size_t n = 1; n < bin.size(); n += 7) {
    llvm::Expected<TaskGraph> p = parseGraphBinary(bin.substr(0, n), "t");
    if (!p)
      llvm::consumeError(p.takeError());
  }
  llvm::Expected<TaskGraph> missing = readGraphFile("/nonexistent/g.json");
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError())
                .find("/nonexistent/g.json: "
                      "cannot open"),
            std::string::npos);
}

} // namespace
