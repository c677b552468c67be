/*===- CHeader.c - mlu_op.h is a C header ----------------------------------===*
 *
 * mlu-ops' mlu_op.h is usable from C; so is ours: this file is compiled as
 * C (C99) into mluop_tests, and the test CHeader.CallsFromC calls it.
 *
 *===----------------------------------------------------------------------===*/
#include "mlu_op.h"

/* A tensor descriptor set and read back from C: the element count, or -1. */
long mluop_c_header_element_count(void) {
  mluOpTensorDescriptor_t desc = NULL;
  int dims[3] = {2, 3, 4};
  int strides[3] = {12, 4, 1};
  size_t n;
  if (mluOpCreateTensorDescriptor(&desc) != MLUOP_STATUS_SUCCESS)
    return -1;
  if (mluOpSetTensorDescriptorEx(desc, MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_UINT16,
                                 3, dims, strides) != MLUOP_STATUS_SUCCESS)
    return -1;
  n = mluOpGetTensorElementNum(desc);
  mluOpDestroyTensorDescriptor(desc);
  return (long)n;
}
