//===- ArgsFuzzer.cpp - libFuzzer target: bangc-sim's command lines -------===//
//
// Each input is a command line, one argument per line: the first names the
// subcommand (compile, run, op, graph, device: tools/Commands.def), the rest
// go to its parser (tools/Commands.h, NAMEParse), which reads every option
// and value (--arg in:X.npy / out:X.npy:f32:2x3 / i32:V / struct:..., --dim,
// --timeout, --attr, --steps, -std, --device ...) without reading a file or
// compiling. A bad command line is a usage error (exit status 2), never a
// crash, an abort or a wrapped number. `-mllvm` is left out: it hands its
// value to LLVM's own option parser, whose -help and -version exit the
// process by design, as clang's do.
//
//===----------------------------------------------------------------------===//
#include "tools/Commands.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Command {
  const char *name;
  int (*parse)(llvm::ArrayRef<const char *> argv);
};

const Command commands[] = {
#define BANGC_COMMAND(NAME, SUMMARY) {#NAME, bangc::tools::NAME##Parse},
#include "tools/Commands.def"
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SmallVector<llvm::StringRef, 16> lines;
  text.split(lines, '\n');
  // Arguments are C strings, as in a real argv: a NUL ends one early.
  std::vector<std::string> args;
  for (llvm::StringRef line : lines) {
    args.push_back(line.str());
    if (llvm::StringRef(args.back().c_str()).starts_with("-mllvm"))
      return 0;
  }
  std::vector<const char *> argv;
  for (size_t i = 1; i < args.size(); ++i)
    argv.push_back(args[i].c_str());
  for (const Command &c : commands) {
    if (args[0] != c.name)
      continue;
    int status = c.parse(argv);
    if (status != -1 && status != 0 && status != 2) {
      // A parser either goes on (-1), stops after --help or --list (0), or
      // reports a usage error (2): any other status is a bug.
      std::abort();
    }
  }
  return 0;
}
