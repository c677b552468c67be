//===- CompileCache.h - On-disk cache of compiled kernel modules -*- C++
//-*-===//
//
// Compiled modules (host objects) on disk, looked up the way ccache's direct
// mode does: a primary key (the source text, options, device spec, compiler
// and host CPU) names a manifest; each manifest entry lists the files the
// frontend read with the hash of their bytes, and names an object stored
// under a key derived from those hashes. A lookup re-hashes the listed files,
// so editing a header misses without running Clang. See docs/cache.md.
//
// Every failure (missing, unreadable, truncated, corrupt or foreign files, an
// unwritable directory) is a miss, never an error: the caller compiles.
// Files are written to a temporary name and renamed, so a reader never sees
// half a file.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_COMPILECACHE_H
#define BANGSIM_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bangsim {

/// The BLAKE3 of `data` as 64 hex digits.
std::string hashHex(llvm::StringRef data);

/// Hashes a list of fields into a key; each field is length-prefixed, so
/// ("ab", "c") and ("a", "bc") give different keys.
class KeyBuilder {
public:
  KeyBuilder &add(llvm::StringRef field);
  KeyBuilder &add(int64_t value);
  /// 64 hex digits.
  std::string final();

private:
  llvm::BLAKE3 hasher;
};

/// One file the frontend read: its absolute path and hashHex of its bytes.
struct CacheInput {
  std::string path, hash;
};

/// What a hit gives back.
struct CacheEntry {
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects; ///< of one module
  std::string diagnostics; ///< printed (warnings) when it was compiled
};

// --- The two file formats, read from bytes --------------------------------//
// lookup() reads files with these; they take whatever bytes a file holds
// (the fuzz target bangc-fuzz-cache feeds them arbitrary input).

/// One entry of a manifest: the entry's result key and the files it read.
struct CacheManifestEntry {
  std::string result;
  std::vector<CacheInput> inputs;
};

/// The entries of a manifest, most recent first; none if `text` is not a
/// manifest of `key` in this format (or is truncated).
std::optional<std::vector<CacheManifestEntry>>
parseCacheManifest(llvm::StringRef text, llvm::StringRef key);

/// The 32-byte key of the entries' keyed hash (a cache's v1/secret).
using CacheSecret = std::array<uint8_t, 32>;

/// The bytes of an entry file before its body: "BANGCENT", the u32 format,
/// a u32 0 and the 32-byte checksum of the body.
inline constexpr size_t CacheEntryHeaderBytes = 8 + 4 + 4 + 32;

/// An entry file holding `body` (the key, diagnostics and objects as
/// store() lays them out), with its checksum keyed with `secret`.
std::string sealCacheEntry(llvm::StringRef body, const CacheSecret &secret);

/// What an entry file holds: the result key it was stored under, and the
/// module.
struct DecodedCacheEntry {
  std::string key;
  CacheEntry entry;
};

/// Reads an entry file; none if `data` is not an entry of this format, its
/// checksum (keyed with `secret`) does not match, or its fields do not fill
/// it exactly.
std::optional<DecodedCacheEntry> decodeCacheEntry(llvm::StringRef data,
                                                  const CacheSecret &secret);

class CompileCache {
public:
  /// The cache in `directory` (created on the first store).
  explicit CompileCache(std::string directory);

  /// The entry stored for `key` whose inputs all still hash as recorded, or
  /// none (a miss, whatever the reason).
  std::optional<CacheEntry> lookup(llvm::StringRef key) const;

  /// Stores `objects` and `diagnostics` for `key` and `inputs`, and records
  /// the inputs in the manifest of `key` (most recent first, a few kept).
  llvm::Error store(llvm::StringRef key, llvm::ArrayRef<CacheInput> inputs,
                    llvm::ArrayRef<llvm::StringRef> objects,
                    llvm::StringRef diagnostics) const;

  /// Where the manifest of `key` and an entry live (for tests and docs).
  std::string manifestPath(llvm::StringRef key) const;
  std::string entryPath(llvm::StringRef resultKey) const;

  /// The key an entry is stored under: `key` and the inputs' hashes.
  static std::string resultKey(llvm::StringRef key,
                               llvm::ArrayRef<CacheInput> inputs);

  const std::string &directory() const { return dir; }

  /// Whether the directory can be trusted, as ssh trusts ~/.ssh: it and
  /// its v1/ must be directories owned by this user and writable by no one
  /// else (one that does not exist yet is created so). The error says why
  /// not; the caller then neither reads nor writes the cache.
  llvm::Error checkTrusted() const;

private:
  /// The 32-byte key of the entries' keyed hash (v1/secret, mode 0600),
  /// created when `create` and missing; none if unreadable or untrusted.
  std::optional<CacheSecret> loadSecret(bool create) const;

  std::string dir;
  mutable std::optional<CacheSecret> secret;
};

} // namespace bangsim

#endif // BANGSIM_COMPILECACHE_H
