//===- ApiCase.h - mlu-ops' API test cases, as tables ----------*- C++ -*-===//
//
// mlu-ops checks each operator's C API with cases of the form: these tensor
// descriptors (layout, dtype, dims, maybe strides), maybe one NULL
// argument, and the status the call must return. The op tests port those
// cases (for the operators we have) as tables of ApiCase; runApiCase runs
// one as mlu-ops' harness does: a new handle from mluOpCreate, one
// descriptor per tensor, device memory from cnrtMalloc for each tensor that
// has elements (2 elements for one of 2^31 elements or more), the chosen
// argument
// replaced by NULL, the call, then everything freed.
//
//===----------------------------------------------------------------------===//
#ifndef MLU_OP_APICASE_H
#define MLU_OP_APICASE_H

#include "cnrt.h"
#include "mlu_op.h"

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace mluop_test {

struct TensorParam {
  mluOpTensorLayout_t layout;
  mluOpDataType_t dtype;
  std::vector<int> dims;
  std::vector<int> strides = {}; ///< empty: dense (mluOpSetTensorDescriptor)
};

/// The API's arguments are numbered as the call takes them: 0 the handle,
/// then for tensor i its descriptor (2i + 1) and its pointer (2i + 2).
constexpr int NoNull = -1, NullHandle = 0;
constexpr int nullDesc(int tensor) { return 2 * tensor + 1; }
constexpr int nullData(int tensor) { return 2 * tensor + 2; }

struct ApiCase {
  std::string name; ///< mlu-ops' test (and parameter) name
  std::vector<TensorParam> tensors;
  mluOpStatus_t expected;
  int nullArgument = NoNull;
};

/// How gtest prints a case (its name, not its bytes).
inline void PrintTo(const ApiCase &c, std::ostream *os) { *os << c.name; }

/// Calls the operator with the handle, the descriptors and the pointers.
using ApiCall = std::function<mluOpStatus_t(
    mluOpHandle_t, const std::vector<mluOpTensorDescriptor_t> &,
    const std::vector<void *> &)>;

inline mluOpStatus_t runApiCase(const ApiCase &c, const ApiCall &call) {
  mluOpHandle_t handle = nullptr;
  EXPECT_EQ(mluOpCreate(&handle), MLUOP_STATUS_SUCCESS);
  std::vector<mluOpTensorDescriptor_t> descs;
  std::vector<void *> data;
  for (const TensorParam &t : c.tensors) {
    mluOpTensorDescriptor_t d = nullptr;
    EXPECT_EQ(mluOpCreateTensorDescriptor(&d), MLUOP_STATUS_SUCCESS);
    int rank = int(t.dims.size());
    EXPECT_EQ(t.strides.empty()
                  ? mluOpSetTensorDescriptor(d, t.layout, t.dtype, rank,
                                             t.dims.data())
                  : mluOpSetTensorDescriptorEx(d, t.layout, t.dtype, rank,
                                               t.dims.data(),
                                               t.strides.data()),
              MLUOP_STATUS_SUCCESS);
    size_t elements = mluOpGetTensorElementNum(d);
    if (elements >= (size_t(1) << 31))
      elements = 2;
    void *p = nullptr;
    if (elements)
      EXPECT_EQ(cnrtMalloc(&p, elements * mluOpDataTypeBytes(t.dtype)),
                cnrtSuccess);
    descs.push_back(d);
    data.push_back(p);
  }
  std::vector<mluOpTensorDescriptor_t> passDescs = descs;
  std::vector<void *> passData = data;
  mluOpHandle_t passHandle = handle;
  if (c.nullArgument == NullHandle)
    passHandle = nullptr;
  else if (c.nullArgument > 0 && c.nullArgument % 2 == 1)
    passDescs[(c.nullArgument - 1) / 2] = nullptr;
  else if (c.nullArgument > 0)
    passData[(c.nullArgument - 2) / 2] = nullptr;
  mluOpStatus_t status = call(passHandle, passDescs, passData);
  for (size_t i = 0; i < descs.size(); ++i) {
    if (data[i])
      EXPECT_EQ(cnrtFree(data[i]), cnrtSuccess);
    mluOpDestroyTensorDescriptor(descs[i]);
  }
  mluOpDestroy(handle);
  return status;
}

/// gtest's name of a case.
inline std::string apiCaseName(const testing::TestParamInfo<ApiCase> &info) {
  return info.param.name;
}

} // namespace mluop_test

#endif
