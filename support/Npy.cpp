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

Error npyError(StringRef Name, const std::string &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           fmt::format("{}: {}", Name.str(), Msg));
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
  HeaderParser(StringRef Text, StringRef Name) : Text(Text), Name(Name) {}

  Expected<NpyHeader> parse() {
    NpyHeader H;
    skipSpace();
    if (!consume('{'))
      return fail("header is not a dict (expected '{')");
    skipSpace();
    while (!consume('}')) {
      Expected<std::string> Key = parseString();
      if (!Key)
        return Key.takeError();
      skipSpace();
      if (!consume(':'))
        return fail(fmt::format("expected ':' after key '{}'", *Key));
      skipSpace();
      if (Error E = parseValue(*Key, H))
        return std::move(E);
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
    if (!H.Descr)
      return fail("header has no 'descr' key");
    if (!H.FortranOrder)
      return fail("header has no 'fortran_order' key");
    if (!H.Shape)
      return fail("header has no 'shape' key");
    return H;
  }

private:
  StringRef Text;
  StringRef Name;
  size_t Pos = 0;

  Error fail(const std::string &Msg) {
    return npyError(Name, fmt::format("malformed .npy header at offset {}: {}",
                                      Pos, Msg));
  }
  void skipSpace() {
    while (Pos < Text.size() &&
           (Text[Pos] == ' ' || Text[Pos] == '\t' || Text[Pos] == '\n' ||
            Text[Pos] == '\r'))
      ++Pos;
  }
  bool consume(char C) {
    if (Pos < Text.size() && Text[Pos] == C) {
      ++Pos;
      return true;
    }
    return false;
  }
  bool consumeWord(StringRef W) {
    if (!Text.substr(Pos).starts_with(W))
      return false;
    Pos += W.size();
    return true;
  }

  Expected<std::string> parseString() {
    if (Pos >= Text.size() || (Text[Pos] != '\'' && Text[Pos] != '"'))
      return fail("expected a quoted string");
    char Quote = Text[Pos++];
    size_t End = Text.find(Quote, Pos);
    if (End == StringRef::npos)
      return fail("unterminated string");
    std::string S = Text.slice(Pos, End).str();
    Pos = End + 1;
    return S;
  }

  Expected<std::vector<int64_t>> parseTuple() {
    if (!consume('('))
      return fail("'shape' must be a tuple");
    std::vector<int64_t> Dims;
    skipSpace();
    while (!consume(')')) {
      size_t Start = Pos;
      while (Pos < Text.size() && isDigit(Text[Pos]))
        ++Pos;
      if (Start == Pos)
        return fail("'shape' entries must be non-negative integers");
      // Reject absurd digit counts before converting.
      if (Pos - Start > 18)
        return fail("'shape' entry is too large");
      int64_t D = 0;
      if (Text.slice(Start, Pos).getAsInteger(10, D))
        return fail("'shape' entry is not an integer");
      // Python writes long ints as e.g. "3L" in very old files.
      consume('L');
      Dims.push_back(D);
      if (Dims.size() > 64)
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
    return Dims;
  }

  Error parseValue(const std::string &Key, NpyHeader &H) {
    if (Key == "descr") {
      Expected<std::string> S = parseString();
      if (!S)
        return S.takeError();
      H.Descr = *S;
      return Error::success();
    }
    if (Key == "fortran_order") {
      if (consumeWord("True"))
        H.FortranOrder = true;
      else if (consumeWord("False"))
        H.FortranOrder = false;
      else
        return fail("'fortran_order' must be True or False");
      return Error::success();
    }
    if (Key == "shape") {
      Expected<std::vector<int64_t>> Dims = parseTuple();
      if (!Dims)
        return Dims.takeError();
      H.Shape = std::move(*Dims);
      return Error::success();
    }
    return fail(fmt::format("unexpected key '{}'", Key));
  }
};

/// Maps a numpy type string such as "<f4" to a DType and whether the data
/// is big-endian.
Expected<std::pair<DType, bool>> parseDescr(StringRef Descr, StringRef Name) {
  auto Bad = [&](const char *Why) {
    return npyError(Name, fmt::format("unsupported dtype descr '{}': {}",
                                      Descr.str(), Why));
  };
  if (Descr.size() < 3)
    return Bad("expected a byte order, a kind and a size, e.g. '<f4'");
  char Order = Descr[0];
  char Kind = Descr[1];
  unsigned Size = 0;
  if (Descr.substr(2).getAsInteger(10, Size))
    return Bad("element size is not a number");
  if (Order != '<' && Order != '>' && Order != '|' && Order != '=')
    return Bad("unknown byte order");
  std::optional<DType> Ty;
  std::string Supported;
  for (DType T : AllDTypes) {
    StringRef Known = dtypeNpyDescr(T);
    if (Kind == Known[1] && Size == dtypeSize(T))
      Ty = T;
    Supported += (Supported.empty() ? "" : " ") + Known.drop_front().str();
  }
  if (!Ty)
    return Bad(("supported element types are " + Supported).c_str());
  // '=' is native order, and so is '|' ("not applicable") on a multi-byte
  // type, as numpy reads it (np.dtype('|i4') is int32 in native order);
  // every host this project supports is little-endian.
  return std::make_pair(*Ty, Order == '>');
}

void byteSwapInPlace(std::vector<uint8_t> &Data, size_t ElemSize) {
  if (ElemSize == 1)
    return;
  for (size_t I = 0; I + ElemSize <= Data.size(); I += ElemSize)
    std::reverse(Data.begin() + I, Data.begin() + I + ElemSize);
}

/// Element count of \p Shape, or nullopt if it overflows \p Limit.
std::optional<uint64_t> checkedCount(ArrayRef<int64_t> Shape, uint64_t Limit) {
  uint64_t N = 1;
  for (int64_t D : Shape) {
    if (D < 0)
      return std::nullopt;
    if (D != 0 && N > Limit / uint64_t(D))
      return std::nullopt;
    N *= uint64_t(D);
  }
  return N;
}

std::string shapeString(ArrayRef<int64_t> Shape) {
  std::string S = "(";
  for (int64_t D : Shape)
    S += fmt::format("{}, ", D);
  if (Shape.size() > 1)
    S.resize(S.size() - 2);
  else if (Shape.size() == 1)
    S.resize(S.size() - 1);
  return S + ")";
}

} // namespace

