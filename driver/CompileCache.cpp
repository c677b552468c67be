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
// An entry: "BANGCENT", u32 format, u32 0, the 32-byte keyed BLAKE3 of the
// rest, then u32 length + key, u32 length + diagnostics, u32 count of
// objects and for each u64 length + object.
//   v1/secret                          32 random bytes, mode 0600: the key
//                                      of the entries' BLAKE3
//
// Trust (as ssh trusts ~/.ssh): the directory, v1/ and every file read must
// be owned by this user and not group or world writable, else the cache is
// refused (checkTrusted) or the file is a miss. The entries' hash is keyed
// with the directory's secret: an entry whose objects were swapped for
// another's, its checksum recomputed by someone without the secret, is a
// miss and is compiled again.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm-c/blake3.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace bangsim;
using namespace llvm;

namespace {

constexpr StringLiteral FormatDir = "v1";
constexpr StringLiteral ManifestHeader = "bangc-sim cache manifest 1";
constexpr StringLiteral EntryMagic = "BANGCENT";
constexpr uint32_t EntryFormat = 2; ///< 2: the checksum is keyed
constexpr StringLiteral SecretName = "secret";
constexpr size_t SecretBytes = 32;
/// The largest cache file read (an entry holds a module's objects).
constexpr uint64_t MaxCacheFileBytes = uint64_t(1) << 30;
/// Entries a manifest keeps (the same source with different headers).
constexpr size_t MaxManifestEntries = 8;

using ManifestEntry = CacheManifestEntry;

bool isHexKey(StringRef s) {
  return s.size() == 64 && llvm::all_of(s, llvm::isHexDigit);
}

} // namespace

