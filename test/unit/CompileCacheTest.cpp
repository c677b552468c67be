//===- CompileCacheTest.cpp - The on-disk compile cache -------------------===//
//
// The store itself (inputs re-hashed on lookup, several entries per
// manifest, damaged files are misses), and modules through it: a cached
// module runs exactly as the compiled one, and the options it depends on
// miss.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileCache.h"

#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace bangsim;

namespace {

/// These tests say when the cache is used; the environment must not.
const bool cacheEnvCleared = [] {
  ::unsetenv("BANGC_CACHE_DISABLE");
  return true;
}();

/// A fresh directory, removed afterwards.
struct TempDir {
  TempDir() {
    EXPECT_FALSE(
        llvm::sys::fs::createUniqueDirectory("bangc-cache-test", path));
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<256> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  llvm::SmallString<256> path;
};

void writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << path;
  os << text;
}

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

std::string keyOf(llvm::StringRef text) {
  return KeyBuilder().add(text).final();
}

TEST(CompileCache, KeysSeparateFields) {
  EXPECT_NE(KeyBuilder().add("ab").add("c").final(),
            KeyBuilder().add("a").add("bc").final());
  EXPECT_EQ(KeyBuilder().add("a").add(int64_t(7)).final(),
            KeyBuilder().add("a").add("7").final());
  EXPECT_EQ(keyOf("x").size(), 64u);
}

TEST(CompileCache, InputsAreRehashedOnLookup) {
  TempDir dir;
  CompileCache cache(dir.file("cache"));
  std::string header = dir.file("k.h");
  writeFile(header, "#define N 1\n");
  std::string key = keyOf("source");
  EXPECT_FALSE(cache.lookup(key));

  std::vector<CacheInput> one{{header, hashHex("#define N 1\n")}};
  ASSERT_FALSE(bool(cache.store(key, one, {"object one"}, "warning one\n")));
  auto hit = cache.lookup(key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->objects[0]->getBuffer(), "object one");
  EXPECT_EQ(hit->diagnostics, "warning one\n");

  // The header changes: a miss, until an entry for the new one is stored.
  writeFile(header, "#define N 2\n");
  EXPECT_FALSE(cache.lookup(key));
  std::vector<CacheInput> two{{header, hashHex("#define N 2\n")}};
  ASSERT_FALSE(bool(cache.store(key, two, {"object two"}, "")));
  ASSERT_TRUE(cache.lookup(key));
  EXPECT_EQ(cache.lookup(key)->objects[0]->getBuffer(), "object two");
  // Both entries stay in the manifest.
  writeFile(header, "#define N 1\n");
  ASSERT_TRUE(cache.lookup(key));
  EXPECT_EQ(cache.lookup(key)->objects[0]->getBuffer(), "object one");
  // A header that disappears misses.
  llvm::sys::fs::remove(header);
  EXPECT_FALSE(cache.lookup(key));
  // Another key never sees these entries.
  writeFile(header, "#define N 1\n");
  EXPECT_FALSE(cache.lookup(keyOf("other source")));
}

TEST(CompileCache, DamagedFilesAreMisses) {
  TempDir dir;
  CompileCache cache(dir.file("cache"));
  std::string key = keyOf("source");
  ASSERT_FALSE(bool(cache.store(key, {}, {std::string(4096, 'o')}, "")));
  std::string entry = cache.entryPath(CompileCache::resultKey(key, {}));
  std::string good = readFile(entry);
  ASSERT_TRUE(cache.lookup(key));

  std::string flipped = good;
  flipped[flipped.size() - 100] ^= 1;
  writeFile(entry, flipped);
  EXPECT_FALSE(cache.lookup(key));
  writeFile(entry, good.substr(0, good.size() / 2));
  EXPECT_FALSE(cache.lookup(key));
  writeFile(entry, good + "x");
  EXPECT_FALSE(cache.lookup(key));
  writeFile(entry, "");
  EXPECT_FALSE(cache.lookup(key));
  writeFile(entry, good);
  EXPECT_TRUE(cache.lookup(key));

  std::string manifest = cache.manifestPath(key);
  std::string goodManifest = readFile(manifest);
  writeFile(manifest, goodManifest.substr(0, goodManifest.size() - 3));
  EXPECT_FALSE(cache.lookup(key));
  writeFile(manifest, "\x01\x02 garbage\nentry\n");
  EXPECT_FALSE(cache.lookup(key));
  // A manifest of another key (renamed into place) is not believed.
  std::string other = keyOf("other");
  ASSERT_FALSE(bool(cache.store(other, {}, {"other object"}, "")));
  writeFile(manifest, readFile(cache.manifestPath(other)));
  EXPECT_FALSE(cache.lookup(key));
  // Storing again repairs it.
  ASSERT_FALSE(bool(cache.store(key, {}, {std::string(4096, 'o')}, "")));
  EXPECT_TRUE(cache.lookup(key));
}

/// The bytes of an entry file for `resultKey` holding `object`, with the
/// unkeyed BLAKE3 checksum anyone can recompute, under `header` (the first
/// 16 bytes of a real entry).
std::string forgedEntry(llvm::StringRef header, llvm::StringRef resultKey,
                        llvm::StringRef object) {
  std::string body;
  llvm::raw_string_ostream os(body);
  llvm::support::endian::Writer w(os, llvm::endianness::little);
  w.write<uint32_t>(uint32_t(resultKey.size()));
  os << resultKey;
  w.write<uint32_t>(0); // no diagnostics
  w.write<uint32_t>(1);
  w.write<uint64_t>(object.size());
  os << object;
  auto sum = llvm::BLAKE3::hash(llvm::arrayRefFromStringRef(body));
  return header.str() +
         std::string(reinterpret_cast<const char *>(sum.data()), sum.size()) +
         body;
}

TEST(CompileCache, SwappedObjectsAreMisses) {
  // Issue 20: entry A's objects replaced by entry B's, its key kept and the
  // checksum recomputed, ran B's kernel on the next hit of A. The checksum
  // is keyed with the directory's secret now: a forged entry is a miss.
  TempDir dir;
  CompileCache cache(dir.file("cache"));
  std::string a = keyOf("kernel a"), b = keyOf("kernel b");
  ASSERT_FALSE(bool(cache.store(a, {}, {"object of kernel a"}, "")));
  ASSERT_FALSE(bool(cache.store(b, {}, {"object of kernel b"}, "")));
  std::string entryA = cache.entryPath(CompileCache::resultKey(a, {}));
  std::string good = readFile(entryA);
  ASSERT_TRUE(cache.lookup(a));
  writeFile(entryA, forgedEntry(llvm::StringRef(good).take_front(16),
                                CompileCache::resultKey(a, {}),
                                "object of kernel b"));
  std::optional<CacheEntry> hit = cache.lookup(a);
  EXPECT_FALSE(hit) << "a forged entry was believed: "
                    << hit->objects[0]->getBuffer().str();
  // The true entry still hits; a fresh CompileCache reads the same secret.
  writeFile(entryA, good);
  std::optional<CacheEntry> again = CompileCache(dir.file("cache")).lookup(a);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->objects[0]->getBuffer(), "object of kernel a");
  // The secret is this user's alone.
  llvm::sys::fs::file_status st;
  ASSERT_FALSE(llvm::sys::fs::status(dir.file("cache/v1/secret"), st));
  EXPECT_EQ(int(st.permissions()), 0600);
}

