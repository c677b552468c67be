//===- DescriptorTest.cpp - mlu-ops' enums and descriptor calls -----------===//
//
// The enum values a program compiled against mlu-ops' mlu_op.h passes, and
// the descriptor calls: dense and strided, int and int64 forms, get,
// reset, dimensions, element counts and data type sizes.
//
//===----------------------------------------------------------------------===//
#include "kernels/test/TestUtil.h"

using namespace mluop_test;

/// kernels/core/test/CHeader.c
extern "C" long mluop_c_header_element_count(void);

namespace {

// mlu-ops' values (mlu_op.h): a binary built against it passes these.
static_assert(MLUOP_STATUS_SUCCESS == 0 && MLUOP_STATUS_BAD_PARAM == 3 &&
              MLUOP_STATUS_EXECUTION_FAILED == 6 &&
              MLUOP_STATUS_NOT_SUPPORTED == 7 &&
              MLUOP_STATUS_NUMERICAL_OVERFLOW == 8);
static_assert(MLUOP_DTYPE_INVALID == 0 && MLUOP_DTYPE_HALF == 1 &&
              MLUOP_DTYPE_FLOAT == 2 && MLUOP_DTYPE_INT8 == 3 &&
              MLUOP_DTYPE_INT16 == 4 && MLUOP_DTYPE_INT31 == 5 &&
              MLUOP_DTYPE_INT32 == 6 && MLUOP_DTYPE_UINT8 == 7 &&
              MLUOP_DTYPE_BOOL == 8 && MLUOP_DTYPE_INT64 == 9 &&
              MLUOP_DTYPE_UINT32 == 11 && MLUOP_DTYPE_UINT64 == 12 &&
              MLUOP_DTYPE_UINT16 == 13 && MLUOP_DTYPE_DOUBLE == 14 &&
              MLUOP_DTYPE_COMPLEX_HALF == 15 &&
              MLUOP_DTYPE_COMPLEX_FLOAT == 16 && MLUOP_DTYPE_BFLOAT16 == 17);
static_assert(MLUOP_LAYOUT_NCHW == 0 && MLUOP_LAYOUT_NHWC == 1 &&
              MLUOP_LAYOUT_HWCN == 2 && MLUOP_LAYOUT_NDHWC == 3 &&
              MLUOP_LAYOUT_ARRAY == 4 && MLUOP_LAYOUT_NCDHW == 5 &&
              MLUOP_LAYOUT_TNC == 6 && MLUOP_LAYOUT_NTC == 7 &&
              MLUOP_LAYOUT_NC == 8 && MLUOP_LAYOUT_NLC == 9 &&
              MLUOP_LAYOUT_NCL == 10);

TEST(Descriptor, SizeOfEveryDataType) {
  struct {
    mluOpDataType_t dtype;
    size_t bytes;
  } table[] = {{MLUOP_DTYPE_INVALID, 0},      {MLUOP_DTYPE_HALF, 2},
               {MLUOP_DTYPE_FLOAT, 4},        {MLUOP_DTYPE_DOUBLE, 8},
               {MLUOP_DTYPE_INT8, 1},         {MLUOP_DTYPE_INT16, 2},
               {MLUOP_DTYPE_INT31, 4},        {MLUOP_DTYPE_INT32, 4},
               {MLUOP_DTYPE_INT64, 8},        {MLUOP_DTYPE_UINT8, 1},
               {MLUOP_DTYPE_UINT16, 2},       {MLUOP_DTYPE_UINT32, 4},
               {MLUOP_DTYPE_UINT64, 8},       {MLUOP_DTYPE_BOOL, 1},
               {MLUOP_DTYPE_COMPLEX_HALF, 4}, {MLUOP_DTYPE_COMPLEX_FLOAT, 8},
               {MLUOP_DTYPE_BFLOAT16, 2}};
  for (const auto &row : table) {
    size_t size = 99;
    EXPECT_EQ(mluOpGetSizeOfDataType(row.dtype, &size), MLUOP_STATUS_SUCCESS);
    EXPECT_EQ(size, row.bytes) << int(row.dtype);
    EXPECT_EQ(mluOpDataTypeBytes(row.dtype), row.bytes) << int(row.dtype);
  }
  EXPECT_EQ(mluOpGetSizeOfDataType(MLUOP_DTYPE_FLOAT, nullptr),
            MLUOP_STATUS_BAD_PARAM);
}

// support/DTypes.def's MLUOP column: the mlu-ops type of each host element
// type (bangc-sim op describes its arrays with it) has the row's size.
TEST(Descriptor, HostElementTypesMapToSameSize) {
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, CTYPE, NPY, ALIAS1,      \
                    ALIAS2, MLUOP, TASKIR)                                     \
  EXPECT_EQ(mluOpDataTypeBytes(MLUOP_DTYPE_##MLUOP), size_t(BYTES)) << NAME;
#include "support/DTypes.def"
}

TEST(Descriptor, DenseAndStrided) {
  mluOpTensorDescriptor_t d;
  ASSERT_EQ(mluOpCreateTensorDescriptor(&d), MLUOP_STATUS_SUCCESS);
  mluOpTensorLayout_t layout;
  mluOpDataType_t dtype;
  int rank = -1, dims[8], strides[8];
  // After create: 0-D float ARRAY, one element.
  ASSERT_EQ(mluOpGetTensorDescriptorEx(d, &layout, &dtype, &rank, dims,
                                       strides),
            MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(layout, MLUOP_LAYOUT_ARRAY);
  EXPECT_EQ(dtype, MLUOP_DTYPE_FLOAT);
  EXPECT_EQ(rank, 0);
  EXPECT_EQ(mluOpGetTensorElementNum(d), 1u);
  // Dense: row-major strides.
  int shape[] = {2, 3, 4};
  ASSERT_EQ(mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_HALF, 3,
                                     shape),
            MLUOP_STATUS_SUCCESS);
  ASSERT_EQ(mluOpGetTensorDescriptorEx(d, &layout, &dtype, &rank, dims,
                                       strides),
            MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(layout, MLUOP_LAYOUT_NHWC);
  EXPECT_EQ(dtype, MLUOP_DTYPE_HALF);
  EXPECT_EQ(std::vector<int>(dims, dims + rank), std::vector<int>({2, 3, 4}));
  EXPECT_EQ(std::vector<int>(strides, strides + rank),
            std::vector<int>({12, 4, 1}));
  EXPECT_EQ(mluOpGetTensorElementNum(d), 24u);
  // Strided, read back as int64.
  int st[] = {100, 10, 1};
  ASSERT_EQ(mluOpSetTensorDescriptorEx(d, MLUOP_LAYOUT_ARRAY,
                                       MLUOP_DTYPE_INT32, 3, shape, st),
            MLUOP_STATUS_SUCCESS);
  int64_t dims64[8], strides64[8];
  ASSERT_EQ(mluOpGetTensorDescriptorEx_v2(d, &layout, &dtype, &rank, dims64,
                                          strides64),
            MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(strides64, strides64 + rank),
            std::vector<int64_t>({100, 10, 1}));
  EXPECT_EQ(mluOpGetTensorElementNum(d), 24u);
  // int64 dimensions past int32.
  int64_t big[] = {3, int64_t(1) << 31};
  ASSERT_EQ(mluOpSetTensorDescriptor_v2(d, MLUOP_LAYOUT_ARRAY,
                                        MLUOP_DTYPE_INT8, 2, big),
            MLUOP_STATUS_SUCCESS);
  ASSERT_EQ(mluOpGetTensorDescriptor_v2(d, nullptr, nullptr, &rank, dims64),
            MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(dims64[1], int64_t(1) << 31);
  EXPECT_EQ(mluOpGetTensorElementNum(d), size_t(3) << 31);
  // New dimensions keep the layout and dtype.
  int two[] = {5, 6};
  ASSERT_EQ(mluOpSetTensorDescriptorDim(d, 2, two), MLUOP_STATUS_SUCCESS);
  ASSERT_EQ(mluOpGetTensorDescriptor(d, &layout, &dtype, &rank, dims),
            MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(dtype, MLUOP_DTYPE_INT8);
  EXPECT_EQ(std::vector<int>(dims, dims + rank), std::vector<int>({5, 6}));
  // Reset: as created.
  ASSERT_EQ(mluOpResetTensorDescriptor(d), MLUOP_STATUS_SUCCESS);
  ASSERT_EQ(mluOpGetTensorDescriptor(d, &layout, &dtype, &rank, dims),
            MLUOP_STATUS_SUCCESS);
  EXPECT_EQ(rank, 0);
  EXPECT_EQ(dtype, MLUOP_DTYPE_FLOAT);
  EXPECT_EQ(layout, MLUOP_LAYOUT_ARRAY);
  // Bad arguments.
  const auto BAD = MLUOP_STATUS_BAD_PARAM;
  EXPECT_EQ(mluOpSetTensorDescriptorEx(d, MLUOP_LAYOUT_ARRAY,
                                       MLUOP_DTYPE_FLOAT, 3, shape, nullptr),
            BAD);
  EXPECT_EQ(mluOpSetTensorDescriptorEx(nullptr, MLUOP_LAYOUT_ARRAY,
                                       MLUOP_DTYPE_FLOAT, 3, shape, st),
            BAD);
  EXPECT_EQ(mluOpSetTensorDescriptor(d, mluOpTensorLayout_t(11),
                                     MLUOP_DTYPE_FLOAT, 3, shape),
            BAD);
  EXPECT_EQ(mluOpSetTensorDescriptor(d, MLUOP_LAYOUT_ARRAY,
                                     mluOpDataType_t(10), 3, shape),
            BAD)
      << "10 is no mlu-ops dtype";
  EXPECT_EQ(mluOpGetTensorDescriptorEx(d, &layout, &dtype, &rank, dims,
                                       nullptr),
            BAD);
  EXPECT_EQ(mluOpResetTensorDescriptor(nullptr), BAD);
  EXPECT_EQ(mluOpGetTensorElementNum(nullptr), 0u);
  mluOpDestroyTensorDescriptor(d);
}

TEST(CHeader, CallsFromC) {
  // CHeader.c, compiled as C, set a strided uint16 [2, 3, 4] descriptor.
  EXPECT_EQ(mluop_c_header_element_count(), 24);
}

} // namespace
