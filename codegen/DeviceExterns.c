/*===- DeviceExterns.c - Addresses of the host functions kernels may call ===//
//
// The JIT's only source of symbols outside the runtime and the device
// library (DeviceExterns.h). C, not C++: <math.h> declares one `sin` here,
// where C++'s overloads would make `&sin` ambiguous. The libgcc helpers are
// declared with a placeholder type; only their addresses are taken, and
// taking them links them from libgcc.a into the program.
//
//===----------------------------------------------------------------------===*/
#define _GNU_SOURCE 1
#include "codegen/DeviceExterns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* GCC knows the complex-arithmetic helpers' true types and would warn that
   the placeholder conflicts; only the address is used. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wbuiltin-declaration-mismatch"
#endif
#define BANG_DEVICE_HELPER(NAME) extern void NAME(void);
#include "bang/DeviceExterns.def"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

const struct BangDeviceExtern bangDeviceExterns[] = {
#define BANG_DEVICE_MATH(NAME)                                                 \
  {#NAME, (void *)&NAME}, {#NAME "f", (void *)&NAME##f},                       \
      {#NAME "l", (void *)&NAME##l},
#define BANG_DEVICE_STDLIB(NAME) {#NAME, (void *)&NAME},
#define BANG_DEVICE_MEMORY(NAME) {#NAME, (void *)&NAME},
#define BANG_DEVICE_HELPER(NAME) {#NAME, (void *)&NAME},
#include "bang/DeviceExterns.def"
};

const unsigned bangDeviceExternCount =
    sizeof(bangDeviceExterns) / sizeof(bangDeviceExterns[0]);
