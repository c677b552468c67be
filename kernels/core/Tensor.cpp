//===- Tensor.cpp - Tensor descriptors and data types ---------------------===//
//
// mlu-ops' descriptor calls (mlu_op.h): dense and strided (Ex), int and
// int64 (_v2) forms, get, reset; the element and stride rules the
// operators check (checkDense, checkElementCount); data type sizes and
// names.
//
//===----------------------------------------------------------------------===//
#include "kernels/core/Internal.h"

#include <algorithm>

using namespace mluop;

// --- Data types ---------------------------------------------------------===//
size_t mluOpDataTypeBytes(mluOpDataType_t dtype) {
  switch (dtype) {
  case MLUOP_DTYPE_BOOL:
  case MLUOP_DTYPE_INT8:
  case MLUOP_DTYPE_UINT8:
    return 1;
  case MLUOP_DTYPE_HALF:
  case MLUOP_DTYPE_BFLOAT16:
  case MLUOP_DTYPE_INT16:
  case MLUOP_DTYPE_UINT16:
    return 2;
  case MLUOP_DTYPE_FLOAT:
  case MLUOP_DTYPE_INT31:
  case MLUOP_DTYPE_INT32:
  case MLUOP_DTYPE_UINT32:
  case MLUOP_DTYPE_COMPLEX_HALF:
    return 4;
  case MLUOP_DTYPE_DOUBLE:
  case MLUOP_DTYPE_INT64:
  case MLUOP_DTYPE_UINT64:
  case MLUOP_DTYPE_COMPLEX_FLOAT:
    return 8;
  case MLUOP_DTYPE_INVALID:
    return 0;
  }
  return 0;
}

mluOpStatus_t mluOpGetSizeOfDataType(mluOpDataType_t data_type, size_t *size) {
  if (!size)
    return badParam("mluOpGetSizeOfDataType", "size is NULL");
  *size = mluOpDataTypeBytes(data_type);
  return MLUOP_STATUS_SUCCESS;
}

const char *mluop::dtypeName(mluOpDataType_t dtype) {
  switch (dtype) {
  case MLUOP_DTYPE_HALF: return "half";
  case MLUOP_DTYPE_FLOAT: return "float";
  case MLUOP_DTYPE_DOUBLE: return "double";
  case MLUOP_DTYPE_BFLOAT16: return "bfloat16";
  case MLUOP_DTYPE_INT8: return "int8";
  case MLUOP_DTYPE_INT16: return "int16";
  case MLUOP_DTYPE_INT31: return "int31";
  case MLUOP_DTYPE_INT32: return "int32";
  case MLUOP_DTYPE_INT64: return "int64";
  case MLUOP_DTYPE_UINT8: return "uint8";
  case MLUOP_DTYPE_UINT16: return "uint16";
  case MLUOP_DTYPE_UINT32: return "uint32";
  case MLUOP_DTYPE_UINT64: return "uint64";
  case MLUOP_DTYPE_BOOL: return "bool";
  case MLUOP_DTYPE_COMPLEX_HALF: return "complex_half";
  case MLUOP_DTYPE_COMPLEX_FLOAT: return "complex_float";
  case MLUOP_DTYPE_INVALID: return "invalid";
  }
  return "invalid";
}

const char *mluop::layoutName(mluOpTensorLayout_t layout) {
  switch (layout) {
  case MLUOP_LAYOUT_NCHW: return "NCHW";
  case MLUOP_LAYOUT_NHWC: return "NHWC";
  case MLUOP_LAYOUT_HWCN: return "HWCN";
  case MLUOP_LAYOUT_NDHWC: return "NDHWC";
  case MLUOP_LAYOUT_ARRAY: return "ARRAY";
  case MLUOP_LAYOUT_NCDHW: return "NCDHW";
  case MLUOP_LAYOUT_TNC: return "TNC";
  case MLUOP_LAYOUT_NTC: return "NTC";
  case MLUOP_LAYOUT_NC: return "NC";
  case MLUOP_LAYOUT_NLC: return "NLC";
  case MLUOP_LAYOUT_NCL: return "NCL";
  }
  return "unknown";
}

