//===- CompileCache.cpp - On-disk cache of compiled kernel modules --------===//
//
// Layout, under the cache directory (docs/cache.md):
//   v1/<k0k1>/<key>.manifest   text: the entries of one primary key
//   v1/<r0r1>/<result>.entry   binary: one compiled module
// A manifest:
//   bangc-sim cache manifest 1
//   key <key>
//   entry <result key>
//   file <hash> <absolute path>      (one per input)
//   end
//   ... more entries, most recent first
// An entry: "BANGCENT", u32 format, u32 0, the 32-byte BLAKE3 of the rest,
// then u32 length + key, u32 length + diagnostics, u32 count of objects and
// for each u64 length + object.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace bangsim;
using namespace llvm;

namespace {

constexpr StringLiteral FormatDir = "v1";
constexpr StringLiteral ManifestHeader = "bangc-sim cache manifest 1";
constexpr StringLiteral EntryMagic = "BANGCENT";
constexpr uint32_t EntryFormat = 1;
constexpr size_t EntryHeaderSize = 8 + 4 + 4 + 32;
/// Entries a manifest keeps (the same source with different headers).
constexpr size_t MaxManifestEntries = 8;

struct ManifestEntry {
  std::string result;
  std::vector<CacheInput> inputs;
};

bool isHexKey(StringRef s) {
  return s.size() == 64 && llvm::all_of(s, llvm::isHexDigit);
}

/// Parses a manifest; none if it is not one of `key` in this format.
std::optional<std::vector<ManifestEntry>> parseManifest(StringRef text,
                                                        StringRef key) {
  SmallVector<StringRef, 32> lines;
  text.split(lines, '\n', -1, false);
  if (lines.size() < 2 || lines[0] != ManifestHeader ||
      lines[1] != ("key " + key).str())
    return std::nullopt;
  std::vector<ManifestEntry> entries;
  ManifestEntry *open = nullptr;
  for (StringRef line : ArrayRef(lines).drop_front(2)) {
    auto [word, rest] = line.split(' ');
    if (word == "entry" && !open && isHexKey(rest)) {
      entries.push_back({rest.str(), {}});
      open = &entries.back();
    } else if (word == "file" && open) {
      auto [hash, path] = rest.split(' ');
      if (!isHexKey(hash) || path.empty())
        return std::nullopt;
      open->inputs.push_back({path.str(), hash.str()});
    } else if (word == "end" && open && rest.empty()) {
      open = nullptr;
    } else {
      return std::nullopt;
    }
  }
  if (open)
    return std::nullopt; // truncated
  return entries;
}

std::string printManifest(StringRef key, ArrayRef<ManifestEntry> entries) {
  std::string out;
  raw_string_ostream os(out);
  os << ManifestHeader << "\nkey " << key << "\n";
  for (const ManifestEntry &e : entries) {
    os << "entry " << e.result << "\n";
    for (const CacheInput &in : e.inputs)
      os << "file " << in.hash << " " << in.path << "\n";
    os << "end\n";
  }
  return out;
}

/// Writes `data` to `path` through a temporary file in the same directory
/// and a rename, so that readers see the old file or the new, never a part.
Error writeAtomically(StringRef path, StringRef data) {
  StringRef dir = sys::path::parent_path(path);
  if (std::error_code ec = sys::fs::create_directories(dir))
    return createStringError(ec, "cannot create '%s'", dir.str().c_str());
  SmallString<256> model(path);
  model += ".%%%%%%%%.tmp";
  int fd;
  SmallString<256> tmp;
  if (std::error_code ec = sys::fs::createUniqueFile(model, fd, tmp))
    return createStringError(ec, "cannot create a file in '%s'",
                             dir.str().c_str());
  std::error_code ec;
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << data;
    os.close();
    ec = os.error();
    os.clear_error();
  }
  if (!ec)
    ec = sys::fs::rename(tmp, path);
  if (ec) {
    sys::fs::remove(tmp);
    return createStringError(ec, "cannot write '%s'", path.str().c_str());
  }
  return Error::success();
}

std::optional<std::unique_ptr<MemoryBuffer>> readFile(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  return std::move(*buffer);
}

/// Reads `n` bytes at `pos` of `data`, advancing `pos`; false past the end.
bool take(StringRef data, size_t &pos, size_t n, StringRef &out) {
  if (n > data.size() - pos)
    return false;
  out = data.substr(pos, n);
  pos += n;
  return true;
}

} // namespace

std::string bangsim::hashHex(StringRef data) {
  return toHex(BLAKE3::hash(arrayRefFromStringRef(data)), /*LowerCase=*/true);
}

KeyBuilder &KeyBuilder::add(StringRef field) {
  uint8_t size[8];
  support::endian::write64le(size, field.size());
  hasher.update(ArrayRef<uint8_t>(size));
  hasher.update(field);
  return *this;
}

KeyBuilder &KeyBuilder::add(int64_t value) {
  return add(std::to_string(value));
}

std::string KeyBuilder::final() {
  return toHex(hasher.final(), /*LowerCase=*/true);
}

CompileCache::CompileCache(std::string directory) : dir(std::move(directory)) {}

std::string CompileCache::manifestPath(StringRef key) const {
  SmallString<256> path(dir);
  sys::path::append(path, FormatDir, key.take_front(2), key + ".manifest");
  return std::string(path);
}

