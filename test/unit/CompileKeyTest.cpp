//===- CompileKeyTest.cpp - Every input of the compile cache's key --------===//
//
// The compile cache reuses an object when the key matches, so an input left
// out of the key gives a run the wrong object. These tests change each input
// in turn and check the key changes: every CompileOptions field its table
// (bangsim/CompileOptions.def) marks as keyed, every DeviceSpec field
// (bangsim/DeviceSpec.def), the header search variables, the source's name,
// origin and text; the fields marked unkeyed leave it alone. The walks are
// generated from the tables, and each field's changes come from an overload
// for that field (options) or its type (spec), so a new row without changes
// here does not compile. Headers are not in the key (each entry records
// them): a real compile through the cache checks that an edited header
// misses. So does -finline-intrinsics, whose absence from the key once gave
// a run the object compiled for the other choice.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileKey.h"
#include "driver/CompilerInvocation.h"

#include "codegen/NativeDeviceLib.h"

#include "bangsim/Module.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

using namespace bangsim;

namespace {

const char *const headerVars[] = {"CPATH", "CPLUS_INCLUDE_PATH",
                                  "C_INCLUDE_PATH"};

/// Everything compileKey reads: its arguments and the header search
/// variables (unset unless given).
struct Input {
  std::string name = "k.mlu";
  std::string source = "__mlu_global__ void k(float *x) { x[0] = 1; }\n";
  bool fromFile = false;
  DeviceSpec spec = defaultDeviceSpec();
  CompileOptions options;
  std::map<std::string, std::string> env;
};

/// Sets (or unsets) an environment variable for its lifetime.
class ScopedEnv {
public:
  ScopedEnv(const char *var, std::optional<std::string> value) : var(var) {
    if (const char *old = std::getenv(var))
      saved = old;
    if (value)
      ::setenv(var, value->c_str(), 1);
    else
      ::unsetenv(var);
  }
  ~ScopedEnv() {
    if (saved)
      ::setenv(var, saved->c_str(), 1);
    else
      ::unsetenv(var);
  }

private:
  const char *var;
  std::optional<std::string> saved;
};

std::string keyOf(const Input &in) {
  std::vector<std::unique_ptr<ScopedEnv>> env;
  for (const char *var : headerVars) {
    auto it = in.env.find(var);
    env.push_back(std::make_unique<ScopedEnv>(
        var, it == in.env.end() ? std::nullopt
                                : std::optional<std::string>(it->second)));
  }
  return compileKey(in.name, in.source, in.fromFile, in.spec, in.options);
}

/// One change to the inputs. `sameObject`: the compiled object does not
/// depend on it, so the key must stay.
struct Change {
  std::string what;
  std::function<void(Input &)> apply;
  bool sameObject = false;
};

/// Checks each change against the unchanged input: a new key unless it is
/// marked sameObject, and new keys all different from each other.
void expectKeys(const std::string &input, const std::vector<Change> &changes,
                std::map<std::string, std::string> &seen) {
  const std::string base = keyOf(Input());
  for (const Change &c : changes) {
    Input in;
    c.apply(in);
    std::string key = keyOf(in);
    if (c.sameObject) {
      EXPECT_EQ(key, base) << input << ": " << c.what
                           << " changed the key, but not the object";
      continue;
    }
    EXPECT_NE(key, base) << input << ": " << c.what
                         << " left the key unchanged: compileKey leaves "
                         << input << " out, and the cache would reuse the "
                         << "object compiled without it";
    auto [it, fresh] = seen.emplace(key, input + ": " + c.what);
    EXPECT_TRUE(fresh || key == base)
        << input << ": " << c.what << " gives the same key as " << it->second;
  }
}

// --- CompileOptions: one overload of changes() per field ---------------===//

template <auto Field> struct Option {};

std::vector<Change> changes(Option<&CompileOptions::includeDirs>) {
  auto dirs = [](std::vector<std::string> d) {
    return [d](Input &in) { in.options.includeDirs = d; };
  };
  return {{"-I inc", dirs({"inc"})},
          {"-I ./inc (same directory, another __FILE__)", dirs({"./inc"})},
          {"-I /abs/inc", dirs({"/abs/inc"})},
          {"-I inc -I other", dirs({"inc", "other"})},
          {"-I other -I inc (search order)", dirs({"other", "inc"})},
          {"-I incother", dirs({"incother"})}};
}

std::vector<Change> changes(Option<&CompileOptions::defines>) {
  auto defs = [](std::vector<std::string> d) {
    return [d](Input &in) { in.options.defines = d; };
  };
  return {{"-DA", defs({"A"})},          {"-DA=1", defs({"A=1"})},
          {"-DA=2", defs({"A=2"})},      {"-DA -DB", defs({"A", "B"})},
          {"-DB -DA", defs({"B", "A"})}, {"-DAB", defs({"AB"})}};
}

std::vector<Change> changes(Option<&CompileOptions::optLevel>) {
  std::vector<Change> out;
  for (int level : {0, 1, 3})
    out.push_back({"-O" + std::to_string(level),
                   [level](Input &in) { in.options.optLevel = level; }});
  return out;
}

std::vector<Change> changes(Option<&CompileOptions::debugInfo>) {
  return {{"-g", [](Input &in) { in.options.debugInfo = true; }}};
}

std::vector<Change> changes(Option<&CompileOptions::languageStandard>) {
  auto standard = [](std::string s) {
    return [s](Input &in) { in.options.languageStandard = s; };
  };
  return {{"-std=c++20", standard("c++20")},
          {"-std=gnu++17", standard("gnu++17")}};
}

std::vector<Change> changes(Option<&CompileOptions::checkAccesses>) {
  return {{"--check", [](Input &in) { in.options.checkAccesses = true; }}};
}

std::vector<Change> changes(Option<&CompileOptions::checkRaces>) {
  return {{"--check=race", [](Input &in) { in.options.checkRaces = true; }}};
}

/// Each setting at the default -O2: the object (and so the key) changes
/// exactly when the choice made changes; -fno-inline-intrinsics is the
/// default's choice at -O2 when the native library runs here.
std::vector<Change> changes(Option<&CompileOptions::inlineIntrinsics>) {
  auto inlines = [](std::optional<bool> setting) {
    CompileOptions o;
    o.inlineIntrinsics = setting;
    return bangc::inlinesIntrinsics(codegenOptions(o));
  };
  const bool byDefault = inlines(std::nullopt);
  std::vector<Change> out;
  for (bool on : {true, false})
    out.push_back({on ? "-finline-intrinsics" : "-fno-inline-intrinsics",
                   [on](Input &in) { in.options.inlineIntrinsics = on; },
                   inlines(on) == byDefault});
  return out;
}

std::vector<Change> changes(Option<&CompileOptions::diagnostics>) {
  static std::string text;
  static llvm::raw_string_ostream os(text);
  return {{"diagnostics to a string",
           [](Input &in) { in.options.diagnostics = &os; }, true}};
}

std::vector<Change> changes(Option<&CompileOptions::useCache>) {
  return {{"--no-cache", [](Input &in) { in.options.useCache = false; }, true}};
}

std::vector<Change> changes(Option<&CompileOptions::cacheDir>) {
  return {{"another cache directory",
           [](Input &in) { in.options.cacheDir = "/elsewhere"; }, true}};
}

TEST(CompileKey, EveryKeyedOptionChangesTheKey) {
  std::map<std::string, std::string> seen;
  std::set<std::string> unkeyed;
#define BANGSIM_KEYED_OPTION(FIELD)                                            \
  expectKeys("option " #FIELD, changes(Option<&CompileOptions::FIELD>()), seen);
#define BANGSIM_UNKEYED_OPTION(FIELD, WHY)                                     \
  unkeyed.insert(#FIELD);                                                      \
  for (const Change &c : changes(Option<&CompileOptions::FIELD>()))            \
    EXPECT_TRUE(c.sameObject) << #FIELD " is not keyed, yet " << c.what        \
                              << " is said to change the object";              \
  expectKeys("option " #FIELD, changes(Option<&CompileOptions::FIELD>()), seen);
#include "bangsim/CompileOptions.def"
  // Leaving an option out of the key is a decision this list records too.
  EXPECT_EQ(unkeyed,
            (std::set<std::string>{"diagnostics", "useCache", "cacheDir"}));
}

/// The inline choice at every level, where the native library runs here:
/// the default is "inline at -O3 only", and the key follows the choice.
TEST(CompileKey, InlineIntrinsicsSplitsTheKeyAtEveryLevel) {
  if (!bangc::usableNativeDeviceLibrary())
    GTEST_SKIP() << "the native device library does not run on this host: "
                    "every compile inlines the intrinsics";
  for (int level = 0; level <= 3; ++level) {
    auto key = [&](std::optional<bool> setting) {
      Input in;
      in.options.optLevel = level;
      in.options.inlineIntrinsics = setting;
      return keyOf(in);
    };
    std::string def = key(std::nullopt), on = key(true), off = key(false);
    EXPECT_NE(on, off) << "-O" << level
                       << ": -finline-intrinsics and -fno-inline-intrinsics "
                          "share a key: inlineIntrinsics is not in the key";
    EXPECT_EQ(def, level >= 3 ? on : off)
        << "-O" << level << ": the default is not keyed as its choice";
  }
}

// --- DeviceSpec: changes by the field's type ---------------------------===//

/// Changes to a value of one type, each named by `what`.
using Tweak = std::pair<std::string, std::function<void(void *)>>;

template <typename T>
Tweak tweak(std::string what, std::function<void(T &)> f) {
  return {what, [f](void *p) { f(*static_cast<T *>(p)); }};
}

std::vector<Tweak> tweaks(std::string *) {
  return {tweak<std::string>("+ \"x\"", [](std::string &s) { s += "x"; }),
          tweak<std::string>("emptied", [](std::string &s) { s.clear(); })};
}
std::vector<Tweak> tweaks(int *) {
  return {tweak<int>("+ 1", [](int &v) { v += 1; })};
}
/// Sizes: one byte more is rounded away by the JSON form (KiB, MiB), one
/// KiB more is not.
std::vector<Tweak> tweaks(int64_t *) {
  return {tweak<int64_t>("+ 1", [](int64_t &v) { v += 1; }),
          tweak<int64_t>("+ 1024", [](int64_t &v) { v += 1024; })};
}
/// The next double is rounded away by the JSON form (%g); + 1 is not.
std::vector<Tweak> tweaks(double *) {
  return {tweak<double>("next double",
                        [](double &v) { v = std::nextafter(v, 1e300); }),
          tweak<double>("+ 1", [](double &v) { v += 1; })};
}
template <size_t N> std::vector<Tweak> tweaks(std::array<double, N> *) {
  std::vector<Tweak> out;
  for (size_t i = 0; i < N; ++i)
    for (const Tweak &t : tweaks(static_cast<double *>(nullptr)))
      out.push_back(tweak<std::array<double, N>>(
          "[" + std::to_string(i) + "] " + t.first,
          [i, f = t.second](std::array<double, N> &a) { f(&a[i]); }));
  return out;
}

template <typename T> std::vector<Change> specChanges(T DeviceSpec::*field) {
  std::vector<Change> out;
  for (const Tweak &t : tweaks(static_cast<T *>(nullptr)))
    out.push_back(
        {t.first, [field, f = t.second](Input &in) { f(&(in.spec.*field)); }});
  return out;
}

TEST(CompileKey, EveryDeviceSpecFieldChangesTheKey) {
  std::map<std::string, std::string> seen;
#define BANGSIM_DEVICE_FIELD(FIELD, ...)                                       \
  expectKeys("device spec field " #FIELD, specChanges(&DeviceSpec::FIELD),     \
             seen);
#include "bangsim/DeviceSpec.def"
}

// --- The environment and the source ------------------------------------===//

TEST(CompileKey, HeaderSearchVariablesChangeTheKey) {
  std::map<std::string, std::string> seen;
  for (const char *var : headerVars) {
    std::string v = var;
    expectKeys(
        v,
        {{"= /inc", [v](Input &in) { in.env[v] = "/inc"; }},
         {"= /inc:/other", [v](Input &in) { in.env[v] = "/inc:/other"; }},
         {"set but empty", [v](Input &in) { in.env[v] = ""; }}},
        seen);
  }
}

TEST(CompileKey, SourceNameOriginAndTextChangeTheKey) {
  std::map<std::string, std::string> seen;
  expectKeys(
      "the source",
      {{"another name", [](Input &in) { in.name = "other.mlu"; }},
       {"the name in a directory", [](Input &in) { in.name = "sub/k.mlu"; }},
       {"read from a file", [](Input &in) { in.fromFile = true; }},
       {"one more byte", [](Input &in) { in.source += " "; }},
       {"one byte different",
        [](Input &in) { in.source[in.source.size() - 2] = ' '; }},
       {"empty", [](Input &in) { in.source.clear(); }}},
      seen);
}

/// A fresh directory, removed afterwards.
struct TempDir {
  TempDir() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("bangc-key-test", path));
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<256> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  llvm::SmallString<256> path;
};

/// Relative include directories and source names are keyed where they
/// point: the same spelling from another working directory misses.
TEST(CompileKey, RelativePathsAreKeyedWhereTheyPoint) {
  TempDir a, b;
  llvm::SmallString<256> cwd;
  ASSERT_FALSE(llvm::sys::fs::current_path(cwd));
  auto keyIn = [&](const TempDir &dir, const Input &in) {
    EXPECT_EQ(::chdir(std::string(dir.path).c_str()), 0);
    std::string key = keyOf(in);
    EXPECT_EQ(::chdir(std::string(cwd).c_str()), 0);
    return key;
  };
  Input relInclude;
  relInclude.name = "/src/k.mlu"; // only the -I is relative
  relInclude.options.includeDirs = {"inc"};
  EXPECT_NE(keyIn(a, relInclude), keyIn(b, relInclude))
      << "-I inc from two directories: the absolute include path is not "
         "in the key";
  Input relName;
  relName.fromFile = true;
  relName.source = "#include \"h.h\"\n" + relName.source;
  EXPECT_NE(keyIn(a, relName), keyIn(b, relName))
      << "k.mlu in two directories (its quoted includes are found next to "
         "it): the absolute source path is not in the key";
  // A source that may read a file beside it is keyed where it is; one that
  // cannot is not (so a fresh clone's kernels hit the cache).
  const char *beside[] = {
      "#include \"h.h\"", "  #  include_next \"h.h\"", "%:import \"h.h\"",
      "#embed \"data.bin\"", "#include HEADER",
      "#if __has_include(\"h.h\")\n#endif",
      "#if __has_include_next ( \"h.h\" )\n#endif",
      "#if __has_embed(NAME)\n#endif",
      // Translation phases 1-3 come first: a comment is
      // a space, a backslash-newline joins two lines.
      "/**/ #include \"h.h\"", "/* a\n b */ # /**/ include \"h.h\"",
      "#\\\ninclude \"h.h\"", "# inc\\\nlude \\\n \"h.h\"",
      "#if __has_\\\ninclude(\"h.h\")\n#endif", "?\?=include \"h.h\"",
      // Comment markers inside literals are not
      // comments; a digit separator is not a quote.
      "const char *s = \"/*\";\n#include \"h.h\"\n// */",
      "char c = '\"'; /* \" */\n#include \"h.h\"",
      "int x = 1'000; const char *s = \"it's /*\";\n"
      "#include \"h.h\"\n// */",
      "auto s = R\"x(\"/*)x\";\n#include \"h.h\"\n// */"};
  const char *notBeside[] = {"#include <stdint.h>",
                             "// includes \"h.h\"",
                             "#if __has_include(<stdint.h>)\n#endif",
                             "#define INCLUDE \"x\"",
                             "/* #include \"h.h\" */",
                             "/*\n#include \"h.h\"\n*/",
                             "// \\\n#include \"h.h\"",
                             "#if 1 // __has_include(\"h.h\")\n#endif",
                             "#include /* \"h.h\" */ <stdint.h>"};
  for (bool fromFile : {false, true}) {
    for (const char *text : beside) {
      Input in;
      in.fromFile = fromFile;
      in.source = std::string(text) + "\n" + in.source;
      EXPECT_NE(keyIn(a, in), keyIn(b, in)) << text;
    }
    for (const char *text : notBeside) {
      Input in;
      in.fromFile = fromFile;
      in.source = std::string(text) + "\n" + in.source;
      EXPECT_EQ(keyIn(a, in), keyIn(b, in)) << text;
    }
  }
}

// --- Real compiles through the cache -----------------------------------===//

/// Compiles `source` through the cache in `dir`.
std::unique_ptr<Module> compileCached(const TempDir &dir,
                                      llvm::StringRef source,
                                      CompileOptions options) {
  options.cacheDir = dir.file("cache");
  options.useCache = true;
  auto m = Module::compileString("k.mlu", source, defaultDeviceSpec(), options);
  if (!m) {
    ADD_FAILURE() << llvm::toString(m.takeError());
    return nullptr;
  }
  return std::move(*m);
}

void writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << path;
  os << text;
}

TEST(CompileKey, AnEditedHeaderMissesAndIsUsed) {
  ::unsetenv("BANGC_CACHE_DISABLE");
  TempDir dir;
  ASSERT_FALSE(llvm::sys::fs::create_directory(dir.file("inc")));
  std::string header = dir.file("inc/size.h");
  const char *source = R"(#include "size.h"
__nram__ float buf[N];
__mlu_global__ void k(float *x) { __memcpy(buf, x, N * 4, GDRAM2NRAM); }
)";
  CompileOptions options;
  options.includeDirs = {dir.file("inc")};
  auto nramBytes = [&](CacheOutcome want) -> int64_t {
    auto m = compileCached(dir, source, options);
    if (!m)
      return -1;
    EXPECT_EQ(m->times().cacheOutcome, want);
    return m->staticLayout().bytes[0];
  };
  writeFile(header, "#define N 16\n");
  EXPECT_EQ(nramBytes(CacheOutcome::Miss), 64);
  EXPECT_EQ(nramBytes(CacheOutcome::Hit), 64);
  writeFile(header, "#define N 32\n");
  EXPECT_EQ(nramBytes(CacheOutcome::Miss), 128)
      << "the edited header was not used";
  writeFile(header, "#define N 16\n");
  EXPECT_EQ(nramBytes(CacheOutcome::Hit), 64);
}

TEST(CompileKey, InlineIntrinsicsMissesThroughTheCache) {
  if (!bangc::usableNativeDeviceLibrary())
    GTEST_SKIP() << "the native device library does not run on this host";
  ::unsetenv("BANGC_CACHE_DISABLE");
  TempDir dir;
  const char *source = R"(
__nram__ float b[64];
__mlu_global__ void k(float *x) {
  __memcpy(b, x, 256, GDRAM2NRAM);
  __bang_add(b, b, b, 64);
  __memcpy(x, b, 256, NRAM2GDRAM);
}
)";
  auto outcome = [&](std::optional<bool> inlineIntrinsics) {
    CompileOptions options;
    options.inlineIntrinsics = inlineIntrinsics;
    auto m = compileCached(dir, source, options);
    return m ? m->times().cacheOutcome : CacheOutcome::Disabled;
  };
  EXPECT_EQ(outcome(std::nullopt), CacheOutcome::Miss);
  EXPECT_EQ(outcome(true), CacheOutcome::Miss)
      << "-finline-intrinsics reused the object that calls the library";
  EXPECT_EQ(outcome(false), CacheOutcome::Hit) << "the -O2 default's choice";
  EXPECT_EQ(outcome(true), CacheOutcome::Hit);
}

} // namespace
