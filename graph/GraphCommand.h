//===- GraphCommand.h - The `bangc-sim graph` subcommand --------*- C++ -*-===//
#ifndef BANGC_GRAPH_GRAPHCOMMAND_H
#define BANGC_GRAPH_GRAPHCOMMAND_H

#include "llvm/ADT/ArrayRef.h"

namespace bangc::graph {

/// Runs `bangc-sim graph ARGS...` (ARGS excludes "bangc-sim graph"):
///   FILE [--validate] [--stats] [--run --in NAME=X.npy... [--out
///   NAME=Y.npy...] [--steps T]] [--dot FILE] [--write-binary FILE]
///   [--write-json FILE] | --help
/// Returns 0 on success, 1 for an invalid graph or a failed run, 2 for a
/// usage error. Output goes to stdout, diagnostics to stderr.
int runGraphCommand(llvm::ArrayRef<const char *> Args);

} // namespace bangc::graph

#endif // BANGC_GRAPH_GRAPHCOMMAND_H
