//===- Args.cpp - A small command-line reader for bangc-sim ---------------===//
#include "tools/Args.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace bangc::tools;

bool Args::flag(llvm::StringRef name) {
  if (done() || peek() != name)
    return false;
  ++pos;
  return true;
}

std::optional<std::string> Args::value(llvm::StringRef name, bool joined) {
  if (done())
    return std::nullopt;
  llvm::StringRef arg = peek();
  if (arg == name) {
    if (pos + 1 >= argv.size()) {
      error = "option '" + name.str() + "' needs a value";
      ++pos;
      return std::nullopt;
    }
    pos += 2;
    return std::string(argv[pos - 1]);
  }
  if (arg.starts_with(name) && arg.size() > name.size()) {
    llvm::StringRef rest = arg.drop_front(name.size());
    if (rest.consume_front("=") || joined) {
      ++pos;
      return rest.str();
    }
  }
  return std::nullopt;
}

std::optional<std::string> Args::positional() {
  if (done())
    return std::nullopt;
  llvm::StringRef arg = peek();
  if (arg.starts_with("-") && arg != "-")
    return std::nullopt;
  ++pos;
  return arg.str();
}

int bangc::tools::usageError(llvm::StringRef command,
                             const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "bangc-sim " + command.str()) << message.str()
                                                               << "\n";
  llvm::errs() << "run 'bangc-sim " << command << " --help' for usage\n";
  return 2;
}
