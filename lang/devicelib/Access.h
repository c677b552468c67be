//===- Access.h - Scalar loads and stores naming their space -*- C++ -*-===//
//
// __load_nram/__load_gdram/__load_sram and __store_gdram/__store_sram (mlu-ops
// family F8): one scalar read or written in the memory space the name gives.
// Plain C++ loads and stores reach every space too; these check that the
// element lies wholly in the named space (a fault names the intrinsic and
// the range otherwise) and are charged as one element moved.
//
//===----------------------------------------------------------------------===//
#ifndef BANG_DEVICELIB_ACCESS_H
#define BANG_DEVICELIB_ACCESS_H

#include "DeviceLib.h"

namespace bangdev {

template <int Space, typename T>
BANG_DEV T loadFrom(RowClass opClass, const T *p) {
  if constexpr (Space == BANG_IN_NRAM)
    reads(p, 1);
  else
    __bangsim_check_vec(p, sizeof(T), Space, BANG_READ);
  charge<T>(opClass, 1);
  return *p;
}

template <int Space, typename T>
BANG_DEV void storeTo(RowClass opClass, T *p, T value) {
  __bangsim_check_vec(p, sizeof(T), Space, BANG_WRITE);
  charge<T>(opClass, 1);
  *p = value;
}

} // namespace bangdev

#define BODY___load_nram return loadFrom<BANG_IN_NRAM>(rowClass, src)
#define BODY___load_gdram return loadFrom<BANG_IN_GDRAM>(rowClass, src)
#define BODY___load_sram return loadFrom<BANG_IN_SRAM>(rowClass, src)
#define BODY___store_gdram storeTo<BANG_IN_GDRAM>(rowClass, dst, value)
#define BODY___store_sram storeTo<BANG_IN_SRAM>(rowClass, dst, value)

#endif // BANG_DEVICELIB_ACCESS_H