std::string CompileCache::entryPath(StringRef resultKey) const {
  SmallString<256> path(dir);
  sys::path::append(path, FormatDir, resultKey.take_front(2),
                    resultKey + ".entry");
  return std::string(path);
}

std::string CompileCache::resultKey(StringRef key,
                                    ArrayRef<CacheInput> inputs) {
  KeyBuilder k;
  k.add("result").add(key).add(int64_t(inputs.size()));
  for (const CacheInput &in : inputs)
    k.add(in.path).add(in.hash);
  return k.final();
}

std::optional<CacheEntry> CompileCache::lookup(StringRef key) const {
  if (!isHexKey(key))
    return std::nullopt;
  auto manifestFile = readFile(manifestPath(key));
  if (!manifestFile)
    return std::nullopt;
  auto entries = parseManifest((*manifestFile)->getBuffer(), key);
  if (!entries)
    return std::nullopt;
  // Each input file is read and hashed at most once per lookup.
  StringMap<std::string> current;
  auto hashOf = [&](StringRef path) -> StringRef {
    auto [it, fresh] = current.try_emplace(path);
    if (fresh) {
      auto file = readFile(path);
      it->second = file ? hashHex((*file)->getBuffer()) : "missing";
    }
    return it->second;
  };
  for (const ManifestEntry &e : *entries) {
    bool same = llvm::all_of(e.inputs, [&](const CacheInput &in) {
      return hashOf(in.path) == in.hash;
    });
    if (!same || resultKey(key, e.inputs) != e.result)
      continue;
    auto file = readFile(entryPath(e.result));
    if (!file)
      return std::nullopt;
    StringRef data = (*file)->getBuffer();
    if (data.size() < EntryHeaderSize || !data.starts_with(EntryMagic) ||
        support::endian::read32le(data.data() + 8) != EntryFormat)
      return std::nullopt;
    StringRef body = data.drop_front(EntryHeaderSize);
    auto sum = BLAKE3::hash(arrayRefFromStringRef(body));
    if (StringRef(reinterpret_cast<const char *>(sum.data()), sum.size()) !=
        data.substr(16, 32))
      return std::nullopt; // corrupt
    size_t pos = 0;
    StringRef field, storedKey, diagnostics, object;
    if (!take(body, pos, 4, field) ||
        !take(body, pos, support::endian::read32le(field.data()), storedKey) ||
        storedKey != e.result || !take(body, pos, 4, field) ||
        !take(body, pos, support::endian::read32le(field.data()),
              diagnostics) ||
        !take(body, pos, 4, field))
      return std::nullopt;
    CacheEntry entry;
    entry.diagnostics = diagnostics.str();
    for (uint32_t i = 0, n = support::endian::read32le(field.data()); i < n;
         ++i) {
      if (!take(body, pos, 8, field) ||
          !take(body, pos, support::endian::read64le(field.data()), object))
        return std::nullopt;
      entry.objects.push_back(
          MemoryBuffer::getMemBufferCopy(object, "cached-module.o"));
    }
    if (pos != body.size() || entry.objects.empty())
      return std::nullopt;
    return entry;
  }
  return std::nullopt;
}

Error CompileCache::store(StringRef key, ArrayRef<CacheInput> inputs,
                          ArrayRef<StringRef> objects,
                          StringRef diagnostics) const {
  if (!isHexKey(key))
    return createStringError(inconvertibleErrorCode(), "bad cache key");
  for (const CacheInput &in : inputs)
    if (in.path.empty() || StringRef(in.path).contains('\n') ||
        !isHexKey(in.hash))
      return createStringError(inconvertibleErrorCode(),
                               "input '%s' cannot be recorded",
                               in.path.c_str());
  std::string result = resultKey(key, inputs);

  // The entry first: a manifest never names an entry not yet written.
  std::string body;
  {
    raw_string_ostream os(body);
    support::endian::Writer w(os, endianness::little);
    w.write<uint32_t>(uint32_t(result.size()));
    os << result;
    w.write<uint32_t>(uint32_t(diagnostics.size()));
    os << diagnostics;
    w.write<uint32_t>(uint32_t(objects.size()));
    for (StringRef object : objects) {
      w.write<uint64_t>(uint64_t(object.size()));
      os << object;
    }
  }
  std::string file;
  {
    raw_string_ostream os(file);
    support::endian::Writer w(os, endianness::little);
    os << EntryMagic;
    w.write<uint32_t>(EntryFormat);
    w.write<uint32_t>(0);
    auto sum = BLAKE3::hash(arrayRefFromStringRef(body));
    os.write(reinterpret_cast<const char *>(sum.data()), sum.size());
    os << body;
  }
  if (Error e = writeAtomically(entryPath(result), file))
    return e;

  std::vector<ManifestEntry> entries{{result, {inputs.begin(), inputs.end()}}};
  if (auto old = readFile(manifestPath(key)))
    if (auto parsed = parseManifest((*old)->getBuffer(), key))
      for (ManifestEntry &e : *parsed)
        if (e.result != result && entries.size() < MaxManifestEntries)
          entries.push_back(std::move(e));
  return writeAtomically(manifestPath(key), printManifest(key, entries));
}
