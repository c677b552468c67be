//===- CompileKey.cpp - What a compiled module depends on -----------------===//
//
// The compile cache's key: every input a compiled object depends on. The
// fields of CompileOptions and DeviceSpec come from their tables
// (bangsim/CompileOptions.def, bangsim/DeviceSpec.def): the build fails when
// CompileOptions has a field its table does not list, and DeviceSpec is
// declared from its table, so a new option or device number cannot be left
// out of the key unnoticed.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileKey.h"
#include "driver/CompileCache.h"
#include "driver/CompilerInvocation.h"
#include "driver/FieldCount.h"

#include "codegen/HostTarget.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace bangsim;
using llvm::StringRef;

namespace {

std::string exact(double v) {
  return llvm::formatv("{0}", llvm::format("%a", v)).str();
}

std::string absolute(StringRef path) {
  llvm::SmallString<256> out(path);
  llvm::sys::fs::make_absolute(out);
  return std::string(out);
}

/// Whether the compile may read a file found next to the source: a
/// directive #include, #include_next, #import or #embed of a quoted (or
/// macro-made) name, or a __has_include, __has_include_next or __has_embed
/// test of one. Only then is the source's directory an input. Errs on the
/// side of yes: such a directive in a comment or a skipped #if counts.
bool readsBesideSource(StringRef source) {
  auto skipSpace = [](StringRef s) { return s.ltrim(" \t\v\f\r\\\n"); };
  // The name after a directive or test: quoted or macro-made unless '<'.
  auto quoted = [&](StringRef rest) {
    rest = skipSpace(rest);
    return rest.empty() || rest.front() != '<';
  };
  StringRef rest = source;
  while (!rest.empty()) {
    auto [line, next] = rest.split('\n');
    rest = next;
    line = skipSpace(line);
    if (!line.consume_front("#") && !line.consume_front("%:"))
      continue;
    line = skipSpace(line);
    for (StringRef d : {"include_next", "include", "import", "embed"})
      if (line.consume_front(d)) {
        if (quoted(line))
          return true;
        break;
      }
  }
  for (StringRef test : {"__has_include", "__has_embed"})
    for (size_t at = source.find(test); at != StringRef::npos;
         at = source.find(test, at + 1)) {
      StringRef after = source.drop_front(at + test.size());
      after.consume_front("_next");
      after = skipSpace(after);
      if (!after.consume_front("(") || quoted(after))
        return true;
    }
  return false;
}

/// The host CPU and its features: the object is compiled for them.
const std::string &hostTarget() {
  static const std::string target =
      bangc::hostCPU() + " " + bangc::hostFeatures();
  return target;
}

// --- The tables list every field ----------------------------------------===//

/// CompileOptions' fields as its table lists them, with their types.
struct TabledOptions {
#define BANGSIM_KEYED_OPTION(FIELD) decltype(CompileOptions::FIELD) FIELD;
#define BANGSIM_UNKEYED_OPTION(FIELD, WHY)                                     \
  decltype(CompileOptions::FIELD) FIELD;
#include "bangsim/CompileOptions.def"
};
static_assert(fieldCount<CompileOptions>() == fieldCount<TabledOptions>() &&
                  sizeof(CompileOptions) == sizeof(TabledOptions),
              "CompileOptions has a field that bangsim/CompileOptions.def "
              "does not list: add it there, as BANGSIM_KEYED_OPTION (and its "
              "addOption term below) if the compiled object depends on it, "
              "else as BANGSIM_UNKEYED_OPTION with the reason");

// --- Device spec fields, exactly ----------------------------------------===//

void addExact(KeyBuilder &k, const std::string &v) { k.add(v); }
void addExact(KeyBuilder &k, int v) { k.add(int64_t(v)); }
void addExact(KeyBuilder &k, int64_t v) { k.add(v); }
void addExact(KeyBuilder &k, double v) { k.add(exact(v)); }
template <size_t N>
void addExact(KeyBuilder &k, const std::array<double, N> &v) {
  for (double x : v)
    addExact(k, x);
}

// --- One term per keyed option ------------------------------------------===//

/// Names one field of CompileOptions, to pick its addOption overload.
template <auto Field> struct Option {};

/// Include directories as given (they appear in __FILE__) and absolute
/// (where headers are searched).
void addOption(KeyBuilder &k, const CompileOptions &options,
               Option<&CompileOptions::includeDirs>) {
  k.add(int64_t(options.includeDirs.size()));
  for (const std::string &dir : options.includeDirs)
    k.add(dir).add(absolute(dir));
}

void addOption(KeyBuilder &k, const CompileOptions &options,
               Option<&CompileOptions::defines>) {
  k.add(int64_t(options.defines.size()));
  for (const std::string &def : options.defines)
    k.add(def);
}

void addOption(KeyBuilder &k, const CompileOptions &options,
               Option<&CompileOptions::optLevel>) {
  k.add(options.optLevel);
}

void addOption(KeyBuilder &k, const CompileOptions &options,
               Option<&CompileOptions::debugInfo>) {
  k.add(options.debugInfo);
}

void addOption(KeyBuilder &k, const CompileOptions &options,
               Option<&CompileOptions::languageStandard>) {
  k.add(options.languageStandard);
}

void addOption(KeyBuilder &k, const CompileOptions &options,
               Option<&CompileOptions::checkAccesses>) {
  k.add(options.checkAccesses);
}

void addOption(KeyBuilder &k, const CompileOptions &options,
               Option<&CompileOptions::checkRaces>) {
  k.add(options.checkRaces);
}

/// Inlined intrinsic bodies, or calls into the native device library: the
/// choice made, so that the default and the option it defaults to share an
/// entry.
void addOption(KeyBuilder &k, const CompileOptions &options,
               Option<&CompileOptions::inlineIntrinsics>) {
  k.add(bangc::inlinesIntrinsics(codegenOptions(options)));
}

} // namespace

std::string bangsim::compileKey(StringRef name, StringRef source, bool fromFile,
                                const DeviceSpec &spec,
                                const CompileOptions &options) {
  KeyBuilder k;
  k.add("bangc-sim compile key 1").add(compilerId()).add(LLVM_VERSION_STRING);
  k.add(hostTarget());
  // The device: the JSON form (which grows with the spec) and every field
  // exactly (the JSON rounds).
  k.add(deviceSpecToJSON(spec));
#define BANGSIM_DEVICE_FIELD(FIELD, ...) addExact(k, spec.FIELD);
#include "bangsim/DeviceSpec.def"
  // The options the object depends on.
#define BANGSIM_KEYED_OPTION(FIELD)                                            \
  addOption(k, options, Option<&CompileOptions::FIELD>());
#define BANGSIM_UNKEYED_OPTION(FIELD, WHY)
#include "bangsim/CompileOptions.def"
  // The driver reads these to find headers.
  for (const char *var : {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH"}) {
    const char *value = std::getenv(var);
    k.add(value ? StringRef(value) : StringRef("\n(unset)"));
  }
  // The source: its name as given, where it is if it can include a file
  // from there (quoted includes are found next to it; a source that cannot
  // hits from any directory, as a fresh clone's), and its bytes.
  k.add(fromFile ? "file" : "string").add(name);
  k.add(readsBesideSource(source) ? absolute(name) : "\n(no quoted include)");
  k.add(source);
  return k.final();
}