/// An entry's body: the result key, the diagnostics, and objects whose
/// length fields say `lengths` (the bytes `objects`, which may disagree).
std::string entryBody(llvm::StringRef key, llvm::StringRef diagnostics,
                      std::vector<uint64_t> lengths, llvm::StringRef objects) {
  std::string body;
  llvm::raw_string_ostream os(body);
  llvm::support::endian::Writer w(os, llvm::endianness::little);
  w.write<uint32_t>(uint32_t(key.size()));
  os << key;
  w.write<uint32_t>(uint32_t(diagnostics.size()));
  os << diagnostics;
  w.write<uint32_t>(uint32_t(lengths.size()));
  size_t at = 0;
  for (uint64_t n : lengths) {
    w.write<uint64_t>(n);
    os << llvm::StringRef(objects).substr(at, n);
    at += n;
  }
  return body;
}

TEST(CompileCache, EntryReaderTakesBytes) {
  // The reader the fuzz target bangc-fuzz-cache feeds: every field checked
  // against the bytes there are, behind a checksum that must match.
  CacheSecret secret{}, other{};
  secret[0] = 1;
  other[0] = 2;
  std::string key = keyOf("k");
  std::string file =
      sealCacheEntry(entryBody(key, "warn\n", {3, 2}, "abcde"), secret);
  ASSERT_EQ(file.size(), CacheEntryHeaderBytes + 4 + 64 + 4 + 5 + 4 + 8 +
                             3 + 8 + 2);
  std::optional<DecodedCacheEntry> e = decodeCacheEntry(file, secret);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key, key);
  EXPECT_EQ(e->entry.diagnostics, "warn\n");
  ASSERT_EQ(e->entry.objects.size(), 2u);
  EXPECT_EQ(e->entry.objects[0]->getBuffer(), "abc");
  EXPECT_EQ(e->entry.objects[1]->getBuffer(), "de");
  EXPECT_FALSE(decodeCacheEntry(file, other)) << "another secret";
  EXPECT_FALSE(decodeCacheEntry(llvm::StringRef(file).drop_back(), secret));
  // Lengths past the end of the bytes, a byte left over, no object at all,
  // a length of 2^64 - 1: sealed with the right secret, each is refused.
  for (const std::string &body :
       {entryBody(key, "", {3, 9}, "abcde"),
        entryBody(key, "", {3, 2}, "abcde") + "x",
        entryBody(key, "", {}, ""),
        entryBody(key, "", {~uint64_t(0)}, "abc"),
        entryBody(key, "", {3}, "abc").substr(0, 4 + 64 + 2)})
    EXPECT_FALSE(decodeCacheEntry(sealCacheEntry(body, secret), secret));
  EXPECT_FALSE(decodeCacheEntry("", secret));
  EXPECT_FALSE(decodeCacheEntry(std::string(CacheEntryHeaderBytes, 0), secret));
}