std::string mluop::shapeString(const mluOpTensorStruct *desc) {
  std::string s = "[";
  for (size_t i = 0; i < desc->dims.size(); ++i)
    s += (i ? ", " : "") + std::to_string(desc->dims[i]);
  return s + "]";
}

// --- The descriptor ------------------------------------------------------===//
uint64_t mluOpTensorStruct::elementCount() const {
  uint64_t n = 1;
  for (int64_t d : dims)
    n *= uint64_t(d);
  return n;
}

bool mluOpTensorStruct::isDense() const {
  int64_t expected = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    if (dims[i] != 1 && strides[i] != expected)
      return false;
    expected *= dims[i];
  }
  return true;
}

mluOpStatus_t mluop::checkDense(const char *api,
                                std::initializer_list<NamedTensor> tensors) {
  for (const NamedTensor &t : tensors)
    if (t.desc->elementCount() != 0 && !t.desc->isDense()) {
      std::string strides;
      for (size_t i = 0; i < t.desc->strides.size(); ++i)
        strides += (i ? ", " : "") + std::to_string(t.desc->strides[i]);
      return notSupported(api, t.name + " " + shapeString(t.desc) +
                                   " has strides [" + strides +
                                   "]: only dense tensors are supported");
    }
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t
mluop::checkElementCount(const char *api,
                         std::initializer_list<NamedTensor> tensors) {
  for (const NamedTensor &t : tensors)
    if (t.desc->elementCount() >= LargeTensorElements)
      return notSupported(api, llvm::formatv("{0} {1} has {2} elements: at "
                                             "most 2^31 - 1 are supported",
                                             t.name, shapeString(t.desc),
                                             t.desc->elementCount()));
  return MLUOP_STATUS_SUCCESS;
}

namespace {

/// The checks every set call shares; dims and strides as int64.
mluOpStatus_t setDescriptor(const char *api, mluOpTensorDescriptor_t desc,
                            mluOpTensorLayout_t layout, mluOpDataType_t dtype,
                            int dimNb, const int64_t *dims,
                            const int64_t *strides) {
  if (!desc)
    return badParam(api, "desc is NULL");
  if (dimNb < 0 || dimNb > MLUOP_DIM_MAX)
    return badParam(api, llvm::formatv("dimNb {0} is outside [0, {1}]", dimNb,
                                       MLUOP_DIM_MAX));
  if (mluOpDataTypeBytes(dtype) == 0)
    return badParam(api, "invalid data type");
  if (int(layout) < MLUOP_LAYOUT_NCHW || int(layout) > MLUOP_LAYOUT_NCL)
    return badParam(api, llvm::formatv("invalid layout {0}", int(layout)));
  for (int i = 0; i < dimNb; ++i)
    if (dims[i] < 0)
      return badParam(api, llvm::formatv("dimension {0} is negative ({1})", i,
                                         dims[i]));
  desc->layout = layout;
  desc->dtype = dtype;
  desc->dims.assign(dims, dims + dimNb);
  desc->strides.assign(dimNb, 0);
  int64_t dense = 1;
  for (int i = dimNb; i-- > 0;) {
    desc->strides[i] = strides ? strides[i] : dense;
    dense *= dims[i];
  }
  return MLUOP_STATUS_SUCCESS;
}

/// Whether a set call gives strides (Ex) or leaves them dense.
enum class Strides { Dense, Given };

/// The set calls of both widths (int, and int64 for _v2): the NULL checks,
/// then the arrays widened for setDescriptor.
template <typename T>
mluOpStatus_t setWidened(const char *api, mluOpTensorDescriptor_t desc,
                         mluOpTensorLayout_t layout, mluOpDataType_t dtype,
                         int dimNb, const T *dimSize, const T *dimStride,
                         Strides kind) {
  if (dimNb > 0 && !dimSize)
    return badParam(api, "dimSize is NULL");
  if (kind == Strides::Given && dimNb > 0 && !dimStride)
    return badParam(api, "dimStride is NULL");
  int n = std::clamp(dimNb, 0, int(MLUOP_DIM_MAX));
  int64_t dims[MLUOP_DIM_MAX], strides[MLUOP_DIM_MAX];
  if (n > 0)
    std::copy(dimSize, dimSize + n, dims);
  if (kind == Strides::Given && n > 0)
    std::copy(dimStride, dimStride + n, strides);
  return setDescriptor(api, desc, layout, dtype, dimNb, dims,
                       kind == Strides::Given ? strides : nullptr);
}

/// The get calls of both widths; `dimSize` narrowed for the int form.
template <typename T>
mluOpStatus_t getDescriptor(const char *api, const mluOpTensorDescriptor_t desc,
                            mluOpTensorLayout_t *layout, mluOpDataType_t *dtype,
                            int *dimNb, T dimSize[]) {
  if (!desc)
    return badParam(api, "desc is NULL");
  if (layout)
    *layout = desc->layout;
  if (dtype)
    *dtype = desc->dtype;
  if (dimNb)
    *dimNb = int(desc->dims.size());
  if (dimSize)
    std::copy(desc->dims.begin(), desc->dims.end(), dimSize);
  return MLUOP_STATUS_SUCCESS;
}

/// The Ex get calls of both widths: every pointer is required.
template <typename T>
mluOpStatus_t getDescriptorEx(const char *api,
                              const mluOpTensorDescriptor_t desc,
                              mluOpTensorLayout_t *layout,
                              mluOpDataType_t *dtype, int *dimNb, T dimSize[],
                              T dimStride[]) {
  if (mluOpStatus_t s = checkNotNull(api, {{"desc", desc},
                                           {"layout", layout},
                                           {"dtype", dtype},
                                           {"dimNb", dimNb},
                                           {"dimSize", dimSize},
                                           {"dimStride", dimStride}}))
    return s;
  *layout = desc->layout;
  *dtype = desc->dtype;
  *dimNb = int(desc->dims.size());
  std::copy(desc->dims.begin(), desc->dims.end(), dimSize);
  std::copy(desc->strides.begin(), desc->strides.end(), dimStride);
  return MLUOP_STATUS_SUCCESS;
}

} // namespace

mluOpStatus_t mluOpCreateTensorDescriptor(mluOpTensorDescriptor_t *desc) {
  if (!desc)
    return badParam("mluOpCreateTensorDescriptor", "desc is NULL");
  *desc = new mluOpTensorStruct;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpDestroyTensorDescriptor(mluOpTensorDescriptor_t desc) {
  if (!desc)
    return badParam("mluOpDestroyTensorDescriptor", "desc is NULL");
  delete desc;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpSetTensorDescriptor(mluOpTensorDescriptor_t desc,
                                       mluOpTensorLayout_t layout,
                                       mluOpDataType_t dtype, int dimNb,
                                       const int dimSize[]) {
  return setWidened<int>("mluOpSetTensorDescriptor", desc, layout, dtype,
                         dimNb, dimSize, nullptr, Strides::Dense);
}

mluOpStatus_t mluOpSetTensorDescriptor_v2(mluOpTensorDescriptor_t desc,
                                          mluOpTensorLayout_t layout,
                                          mluOpDataType_t dtype, int dimNb,
                                          const int64_t dimSize[]) {
  return setWidened<int64_t>("mluOpSetTensorDescriptor_v2", desc, layout,
                             dtype, dimNb, dimSize, nullptr, Strides::Dense);
}

mluOpStatus_t mluOpSetTensorDescriptorEx(mluOpTensorDescriptor_t desc,
                                         mluOpTensorLayout_t layout,
                                         mluOpDataType_t dtype, int dimNb,
                                         const int dimSize[],
                                         const int dimStride[]) {
  return setWidened<int>("mluOpSetTensorDescriptorEx", desc, layout, dtype,
                         dimNb, dimSize, dimStride, Strides::Given);
}

mluOpStatus_t mluOpSetTensorDescriptorEx_v2(mluOpTensorDescriptor_t desc,
                                            mluOpTensorLayout_t layout,
                                            mluOpDataType_t dtype, int dimNb,
                                            const int64_t dimSize[],
                                            const int64_t dimStride[]) {
  return setWidened<int64_t>("mluOpSetTensorDescriptorEx_v2", desc, layout,
                             dtype, dimNb, dimSize, dimStride, Strides::Given);
}

mluOpStatus_t mluOpSetTensorDescriptorDim(mluOpTensorDescriptor_t desc,
                                          int dimNb, const int *dimSize) {
  const char *api = "mluOpSetTensorDescriptorDim";
  if (!desc)
    return badParam(api, "desc is NULL");
  return setWidened<int>(api, desc, desc->layout, desc->dtype, dimNb, dimSize,
                         nullptr, Strides::Dense);
}

mluOpStatus_t mluOpSetTensorDescriptorDim_v2(mluOpTensorDescriptor_t desc,
                                             int dimNb,
                                             const int64_t *dimSize) {
  const char *api = "mluOpSetTensorDescriptorDim_v2";
  if (!desc)
    return badParam(api, "desc is NULL");
  return setWidened<int64_t>(api, desc, desc->layout, desc->dtype, dimNb,
                             dimSize, nullptr, Strides::Dense);
}

mluOpStatus_t mluOpResetTensorDescriptor(mluOpTensorDescriptor_t desc) {
  if (!desc)
    return badParam("mluOpResetTensorDescriptor", "desc is NULL");
  *desc = mluOpTensorStruct();
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpGetTensorDescriptor(const mluOpTensorDescriptor_t desc,
                                       mluOpTensorLayout_t *layout,
                                       mluOpDataType_t *dtype, int *dimNb,
                                       int dimSize[]) {
  return getDescriptor<int>("mluOpGetTensorDescriptor", desc, layout, dtype,
                            dimNb, dimSize);
}

mluOpStatus_t mluOpGetTensorDescriptor_v2(const mluOpTensorDescriptor_t desc,
                                          mluOpTensorLayout_t *layout,
                                          mluOpDataType_t *dtype, int *dimNb,
                                          int64_t dimSize[]) {
  return getDescriptor<int64_t>("mluOpGetTensorDescriptor_v2", desc, layout,
                                dtype, dimNb, dimSize);
}

mluOpStatus_t mluOpGetTensorDescriptorEx(const mluOpTensorDescriptor_t desc,
                                         mluOpTensorLayout_t *layout,
                                         mluOpDataType_t *dtype, int *dimNb,
                                         int dimSize[], int dimStride[]) {
  return getDescriptorEx<int>("mluOpGetTensorDescriptorEx", desc, layout,
                              dtype, dimNb, dimSize, dimStride);
}

mluOpStatus_t mluOpGetTensorDescriptorEx_v2(const mluOpTensorDescriptor_t desc,
                                            mluOpTensorLayout_t *layout,
                                            mluOpDataType_t *dtype, int *dimNb,
                                            int64_t dimSize[],
                                            int64_t dimStride[]) {
  return getDescriptorEx<int64_t>("mluOpGetTensorDescriptorEx_v2", desc,
                                  layout, dtype, dimNb, dimSize, dimStride);
}

size_t mluOpGetTensorElementNum(const mluOpTensorDescriptor_t desc) {
  return desc ? size_t(desc->elementCount()) : 0;
}
