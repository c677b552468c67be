//===- DeviceCalls.cpp - What device code may call ------------------------===//
//
// The rule of DeviceCalls.h: which declarations without a body, and which
// variables without a definition, device code may use.
//
//===----------------------------------------------------------------------===//
#include "frontend/DeviceCalls.h"

#include "bang/Embedded.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace bangc;

bool bangc::isDeviceLibraryFunction(llvm::StringRef symbol) {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> out;
#define BANG_DEVICE_MATH(NAME)                                                 \
  out.insert(#NAME);                                                           \
  out.insert(#NAME "f");                                                       \
  out.insert(#NAME "l");
#define BANG_DEVICE_STDLIB(NAME) out.insert(#NAME);
#define BANG_DEVICE_MEMORY(NAME) out.insert(#NAME);
#include "bang/DeviceExterns.def"
    return out;
  }();
  return names.contains(symbol);
}

bool DeviceCallRule::inDeviceHeader(const Decl *d) const {
  // The headers that declare device code. cnrt.h, cn_api.h, cnnl.h and
  // bang/host_launch.h are embedded too, but declare the host's API.
  // The tables they expand are where their rows' declarations are.
  static const char *const deviceHeaders[] = {"bang/prelude.h",
                                              "bang/intrinsics.h",
                                              "bang/intrinsics.def",
                                              "bangsim/KernelABI.h",
                                              "bangsim/RuntimeFunctions.def",
                                              "bangsim/MemcpyDirections.def",
                                              "bang_fusor.h"};
  const SourceManager &sm = ctx.getSourceManager();
  SourceLocation loc = sm.getExpansionLoc(d->getLocation());
  if (loc.isInvalid())
    return false;
  OptionalFileEntryRef file = sm.getFileEntryRefForID(sm.getFileID(loc));
  if (!file)
    return false;
  llvm::SmallString<128> path(file->getName());
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  for (const char *header : deviceHeaders) {
    llvm::SmallString<128> ours(embeddedIncludeDir());
    llvm::sys::path::append(ours, header);
    if (path == ours)
      return true;
  }
  return false;
}

bool DeviceCallRule::inUserFile(SourceLocation loc) const {
  const SourceManager &sm = ctx.getSourceManager();
  loc = sm.getExpansionLoc(loc);
  if (loc.isInvalid())
    return false;
  bool invalid = false;
  const SrcMgr::SLocEntry &entry = sm.getSLocEntry(sm.getFileID(loc), &invalid);
  if (invalid || !entry.isFile())
    return false;
  // The kind the header search gave the file when it was entered; line
  // markers record theirs in the line table and do not change this one.
  return entry.getFile().getFileCharacteristic() == SrcMgr::C_User;
}

bool DeviceCallRule::mayCall(const FunctionDecl *fd, std::string &why) const {
  if (fd->isDeleted() || fd->isPureVirtual())
    return true; // never called (a pure virtual slot is __cxa_pure_virtual)
  // A trivial constructor, destructor, copy or assignment (`P()` of a plain
  // struct): no body, and no call is emitted for it.
  if (fd->isTrivial())
    return true;
  // An assembler name is the symbol the call links to, whatever the name.
  for (const FunctionDecl *r : fd->redecls())
    if (const auto *label = r->getAttr<AsmLabelAttr>()) {
      if (isDeviceLibraryFunction(label->getLabel()))
        return true;
      why = "its assembler name is '" + label->getLabel().str() + "'";
      return false;
    }
  const Builtin::Context &builtins = ctx.BuiltinInfo;
  if (unsigned id = fd->getBuiltinID()) {
    // memcpy, expf, abs...: a C library function Clang knows.
    if (builtins.isPredefinedLibFunction(id)) {
      if (isDeviceLibraryFunction(fd->getName()))
        return true;
      why = "it is a C library function that is not device code";
      return false;
    }
    // __builtin_expf, __builtin_printf: the library function with a
    // prefix, which Clang emits as a call of it when it cannot do better.
    llvm::StringRef name = builtins.getName(id);
    if (name.consume_front("__builtin_") && !isDeviceLibraryFunction(name)) {
      unsigned lib = ctx.Idents.get(name).getBuiltinID();
      if (lib && builtins.isPredefinedLibFunction(lib)) {
        why = "it calls the C library's '" + name.str() + "'";
        return false;
      }
    }
    return true; // __builtin_trap, __builtin_isnan, __builtin_expect, ...
  }
  if (inDeviceHeader(fd->getFirstDecl()))
    return true; // an intrinsic or a runtime function
  if (fd->isExternC() && fd->getIdentifier() &&
      isDeviceLibraryFunction(fd->getName()))
    return true; // e.g. sincosf, which Clang has no builtin for
  why = fd->isExternC() && fd->getIdentifier() ? "it is a host function"
                                               : "it has no definition";
  return false;
}

bool DeviceCallRule::mayRefer(const VarDecl *vd) const {
  return inDeviceHeader(vd->getFirstDecl());
}
