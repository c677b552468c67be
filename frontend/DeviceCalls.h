//===- DeviceCalls.h - What device code may call --------------*- C++ -*-===//
//
// Device code calls only device code (docs/language.md, "What device code
// may call"). A kernel, and everything it reaches, may call or take the
// address of: functions defined in the translation unit (walked in turn),
// what the BANG headers declare (the intrinsics, the runtime, the builtin
// variables), Clang's own builtins that are not C library functions, and
// the C math and memory functions of lang/include/bang/DeviceExterns.def.
// Anything else (system, fopen, dlsym, environ, operator new) is host code.
//
// Where a declaration comes from is decided by the file that holds it, as
// the source manager opened it: the embedded BANG headers are files in the
// compiler's memory, which no source can write, and a `# 1 "x.h" 3` line
// marker changes only the name and kind diagnostics show, not the file.
// Whether a library function is allowed is decided by its symbol, so a
// declaration in a system header is no better than one in the user's file.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_FRONTEND_DEVICECALLS_H
#define BANGC_FRONTEND_DEVICECALLS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <string>

namespace bangc {

class DeviceCallRule {
public:
  explicit DeviceCallRule(clang::ASTContext &ctx) : ctx(ctx) {}

  /// Whether device code may call (or take the address of) `fd`, which has
  /// no body in the translation unit. If not, `why` says what it is.
  bool mayCall(const clang::FunctionDecl *fd, std::string &why) const;

  /// Whether device code may refer to `vd`, a variable of static storage
  /// that the translation unit does not define (only the builtin variables
  /// the prelude declares, taskId and the like).
  bool mayRefer(const clang::VarDecl *vd) const;

  /// Whether `d` is declared in one of the BANG device headers (the
  /// prelude, the intrinsics, the kernel ABI, bang_fusor.h).
  bool inDeviceHeader(const clang::Decl *d) const;

  /// Whether `loc` is in a file the user's include paths found (not a system
  /// header, not a BANG header), judged by the file, not by line markers.
  bool inUserFile(clang::SourceLocation loc) const;

private:
  clang::ASTContext &ctx;
};

/// Whether device source may call the C function `symbol` without defining
/// it: a MATH, STDLIB or MEMORY row of DeviceExterns.def.
bool isDeviceLibraryFunction(llvm::StringRef symbol);

} // namespace bangc

#endif // BANGC_FRONTEND_DEVICECALLS_H
