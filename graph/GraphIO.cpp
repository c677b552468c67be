//===- GraphIO.cpp - Reading and writing TaskGraph files -----------------===//
#include "graph/GraphIO.h"
#include "support/ReadFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/util/json_util.h>

#include <fmt/format.h>

using namespace llvm;

namespace bangc::graph {

static Error ioError(StringRef Name, const std::string &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           fmt::format("{}: {}", Name.str(), Msg));
}

/// True if \p M or any nested message carries fields this schema does not
/// know. Protobuf's binary parser keeps them silently, which would let a
/// random file parse as an (odd) graph.
static bool hasUnknownFields(const google::protobuf::Message &M) {
  const google::protobuf::Reflection *R = M.GetReflection();
  if (!R->GetUnknownFields(M).empty())
    return true;
  std::vector<const google::protobuf::FieldDescriptor *> Fields;
  R->ListFields(M, &Fields);
  for (const auto *F : Fields) {
    if (F->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE)
      continue;
    if (F->is_repeated()) {
      for (int I = 0, E = R->FieldSize(M, F); I < E; ++I)
        if (hasUnknownFields(R->GetRepeatedMessage(M, F, I)))
          return true;
    } else if (hasUnknownFields(R->GetMessage(M, F))) {
      return true;
    }
  }
  return false;
}

Expected<taskir::TaskGraph> parseGraphJson(StringRef Text, StringRef Name) {
  taskir::TaskGraph G;
  google::protobuf::util::JsonParseOptions Opts;
  Opts.ignore_unknown_fields = false;
  auto Status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(Text.data(), Text.size()), &G, Opts);
  if (!Status.ok())
    return ioError(Name, fmt::format("invalid TaskGraph JSON: {}",
                                     std::string(Status.message())));
  return G;
}

Expected<taskir::TaskGraph> parseGraphBinary(StringRef Bytes, StringRef Name) {
  taskir::TaskGraph G;
  if (Bytes.size() > size_t(INT32_MAX))
    return ioError(Name, "binary TaskGraph larger than 2 GiB");
  google::protobuf::io::CodedInputStream In(
      reinterpret_cast<const uint8_t *>(Bytes.data()), int(Bytes.size()));
  // protobuf would log its own complaint (invalid UTF-8, say) to stderr; the
  // error below is the one the user gets.
  google::protobuf::LogSilencer Quiet;
  if (!G.ParseFromCodedStream(&In) || !In.ConsumedEntireMessage())
    return ioError(Name, "not a valid binary TaskGraph (protobuf parse failed)");
  if (hasUnknownFields(G))
    return ioError(Name, "not a valid binary TaskGraph (it contains fields "
                         "unknown to the Task IR schema)");
  return G;
}

Expected<taskir::TaskGraph> parseGraph(StringRef Bytes, StringRef Name) {
  StringRef Trimmed = Bytes.ltrim(" \t\r\n");
  if (Trimmed.starts_with("{"))
    return parseGraphJson(Bytes, Name);
  return parseGraphBinary(Bytes, Name);
}

Expected<taskir::TaskGraph> readGraphFile(StringRef Path) {
  // A graph file is small: 1 GiB bounds a mistaken /dev/zero or FIFO.
  Expected<std::unique_ptr<MemoryBuffer>> Buf =
      readInputFile(Path, uint64_t(1) << 30);
  if (!Buf)
    return Buf.takeError();
  if ((*Buf)->getBufferSize() == 0)
    return ioError(Path, "empty file");
  return parseGraph((*Buf)->getBuffer(), Path);
}

Expected<std::string> graphToJson(const taskir::TaskGraph &G) {
  std::string Out;
  google::protobuf::util::JsonPrintOptions Opts;
  Opts.add_whitespace = true;
  Opts.preserve_proto_field_names = true;
  auto Status = google::protobuf::util::MessageToJsonString(G, &Out, Opts);
  if (!Status.ok())
    return createStringError(inconvertibleErrorCode(),
                             "cannot print TaskGraph as JSON: " +
                                 std::string(Status.message()));
  return Out;
}

std::string graphToBinary(const taskir::TaskGraph &G) {
  google::protobuf::LogSilencer Quiet; // names are checked by validation
  return G.SerializeAsString();
}

static Error writeFile(StringRef Path, StringRef Bytes) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return ioError(Path,
                   fmt::format("cannot open for writing: {}", EC.message()));
  OS << Bytes;
  OS.close();
  if (OS.has_error()) {
    std::error_code WEC = OS.error();
    OS.clear_error();
    return ioError(Path, fmt::format("write failed: {}", WEC.message()));
  }
  return Error::success();
}

Error writeGraphJson(StringRef Path, const taskir::TaskGraph &G) {
  Expected<std::string> Json = graphToJson(G);
  if (!Json)
    return Json.takeError();
  return writeFile(Path, *Json);
}

Error writeGraphBinary(StringRef Path, const taskir::TaskGraph &G) {
  return writeFile(Path, graphToBinary(G));
}

} // namespace bangc::graph