TEST(CompileCache, ManifestReaderTakesBytes) {
  std::string key = keyOf("k"), entry = keyOf("e"), hash = keyOf("h");
  std::string text = "bangc-sim cache manifest 1\nkey " + key + "\nentry " +
                     entry + "\nfile " + hash + " /src/k.mlu\nend\n";
  auto m = parseCacheManifest(text, key);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->size(), 1u);
  EXPECT_EQ((*m)[0].result, entry);
  ASSERT_EQ((*m)[0].inputs.size(), 1u);
  EXPECT_EQ((*m)[0].inputs[0].path, "/src/k.mlu");
  EXPECT_FALSE(parseCacheManifest(text, keyOf("other")));
  EXPECT_FALSE(parseCacheManifest(llvm::StringRef(text).drop_back(4), key));
  EXPECT_FALSE(parseCacheManifest("", key));
}

TEST(CompileCache, ASecretOthersCanReadIsReplaced) {
  TempDir dir;
  std::string key = keyOf("source");
  ASSERT_FALSE(bool(CompileCache(dir.file("cache")).store(key, {}, {"o"}, "")));
  std::string secret = dir.file("cache/v1/secret");
  ASSERT_FALSE(llvm::sys::fs::setPermissions(
      secret, llvm::sys::fs::perms(0644)));
  // Not believed (others could forge with it): the old entry is a miss...
  CompileCache cache(dir.file("cache"));
  EXPECT_FALSE(cache.lookup(key));
  // ...but the next store makes a private secret, and the cache works again.
  ASSERT_FALSE(bool(cache.store(key, {}, {"o"}, "")));
  EXPECT_TRUE(CompileCache(dir.file("cache")).lookup(key));
  llvm::sys::fs::file_status st;
  ASSERT_FALSE(llvm::sys::fs::status(secret, st));
  EXPECT_EQ(int(st.permissions()), 0600);
}