NpyArray::NpyArray(DType Ty, std::vector<int64_t> Shape)
    : dtype(Ty), shape(std::move(Shape)) {
  data.assign(size_t(numElements()) * dtypeSize(Ty), 0);
}

int64_t NpyArray::numElements() const {
  int64_t N = 1;
  for (int64_t D : shape)
    N *= D;
  return N;
}

Expected<NpyArray> parseNpy(StringRef Bytes, StringRef Name) {
  if (Bytes.size() < MagicLen + 2 || !Bytes.starts_with(StringRef(Magic, MagicLen)))
    return npyError(Name, "not a .npy file (bad magic string)");
  uint8_t Major = uint8_t(Bytes[MagicLen]);
  uint8_t Minor = uint8_t(Bytes[MagicLen + 1]);
  if (Major < 1 || Major > 3 || Minor != 0)
    return npyError(Name, fmt::format("unsupported .npy format version {}.{}",
                                      Major, Minor));
  size_t LenBytes = Major == 1 ? 2 : 4;
  size_t Prefix = MagicLen + 2 + LenBytes;
  if (Bytes.size() < Prefix)
    return npyError(Name, "file truncated inside the header length");
  uint64_t HeaderLen = 0;
  for (size_t I = 0; I < LenBytes; ++I)
    HeaderLen |= uint64_t(uint8_t(Bytes[MagicLen + 2 + I])) << (8 * I);
  if (HeaderLen > Bytes.size() - Prefix)
    return npyError(Name, fmt::format("header length {} exceeds the file size "
                                      "({} bytes)",
                                      HeaderLen, Bytes.size()));
  StringRef HeaderText = Bytes.substr(Prefix, HeaderLen);
  if (Major < 3 && any_of(HeaderText, [](char C) { return uint8_t(C) >= 0x80; }))
    return npyError(Name, "header contains non-ASCII bytes");

  Expected<NpyHeader> H = HeaderParser(HeaderText, Name).parse();
  if (!H)
    return H.takeError();
  if (*H->FortranOrder)
    return npyError(Name, "Fortran-order arrays are not supported; save the "
                          "array with numpy.ascontiguousarray first");
  auto TypeAndOrder = parseDescr(*H->Descr, Name);
  if (!TypeAndOrder)
    return TypeAndOrder.takeError();
  auto [Ty, BigEndian] = *TypeAndOrder;

  StringRef Payload = Bytes.substr(Prefix + HeaderLen);
  size_t Elem = dtypeSize(Ty);
  std::optional<uint64_t> Count =
      checkedCount(*H->Shape, uint64_t(std::numeric_limits<int64_t>::max()) / Elem);
  if (!Count)
    return npyError(Name, fmt::format("shape {} is too large",
                                      shapeString(*H->Shape)));
  uint64_t Needed = *Count * Elem;
  if (Needed != Payload.size())
    return npyError(Name,
                    fmt::format("data length mismatch: shape {} of {} needs {} "
                                "bytes but the file has {}",
                                shapeString(*H->Shape), dtypeName(Ty).str(),
                                Needed, Payload.size()));
  NpyArray A;
  A.dtype = Ty;
  A.shape = std::move(*H->Shape);
  A.data.assign(Payload.bytes_begin(), Payload.bytes_end());
  if (BigEndian)
    byteSwapInPlace(A.data, Elem);
  return A;
}

