//===- CacheFuzzer.cpp - libFuzzer target: the compile cache's readers ----===//
//
// Each input is a file of a compile cache directory (docs/cache.md), which
// anyone who can write there controls: a manifest (text) or an entry
// (binary). Both readers take it: the manifest reader, for the key the
// input names on its `key` line and for another; the entry reader as the
// input is (so its checksum is almost always wrong: the header checks), and
// once more sealed with this target's secret, so that the fields behind the
// checksum are read too. Each returns the file's contents or none, never
// crashes or reads out of bounds.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileCache.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);

  // A manifest of the key on its second line, and of a key it is not.
  llvm::StringRef second = bytes.split('\n').second.split('\n').first;
  if (second.consume_front("key "))
    (void)bangsim::parseCacheManifest(bytes, second);
  (void)bangsim::parseCacheManifest(bytes, std::string(64, '0'));

  // An entry as given, then its body (behind the header of a real entry,
  // or the whole input) under a checksum that matches.
  bangsim::CacheSecret secret{};
  for (size_t i = 0; i < secret.size(); ++i)
    secret[i] = uint8_t(i * 7 + 1);
  (void)bangsim::decodeCacheEntry(bytes, secret);
  llvm::StringRef body =
      bytes.starts_with("BANGCENT") && size >= bangsim::CacheEntryHeaderBytes
          ? bytes.drop_front(bangsim::CacheEntryHeaderBytes)
          : bytes;
  (void)bangsim::decodeCacheEntry(bangsim::sealCacheEntry(body, secret),
                                  secret);
  return 0;
}
