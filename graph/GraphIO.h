//===- GraphIO.h - Reading and writing TaskGraph files ----------*- C++ -*-===//
//
// TaskGraphs are stored either as protobuf binary or in protobuf's JSON
// mapping (what people write by hand). Readers detect the form from the
// content: a file whose first non-blank byte is '{' is JSON.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_GRAPH_GRAPHIO_H
#define BANGC_GRAPH_GRAPHIO_H

#include "graph/proto/taskir.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace bangc::graph {

llvm::Expected<taskir::TaskGraph> parseGraphJson(llvm::StringRef text,
                                                 llvm::StringRef nameForErrors);
llvm::Expected<taskir::TaskGraph>
parseGraphBinary(llvm::StringRef bytes, llvm::StringRef nameForErrors);
/// Parses either form, chosen from the content.
llvm::Expected<taskir::TaskGraph> parseGraph(llvm::StringRef bytes,
                                             llvm::StringRef nameForErrors);
llvm::Expected<taskir::TaskGraph> readGraphFile(llvm::StringRef path);

llvm::Expected<std::string> graphToJson(const taskir::TaskGraph &g);
std::string graphToBinary(const taskir::TaskGraph &g);
llvm::Error writeGraphJson(llvm::StringRef path, const taskir::TaskGraph &g);
llvm::Error writeGraphBinary(llvm::StringRef path, const taskir::TaskGraph &g);

} // namespace bangc::graph

#endif // BANGC_GRAPH_GRAPHIO_H
