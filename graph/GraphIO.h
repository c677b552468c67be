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

llvm::Expected<taskir::TaskGraph> parseGraphJson(llvm::StringRef Text,
                                                 llvm::StringRef NameForErrors);
llvm::Expected<taskir::TaskGraph>
parseGraphBinary(llvm::StringRef Bytes, llvm::StringRef NameForErrors);
/// Parses either form, chosen from the content.
llvm::Expected<taskir::TaskGraph> parseGraph(llvm::StringRef Bytes,
                                             llvm::StringRef NameForErrors);
llvm::Expected<taskir::TaskGraph> readGraphFile(llvm::StringRef Path);

llvm::Expected<std::string> graphToJson(const taskir::TaskGraph &G);
std::string graphToBinary(const taskir::TaskGraph &G);
llvm::Error writeGraphJson(llvm::StringRef Path, const taskir::TaskGraph &G);
llvm::Error writeGraphBinary(llvm::StringRef Path, const taskir::TaskGraph &G);

} // namespace bangc::graph

#endif // BANGC_GRAPH_GRAPHIO_H