TEST(CompileCache, OnlyTrustedRegularFilesAreRead) {
  TempDir dir;
  CompileCache cache(dir.file("cache"));
  std::string key = keyOf("source");
  ASSERT_FALSE(bool(cache.store(key, {}, {"object"}, "")));
  ASSERT_TRUE(cache.lookup(key));
  std::string manifest = cache.manifestPath(key);
  std::string good = readFile(manifest);
  // A FIFO in place of the manifest is a miss, not a block.
  ASSERT_EQ(::unlink(manifest.c_str()), 0);
  ASSERT_EQ(::mkfifo(manifest.c_str(), 0600), 0);
  EXPECT_FALSE(cache.lookup(key));
  ASSERT_EQ(::unlink(manifest.c_str()), 0);
  writeFile(manifest, good);
  EXPECT_TRUE(cache.lookup(key));
  // A manifest others may write is not believed.
  ASSERT_EQ(::chmod(manifest.c_str(), 0666), 0);
  EXPECT_FALSE(cache.lookup(key));
  ASSERT_EQ(::chmod(manifest.c_str(), 0644), 0);
  EXPECT_TRUE(cache.lookup(key));
}

TEST(CompileCache, UntrustedDirectoryIsRefused) {
  TempDir dir;
  std::string path = dir.file("cache");
  CompileCache cache(path);
  EXPECT_FALSE(bool(cache.checkTrusted())); // not there yet: created 0700
  ASSERT_FALSE(bool(cache.store(keyOf("s"), {}, {"object"}, "")));
  EXPECT_FALSE(bool(cache.checkTrusted()));
  auto why = [&] { return llvm::toString(cache.checkTrusted()); };
  ASSERT_EQ(::chmod(path.c_str(), 0777), 0);
  EXPECT_NE(why().find("is writable by everyone (mode 0777)"),
            std::string::npos)
      << why();
  ASSERT_EQ(::chmod(path.c_str(), 0775), 0);
  EXPECT_NE(why().find("is writable by its group"), std::string::npos)
      << why();
  ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
  std::string v1 = dir.file("cache/v1");
  ASSERT_EQ(::chmod(v1.c_str(), 0757), 0);
  EXPECT_NE(why().find("v1' is writable by everyone"), std::string::npos)
      << why();
  ASSERT_EQ(::chmod(v1.c_str(), 0700), 0);
  EXPECT_FALSE(bool(cache.checkTrusted()));
  if (::geteuid() == 0) { // only root can give a directory away
    ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);
    EXPECT_NE(why().find("is owned by uid 65534, not by you"),
              std::string::npos)
        << why();
    ASSERT_EQ(::chown(path.c_str(), 0, 0), 0);
  }
}

TEST(CompileCache, UnwritableDirectoryIsAnError) {
  TempDir dir;
  writeFile(dir.file("file"), "not a directory");
  CompileCache cache(dir.file("file") + "/cache");
  llvm::Error e = cache.store(keyOf("s"), {}, {"object"}, "");
  EXPECT_TRUE(bool(e));
  llvm::consumeError(std::move(e));
  EXPECT_FALSE(cache.lookup(keyOf("s")));
}

// --- Modules through the cache ------------------------------------------===//

const char *const source = R"(
__mlu_global__ void axpy(float *y, const float *x, float a, int n) {
  __nram__ float bx[1024];
  __nram__ float by[1024];
  __memcpy(bx, x, n * sizeof(float), GDRAM2NRAM);
  __memcpy(by, y, n * sizeof(float), GDRAM2NRAM);
  __bang_mul_scalar(bx, bx, a, n);
  __bang_add(by, by, bx, n);
  __memcpy(y, by, n * sizeof(float), NRAM2GDRAM);
}
__mlu_global__ void scaled(half *y, int n) {
  __nram__ half b[256];
  __memcpy(b, y, n * sizeof(half), GDRAM2NRAM);
  __bang_active_relu(b, b, n);
  __memcpy(y, b, n * sizeof(half), NRAM2GDRAM);
}
)";

std::unique_ptr<Module> compile(const CompileOptions &options,
                                llvm::StringRef name = "axpy.mlu") {
  auto m = Module::compileString(name, source, defaultDeviceSpec(), options);
  if (!m) {
    ADD_FAILURE() << llvm::toString(m.takeError());
    return nullptr;
  }
  return std::move(*m);
}

