//===- Npy.cpp - Reading and writing numpy .npy files --------------------===//
//
// The format (numpy/lib/format.py): the magic "\x93NUMPY", a major and minor
// version byte, a little-endian header length (2 bytes in 1.0, 4 bytes in
// 2.0/3.0), then an ASCII (3.0: UTF-8) Python dict literal with the keys
// 'descr', 'fortran_order' and 'shape', padded with spaces and ended by '\n'.
// The raw element data follows.
//
//===----------------------------------------------------------------------===//
#include "support/Npy.h"
#include "support/ReadFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

using namespace llvm;

namespace bangc {

namespace {

constexpr char Magic[] = "\x93NUMPY";
constexpr size_t MagicLen = 6;

Error npyError(StringRef name, const std::string &msg) {
  return createStringError(inconvertibleErrorCode(),
                           fmt::format("{}: {}", name.str(), msg));
}

/// The parsed header dictionary.
struct NpyHeader {
  std::optional<std::string> Descr;
  std::optional<bool> FortranOrder;
  std::optional<std::vector<int64_t>> Shape;
};

/// A tiny recursive-descent parser for the Python dict literal numpy writes.
/// It accepts exactly: '{' (key ':' value ',')* '}' where keys are quoted
/// strings and values are quoted strings, True/False, or tuples of
/// non-negative integers.
class HeaderParser {
public:
  HeaderParser(StringRef text, StringRef name) : Text(text), Name(name) {}

  Expected<NpyHeader> parse() {
    NpyHeader h;
    skipSpace();
    if (!consume('{'))
      return fail("header is not a dict (expected '{')");
    skipSpace();
    while (!consume('}')) {
      Expected<std::string> key = parseString();
      if (!key)
        return key.takeError();
      skipSpace();
      if (!consume(':'))
        return fail(fmt::format("expected ':' after key '{}'", *key));
      skipSpace();
      if (Error e = parseValue(*key, h))
        return std::move(e);
      skipSpace();
      if (consume(',')) {
        skipSpace();
        continue;
      }
      skipSpace();
      if (!consume('}'))
        return fail("expected ',' or '}' in header dict");
      break;
    }
    skipSpace();
    if (Pos != Text.size())
      return fail("trailing characters after header dict");
    if (!h.Descr)
      return fail("header has no 'descr' key");
    if (!h.FortranOrder)
      return fail("header has no 'fortran_order' key");
    if (!h.Shape)
      return fail("header has no 'shape' key");
    return h;
  }

private:
  StringRef Text;
  StringRef Name;
  size_t Pos = 0;

  Error fail(const std::string &msg) {
    return npyError(
        Name, fmt::format("malformed .npy header at offset {}: {}", Pos, msg));
  }
  void skipSpace() {
    while (Pos < Text.size() &&
           (Text[Pos] == ' ' || Text[Pos] == '\t' || Text[Pos] == '\n' ||
            Text[Pos] == '\r'))
      ++Pos;
  }
  bool consume(char c) {
    if (Pos < Text.size() && Text[Pos] == c) {
      ++Pos;
      return true;
    }
    return false;
  }
  bool consumeWord(StringRef w) {
    if (!Text.substr(Pos).starts_with(w))
      return false;
    Pos += w.size();
    return true;
  }

  Expected<std::string> parseString() {
    if (Pos >= Text.size() || (Text[Pos] != '\'' && Text[Pos] != '"'))
      return fail("expected a quoted string");
    char quote = Text[Pos++];
    size_t end = Text.find(quote, Pos);
    if (end == StringRef::npos)
      return fail("unterminated string");
    std::string s = Text.slice(Pos, end).str();
    Pos = end + 1;
    return s;
  }

  Expected<std::vector<int64_t>> parseTuple() {
    if (!consume('('))
      return fail("'shape' must be a tuple");
    std::vector<int64_t> dims;
    skipSpace();
    while (!consume(')')) {
      size_t start = Pos;
      while (Pos < Text.size() && isDigit(Text[Pos]))
        ++Pos;
      if (start == Pos)
        return fail("'shape' entries must be non-negative integers");
      // Reject absurd digit counts before converting.
      if (Pos - start > 18)
        return fail("'shape' entry is too large");
      int64_t d = 0;
      if (Text.slice(start, Pos).getAsInteger(10, d))
        return fail("'shape' entry is not an integer");
      // Python writes long ints as e.g. "3L" in very old files.
      consume('L');
      dims.push_back(d);
      if (dims.size() > 64)
        return fail("'shape' has more than 64 dimensions");
      skipSpace();
      if (consume(',')) {
        skipSpace();
        continue;
      }
      if (!consume(')'))
        return fail("expected ',' or ')' in 'shape'");
      break;
    }
    return dims;
  }

