//===- KernelParamsMD.h - How each kernel parameter reaches the kernel -*- C++ -*-===//
//
// The contract between frontend/KernelParams.cpp, which records how Clang's
// CodeGen lowered each parameter of a kernel (a struct by value may become
// a byval pointer, one or two coerced scalars, or nothing), and
// codegen/EntryWrapper.cpp, which reads it to build the kernel's entry
// wrapper. It lives here, below both.
//
// !bang.params on a kernel's IR function = !{P0, P1, ...}, one node per
// source parameter:
//   Pi = !{i64 aggregate, i64 size, i64 align, i64 how, i64 firstIRArg,
//          i64 offset...}
// how: ParamDirect (IR arguments firstIRArg... are loaded from the value's
// bytes at the offsets that follow, one per IR argument), ParamIndirect (one
// IR argument, a pointer to a copy of the value), ParamIgnored (no IR
// argument; an empty struct).
//
//===----------------------------------------------------------------------===//
#ifndef BANG_KERNELPARAMSMD_H
#define BANG_KERNELPARAMSMD_H

namespace bangc {

inline constexpr const char *KernelParamsMD = "bang.params";
enum KernelParamHow { ParamDirect = 0, ParamIndirect = 1, ParamIgnored = 2 };

} // namespace bangc

#endif // BANG_KERNELPARAMSMD_H