/// y = a * x + y on the device, through `module`.
std::vector<float> runAxpy(Module &module) {
  const DeviceSpec &spec = defaultDeviceSpec();
  auto device = Device::open(spec);
  EXPECT_TRUE(bool(device));
  std::vector<float> x(1000), y(1000);
  for (int i = 0; i < 1000; ++i) {
    x[i] = 0.25f * i - 7;
    y[i] = 3.0f - 0.5f * i;
  }
  void *dx = *(*device)->malloc(4000), *dy = *(*device)->malloc(4000);
  EXPECT_FALSE(bool((*device)->copyToDevice(dx, x.data(), 4000)));
  EXPECT_FALSE(bool((*device)->copyToDevice(dy, y.data(), 4000)));
  auto k = module.findKernel("axpy");
  EXPECT_TRUE(bool(k));
  auto stats =
      (*device)->launch(**k, module.staticLayout(), {1, 1, 1}, FuncType::Block,
                        {KernelArg::pointer(dy), KernelArg::pointer(dx),
                         KernelArg::f32(1.5f), KernelArg::i32(1000)});
  EXPECT_TRUE(bool(stats));
  if (!stats)
    llvm::consumeError(stats.takeError());
  EXPECT_FALSE(bool((*device)->copyFromDevice(y.data(), dy, 4000)));
  return y;
}

TEST(CompileCache, CachedModuleRunsAsTheCompiledOne) {
  TempDir dir;
  CompileOptions options;
  options.cacheDir = dir.file("cache");
  auto cold = compile(options);
  ASSERT_TRUE(cold);
  EXPECT_EQ(cold->times().cacheOutcome, CacheOutcome::Miss);
  EXPECT_GT(cold->times().frontend, 0);
  auto warm = compile(options);
  ASSERT_TRUE(warm);
  EXPECT_EQ(warm->times().cacheOutcome, CacheOutcome::Hit);
  EXPECT_EQ(warm->times().frontend, 0);
  EXPECT_EQ(warm->times().optimize, 0);
  EXPECT_EQ(warm->times().codegen, 0);

  // The same kernels, signatures, source lines and static layout.
  ASSERT_EQ(cold->kernels().size(), warm->kernels().size());
  for (size_t i = 0; i < cold->kernels().size(); ++i) {
    const Kernel &a = cold->kernels()[i], &b = warm->kernels()[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.pretty, b.pretty);
    EXPECT_EQ(a.signature, b.signature);
    EXPECT_EQ(a.file, b.file);
    EXPECT_EQ(a.line, b.line);
  }
  for (int s = 0; s < 3; ++s)
    EXPECT_EQ(cold->staticLayout().bytes[s], warm->staticLayout().bytes[s]);

  // The same results, bit for bit, as the module compiled without a cache.
  CompileOptions off;
  off.useCache = false;
  auto uncached = compile(off);
  ASSERT_TRUE(uncached);
  EXPECT_EQ(uncached->times().cacheOutcome, CacheOutcome::Disabled);
  std::vector<float> want = runAxpy(*uncached);
  std::vector<float> got = runAxpy(*warm);
  EXPECT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * 4));
  EXPECT_FLOAT_EQ(want[10], 1.5f * (0.25f * 10 - 7) + 3.0f - 5.0f);
}