std::optional<std::vector<CacheManifestEntry>>
bangsim::parseCacheManifest(StringRef text, StringRef key) {
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

namespace {

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
Error writeAtomically(StringRef path, StringRef data, bool noReplace = false) {
  StringRef dir = sys::path::parent_path(path);
  // Only this user may write what the cache creates (checkTrusted).
  if (std::error_code ec =
          sys::fs::create_directories(dir, true, sys::fs::owner_all))
    return createStringError(ec, "cannot create '%s'", dir.str().c_str());
  SmallString<256> model(path);
  model += ".%%%%%%%%.tmp";
  int fd;
  SmallString<256> tmp;
  if (std::error_code ec = sys::fs::createUniqueFile(
          model, fd, tmp, sys::fs::OF_None,
          sys::fs::owner_read | sys::fs::owner_write))
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
  if (!ec && noReplace) {
    // link() fails if `path` exists: the first writer's file stays.
    if (::link(tmp.c_str(), path.str().c_str()) != 0 && errno != EEXIST)
      ec = std::error_code(errno, std::generic_category());
    sys::fs::remove(tmp);
    if (ec)
      return createStringError(ec, "cannot write '%s'", path.str().c_str());
    return Error::success();
  }
  if (!ec)
    ec = sys::fs::rename(tmp, path);
  if (ec) {
    sys::fs::remove(tmp);
    return createStringError(ec, "cannot write '%s'", path.str().c_str());
  }
  return Error::success();
}

/// Why `st` (of `path`) cannot be trusted: not owned by this user, or
/// writable by group or others; empty if it can.
std::string distrust(StringRef path, const struct stat &st) {
  if (st.st_uid != ::geteuid())
    return llvm::formatv("'{0}' is owned by uid {1}, not by you (uid {2})",
                         path, st.st_uid, ::geteuid())
        .str();
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return llvm::formatv("'{0}' is writable by {1} (mode {2})", path,
                         st.st_mode & S_IWOTH ? "everyone" : "its group",
                         llvm::format("%04o", unsigned(st.st_mode & 07777)))
        .str();
  return "";
}

/// The regular file at `path` (opened without blocking or following a final
/// symlink), at most MaxCacheFileBytes; with `owned`, only if this user
/// owns it and no one else may write it.
std::optional<std::unique_ptr<MemoryBuffer>> readRegular(StringRef path,
                                                         bool owned) {
  std::string p = path.str();
  int fd = ::open(p.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC |
                                 (owned ? O_NOFOLLOW : 0));
  if (fd < 0)
    return std::nullopt;
  struct stat st;
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            uint64_t(st.st_size) <= MaxCacheFileBytes &&
            (!owned || distrust(path, st).empty());
  std::optional<std::unique_ptr<MemoryBuffer>> out;
  if (ok)
    if (auto buffer = MemoryBuffer::getOpenFileSlice(fd, path,
                                                     uint64_t(st.st_size), 0))
      out = std::move(*buffer);
  ::close(fd);
  return out;
}

/// A file of the cache itself: it must be this user's.
std::optional<std::unique_ptr<MemoryBuffer>> readOwned(StringRef path) {
  return readRegular(path, /*owned=*/true);
}

/// The keyed BLAKE3 of `data`.
std::array<uint8_t, 32> keyedHash(ArrayRef<uint8_t> secret, StringRef data) {
  llvm_blake3_hasher hasher;
  llvm_blake3_hasher_init_keyed(&hasher, secret.data());
  llvm_blake3_hasher_update(&hasher, data.data(), data.size());
  std::array<uint8_t, 32> out;
  llvm_blake3_hasher_finalize(&hasher, out.data(), out.size());
  return out;
}

std::optional<std::unique_ptr<MemoryBuffer>> readFile(StringRef path) {
  // An input file (a source, a header): a regular file, bounded.
  return readRegular(path, /*owned=*/false);
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

std::string bangsim::sealCacheEntry(StringRef body, const CacheSecret &secret) {
  std::string file;
  raw_string_ostream os(file);
  support::endian::Writer w(os, endianness::little);
  os << EntryMagic;
  w.write<uint32_t>(EntryFormat);
  w.write<uint32_t>(0);
  auto sum = keyedHash(secret, body);
  os.write(reinterpret_cast<const char *>(sum.data()), sum.size());
  os << body;
  return file;
}

std::optional<DecodedCacheEntry>
bangsim::decodeCacheEntry(StringRef data, const CacheSecret &secret) {
  if (data.size() < CacheEntryHeaderBytes || !data.starts_with(EntryMagic) ||
      support::endian::read32le(data.data() + 8) != EntryFormat)
    return std::nullopt;
  StringRef body = data.drop_front(CacheEntryHeaderBytes);
  auto sum = keyedHash(secret, body);
  if (StringRef(reinterpret_cast<const char *>(sum.data()), sum.size()) !=
      data.substr(16, 32))
    return std::nullopt; // corrupt, or not written with this secret
  size_t pos = 0;
  StringRef field, storedKey, diagnostics, object;
  if (!take(body, pos, 4, field) ||
      !take(body, pos, support::endian::read32le(field.data()), storedKey) ||
      !take(body, pos, 4, field) ||
      !take(body, pos, support::endian::read32le(field.data()), diagnostics) ||
      !take(body, pos, 4, field))
    return std::nullopt;
  DecodedCacheEntry out;
  out.key = storedKey.str();
  out.entry.diagnostics = diagnostics.str();
  for (uint32_t i = 0, n = support::endian::read32le(field.data()); i < n;
       ++i) {
    if (!take(body, pos, 8, field) ||
        !take(body, pos, support::endian::read64le(field.data()), object))
      return std::nullopt;
    out.entry.objects.push_back(
        MemoryBuffer::getMemBufferCopy(object, "cached-module.o"));
  }
  if (pos != body.size() || out.entry.objects.empty())
    return std::nullopt;
  return out;
}

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

Error CompileCache::checkTrusted() const {
  SmallString<256> formatDir(dir);
  sys::path::append(formatDir, FormatDir);
  for (StringRef path : {StringRef(dir), StringRef(formatDir)}) {
    struct stat st;
    std::string p = path.str();
    if (::stat(p.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR)
        return Error::success(); // created by this user (mode 0700), or
                                 // store() says why it cannot be
      return createStringError(std::error_code(errno, std::generic_category()),
                               "cannot use '%s'", p.c_str());
    }
    if (!S_ISDIR(st.st_mode))
      return createStringError(inconvertibleErrorCode(),
                               "'%s' is not a directory", p.c_str());
    std::string why = distrust(path, st);
    if (!why.empty())
      return createStringError(inconvertibleErrorCode(), "%s", why.c_str());
  }
  return Error::success();
}

std::optional<CacheSecret>
CompileCache::loadSecret(bool create) const {
  if (secret)
    return secret;
  SmallString<256> path(dir);
  sys::path::append(path, FormatDir, SecretName);
  auto read = [&]() -> bool {
    auto file = readOwned(path);
    if (!file || (*file)->getBufferSize() != SecretBytes)
      return false;
    // Readable by this user only: who can read it can forge entries.
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || (st.st_mode & 077))
      return false;
    secret.emplace();
    std::memcpy(secret->data(), (*file)->getBufferStart(), SecretBytes);
    return true;
  };
  if (read() || !create)
    return secret;
  std::random_device random; // the kernel's getrandom on Linux
  std::string bytes(SecretBytes, '\0');
  for (char &c : bytes)
    c = char(random());
  // Two first stores race: the secret linked first is everyone's.
  if (Error e = writeAtomically(path, bytes, /*noReplace=*/true)) {
    consumeError(std::move(e));
    return std::nullopt;
  }
  if (read())
    return secret;
  // A secret we cannot use (readable by others, the wrong size) would turn
  // every lookup into a miss: replace it. Its entries become misses once.
  if (Error e = writeAtomically(path, bytes)) {
    consumeError(std::move(e));
    return std::nullopt;
  }
  read();
  return secret;
}

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
  std::optional<CacheSecret> mac = loadSecret(false);
  if (!mac)
    return std::nullopt;
  auto manifestFile = readOwned(manifestPath(key));
  if (!manifestFile)
    return std::nullopt;
  auto entries = parseCacheManifest((*manifestFile)->getBuffer(), key);
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
    auto file = readOwned(entryPath(e.result));
    if (!file)
      return std::nullopt;
    std::optional<DecodedCacheEntry> decoded =
        decodeCacheEntry((*file)->getBuffer(), *mac);
    if (!decoded || decoded->key != e.result)
      return std::nullopt;
    return std::move(decoded->entry);
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
  std::optional<CacheSecret> mac = loadSecret(true);
  if (!mac)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create the cache's secret in '%s'",
                             dir.c_str());

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
  if (Error e = writeAtomically(entryPath(result), sealCacheEntry(body, *mac)))
    return e;

  std::vector<ManifestEntry> entries{{result, {inputs.begin(), inputs.end()}}};
  if (auto old = readOwned(manifestPath(key)))
    if (auto parsed = parseCacheManifest((*old)->getBuffer(), key))
      for (ManifestEntry &e : *parsed)
        if (e.result != result && entries.size() < MaxManifestEntries)
          entries.push_back(std::move(e));
  return writeAtomically(manifestPath(key), printManifest(key, entries));
}
