//===- TinShiftApiTest.cpp - mlu-ops' API cases for TinShift --------------===//
//
// The statuses mlu-ops' own API tests expect of mluOpTinShiftForward and
// mluOpTinShiftBackward (test/mlu_op_gtest/api_gtest/src/gtest/
// tin_shift_{forward,backward}/ in mlu-ops), as our tables: 7 NULL-argument
// and 17 descriptor cases per direction, 48 in all. mlu-ops' "forward
// general" file calls mluOpTinShiftBackward (a slip there); both directions
// share the checks, so those cases call both here and both must match.
//
//===----------------------------------------------------------------------===//
#include "kernels/test/ApiCase.h"

using namespace mluop_test;

namespace {

const auto ARRAY = MLUOP_LAYOUT_ARRAY;
const auto F32 = MLUOP_DTYPE_FLOAT;
const auto F16 = MLUOP_DTYPE_HALF;
const auto I32 = MLUOP_DTYPE_INT32;
const auto BAD = MLUOP_STATUS_BAD_PARAM;
const auto OK = MLUOP_STATUS_SUCCESS;

TensorParam data(std::vector<int> dims, mluOpDataType_t dtype = F32) {
  return {ARRAY, dtype, std::move(dims)};
}
TensorParam shifts(std::vector<int> dims, mluOpDataType_t dtype = I32) {
  return {ARRAY, dtype, std::move(dims)};
}

/// The NULL-argument cases: [4, 4, 4, 4] float, shifts [4, 4].
std::vector<ApiCase> nullCases(const char *in, const char *out) {
  std::vector<TensorParam> t = {data({4, 4, 4, 4}), shifts({4, 4}),
                                data({4, 4, 4, 4})};
  std::string i = in, o = out;
  return {{"BAD_PARAM_handle_null", t, BAD, NullHandle},
          {"BAD_PARAM_" + i + "_desc_null", t, BAD, nullDesc(0)},
          {"BAD_PARAM_" + i + "_null", t, BAD, nullData(0)},
          {"BAD_PARAM_shifts_desc_null", t, BAD, nullDesc(1)},
          {"BAD_PARAM_shifts_null", t, BAD, nullData(1)},
          {"BAD_PARAM_" + o + "_desc_null", t, BAD, nullDesc(2)},
          {"BAD_PARAM_" + o + "_null", t, BAD, nullData(2)}};
}

/// The descriptor cases (the same for both directions): input, shifts,
/// output.
std::vector<ApiCase> generalCases() {
  std::vector<ApiCase> cases = {
      {"zero_element", {data({4, 0, 4, 4}), shifts({4, 4}), data({4, 0, 4, 4})}, OK},
      {"input_error_dim", {data({4, 4, 4}), shifts({4, 4}), data({4, 4, 4})}, BAD},
      {"input_error_shape1", {data({0, 4, 4, 4}), shifts({0, 4}), data({0, 4, 4, 4})}, BAD},
      {"input_error_shape2", {data({4, 4, 0, 4}), shifts({4, 4}), data({4, 4, 0, 4})}, BAD},
      {"input_error_shape3", {data({4, 4, 4, 0}), shifts({4, 4}), data({4, 4, 4, 0})}, BAD},
      {"input_error_dtype", {data({4, 4, 4, 4}, I32), shifts({4, 4}), data({4, 4, 4, 4}, I32)}, BAD},
      {"input_dtype_notEq_output_dtype", {data({4, 4, 4, 4}), shifts({4, 4}), data({4, 4, 4, 4}, F16)}, BAD},
      {"shift_error_dtype", {data({4, 4, 4, 4}), shifts({4, 4}, F32), data({4, 4, 4, 4})}, BAD},
  };
  // shifts of the wrong rank, G not dividing C, G == 0, N differing.
  std::vector<std::vector<int>> badShifts = {
      {4, 4, 4}, {4}, {4, 3}, {4, 0}, {2, 4}};
  for (size_t i = 0; i < badShifts.size(); ++i)
    cases.push_back({"shift_error_dim_" + std::to_string(i),
                     {data({4, 4, 4, 4}), shifts(badShifts[i]),
                      data({4, 4, 4, 4})},
                     BAD});
  std::vector<std::vector<int>> badOutputs = {
      {2, 4, 4, 4}, {4, 2, 4, 4}, {4, 4, 2, 4}, {4, 4, 4, 2}};
  for (size_t i = 0; i < badOutputs.size(); ++i)
    cases.push_back({"input_dims_notEq_output_dims_" + std::to_string(i),
                     {data({4, 4, 4, 4}), shifts({4, 4}), data(badOutputs[i])},
                     BAD});
  return cases;
}

mluOpStatus_t forward(mluOpHandle_t h,
                      const std::vector<mluOpTensorDescriptor_t> &d,
                      const std::vector<void *> &p) {
  return mluOpTinShiftForward(h, d[0], p[0], d[1], p[1], d[2], p[2]);
}

mluOpStatus_t backward(mluOpHandle_t h,
                       const std::vector<mluOpTensorDescriptor_t> &d,
                       const std::vector<void *> &p) {
  return mluOpTinShiftBackward(h, d[0], p[0], d[1], p[1], d[2], p[2]);
}

class MluOpsApiTinShiftForward : public testing::TestWithParam<ApiCase> {};
class MluOpsApiTinShiftBackward : public testing::TestWithParam<ApiCase> {};
class MluOpsApiTinShiftForwardGeneral
    : public testing::TestWithParam<ApiCase> {};
class MluOpsApiTinShiftBackwardGeneral
    : public testing::TestWithParam<ApiCase> {};

TEST_P(MluOpsApiTinShiftForward, Status) {
  EXPECT_EQ(runApiCase(GetParam(), forward), GetParam().expected);
}
TEST_P(MluOpsApiTinShiftBackward, Status) {
  EXPECT_EQ(runApiCase(GetParam(), backward), GetParam().expected);
}
TEST_P(MluOpsApiTinShiftForwardGeneral, Status) {
  EXPECT_EQ(runApiCase(GetParam(), forward), GetParam().expected);
  EXPECT_EQ(runApiCase(GetParam(), backward), GetParam().expected)
      << "(mlu-ops' forward_general cases call backward)";
}
TEST_P(MluOpsApiTinShiftBackwardGeneral, Status) {
  EXPECT_EQ(runApiCase(GetParam(), backward), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Null, MluOpsApiTinShiftForward,
                         testing::ValuesIn(nullCases("input", "output")),
                         apiCaseName);
INSTANTIATE_TEST_SUITE_P(Null, MluOpsApiTinShiftBackward,
                         testing::ValuesIn(nullCases("grad_output",
                                                     "grad_input")),
                         apiCaseName);
INSTANTIATE_TEST_SUITE_P(General, MluOpsApiTinShiftForwardGeneral,
                         testing::ValuesIn(generalCases()), apiCaseName);
INSTANTIATE_TEST_SUITE_P(General, MluOpsApiTinShiftBackwardGeneral,
                         testing::ValuesIn(generalCases()), apiCaseName);

} // namespace
