//===- BangChecks.h - BANG language checks on the Clang AST ---*- C++ -*-===//
#ifndef BANGC_BANGCHECKS_H
#define BANGC_BANGCHECKS_H

#include "bangsim/DeviceSpec.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

#include <memory>

namespace bangc {

/// An AST consumer that checks what C++ allows but BANG does not, reporting
/// clang diagnostics with source locations:
///  - a kernel (__mlu_global__/__mlu_entry__) must return void;
///  - the static NRAM, WRAM and SRAM a kernel reaches must fit the device;
///  - device code calls only device code (DeviceCalls.h): what it reaches
///    may use functions with a definition, the BANG headers' declarations
///    and the C math and memory functions, and no file-scope assembly;
///  - the inter-cluster __memcpy/__memcpy_async (a destination cluster as
///    the fifth argument) takes no constant direction but SRAM2SRAM;
///  - a kernel template that is never instantiated is warned about.
std::unique_ptr<clang::ASTConsumer>
createBangChecks(clang::CompilerInstance &ci, const bangsim::DeviceSpec &spec);

} // namespace bangc

#endif // BANGC_BANGCHECKS_H
