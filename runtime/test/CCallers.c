/*===- CCallers.c - CNRT and CNDrv called as a C program calls them ------===//
//
// C lets a program pass any int where the API takes an enum; C++ does not
// (a value outside the enum's range is undefined, and UBSan's enum check
// stops the caller before the call). The tests reach the entry points with
// such values through these C functions, as a C program would.
//
//===----------------------------------------------------------------------===*/
#include "cn_api.h"
#include "cnrt.h"

#include "CCallers.h"

const char *cCnrtGetErrorName(int code) {
  return cnrtGetErrorName((cnrtRet_t)code);
}

const char *cCnrtGetErrorStr(int code) {
  return cnrtGetErrorStr((cnrtRet_t)code);
}

int cCnGetErrorName(int code, const char **name) {
  return (int)cnGetErrorName((CNresult)code, name);
}

int cCnGetErrorString(int code, const char **text) {
  return (int)cnGetErrorString((CNresult)code, text);
}

int cCnGetCtxMaxParallelUnionTasks(CNcontext ctx, int kernelClass,
                                   int *number) {
  return (int)cnGetCtxMaxParallelUnionTasks(ctx, (KernelClass)kernelClass,
                                            number);
}

int cCnGetCtxConfigParam(CNcontext ctx, int type, CNctxConfigParam *param) {
  return (int)cnGetCtxConfigParam(ctx, (CNctxConfigParamType)type, param);
}

int cCnSetCtxConfigParam(CNcontext ctx, int type, CNctxConfigParam *param) {
  return (int)cnSetCtxConfigParam(ctx, (CNctxConfigParamType)type, param);
}
