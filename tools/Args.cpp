//===- Args.cpp - The one command-line reader of bangc-sim ----------------===//
#include "tools/Args.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/WithColor.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace bangc::tools;

Option bangc::tools::flag(llvm::StringRef spelling, llvm::StringRef help,
                          bool &into, bool value) {
  return flag(spelling, help, [&into, value] { into = value; });
}

Option bangc::tools::flag(llvm::StringRef spelling, llvm::StringRef help,
                          std::function<void()> act) {
  Option o;
  o.spelling = spelling.str();
  o.help = help.str();
  o.handle = [act = std::move(act)](llvm::StringRef) {
    act();
    return std::string();
  };
  return o;
}

Option bangc::tools::custom(llvm::StringRef spelling, llvm::StringRef meta,
                            llvm::StringRef help, Option::Handler handle,
                            ArgForm form) {
  assert(form != ArgForm::Flag && "a flag row is made by flag()");
  Option o;
  o.spelling = spelling.str();
  o.form = form;
  o.meta = meta.str();
  o.help = help.str();
  o.handle = std::move(handle);
  return o;
}

Option bangc::tools::text(llvm::StringRef spelling, llvm::StringRef meta,
                          llvm::StringRef help, std::string &into,
                          ArgForm form) {
  return custom(
      spelling, meta, help,
      [&into](llvm::StringRef v) {
        into = v.str();
        return std::string();
      },
      form);
}

Option bangc::tools::text(llvm::StringRef spelling, llvm::StringRef meta,
                          llvm::StringRef help,
                          std::optional<std::string> &into) {
  return custom(spelling, meta, help, [&into](llvm::StringRef v) {
    into = v.str();
    return std::string();
  });
}

Option bangc::tools::list(llvm::StringRef spelling, llvm::StringRef meta,
                          llvm::StringRef help, std::vector<std::string> &into,
                          llvm::StringRef prefix, ArgForm form) {
  return custom(
      spelling, meta, help,
      [&into, prefix = prefix.str()](llvm::StringRef v) {
        into.push_back(prefix + v.str());
        return std::string();
      },
      form);
}

Option::Handler bangc::tools::onlyOne(std::string &into,
                                      llvm::StringRef tooMany) {
  return [&into, tooMany = tooMany.str()](llvm::StringRef v) {
    if (!into.empty())
      return tooMany;
    into = v.str();
    return std::string();
  };
}

std::string bangc::tools::badValue(llvm::StringRef spelling,
                                   llvm::StringRef value,
                                   llvm::StringRef want) {
  std::string message = "bad " + spelling.str() + " '" + value.str() + "'";
  if (!want.empty())
    message += ": " + want.str();
  return message;
}

Option bangc::tools::nonNegativeNumber(llvm::StringRef spelling,
                                       llvm::StringRef meta,
                                       llvm::StringRef help,
                                       std::optional<double> &into) {
  std::string name = spelling.str();
  return custom(spelling, meta, help, [&into, name](llvm::StringRef v) {
    // strtod needs a terminated string; it skips leading blanks, which a
    // value must not have either.
    std::string text = v.str();
    const char *begin = text.c_str();
    char *end = nullptr;
    errno = 0;
    double x =
        text.empty() || std::isspace(static_cast<unsigned char>(text.front()))
            ? -1
            : std::strtod(begin, &end);
    if (end != begin + text.size() || errno == ERANGE || !std::isfinite(x) ||
        x < 0)
      return badValue(name, v, "a finite number >= 0");
    into = x;
    return std::string();
  });
}

