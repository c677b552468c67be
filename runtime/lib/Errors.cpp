//===- Errors.cpp - cnrtGetErrorStr, cnrtGetLastError and CNDrv's names ---===//
//
// The names and descriptions of the return codes come from the same tables
// as the enums (lang/include/cnrt_ret.def and cn_result.def). A C caller
// may pass any int as the code, so each switch reads its raw value.
//
//===----------------------------------------------------------------------===//
#include "State.h"

#include "cn_api.h"
#include "cnrt.h"

using namespace bangsim::cnrt;

const char *cnrtGetErrorName(cnrtRet_t error) {
  switch (rawEnum(error)) {
#define CNRT_RET(name, value, description)                                     \
  case name:                                                                   \
    return #name;
#include "cnrt_ret.def"
  default:
    return "cnrtErrorUnknown";
  }
}

const char *cnrtGetErrorStr(cnrtRet_t error) {
  switch (rawEnum(error)) {
#define CNRT_RET(name, value, description)                                     \
  case name:                                                                   \
    return description;
#include "cnrt_ret.def"
  default:
    return "unknown error code";
  }
}

cnrtRet_t cnrtGetLastError(void) {
  cnrtRet_t e = lastError();
  lastError() = cnrtSuccess;
  return e;
}

cnrtRet_t cnrtPeekAtLastError(void) { return lastError(); }

cnrtRet_t cnrtGetLibVersion(int *major, int *minor, int *patch) {
  if (!major || !minor || !patch)
    return fail(cnrtErrorArgsInvalid, "cnrtGetLibVersion",
                "a version pointer is NULL");
  *major = CNRT_MAJOR_VERSION;
  *minor = CNRT_MINOR_VERSION;
  *patch = CNRT_PATCH_VERSION;
  return cnrtSuccess;
}

CNresult cnGetErrorName(CNresult error, const char **pstr) {
  if (!pstr)
    return CN_ERROR_INVALID_VALUE;
  switch (rawEnum(error)) {
#define CN_RESULT(name, value, description)                                    \
  case name:                                                                   \
    *pstr = #name;                                                             \
    return CN_SUCCESS;
#include "cn_result.def"
  }
  *pstr = nullptr;
  return CN_ERROR_INVALID_VALUE;
}

CNresult cnGetErrorString(CNresult error, const char **pstr) {
  if (!pstr)
    return CN_ERROR_INVALID_VALUE;
  switch (rawEnum(error)) {
#define CN_RESULT(name, value, description)                                    \
  case name:                                                                   \
    *pstr = description;                                                       \
    return CN_SUCCESS;
#include "cn_result.def"
  }
  *pstr = nullptr;
  return CN_ERROR_INVALID_VALUE;
}
