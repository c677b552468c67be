//===- SplitKernels.h - Partition a module by kernel -----------*- C++ -*-===//
#ifndef BANGC_SPLITKERNELS_H
#define BANGC_SPLITKERNELS_H

#include "llvm/IR/Module.h"

#include <memory>
#include <vector>

namespace bangc {

/// Splits `m`, after the BANG passes, into at most `parts` self-contained
/// modules that can be optimised and compiled independently (and so in
/// parallel, as nvcc's -split-compile does): each gets a share of the
/// kernels' entry wrappers, balanced by the size of the code they reach, and
/// a copy of every function and constant they reach, so that inlining sees
/// what it would in the whole module. Partition 0 holds the module
/// descriptor. A value that must exist once (a mutable variable, a function
/// with external linkage) is defined in the first partition that reaches it
/// and declared in the others; reached external functions are copied there
/// as available_externally (inlinable, never emitted). Linked together, the
/// parts' objects define what `m`'s object would.
///
/// Returns an empty vector when `m` has fewer than two kernels (or anything
/// this does not split, such as aliases): compile `m` whole.
std::vector<std::unique_ptr<llvm::Module>> splitByKernel(llvm::Module &m,
                                                         unsigned parts);

} // namespace bangc

#endif // BANGC_SPLITKERNELS_H
