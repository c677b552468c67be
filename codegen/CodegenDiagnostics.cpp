//===- CodegenDiagnostics.cpp - Clang-style errors from passes ------------===//
#include "codegen/CodegenDiagnostics.h"

#include "bang/CompileFailed.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace bangc;

void bangc::printClangStyle(raw_ostream &os, StringRef file, unsigned line,
                            unsigned col, StringRef kind, StringRef message) {
  if (!file.empty()) {
    os << file;
    if (line)
      os << ":" << line << ":" << col;
    os << ": ";
  }
  os << kind << ": " << message << "\n";
  if (!line)
    return;
  auto buffer = MemoryBuffer::getFile(file);
  if (!buffer)
    return;
  StringRef text = (*buffer)->getBuffer();
  for (unsigned i = 1; i < line && !text.empty(); ++i)
    text = text.split('\n').second;
  StringRef source = text.split('\n').first.rtrim('\r');
  // The same layout as Clang's: a line-number gutter, then the caret.
  os << llvm::format("%5u", line) << " | " << source << "\n";
  if (col > 0 && col <= source.size() + 1)
    os.indent(6) << "| " << std::string(col - 1, ' ') << "^\n";
}

namespace {

class Handler : public DiagnosticHandler {
public:
  Handler(raw_ostream &os, std::shared_ptr<unsigned> count)
      : os(os), count(std::move(count)) {}
  bool handleDiagnostics(const DiagnosticInfo &di) override {
    if (di.getSeverity() != DS_Error && di.getSeverity() != DS_Warning)
      return true;
    std::string message;
    raw_string_ostream ms(message);
    DiagnosticPrinterRawOStream printer(ms);
    StringRef file;
    unsigned line = 0, col = 0;
    std::string path;
    if (auto *unsupported = dyn_cast<DiagnosticInfoUnsupported>(&di)) {
      if (unsupported->isLocationAvailable()) {
        path = unsupported->getLocation().getAbsolutePath();
        line = unsupported->getLocation().getLine();
        col = unsupported->getLocation().getColumn();
      }
      ms << unsupported->getMessage();
    } else {
      di.print(printer);
    }
    file = path;
    bool error = di.getSeverity() == DS_Error;
    printClangStyle(os, file, line, col, error ? "error" : "warning", message);
    if (error)
      ++*count;
    return true;
  }

private:
  raw_ostream &os;
  std::shared_ptr<unsigned> count;
};

} // namespace

ScopedCodegenDiagnostics::ScopedCodegenDiagnostics(LLVMContext &ctx,
                                                   raw_ostream *os)
    : ctx(ctx), count(std::make_shared<unsigned>(0)) {
  previous = ctx.getDiagnosticHandler();
  ctx.setDiagnosticHandler(
      std::make_unique<Handler>(os ? *os : errs(), count));
}

ScopedCodegenDiagnostics::~ScopedCodegenDiagnostics() {
  ctx.setDiagnosticHandler(std::move(previous));
}

Error ScopedCodegenDiagnostics::takeError() const {
  if (!*count)
    return Error::success();
  return make_error<CompileFailed>(*count);
}
