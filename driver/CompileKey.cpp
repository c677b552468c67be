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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

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

/// Translation phases 1 to 3, enough to find directives: trigraphs (if
/// `trigraphs`) replaced, backslash-newlines joined, and each comment
/// replaced by a space (a `//` comment keeps its newline). String, character
/// and raw string literals and pp-numbers (whose `'` digit separators are
/// not quotes) are kept as they are, so a comment marker inside one is not
/// taken for a comment. The text is only scanned, never compiled: an
/// unterminated literal ends at its line's end.
std::string withoutComments(StringRef source, bool trigraphs) {
  // Phases 1 and 2.
  std::string joined;
  joined.reserve(source.size());
  for (size_t i = 0; i < source.size(); ++i) {
    char c = source[i];
    if (trigraphs && c == '?' && i + 2 < source.size() &&
        source[i + 1] == '?') {
      static const char from[] = "=/'()!<>-", to[] = "#\\^[]|{}~";
      if (const char *at = std::strchr(from, source[i + 2]); at && *at) {
        c = to[at - from];
        i += 2;
      }
    }
    joined += c;
    // A backslash, then spaces (Clang allows them), then a newline.
    if (c == '\\') {
      size_t j = i + 1;
      while (j < source.size() && (source[j] == ' ' || source[j] == '\t'))
        ++j;
      if (j < source.size() && (source[j] == '\n' || source[j] == '\r')) {
        if (source[j] == '\r' && j + 1 < source.size() && source[j + 1] == '\n')
          ++j;
        joined.pop_back();
        i = j;
      }
    }
  }
  // Phase 3.
  auto isIdent = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80;
  };
  StringRef text = joined;
  std::string out;
  out.reserve(text.size());
  size_t i = 0, n = text.size();
  // Copies a quoted literal from its opening quote at i.
  auto literal = [&](char quote) {
    size_t j = i + 1;
    while (j < n && text[j] != quote && text[j] != '\n')
      j += text[j] == '\\' && j + 1 < n && text[j + 1] != '\n' ? 2 : 1;
    if (j < n && text[j] == quote)
      ++j;
    out += text.slice(i, j);
    i = j;
  };
  while (i < n) {
    char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      i = std::min(text.find('\n', i), n);
      out += ' ';
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      size_t close = text.find("*/", i + 2);
      i = close == StringRef::npos ? n : close + 2;
      out += ' ';
    } else if (c == '"' || c == '\'') {
      literal(c);
    } else if (llvm::isDigit(c) ||
               (c == '.' && i + 1 < n && llvm::isDigit(text[i + 1]))) {
      // A pp-number: digits, letters, '.', e+ e- p+ p-, and 'x separators.
      size_t j = i + 1;
      while (j < n) {
        char d = text[j];
        if ((d == '+' || d == '-') && StringRef("eEpP").contains(text[j - 1]))
          ++j;
        else if (d == '\'' && j + 1 < n && isIdent(text[j + 1]))
          j += 2;
        else if (isIdent(d) || d == '.')
          ++j;
        else
          break;
      }
      out += text.slice(i, j);
      i = j;
    } else if (isIdent(c)) {
      size_t j = i;
      while (j < n && isIdent(text[j]))
        ++j;
      StringRef word = text.slice(i, j);
      out += word;
      i = j;
      if (i >= n)
        break;
      // A raw string: R"delim( ... )delim", with any encoding prefix.
      if (text[i] == '"' && word.back() == 'R' &&
          (word == "R" || word == "LR" || word == "uR" || word == "UR" ||
           word == "u8R")) {
        size_t open = text.find('(', i);
        size_t nl = text.find('\n', i);
        if (open != StringRef::npos && open < nl && open - i - 1 <= 16) {
          std::string close = (")" + text.slice(i + 1, open) + "\"").str();
          size_t end = text.find(close, open);
          end = end == StringRef::npos ? n : end + close.size();
          out += text.slice(i, end);
          i = end;
        }
      }
      // Other prefixed literals (L"", u8'') are copied by the next turn.
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

/// Whether the compile may read a file found next to the source: a
/// directive #include, #include_next, #import or #embed of a quoted (or
/// macro-made) name, or a __has_include, __has_include_next or __has_embed
/// test of one. Only then is the source's directory an input. The text is
/// scanned after translation phases 1 to 3 (so a directive after a comment
/// or spelled across backslash-newlines counts, one inside a comment does
/// not), both with and without trigraphs (the language standard decides
/// whether Clang replaces them). Errs on the side of yes: such a directive
/// in a skipped #if or a raw string counts.
bool readsBesideSource(StringRef source) {
  // The name after a directive or test: quoted or macro-made unless '<'.
  auto quoted = [](StringRef rest) {
    rest = rest.ltrim(" \t\v\f\r\n");
    return rest.empty() || rest.front() != '<';
  };
  for (bool trigraphs : {false, true}) {
    std::string text = withoutComments(source, trigraphs);
    StringRef rest = text;
    while (!rest.empty()) {
      auto [line, next] = rest.split('\n');
      rest = next;
      line = line.ltrim(" \t\v\f\r");
      if (!line.consume_front("#") && !line.consume_front("%:"))
        continue;
      line = line.ltrim(" \t\v\f\r");
      for (StringRef d : {"include_next", "include", "import", "embed"})
        if (line.consume_front(d)) {
          if (quoted(line))
            return true;
          break;
        }
    }
    StringRef all = text;
    for (StringRef test : {"__has_include", "__has_embed"})
      for (size_t at = all.find(test); at != StringRef::npos;
           at = all.find(test, at + 1)) {
        StringRef after = all.drop_front(at + test.size());
        after.consume_front("_next");
        after = after.ltrim(" \t\v\f\r\n");
        if (!after.consume_front("(") || quoted(after))
          return true;
      }
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
