//===- CCallers.h - CNRT and CNDrv called from C (CCallers.c) ---*- C++ -*-===//
//
// Each function passes its int arguments to the entry point of the same
// name as the enum a C program may pass: any int, in range or not.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_RUNTIME_TEST_CCALLERS_H
#define BANGSIM_RUNTIME_TEST_CCALLERS_H

#include "cn_api.h"

#ifdef __cplusplus
extern "C" {
#endif

const char *cCnrtGetErrorName(int code);
const char *cCnrtGetErrorStr(int code);
int cCnGetErrorName(int code, const char **name);
int cCnGetErrorString(int code, const char **text);
int cCnGetCtxMaxParallelUnionTasks(CNcontext ctx, int kernelClass,
                                   int *number);
int cCnGetCtxConfigParam(CNcontext ctx, int type, CNctxConfigParam *param);
int cCnSetCtxConfigParam(CNcontext ctx, int type, CNctxConfigParam *param);

#ifdef __cplusplus
}
#endif

#endif // BANGSIM_RUNTIME_TEST_CCALLERS_H
