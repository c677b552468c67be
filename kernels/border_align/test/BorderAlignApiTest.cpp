//===- BorderAlignApiTest.cpp - mlu-ops' API cases for BorderAlign --------===//
//
// The statuses mlu-ops' own API tests expect of mluOpBorderAlignForward
// (pool_size 9) and mluOpBorderAlignBackward (pool_size 10)
// (test/mlu_op_gtest/api_gtest/src/gtest/border_align_{forward,backward}/
// in mlu-ops), as our tables: 9 NULL-argument cases per direction, 31
// forward and 46 backward descriptor cases, 95 in all. mlu-ops builds the
// descriptor cases as products of alternatives; the tables here list each
// product element once.
//
//===----------------------------------------------------------------------===//
#include "kernels/test/ApiCase.h"

using namespace mluop_test;

namespace {

const auto NHWC = MLUOP_LAYOUT_NHWC;
const auto NCHW = MLUOP_LAYOUT_NCHW;
const auto ARRAY = MLUOP_LAYOUT_ARRAY;
const auto NLC = MLUOP_LAYOUT_NLC;
const auto F32 = MLUOP_DTYPE_FLOAT;
const auto F16 = MLUOP_DTYPE_HALF;
const auto I32 = MLUOP_DTYPE_INT32;
const auto BAD = MLUOP_STATUS_BAD_PARAM;
const auto UNSUPPORTED = MLUOP_STATUS_NOT_SUPPORTED;

/// Names `base_0`, `base_1`, ... for the cases of `alternatives`, each the
/// `valid` tensors with tensor `slot` replaced by one alternative.
void addAlternatives(std::vector<ApiCase> &cases, const std::string &base,
                     const std::vector<TensorParam> &valid, int slot,
                     const std::vector<TensorParam> &alternatives,
                     mluOpStatus_t expected) {
  for (size_t i = 0; i < alternatives.size(); ++i) {
    std::vector<TensorParam> t = valid;
    t[slot] = alternatives[i];
    cases.push_back({alternatives.size() == 1 ? base
                                              : base + "_" + std::to_string(i),
                     t, expected});
  }
}

// --- Forward: input, boxes, output, argmax_idx --------------------------===//
const std::vector<TensorParam> forwardValid = {
    {NHWC, F32, {2, 10, 10, 20}},
    {ARRAY, F32, {2, 100, 4}},
    {NHWC, F32, {2, 100, 4, 5}},
    {NHWC, I32, {2, 100, 4, 5}}};

std::vector<ApiCase> forwardNullCases() {
  // mlu-ops' NULL cases describe argmax_idx as float.
  std::vector<TensorParam> t = forwardValid;
  t[3].dtype = F32;
  const char *names[] = {"input", "boxes", "output", "argmax_idx"};
  std::vector<ApiCase> cases = {{"BAD_PARAM_handle_null", t, BAD, NullHandle}};
  for (int i = 0; i < 4; ++i) {
    cases.push_back({std::string("BAD_PARAM_") + names[i] + "_desc_null", t,
                     BAD, nullDesc(i)});
    cases.push_back({std::string("BAD_PARAM_") + names[i] + "_null", t, BAD,
                     nullData(i)});
  }
  return cases;
}

std::vector<ApiCase> forwardGeneralCases() {
  const auto &v = forwardValid;
  std::vector<ApiCase> c;
  addAlternatives(c, "error_output_shape", v, 2,
                  {{NHWC, F32, {2, 100, 4, 7}},
                   {NHWC, F32, {3, 100, 4, 5}},
                   {NHWC, F32, {2, 30, 4, 5}},
                   {NHWC, F32, {2, 100, 5, 5}}},
                  BAD);
  addAlternatives(c, "error_argmax_idx_shape", v, 3,
                  {{NHWC, I32, {1, 100, 4, 5}},
                   {NHWC, I32, {2, 200, 4, 5}},
                   {NHWC, I32, {2, 100, 5, 5}},
                   {NHWC, I32, {2, 100, 4, 7}}},
                  BAD);
  c.push_back({"error_input_shape",
               {{NHWC, F32, {2, 10, 10, 15}},
                v[1],
                {NHWC, F32, {2, 100, 4, 4}},
                {NHWC, I32, {2, 100, 4, 4}}},
               BAD});
  addAlternatives(c, "error_boxex_shape", v, 1,
                  {{ARRAY, F32, {2, 100, 5}}, {ARRAY, F32, {1, 100, 4}}}, BAD);
  addAlternatives(c, "error_input_layout", v, 0, {{NCHW, F32, {2, 10, 10, 20}}},
                  BAD);
  addAlternatives(c, "error_argmax_idx_layout", v, 3,
                  {{NCHW, I32, {2, 100, 4, 5}}}, BAD);
  // input, boxes, output each float or int32; argmax_idx float: 8 cases.
  for (int k = 0; k < 8; ++k) {
    auto pick = [&](int bit) { return (k >> bit) & 1 ? I32 : F32; };
    c.push_back({"error_input_dtype_" + std::to_string(k),
                 {{NHWC, pick(2), {2, 10, 10, 20}},
                  {ARRAY, pick(1), {2, 100, 4}},
                  {NHWC, pick(0), {2, 100, 4, 5}},
                  {NHWC, F32, {2, 100, 4, 5}}},
                 BAD});
  }
  addAlternatives(c, "error_argmax_idx_dtype", v, 3,
                  {{NHWC, F32, {2, 100, 4, 5}}}, BAD);
  addAlternatives(c, "error_dtype_combine", v, 1, {{ARRAY, F16, {2, 100, 4}}},
                  BAD);
  addAlternatives(c, "error_input_dim", v, 0, {{NHWC, F32, {20, 10, 20}}}, BAD);
  addAlternatives(c, "error_boxex_dim", v, 1, {{ARRAY, F32, {1, 2, 10, 4}}},
                  BAD);
  addAlternatives(c, "error_argmax_idx_dim", v, 3, {{NHWC, I32, {2, 100, 4}}},
                  BAD);
  addAlternatives(c, "error_output_dim", v, 2, {{NHWC, F32, {2, 100, 4}}},
                  BAD);
  addAlternatives(c, "input_unsupport_stride", v, 0,
                  {{NHWC, F32, {2, 10, 10, 20}, {1, 2, 20, 300}}},
                  UNSUPPORTED);
  addAlternatives(c, "boxex_unsupport_stride", v, 1,
                  {{ARRAY, F32, {2, 100, 4}, {1, 2, 300}}}, UNSUPPORTED);
  addAlternatives(c, "output_unsupport_stride", v, 2,
                  {{NHWC, F32, {2, 100, 4, 5}, {1, 2, 200, 1000}}},
                  UNSUPPORTED);
  addAlternatives(c, "argmax_idx_unsupport_stride", v, 3,
                  {{NHWC, I32, {2, 100, 4, 5}, {1, 2, 200, 1000}}},
                  UNSUPPORTED);
  return c;
}

// --- Backward: grad_output, boxes, argmax_idx, grad_input ---------------===//
const std::vector<TensorParam> backwardValid = {
    {NHWC, F32, {1, 4, 4, 1}},
    {ARRAY, F32, {1, 4, 4}},
    {NHWC, I32, {1, 4, 4, 1}},
    {NHWC, F32, {1, 2, 2, 4}}};

std::vector<ApiCase> backwardNullCases() {
  const char *names[] = {"grad_output", "boxes", "argmax_idx", "grad_input"};
  std::vector<ApiCase> cases = {
      {"BAD_PARAM_handle_null", backwardValid, BAD, NullHandle}};
  for (int i = 0; i < 4; ++i) {
    cases.push_back({std::string("BAD_PARAM_") + names[i] + "_desc_null",
                     backwardValid, BAD, nullDesc(i)});
    cases.push_back({std::string("BAD_PARAM_") + names[i] + "_null",
                     backwardValid, BAD, nullData(i)});
  }
  return cases;
}

std::vector<ApiCase> backwardGeneralCases() {
  const auto &v = backwardValid;
  std::vector<ApiCase> c = {
      {"zero_element_0",
       {{NHWC, F32, {0, 4, 4, 1}},
        {ARRAY, F32, {0, 4, 4}},
        {NHWC, I32, {0, 4, 4, 1}},
        {NHWC, F32, {0, 2, 2, 4}}},
       BAD},
      {"zero_element_1",
       {{NHWC, F32, {1, 4, 4, 0}},
        {ARRAY, F32, {1, 4, 4}},
        {NHWC, I32, {1, 4, 4, 0}},
        {NHWC, F32, {1, 2, 2, 0}}},
       BAD},
      {"zero_element_2",
       {{NHWC, F32, {1, 0, 4, 1}},
        {ARRAY, F32, {1, 0, 4}},
        {NHWC, I32, {1, 0, 4, 1}},
        {NHWC, F32, {1, 0, 0, 4}}},
       BAD},
  };
  addAlternatives(c, "negative_dtype_layout_shape_grad_output", v, 0,
                  {{NHWC, F16, {1, 4, 4, 1}},
                   {NHWC, I32, {1, 4, 4, 1}},
                   {NCHW, F32, {1, 4, 4, 1}},
                   {NLC, F32, {1, 4, 4, 1}},
                   {NHWC, F32, {1, 4, 1}},
                   {NHWC, F32, {1, 4, 4, 1, 1}},
                   {NHWC, F32, {2, 4, 4, 1}},
                   {NHWC, F32, {1, 3, 4, 1}},
                   {NHWC, F32, {1, 4, 3, 1}},
                   {NHWC, F32, {1, 4, 4, 2}}},
                  BAD);
  addAlternatives(c, "negative_dtype_layout_shape_boxes", v, 1,
                  {{ARRAY, F16, {1, 4, 4}},
                   {ARRAY, I32, {1, 4, 4}},
                   {ARRAY, F32, {1, 4}},
                   {ARRAY, F32, {1, 4, 4, 1}},
                   {ARRAY, F32, {2, 4, 4}},
                   {ARRAY, F32, {1, 3, 4}},
                   {ARRAY, F32, {1, 4, 3}}},
                  BAD);
  addAlternatives(c, "negative_dtype_layout_shape_argmax_idx", v, 2,
                  {{NHWC, F16, {1, 4, 4, 1}},
                   {NHWC, F32, {1, 4, 4, 1}},
                   {NCHW, I32, {1, 4, 4, 1}},
                   {ARRAY, I32, {1, 4, 4, 1}},
                   {NHWC, I32, {1, 4, 4}},
                   {NHWC, I32, {1, 4, 4, 1, 1}},
                   {NHWC, I32, {2, 4, 4, 1}},
                   {NHWC, I32, {1, 3, 4, 1}},
                   {NHWC, I32, {1, 4, 5, 1}},
                   {NHWC, I32, {1, 4, 4, 2}}},
                  BAD);
  addAlternatives(c, "negative_dtype_layout_shape_grad_input", v, 3,
                  {{NHWC, F16, {1, 2, 2, 4}},
                   {NHWC, I32, {1, 2, 2, 4}},
                   {NCHW, F32, {1, 2, 2, 4}},
                   {ARRAY, F32, {1, 2, 2, 4}},
                   {NHWC, F32, {1, 2, 2}},
                   {NHWC, F32, {1, 2, 2, 4, 4}},
                   {NHWC, F32, {2, 2, 2, 4}},
                   {NHWC, F32, {1, 1, 5, 4}},
                   {NHWC, F32, {1, 2, 2, 5}}},
                  BAD);
  c.push_back({"negative_dtype",
               {{NHWC, I32, {1, 4, 4, 1}},
                {ARRAY, I32, {1, 4, 4}},
                {NHWC, I32, {1, 4, 4, 1}},
                {NHWC, I32, {1, 2, 2, 4}}},
               BAD});
  c.push_back({"negative_layout",
               {{NCHW, F32, {1, 4, 4, 1}},
                {ARRAY, F32, {1, 4, 4}},
                {NCHW, I32, {1, 4, 4, 1}},
                {NCHW, F32, {1, 2, 2, 4}}},
               BAD});
  // grad_output of 1025 * 1024 * 4 * 512 = 2^31 + 2^21 elements; every
  // other check passes (K = 1024 = 32 * 32).
  c.push_back({"negative_large_tensor",
               {{NHWC, F16, {1025, 1024, 4, 512}},
                {ARRAY, F16, {1025, 1024, 4}},
                {NHWC, I32, {1025, 1024, 4, 512}},
                {NHWC, F16, {1025, 32, 32, 2048}}},
               UNSUPPORTED});
  addAlternatives(c, "grad_output_unsupport_stride", v, 0,
                  {{NHWC, F32, {1, 4, 4, 1}, {1, 1, 4, 20}}}, UNSUPPORTED);
  addAlternatives(c, "boxes_unsupport_stride", v, 1,
                  {{ARRAY, F32, {1, 4, 4}, {1, 1, 20}}}, UNSUPPORTED);
  addAlternatives(c, "argmax_idx_unsupport_stride", v, 2,
                  {{NHWC, I32, {1, 4, 4, 1}, {1, 1, 4, 20}}}, UNSUPPORTED);
  addAlternatives(c, "grad_input_unsupport_stride", v, 3,
                  {{NHWC, F32, {1, 2, 2, 4}, {1, 4, 10, 40}}}, UNSUPPORTED);
  return c;
}

mluOpStatus_t forward(mluOpHandle_t h,
                      const std::vector<mluOpTensorDescriptor_t> &d,
                      const std::vector<void *> &p) {
  return mluOpBorderAlignForward(h, d[0], p[0], d[1], p[1], 9, d[2], p[2],
                                 d[3], p[3]);
}

mluOpStatus_t backward(mluOpHandle_t h,
                       const std::vector<mluOpTensorDescriptor_t> &d,
                       const std::vector<void *> &p) {
  return mluOpBorderAlignBackward(h, d[0], p[0], d[1], p[1], d[2], p[2], 10,
                                  d[3], p[3]);
}

class MluOpsApiBorderAlignForward : public testing::TestWithParam<ApiCase> {};
class MluOpsApiBorderAlignBackward : public testing::TestWithParam<ApiCase> {};

TEST_P(MluOpsApiBorderAlignForward, Status) {
  EXPECT_EQ(runApiCase(GetParam(), forward), GetParam().expected);
}
TEST_P(MluOpsApiBorderAlignBackward, Status) {
  EXPECT_EQ(runApiCase(GetParam(), backward), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Null, MluOpsApiBorderAlignForward,
                         testing::ValuesIn(forwardNullCases()), apiCaseName);
INSTANTIATE_TEST_SUITE_P(General, MluOpsApiBorderAlignForward,
                         testing::ValuesIn(forwardGeneralCases()),
                         apiCaseName);
INSTANTIATE_TEST_SUITE_P(Null, MluOpsApiBorderAlignBackward,
                         testing::ValuesIn(backwardNullCases()), apiCaseName);
INSTANTIATE_TEST_SUITE_P(General, MluOpsApiBorderAlignBackward,
                         testing::ValuesIn(backwardGeneralCases()),
                         apiCaseName);

} // namespace
