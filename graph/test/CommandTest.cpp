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

int run(std::vector<std::string> args) {
  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  return runGraphCommand(argv);
}

class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> p;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("bangc-graph", p));
    Path = std::string(p);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string operator/(const char *n) const { return Path + "/" + n; }
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
  TempDir d;
  EXPECT_EQ(run({Good, "--run", "--in", "x=" + d / "missing.npy"}), 1);
  ASSERT_FALSE(bool(writeNpy(
      d / "x.npy", array(taskir::INT8, {4, 4, 2}, randomInts(32, -5, 5, 1)))));
  EXPECT_EQ(run({Good, "--run", "--in", "x=" + d / "x.npy", "--out",
                 "nope=" + d / "y.npy"}),
            1);
  ASSERT_FALSE(
      bool(writeNpy(d / "wrong.npy", array(taskir::INT16, {4, 4, 2},
                                           randomInts(32, -5, 5, 1)))));
  EXPECT_EQ(run({Good, "--run", "--in", "x=" + d / "wrong.npy"}), 1);
}

TEST(GraphCommand, ValidateStatsDotAndConversions) {
  TempDir d;
  EXPECT_EQ(run({Good, "--validate", "--stats", "--dot", d / "g.dot",
                 "--write-binary", d / "g.pb", "--write-json", d / "g.json"}),
            0);
  auto dot = llvm::MemoryBuffer::getFile(d / "g.dot");
  ASSERT_TRUE(bool(dot));
  EXPECT_TRUE((*dot)->getBuffer().starts_with("digraph taskgraph {"));
  EXPECT_NE((*dot)->getBuffer().find("b4 -> b5"), llvm::StringRef::npos);
  // The binary written can be read back by the command itself.
  EXPECT_EQ(run({d / "g.pb", "--validate"}), 0);
  EXPECT_EQ(run({d / "g.json", "--validate"}), 0);
}

TEST(GraphCommand, RunWritesOutputsMatchingTheLibrary) {
  TempDir d;
  NpyArray x = array(taskir::INT8, {4, 4, 2}, randomInts(32, -128, 127, 2));
  ASSERT_FALSE(bool(writeNpy(d / "x.npy", x)));
  ASSERT_EQ(run({Good, "--run", "--in", "x=" + d / "x.npy", "--out",
                 "y=" + d / "y.npy"}),
            0);
  llvm::Expected<NpyArray> y = readNpy(d / "y.npy");
  ASSERT_TRUE(bool(y)) << llvm::toString(y.takeError());
  Graph g = mustCreate(*readGraphFile(Good));
  TensorMap want = mustRun(g, {{"x", x}});
  EXPECT_EQ(y->shape, (std::vector<int64_t>{4, 4, 3}));
  EXPECT_EQ(y->data, want["y"].data);
}

// The CLI result equals an independent numpy computation (which also
// re-implements the documented weight initialisation).
TEST(GraphCommand, RunMatchesNumpyReference) {
  TempDir d;
  NpyArray x = array(taskir::INT8, {4, 4, 2}, randomInts(32, -128, 127, 9));
  ASSERT_FALSE(bool(writeNpy(d / "x.npy", x)));
  ASSERT_EQ(run({Good, "--run", "--in", "x=" + d / "x.npy", "--out",
                 "y=" + d / "y.npy"}),
            0);
  std::string cmd = std::string(BANGC_SYSTEM_PYTHON) + " " +
                    BANGC_GRAPH_TEST_DIR "/numpy_small_conv.py " + d / "x.npy" +
                    " " + d / "y.npy";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(GraphCommand, StandaloneToolExitCodes) {
  auto exit = [](const std::string &args) {
    std::string cmd =
        std::string(BANGC_GRAPH_TOOL) + " " + args + " >/dev/null 2>&1";
    int st = std::system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  };
  EXPECT_EQ(exit("--help"), 0);
  EXPECT_EQ(exit(Good + " --validate"), 0);
  EXPECT_EQ(exit(BANGC_GRAPH_TEST_DIR "/bad/data_range.json"), 1);
  EXPECT_EQ(exit("--bogus"), 2);
}

} // namespace
