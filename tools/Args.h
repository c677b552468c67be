//===- Args.h - The one command-line reader of bangc-sim -------*- C++ -*-===//
//
// Every subcommand (compile, run, op, graph, device) describes its command
// line as a table: one Option row per option, saying how it is spelled,
// whether it takes a value (`--name value`, `--name=value`, and for one-dash
// names such as -I also `-Ivalue`), what the value is (a flag, text, an
// integer in a range, or a check of the command's own) and its help line.
// readCommandLine() reads argv against that table and printHelp() writes
// the option list of `--help` from the same rows, so that adding an option
// to a command is one row. A usage error (an unknown option, a missing
// value, a value out of range) is one line on stderr and exit status 2.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TOOLS_ARGS_H
#define BANGC_TOOLS_ARGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bangc::tools {

/// How an option is spelled on the command line.
enum class ArgForm {
  Flag,     ///< `--name` alone
  Separate, ///< `--name VALUE` or `--name=VALUE`
  Joined,   ///< also `-nameVALUE` (-I, -D, -o, -L, -l)
};

/// One row of a command's option table.
struct Option {
  /// Takes the option's value ("" for a flag); returns the usage error, or
  /// "" when the value is good.
  using Handler = std::function<std::string(llvm::StringRef value)>;

  std::string spelling;
  ArgForm form = ArgForm::Flag;
  /// The value's name in --help ("DIR"; "=N" is written joined).
  std::string meta;
  /// The help text, wrapped by printHelp(); "" lists the row not at all (a
  /// row before it documents it).
  std::string help;
  Handler handle;
  /// The left column of --help when not spelling and meta (e.g. "-O0 -O1
  /// -O2 -O3" for four flag rows).
  std::string label;
  /// The usage error for a missing value ("" for "option 'X' needs a
  /// value").
  std::string missing;

  Option &labelled(llvm::StringRef text) {
    label = text.str();
    return *this;
  }
  Option &ifMissing(llvm::StringRef message) {
    missing = message.str();
    return *this;
  }
};

/// A flag that sets `into` to `value`.
Option flag(llvm::StringRef spelling, llvm::StringRef help, bool &into,
            bool value = true);
/// A flag that does `act`.
Option flag(llvm::StringRef spelling, llvm::StringRef help,
            std::function<void()> act);
/// A value kept as it is.
Option text(llvm::StringRef spelling, llvm::StringRef meta,
            llvm::StringRef help, std::string &into,
            ArgForm form = ArgForm::Separate);
Option text(llvm::StringRef spelling, llvm::StringRef meta,
            llvm::StringRef help, std::optional<std::string> &into);
/// A value appended to `into` after `prefix`, once per occurrence.
Option list(llvm::StringRef spelling, llvm::StringRef meta,
            llvm::StringRef help, std::vector<std::string> &into,
            llvm::StringRef prefix = "", ArgForm form = ArgForm::Joined);
/// A value the command checks itself.
Option custom(llvm::StringRef spelling, llvm::StringRef meta,
              llvm::StringRef help, Option::Handler handle,
              ArgForm form = ArgForm::Separate);

/// "bad OPTION 'VALUE'", then ": WANT" if `want` is not empty.
std::string badValue(llvm::StringRef spelling, llvm::StringRef value,
                     llvm::StringRef want);

/// A decimal integer in [lo, hi]; else "bad OPTION 'V': WANT".
template <typename T>
Option integer(llvm::StringRef spelling, llvm::StringRef meta,
               llvm::StringRef help, T &into, T lo, T hi,
               llvm::StringRef want = "") {
  std::string name = spelling.str(), wanted = want.str();
  return custom(spelling, meta, help,
                [&into, lo, hi, name, wanted](llvm::StringRef v) {
                  T n;
                  if (v.getAsInteger(10, n) || n < lo || n > hi)
                    return badValue(name, v, wanted);
                  into = n;
                  return std::string();
                });
}

/// A finite decimal number >= 0 into `into`: the whole value must be read
/// by strtod without overflow or underflow (ERANGE); else "bad OPTION 'V':
/// a finite number >= 0".
Option nonNegativeNumber(llvm::StringRef spelling, llvm::StringRef meta,
                         llvm::StringRef help, std::optional<double> &into);

/// Rows listed under one title in --help ("" for none).
struct OptionGroup {
  std::string title;
  std::vector<Option> options;
};

/// A command's command line: its options and its --help.
struct CommandLine {
  /// The word after `bangc-sim`, in its usage errors.
  std::string name;
  /// --help: `head` (usage lines and description), the option groups, the
  /// rows' help at column `column`, then `tail`.
  std::string head, tail;
  unsigned column = 20;
  std::vector<OptionGroup> groups;
  /// Takes an argument that is no option (anything not starting with '-',
  /// and "-" when `dashIsFile`); returns the usage error or "".
  Option::Handler positional;
  bool dashIsFile = true;
};

/// A positional handler that takes one argument into `into`; a second is
/// the usage error `tooMany`.
Option::Handler onlyOne(std::string &into, llvm::StringRef tooMany);

/// Reads `argv` against `cmd`'s table, the first match in table order. An
/// option ends as it comes: --help (or -h) prints the help and returns 0; a
/// usage error prints it and returns 2. None means: the whole command line
/// is read, go on.
std::optional<int> readCommandLine(const CommandLine &cmd,
                                   llvm::ArrayRef<const char *> argv);

/// Writes `cmd`'s --help.
void printHelp(llvm::raw_ostream &os, const CommandLine &cmd);

/// A command object has `CommandLine commandLine()` (its option table,
/// bound to its fields: tools/Args.h), `int check()` (what a table cannot
/// say, after the whole command line is read: the exit status to stop with,
/// or -1 to go on) and `int run()`. parseInto() reads `argv` into `cmd`:
/// the exit status to stop with, or -1.
template <typename Command>
int parseInto(Command &cmd, llvm::ArrayRef<const char *> argv) {
  if (std::optional<int> stop = readCommandLine(cmd.commandLine(), argv))
    return *stop;
  return cmd.check();
}

/// NAMEParse and NAMEMain of a command object.
template <typename Command> int parseOnly(llvm::ArrayRef<const char *> argv) {
  Command cmd;
  return parseInto(cmd, argv);
}
template <typename Command> int parseAndRun(llvm::ArrayRef<const char *> argv) {
  Command cmd;
  int parsed = parseInto(cmd, argv);
  return parsed >= 0 ? parsed : cmd.run();
}

/// Prints `message` as bangc-sim's usage error and returns 2.
int usageError(llvm::StringRef command, const llvm::Twine &message);

} // namespace bangc::tools

#endif