  Error parseValue(const std::string &key, NpyHeader &h) {
    if (key == "descr") {
      Expected<std::string> s = parseString();
      if (!s)
        return s.takeError();
      h.Descr = *s;
      return Error::success();
    }
    if (key == "fortran_order") {
      if (consumeWord("True"))
        h.FortranOrder = true;
      else if (consumeWord("False"))
        h.FortranOrder = false;
      else
        return fail("'fortran_order' must be True or False");
      return Error::success();
    }
    if (key == "shape") {
      Expected<std::vector<int64_t>> dims = parseTuple();
      if (!dims)
        return dims.takeError();
      h.Shape = std::move(*dims);
      return Error::success();
    }
    return fail(fmt::format("unexpected key '{}'", key));
  }
};

/// Maps a numpy type string such as "<f4" to a DType and whether the data
/// is big-endian.
Expected<std::pair<DType, bool>> parseDescr(StringRef descr, StringRef name) {
  auto bad = [&](const char *why) {
    return npyError(name, fmt::format("unsupported dtype descr '{}': {}",
                                      descr.str(), why));
  };
  if (descr.size() < 3)
    return bad("expected a byte order, a kind and a size, e.g. '<f4'");
  char order = descr[0];
  char kind = descr[1];
  unsigned size = 0;
  if (descr.substr(2).getAsInteger(10, size))
    return bad("element size is not a number");
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return bad("unknown byte order");
  std::optional<DType> ty;
  std::string supported;
  for (DType t : AllDTypes) {
    StringRef known = dtypeNpyDescr(t);
    if (kind == known[1] && size == dtypeSize(t))
      ty = t;
    supported += (supported.empty() ? "" : " ") + known.drop_front().str();
  }
  if (!ty)
    return bad(("supported element types are " + supported).c_str());
  // '=' is native order, and so is '|' ("not applicable") on a multi-byte
  // type, as numpy reads it (np.dtype('|i4') is int32 in native order);
  // every host this project supports is little-endian.
  return std::make_pair(*ty, order == '>');
}

void byteSwapInPlace(std::vector<uint8_t> &data, size_t elemSize) {
  if (elemSize == 1)
    return;
  for (size_t i = 0; i + elemSize <= data.size(); i += elemSize)
    std::reverse(data.begin() + i, data.begin() + i + elemSize);
}

/// Element count of \p shape, or nullopt if it overflows \p limit.
std::optional<uint64_t> checkedCount(ArrayRef<int64_t> shape, uint64_t limit) {
  uint64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return std::nullopt;
    if (d != 0 && n > limit / uint64_t(d))
      return std::nullopt;
    n *= uint64_t(d);
  }
  return n;
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (int64_t d : shape)
    s += fmt::format("{}, ", d);
  if (shape.size() > 1)
    s.resize(s.size() - 2);
  else if (shape.size() == 1)
    s.resize(s.size() - 1);
  return s + ")";
}

} // namespace

NpyArray::NpyArray(DType ty, std::vector<int64_t> dims)
    : dtype(ty), shape(std::move(dims)) {
  data.assign(size_t(numElements()) * dtypeSize(ty), 0);
}

