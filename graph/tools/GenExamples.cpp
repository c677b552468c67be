//===- GenExamples.cpp - Writes examples/graphs --------------------------===//
//
// usage: bangc-graph-examples OUTDIR
//
//===----------------------------------------------------------------------===//
#include "Examples.h"

#include "graph/GraphIO.h"
#include "graph/Validate.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: bangc-graph-examples OUTDIR\n";
    return 2;
  }
  for (auto &[File, G] : bangc::graph::allExamples()) {
    if (llvm::Error e = bangc::graph::validateGraph(G)) {
      llvm::errs() << File << ": generated graph is invalid: "
                   << llvm::toString(std::move(e)) << "\n";
      return 1;
    }
    llvm::SmallString<256> path(argv[1]);
    llvm::sys::path::append(path, File);
    if (llvm::Error e = bangc::graph::writeGraphJson(path, G)) {
      llvm::errs() << llvm::toString(std::move(e)) << "\n";
      return 1;
    }
    llvm::outs() << "wrote " << path << "\n";
  }
  return 0;
}
