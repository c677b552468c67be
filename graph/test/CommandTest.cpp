//===- CommandTest.cpp - The `graph` subcommand and the bangc-graph tool -===//
#include "TestUtil.h"

#include "tools/GraphCommand.h"
#include "graph/GraphIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <sys/wait.h>

using namespace bangc;
using namespace bangc::graph;
using namespace bangc::graph::test;
using bangc::tools::runGraphCommand;

namespace {

const std::string Good = BANGC_GRAPH_TEST_DIR "/good/small_conv.json";

int run(std::vector<std::string> Args) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  return runGraphCommand(Argv);
}

class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> P;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("bangc-graph", P));
    Path = std::string(P);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string operator/(const char *N) const { return Path + "/" + N; }
  std::string Path;
};

TEST(GraphCommand, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run({"--help"}), 0);
  EXPECT_EQ(run({}), 2);
  EXPECT_EQ(run({Good, "--frobnicate"}), 2);
  EXPECT_EQ(run({Good, "--in", "x=a.npy"}), 2); // --in needs --run
  EXPECT_EQ(run({Good, "--run", "--in"}), 2);
  EXPECT_EQ(run({Good, "--run", "--in", "novalue"}), 2);
  EXPECT_EQ(run({Good, "--run", "--steps", "0"}), 2);
  EXPECT_EQ(run({Good, Good}), 2);
}

TEST(GraphCommand, InvalidGraphsAndRunErrorsExitWithOne) {
  EXPECT_EQ(run({"/nonexistent.json"}), 1);
  EXPECT_EQ(run({BANGC_GRAPH_TEST_DIR "/bad/cycle.json", "--validate"}), 1);
  EXPECT_EQ(run({Good, "--run"}), 1); // input x missing
  TempDir D;
  EXPECT_EQ(run({Good, "--run", "--in", "x=" + D / "missing.npy"}), 1);
  ASSERT_FALSE(bool(writeNpy(D / "x.npy", array(taskir::INT8, {4, 4, 2},
                                                 randomInts(32, -5, 5, 1)))));
  EXPECT_EQ(run({Good, "--run", "--in", "x=" + D / "x.npy", "--out",
                 "nope=" + D / "y.npy"}),
            1);
  ASSERT_FALSE(bool(writeNpy(D / "wrong.npy", array(taskir::INT16, {4, 4, 2},
                                                     randomInts(32, -5, 5, 1)))));
  EXPECT_EQ(run({Good, "--run", "--in", "x=" + D / "wrong.npy"}), 1);
}

TEST(GraphCommand, ValidateStatsDotAndConversions) {
  TempDir D;
  EXPECT_EQ(run({Good, "--validate", "--stats", "--dot", D / "g.dot",
                 "--write-binary", D / "g.pb", "--write-json", D / "g.json"}),
            0);
  auto Dot = llvm::MemoryBuffer::getFile(D / "g.dot");
  ASSERT_TRUE(bool(Dot));
  EXPECT_TRUE((*Dot)->getBuffer().starts_with("digraph taskgraph {"));
  EXPECT_NE((*Dot)->getBuffer().find("b4 -> b5"), llvm::StringRef::npos);
  // The binary written can be read back by the command itself.
  EXPECT_EQ(run({D / "g.pb", "--validate"}), 0);
  EXPECT_EQ(run({D / "g.json", "--validate"}), 0);
}

TEST(GraphCommand, RunWritesOutputsMatchingTheLibrary) {
  TempDir D;
  NpyArray X = array(taskir::INT8, {4, 4, 2}, randomInts(32, -128, 127, 2));
  ASSERT_FALSE(bool(writeNpy(D / "x.npy", X)));
  ASSERT_EQ(run({Good, "--run", "--in", "x=" + D / "x.npy", "--out",
                 "y=" + D / "y.npy"}),
            0);
  llvm::Expected<NpyArray> Y = readNpy(D / "y.npy");
  ASSERT_TRUE(bool(Y)) << llvm::toString(Y.takeError());
  Graph G = mustCreate(*readGraphFile(Good));
  TensorMap Want = mustRun(G, {{"x", X}});
  EXPECT_EQ(Y->shape, (std::vector<int64_t>{4, 4, 3}));
  EXPECT_EQ(Y->data, Want["y"].data);
}

// The CLI result equals an independent numpy computation (which also
// re-implements the documented weight initialisation).
TEST(GraphCommand, RunMatchesNumpyReference) {
  TempDir D;
  NpyArray X = array(taskir::INT8, {4, 4, 2}, randomInts(32, -128, 127, 9));
  ASSERT_FALSE(bool(writeNpy(D / "x.npy", X)));
  ASSERT_EQ(run({Good, "--run", "--in", "x=" + D / "x.npy", "--out",
                 "y=" + D / "y.npy"}),
            0);
  std::string Cmd = std::string(BANGC_SYSTEM_PYTHON) + " " +
                    BANGC_GRAPH_TEST_DIR "/numpy_small_conv.py " + D / "x.npy" +
                    " " + D / "y.npy";
  EXPECT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
}

TEST(GraphCommand, StandaloneToolExitCodes) {
  auto Exit = [](const std::string &Args) {
    std::string Cmd = std::string(BANGC_GRAPH_TOOL) + " " + Args +
                      " >/dev/null 2>&1";
    int St = std::system(Cmd.c_str());
    return WIFEXITED(St) ? WEXITSTATUS(St) : -1;
  };
  EXPECT_EQ(Exit("--help"), 0);
  EXPECT_EQ(Exit(Good + " --validate"), 0);
  EXPECT_EQ(Exit(BANGC_GRAPH_TEST_DIR "/bad/data_range.json"), 1);
  EXPECT_EQ(Exit("--bogus"), 2);
}

} // namespace