int64_t NpyArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Expected<NpyArray> parseNpy(StringRef bytes, StringRef name) {
  if (bytes.size() < MagicLen + 2 ||
      !bytes.starts_with(StringRef(Magic, MagicLen)))
    return npyError(name, "not a .npy file (bad magic string)");
  uint8_t major = uint8_t(bytes[MagicLen]);
  uint8_t minor = uint8_t(bytes[MagicLen + 1]);
  if (major < 1 || major > 3 || minor != 0)
    return npyError(name, fmt::format("unsupported .npy format version {}.{}",
                                      major, minor));
  size_t lenBytes = major == 1 ? 2 : 4;
  size_t prefix = MagicLen + 2 + lenBytes;
  if (bytes.size() < prefix)
    return npyError(name, "file truncated inside the header length");
  uint64_t headerLen = 0;
  for (size_t i = 0; i < lenBytes; ++i)
    headerLen |= uint64_t(uint8_t(bytes[MagicLen + 2 + i])) << (8 * i);
  if (headerLen > bytes.size() - prefix)
    return npyError(name, fmt::format("header length {} exceeds the file size "
                                      "({} bytes)",
                                      headerLen, bytes.size()));
  StringRef headerText = bytes.substr(prefix, headerLen);
  if (major < 3 &&
      any_of(headerText, [](char c) { return uint8_t(c) >= 0x80; }))
    return npyError(name, "header contains non-ASCII bytes");

  Expected<NpyHeader> h = HeaderParser(headerText, name).parse();
  if (!h)
    return h.takeError();
  if (*h->FortranOrder)
    return npyError(name, "Fortran-order arrays are not supported; save the "
                          "array with numpy.ascontiguousarray first");
  auto typeAndOrder = parseDescr(*h->Descr, name);
  if (!typeAndOrder)
    return typeAndOrder.takeError();
  auto [Ty, BigEndian] = *typeAndOrder;

  StringRef payload = bytes.substr(prefix + headerLen);
  size_t elem = dtypeSize(Ty);
  std::optional<uint64_t> count = checkedCount(
      *h->Shape, uint64_t(std::numeric_limits<int64_t>::max()) / elem);
  if (!count)
    return npyError(
        name, fmt::format("shape {} is too large", shapeString(*h->Shape)));
  uint64_t needed = *count * elem;
  if (needed != payload.size())
    return npyError(name,
                    fmt::format("data length mismatch: shape {} of {} needs {} "
                                "bytes but the file has {}",
                                shapeString(*h->Shape), dtypeName(Ty).str(),
                                needed, payload.size()));
  NpyArray a;
  a.dtype = Ty;
  a.shape = std::move(*h->Shape);
  a.data.assign(payload.bytes_begin(), payload.bytes_end());
  if (BigEndian)
    byteSwapInPlace(a.data, elem);
  return a;
}

Expected<NpyArray> readNpy(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> buf = readInputFile(path);
  if (!buf)
    return buf.takeError();
  return parseNpy((*buf)->getBuffer(), path);
}

Expected<std::string> serializeNpy(const NpyArray &a) {
  for (int64_t d : a.shape)
    if (d < 0)
      return createStringError(
          inconvertibleErrorCode(),
          "cannot write .npy: negative dimension in shape " +
              shapeString(a.shape));
  std::optional<uint64_t> count = checkedCount(a.shape, UINT64_MAX / 8);
  if (!count || *count * dtypeSize(a.dtype) != a.data.size())
    return createStringError(
        inconvertibleErrorCode(),
        fmt::format("cannot write .npy: {} bytes of data do not match shape {} "
                    "of {}",
                    a.data.size(), shapeString(a.shape),
                    dtypeName(a.dtype).str()));
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                  dtypeNpyDescr(a.dtype).str(), shapeString(a.shape));
  // Pad so that the data starts on a 64-byte boundary; the header ends in \n.
  size_t major = MagicLen + 2 + 2 + dict.size() + 1 > 65535 ? 2 : 1;
  size_t prefix = MagicLen + 2 + (major == 1 ? 2 : 4);
  size_t total = alignTo(prefix + dict.size() + 1, 64);
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict.push_back('\n');
  std::string out(Magic, MagicLen);
  out.push_back(char(major));
  out.push_back(0);
  uint32_t len = uint32_t(dict.size());
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i)
    out.push_back(char((len >> (8 * i)) & 0xff));
  out += dict;
  out.append(reinterpret_cast<const char *>(a.data.data()), a.data.size());
  return out;
}

Error writeNpy(StringRef path, const NpyArray &a) {
  Expected<std::string> bytes = serializeNpy(a);
  if (!bytes)
    return npyError(path, toString(bytes.takeError()));
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return npyError(path,
                    fmt::format("cannot open for writing: {}", ec.message()));
  os << *bytes;
  os.close();
  if (os.has_error()) {
    std::error_code wec = os.error();
    os.clear_error();
    return npyError(path, fmt::format("write failed: {}", wec.message()));
  }
  return Error::success();
}

} // namespace bangc
