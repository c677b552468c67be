//===- mlu.h - The header cncc's kernels include ------------*- C++ -*-===//
//
// cncc's toolkit ships <mlu.h> (and <bang.h>) declaring the builtins of the
// language; mlu-ops' kernels/kernel.h includes it under `#if
// defined(__BANG__)`. bangc-sim declares them all in bang/prelude.h, which
// every compile includes first, so this header only includes it again
// (idempotently) for sources that expect the name to exist.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_MLU_H
#define BANGC_MLU_H

#include "bang/prelude.h"

#endif // BANGC_MLU_H
