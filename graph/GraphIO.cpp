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

static Error ioError(StringRef name, const std::string &msg) {
  return createStringError(inconvertibleErrorCode(),
                           fmt::format("{}: {}", name.str(), msg));
}

/// True if \p m or any nested message carries fields this schema does not
/// know. Protobuf's binary parser keeps them silently, which would let a
/// random file parse as an (odd) graph.
static bool hasUnknownFields(const google::protobuf::Message &m) {
  const google::protobuf::Reflection *r = m.GetReflection();
  if (!r->GetUnknownFields(m).empty())
    return true;
  std::vector<const google::protobuf::FieldDescriptor *> fields;
  r->ListFields(m, &fields);
  for (const auto *f : fields) {
    if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE)
      continue;
    if (f->is_repeated()) {
      for (int i = 0, e = r->FieldSize(m, f); i < e; ++i)
        if (hasUnknownFields(r->GetRepeatedMessage(m, f, i)))
          return true;
    } else if (hasUnknownFields(r->GetMessage(m, f))) {
      return true;
    }
  }
  return false;
}

Expected<taskir::TaskGraph> parseGraphJson(StringRef text, StringRef name) {
  taskir::TaskGraph g;
  google::protobuf::util::JsonParseOptions opts;
  opts.ignore_unknown_fields = false;
  auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(text.data(), text.size()), &g, opts);
  if (!status.ok())
    return ioError(name, fmt::format("invalid TaskGraph JSON: {}",
                                     std::string(status.message())));
  return g;
}

Expected<taskir::TaskGraph> parseGraphBinary(StringRef bytes, StringRef name) {
  taskir::TaskGraph g;
  if (bytes.size() > size_t(INT32_MAX))
    return ioError(name, "binary TaskGraph larger than 2 GiB");
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t *>(bytes.data()), int(bytes.size()));
  // protobuf would log its own complaint (invalid UTF-8, say) to stderr; the
  // error below is the one the user gets.
  google::protobuf::LogSilencer quiet;
  if (!g.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    return ioError(name,
                   "not a valid binary TaskGraph (protobuf parse failed)");
  if (hasUnknownFields(g))
    return ioError(name, "not a valid binary TaskGraph (it contains fields "
                         "unknown to the Task IR schema)");
  return g;
}

Expected<taskir::TaskGraph> parseGraph(StringRef bytes, StringRef name) {
  StringRef trimmed = bytes.ltrim(" \t\r\n");
  if (trimmed.starts_with("{"))
    return parseGraphJson(bytes, name);
  return parseGraphBinary(bytes, name);
}

Expected<taskir::TaskGraph> readGraphFile(StringRef path) {
  // A graph file is small: 1 GiB bounds a mistaken /dev/zero or FIFO.
  Expected<std::unique_ptr<MemoryBuffer>> buf =
      readInputFile(path, uint64_t(1) << 30);
  if (!buf)
    return buf.takeError();
  if ((*buf)->getBufferSize() == 0)
    return ioError(path, "empty file");
  return parseGraph((*buf)->getBuffer(), path);
}

Expected<std::string> graphToJson(const taskir::TaskGraph &g) {
  std::string out;
  google::protobuf::util::JsonPrintOptions opts;
  opts.add_whitespace = true;
  opts.preserve_proto_field_names = true;
  auto status = google::protobuf::util::MessageToJsonString(g, &out, opts);
  if (!status.ok())
    return createStringError(inconvertibleErrorCode(),
                             "cannot print TaskGraph as JSON: " +
                                 std::string(status.message()));
  return out;
}

std::string graphToBinary(const taskir::TaskGraph &g) {
  google::protobuf::LogSilencer quiet; // names are checked by validation
  return g.SerializeAsString();
}

static Error writeFile(StringRef path, StringRef bytes) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return ioError(path,
                   fmt::format("cannot open for writing: {}", ec.message()));
  os << bytes;
  os.close();
  if (os.has_error()) {
    std::error_code wec = os.error();
    os.clear_error();
    return ioError(path, fmt::format("write failed: {}", wec.message()));
  }
  return Error::success();
}

Error writeGraphJson(StringRef path, const taskir::TaskGraph &g) {
  Expected<std::string> json = graphToJson(g);
  if (!json)
    return json.takeError();
  return writeFile(path, *json);
}

Error writeGraphBinary(StringRef path, const taskir::TaskGraph &g) {
  return writeFile(path, graphToBinary(g));
}

} // namespace bangc::graph