TEST(CompileCache, WhatTheModuleDependsOnMisses) {
  TempDir dir;
  CompileOptions options;
  options.cacheDir = dir.file("cache");
  ASSERT_TRUE(compile(options));
  auto outcome = [&](const CompileOptions &o, llvm::StringRef name,
                     const DeviceSpec &spec) {
    auto m = Module::compileString(name, source, spec, o);
    if (!m) {
      ADD_FAILURE() << llvm::toString(m.takeError());
      return CacheOutcome::Disabled;
    }
    return (*m)->times().cacheOutcome;
  };
  const DeviceSpec &spec = defaultDeviceSpec();
  EXPECT_EQ(outcome(options, "axpy.mlu", spec), CacheOutcome::Hit);
  // The name is in the kernels' descriptors and in diagnostics.
  EXPECT_EQ(outcome(options, "other.mlu", spec), CacheOutcome::Miss);
  CompileOptions o = options;
  o.optLevel = 3;
  EXPECT_EQ(outcome(o, "axpy.mlu", spec), CacheOutcome::Miss);
  o = options;
  o.defines = {"UNUSED=1"};
  EXPECT_EQ(outcome(o, "axpy.mlu", spec), CacheOutcome::Miss);
  o = options;
  o.checkAccesses = true;
  EXPECT_EQ(outcome(o, "axpy.mlu", spec), CacheOutcome::Miss);
  o = options;
  o.debugInfo = true;
  EXPECT_EQ(outcome(o, "axpy.mlu", spec), CacheOutcome::Miss);
  // Any field of the device spec, even one the JSON form rounds away.
  DeviceSpec other = spec;
  other.nramBytes += 1;
  EXPECT_EQ(outcome(options, "axpy.mlu", other), CacheOutcome::Miss);
  other = spec;
  other.scalarIPC += 1e-9;
  EXPECT_EQ(outcome(options, "axpy.mlu", other), CacheOutcome::Miss);
  // And all of these are hits the second time.
  EXPECT_EQ(outcome(options, "other.mlu", spec), CacheOutcome::Hit);
  EXPECT_EQ(outcome(options, "axpy.mlu", other), CacheOutcome::Hit);
}

TEST(CompileCache, OffNeverTouchesTheDirectory) {
  TempDir dir;
  CompileOptions options;
  options.cacheDir = dir.file("cache");
  options.useCache = false;
  auto m = compile(options);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->times().cacheOutcome, CacheOutcome::Disabled);
  EXPECT_FALSE(llvm::sys::fs::exists(options.cacheDir));
}

TEST(CompileCache, UnwritableCacheStillCompiles) {
  TempDir dir;
  writeFile(dir.file("file"), "not a directory");
  CompileOptions options;
  options.cacheDir = dir.file("file") + "/cache";
  auto m = compile(options);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->times().cacheOutcome, CacheOutcome::NotStored);
  EXPECT_NE(m->times().cacheNote.find("cannot create"), std::string::npos)
      << m->times().cacheNote;
  std::vector<float> y = runAxpy(*m);
  EXPECT_FLOAT_EQ(y[10], 1.5f * (0.25f * 10 - 7) + 3.0f - 5.0f);
}

TEST(CompileCache, ClockDependentSourcesAreNotStored) {
  TempDir dir;
  CompileOptions options;
  options.cacheDir = dir.file("cache");
  std::string diags;
  llvm::raw_string_ostream os(diags);
  options.diagnostics = &os;
  auto m = Module::compileString(
      "date.mlu", "__mlu_global__ void k(char *p) { p[0] = __TIME__[0]; }",
      defaultDeviceSpec(), options);
  ASSERT_TRUE(bool(m)) << diags;
  EXPECT_EQ((*m)->times().cacheOutcome, CacheOutcome::NotStored);
  EXPECT_NE((*m)->times().cacheNote.find("__TIME__"), std::string::npos);
}

TEST(CompileCache, UntrustedDirectoryIsNotUsed) {
  TempDir dir;
  CompileOptions options;
  options.cacheDir = dir.file("cache");
  ASSERT_FALSE(llvm::sys::fs::create_directory(options.cacheDir));
  ASSERT_EQ(::chmod(options.cacheDir.c_str(), 0777), 0);
  std::string diags;
  llvm::raw_string_ostream os(diags);
  options.diagnostics = &os;
  auto m = compile(options);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->times().cacheOutcome, CacheOutcome::NotStored);
  EXPECT_NE(m->times().cacheNote.find("writable by everyone"),
            std::string::npos)
      << m->times().cacheNote;
  EXPECT_NE(diags.find("warning: not using the compile cache"),
            std::string::npos)
      << diags;
  EXPECT_FALSE(llvm::sys::fs::exists(options.cacheDir + "/v1"));
  std::vector<float> y = runAxpy(*m);
  EXPECT_FLOAT_EQ(y[10], 1.5f * (0.25f * 10 - 7) + 3.0f - 5.0f);
}

} // namespace