Expected<NpyArray> readNpy(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readInputFile(Path);
  if (!Buf)
    return Buf.takeError();
  return parseNpy((*Buf)->getBuffer(), Path);
}

Expected<std::string> serializeNpy(const NpyArray &A) {
  for (int64_t D : A.shape)
    if (D < 0)
      return createStringError(inconvertibleErrorCode(),
                               "cannot write .npy: negative dimension in shape " +
                                   shapeString(A.shape));
  std::optional<uint64_t> Count = checkedCount(A.shape, UINT64_MAX / 8);
  if (!Count || *Count * dtypeSize(A.dtype) != A.data.size())
    return createStringError(
        inconvertibleErrorCode(),
        fmt::format("cannot write .npy: {} bytes of data do not match shape {} "
                    "of {}",
                    A.data.size(), shapeString(A.shape),
                    dtypeName(A.dtype).str()));
  std::string Dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                  dtypeNpyDescr(A.dtype).str(), shapeString(A.shape));
  // Pad so that the data starts on a 64-byte boundary; the header ends in \n.
  size_t Major = MagicLen + 2 + 2 + Dict.size() + 1 > 65535 ? 2 : 1;
  size_t Prefix = MagicLen + 2 + (Major == 1 ? 2 : 4);
  size_t Total = alignTo(Prefix + Dict.size() + 1, 64);
  Dict.append(Total - Prefix - Dict.size() - 1, ' ');
  Dict.push_back('\n');
  std::string Out(Magic, MagicLen);
  Out.push_back(char(Major));
  Out.push_back(0);
  uint32_t Len = uint32_t(Dict.size());
  for (size_t I = 0; I < (Major == 1 ? 2u : 4u); ++I)
    Out.push_back(char((Len >> (8 * I)) & 0xff));
  Out += Dict;
  Out.append(reinterpret_cast<const char *>(A.data.data()), A.data.size());
  return Out;
}

Error writeNpy(StringRef Path, const NpyArray &A) {
  Expected<std::string> Bytes = serializeNpy(A);
  if (!Bytes)
    return npyError(Path, toString(Bytes.takeError()));
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return npyError(Path, fmt::format("cannot open for writing: {}", EC.message()));
  OS << *Bytes;
  OS.close();
  if (OS.has_error()) {
    std::error_code WEC = OS.error();
    OS.clear_error();
    return npyError(Path, fmt::format("write failed: {}", WEC.message()));
  }
  return Error::success();
}

} // namespace bangc
