//===- DeviceExterns.h - The host functions kernels may call --*- C++ -*-===//
//
// The JIT links a kernel object against the runtime, the device library and
// this table only (lang/include/bang/DeviceExterns.def: the C math library,
// memcpy/memmove/memset and libgcc's code generation helpers), never against
// the symbols of the process: a kernel that names `system` or `environ`
// does not load. The addresses are taken in C (DeviceExterns.c), where the
// math functions are not overloaded.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_DEVICEEXTERNS_H
#define BANGC_DEVICEEXTERNS_H

#ifdef __cplusplus
extern "C" {
#endif

/// One row of DeviceExterns.def: the C symbol and the host's address of it.
struct BangDeviceExtern {
  const char *name;
  void *address;
};

/// Every row of DeviceExterns.def, math rows in their three forms.
extern const struct BangDeviceExtern bangDeviceExterns[];
extern const unsigned bangDeviceExternCount;

#ifdef __cplusplus
}
#endif

#endif // BANGC_DEVICEEXTERNS_H
