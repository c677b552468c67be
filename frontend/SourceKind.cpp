//===- SourceKind.cpp - Device-only or host + device source ---------------===//
//
// Clang's raw lexer with CUDA's language options reads the main file: it
// skips comments and literals and lexes `<<<` as one token, so a shift in a
// template argument or an expression never counts as a launch.
//
//===----------------------------------------------------------------------===//
#include "frontend/SourceKind.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <string>

bool bangc::isHostAndDeviceSource(llvm::StringRef text) {
  clang::LangOptions lang;
  lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 =
      true;
  lang.CUDA = true;
  // The raw lexer reads the byte at the end of its buffer (it must be a NUL),
  // and `text` need not be terminated: lex a terminated copy.
  std::string source = text.str();
  clang::Lexer lexer(clang::SourceLocation(), lang, source.c_str(),
                     source.c_str(), source.c_str() + source.size());
  clang::Token tok, prev, prev2;
  prev.startToken();
  prev2.startToken();
  for (;;) {
    lexer.LexFromRawLexer(tok);
    if (tok.is(clang::tok::eof))
      break;
    if (tok.is(clang::tok::lesslessless))
      return true;
    if (tok.is(clang::tok::l_paren) && prev.is(clang::tok::raw_identifier) &&
        prev.getRawIdentifier() == "main" &&
        !prev2.isOneOf(clang::tok::period, clang::tok::arrow,
                       clang::tok::coloncolon))
      return true;
    prev2 = prev;
    prev = tok;
  }
  return false;
}