namespace {

/// The value of `row` if `argv[i]` is it: nullopt if it is not, "" for a
/// flag. `used` is how many arguments it takes, `missing` says the value
/// is not there.
std::optional<std::string> match(const Option &row,
                                 llvm::ArrayRef<const char *> argv, size_t i,
                                 size_t &used, bool &missing) {
  llvm::StringRef arg = argv[i];
  used = 1;
  if (row.form == ArgForm::Flag)
    return arg == row.spelling ? std::optional<std::string>("") : std::nullopt;
  if (arg == row.spelling) {
    if (i + 1 >= argv.size()) {
      missing = true;
      return std::nullopt;
    }
    used = 2;
    return std::string(argv[i + 1]);
  }
  llvm::StringRef rest = arg;
  if (!rest.consume_front(row.spelling) || rest.empty())
    return std::nullopt;
  if (rest.consume_front("=") || row.form == ArgForm::Joined)
    return rest.str();
  return std::nullopt;
}

/// The left column of `row` in --help.
std::string label(const Option &row) {
  if (!row.label.empty())
    return row.label;
  if (row.meta.empty())
    return row.spelling;
  return row.spelling + (row.meta[0] == '=' ? "" : " ") + row.meta;
}

/// `text` in words, in lines of at most `width` columns from `column`;
/// '\n' in `text` starts a new line.
void writeWrapped(llvm::raw_ostream &os, llvm::StringRef text, unsigned column,
                  unsigned width) {
  llvm::SmallVector<llvm::StringRef, 4> paragraphs;
  text.split(paragraphs, '\n');
  for (llvm::StringRef paragraph : paragraphs) {
    unsigned at = column;
    bool first = true;
    llvm::SmallVector<llvm::StringRef, 16> words;
    paragraph.split(words, ' ', -1, false);
    for (llvm::StringRef word : words) {
      if (!first && at + 1 + word.size() > width) {
        os << "\n";
        os.indent(column);
        at = column;
        first = true;
      }
      if (!first) {
        os << " ";
        ++at;
      }
      os << word;
      at += word.size();
      first = false;
    }
    os << "\n";
    if (paragraph.data() != paragraphs.back().data())
      os.indent(column);
  }
}

} // namespace

/// Writes one line of --help: `left` in the left column, `help` wrapped at
/// `column`.
static void writeRow(llvm::raw_ostream &os, llvm::StringRef left,
                     llvm::StringRef help, unsigned column) {
  constexpr unsigned width = 78;
  os << "  " << left;
  unsigned at = 2 + left.size();
  if (at + 1 > column) {
    os << "\n";
    os.indent(column);
  } else {
    os.indent(column - at);
  }
  writeWrapped(os, help, column, width);
}

void bangc::tools::printHelp(llvm::raw_ostream &os, const CommandLine &cmd) {
  os << cmd.head;
  for (size_t i = 0; i < cmd.groups.size(); ++i) {
    const OptionGroup &group = cmd.groups[i];
    if (!group.title.empty())
      os << "\n" << group.title << ":\n";
    for (const Option &row : group.options)
      if (!row.help.empty())
        writeRow(os, label(row), row.help, cmd.column);
    if (i == 0)
      writeRow(os, "-h, --help", "show this help", cmd.column);
  }
  os << cmd.tail;
}

std::optional<int>
bangc::tools::readCommandLine(const CommandLine &cmd,
                              llvm::ArrayRef<const char *> argv) {
  for (size_t i = 0; i < argv.size();) {
    llvm::StringRef arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      printHelp(llvm::outs(), cmd);
      return 0;
    }
    const Option *row = nullptr;
    std::optional<std::string> value;
    size_t used = 1;
    for (const OptionGroup &group : cmd.groups) {
      for (const Option &candidate : group.options) {
        bool missing = false;
        value = match(candidate, argv, i, used, missing);
        if (missing)
          return usageError(cmd.name, candidate.missing.empty()
                                          ? "option '" + candidate.spelling +
                                                "' needs a value"
                                          : candidate.missing);
        if (value) {
          row = &candidate;
          break;
        }
      }
      if (row)
        break;
    }
    std::string error;
    if (row)
      error = row->handle(*value);
    else if (arg.starts_with("-") && (arg != "-" || !cmd.dashIsFile))
      error = "unknown option '" + arg.str() + "'";
    else
      error = cmd.positional(arg);
    if (!error.empty())
      return usageError(cmd.name, error);
    i += used;
  }
  return std::nullopt;
}

int bangc::tools::usageError(llvm::StringRef command,
                             const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "bangc-sim " + command.str())
      << message.str() << "\n";
  llvm::errs() << "run 'bangc-sim " << command << " --help' for usage\n";
  return 2;
}
