//===- border_align.cpp - mluOpBorderAlignForward / Backward --------------===//
//
// Parameter checks (seed 003 section 3.8, with mlu-ops' statuses: NHWC
// layouts, K == H * W, strided tensors and tensors of 2^31 elements or more
// NOT_SUPPORTED), the NRAM policies (forward:
// c_seg, the seed's deal_num, and line_cap, the pixels of a pipeline stage;
// backward: c_seg, band_rows and box_cap, the slice of grad_input a task
// holds and the boxes it streams) and the launches of
// kernels/border_align/border_align.mlu.
//
//===----------------------------------------------------------------------===//
#include "kernels/core/Internal.h"

#include <algorithm>
#include <climits>
#include <tuple>
#include <utility>

using namespace mluop;

namespace {

bool isFloat(mluOpDataType_t t) {
  return t == MLUOP_DTYPE_HALF || t == MLUOP_DTYPE_FLOAT;
}

std::string describe(const char *name, const mluOpTensorStruct *d) {
  return std::string(name) + " " + shapeString(d);
}

bool hasZero(const mluOpTensorStruct *d) {
  for (int64_t v : d->dims)
    if (v == 0)
      return true;
  return false;
}

/// Checks the parts both directions share, in mlu-ops' order of statuses
/// (null descriptors, ranks, strides, dtypes, layouts, shapes, sizes).
/// `feature` is input (forward) or grad_input (backward), `result` is
/// output (forward) or grad_output (backward).
mluOpStatus_t checkCommon(const char *api, mluOpHandle_t handle,
                          const mluOpTensorStruct *feature,
                          const char *featureName,
                          const mluOpTensorStruct *boxes,
                          const mluOpTensorStruct *result,
                          const char *resultName,
                          const mluOpTensorStruct *argmax, int32_t pool_size) {
  const std::string featureDesc = std::string(featureName) + "_desc";
  const std::string resultDesc = std::string(resultName) + "_desc";
  if (mluOpStatus_t s = checkNotNull(api, {{"handle", handle},
                                           {featureDesc, feature},
                                           {"boxes_desc", boxes},
                                           {resultDesc, result},
                                           {"argmax_idx_desc", argmax}}))
    return s;
  for (const auto &[name, desc, rank] :
       {std::tuple{featureName, feature, 4u}, {"boxes", boxes, 3u},
        {resultName, result, 4u}, {"argmax_idx", argmax, 4u}})
    if (desc->dims.size() != rank)
      return badParam(api, llvm::formatv("{0} must be {1}-D; it is {2}",
                                         describe(name, desc), rank,
                                         desc->dims.size()));
  if (mluOpStatus_t s = checkDense(api, {{featureDesc, feature},
                                         {"boxes_desc", boxes},
                                         {resultDesc, result},
                                         {"argmax_idx_desc", argmax}}))
    return s;
  if (feature->dims[3] % 4 != 0)
    return badParam(api, describe(featureName, feature) +
                             " must be 4-D [N, H, W, 4C] with a last "
                             "dimension that is a multiple of 4");
  if (boxes->dims.size() != 3 || boxes->dims[2] != 4)
    return badParam(api, describe("boxes", boxes) +
                             " must be 3-D [N, K, 4]");
  if (!isFloat(feature->dtype))
    return badParam(api, llvm::formatv("{0} dtype must be half or float; it "
                                       "is {1}",
                                       featureName, dtypeName(feature->dtype)));
  if (boxes->dtype != feature->dtype)
    return badParam(api, llvm::formatv("boxes dtype ({0}) differs from {1} "
                                       "dtype ({2})",
                                       dtypeName(boxes->dtype), featureName,
                                       dtypeName(feature->dtype)));
  if (result->dtype != feature->dtype)
    return badParam(api, llvm::formatv("{0} dtype ({1}) differs from {2} "
                                       "dtype ({3})",
                                       resultName, dtypeName(result->dtype),
                                       featureName, dtypeName(feature->dtype)));
  if (argmax->dtype != MLUOP_DTYPE_INT32)
    return badParam(api, llvm::formatv("argmax_idx dtype must be int32; it is "
                                       "{0}",
                                       dtypeName(argmax->dtype)));
  for (const auto &[name, desc] : {std::pair{featureName, feature},
                                   {resultName, result},
                                   {"argmax_idx", argmax}})
    if (desc->layout != MLUOP_LAYOUT_NHWC)
      return badParam(api, llvm::formatv("{0} layout must be NHWC; it is {1}",
                                         name, layoutName(desc->layout)));
  if (feature->dims[0] != boxes->dims[0])
    return badParam(api, llvm::formatv("N of {0} ({1}) differs from N of "
                                       "boxes ({2})",
                                       featureName, feature->dims[0],
                                       boxes->dims[0]));
  std::vector<int64_t> want = {boxes->dims[0], boxes->dims[1], 4,
                               feature->dims[3] / 4};
  if (result->dims != want)
    return badParam(api, describe(resultName, result) +
                             " must be [N, K, 4, C] = " +
                             llvm::formatv("[{0}, {1}, 4, {2}]", want[0],
                                           want[1], want[3])
                                 .str());
  if (argmax->dims != want)
    return badParam(api, describe("argmax_idx", argmax) +
                             " must be [N, K, 4, C] = " +
                             llvm::formatv("[{0}, {1}, 4, {2}]", want[0],
                                           want[1], want[3])
                                 .str());
  if (hasZero(feature) || hasZero(boxes))
    return badParam(api, "zero elements: " + describe(featureName, feature) +
                             ", " + describe("boxes", boxes));
  if (!handle->borderAlignAnyBoxCount &&
      feature->dims[1] * feature->dims[2] != boxes->dims[1])
    return badParam(api, llvm::formatv("K of boxes ({0}) must be H * W of "
                                       "{1} ({2}): one box per pixel",
                                       boxes->dims[1], featureName,
                                       feature->dims[1] * feature->dims[2]));
  if (pool_size <= 0)
    return badParam(api, llvm::formatv("pool_size must be positive; it is {0}",
                                       pool_size));
  if (mluOpStatus_t s = checkElementCount(api, {{featureName, feature},
                                                {"boxes", boxes},
                                                {resultName, result}}))
    return s;
  const int64_t e = int64_t(mluOpDataTypeBytes(feature->dtype));
  if (feature->dtype == MLUOP_DTYPE_HALF && pool_size > 2048) {
    logError(api, llvm::formatv("pool_size {0} > 2048 is not supported for "
                                "half (sample indices are kept in half)",
                                pool_size));
    return MLUOP_STATUS_NOT_SUPPORTED;
  }
  const int64_t rowBytes = feature->dims[2] * feature->dims[3] * e;
  if (rowBytes > INT_MAX / 2 || feature->dims[0] * boxes->dims[1] > INT_MAX ||
      feature->dims[1] * feature->dims[2] > INT_MAX) {
    logError(api, describe(featureName, feature) + " is too large");
    return MLUOP_STATUS_NOT_SUPPORTED;
  }
  return MLUOP_STATUS_SUCCESS;
}

/// Backward's NRAM use: the plane (band_rows x W x c_seg) and, per chunk of
/// box_cap boxes, the buffers of back_buffers in border_align.mlu.
int64_t backwardNramBytes(int64_t e, int64_t W, int64_t cSeg, int64_t bandRows,
                          int64_t boxCap) {
  const int64_t chunk = boxCap * cSeg;
  // arg x2, fill (int32); bits, grad x2, sel (T); arg16 (int16)
  const int64_t perChunkElement = 3 * 4 + 4 * e + 2;
  const int64_t perBox = 12 * e; // box x2, walk: 4 coordinates each
  return bandRows * W * cSeg * e + chunk * perChunkElement + boxCap * perBox;
}

/// How backward splits an image's slice of grad_input and its boxes.
struct BackwardPolicy {
  int64_t cSeg, bandRows, boxCap;
};

/// The widest channel segment, then the tallest band of rows, whose plane
/// leaves room in NRAM for a chunk of boxes; then the chunk: at most a
/// quarter of the boxes (so loading the next chunk overlaps computing one)
/// and as many as fit. False when not even one channel of one row fits.
bool backwardPolicy(const bangsim::DeviceSpec &spec, int64_t e, int64_t H,
                    int64_t W, int64_t C, int64_t K, BackwardPolicy &p) {
  const int64_t budget = spec.nramBytes - 256;
  p = {C, H, std::min<int64_t>(K, 16)};
  while (backwardNramBytes(e, W, p.cSeg, p.bandRows, p.boxCap) > budget) {
    if (p.cSeg > 64)
      p.cSeg = (p.cSeg + 1) / 2;
    else if (p.bandRows > 1)
      p.bandRows = (p.bandRows + 1) / 2;
    else if (p.cSeg > 1)
      p.cSeg = (p.cSeg + 1) / 2;
    else if (p.boxCap > 1)
      p.boxCap = (p.boxCap + 1) / 2;
    else
      return false;
  }
  const int64_t segs = (C + p.cSeg - 1) / p.cSeg;
  p.cSeg = (C + segs - 1) / segs;
  const int64_t bands = (H + p.bandRows - 1) / p.bandRows;
  p.bandRows = (H + bands - 1) / bands;
  const int64_t fit =
      (budget - backwardNramBytes(e, W, p.cSeg, p.bandRows, 0)) /
      backwardNramBytes(e, 0, p.cSeg, 0, 1);
  const int64_t chunks = std::max((K + fit - 1) / fit, std::min<int64_t>(K, 4));
  p.boxCap = (K + chunks - 1) / chunks;
  return true;
}

uint32_t unionTasks(const bangsim::DeviceSpec &spec, int64_t work) {
  int64_t cores = spec.numCores(), cpc = spec.coresPerCluster;
  int64_t active = std::max<int64_t>(1, std::min(work, cores));
  return uint32_t((active + cpc - 1) / cpc * cpc);
}

} // namespace

mluOpStatus_t mluOpBorderAlignForward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t input_desc,
    const void *input, const mluOpTensorDescriptor_t boxes_desc,
    const void *boxes, const int32_t pool_size,
    const mluOpTensorDescriptor_t output_desc, void *output,
    const mluOpTensorDescriptor_t argmax_idx_desc, void *argmax_idx) {
  const char *api = "mluOpBorderAlignForward";
  if (mluOpStatus_t s =
          checkCommon(api, handle, input_desc, "input", boxes_desc,
                      output_desc, "output", argmax_idx_desc, pool_size))
    return s;
  if (mluOpStatus_t s = checkNotNull(api, {{"input", input},
                                           {"boxes", boxes},
                                           {"output", output},
                                           {"argmax_idx", argmax_idx}}))
    return s;
  const bangsim::DeviceSpec &spec = handle->spec;
  const int64_t N = input_desc->dims[0], H = input_desc->dims[1],
                W = input_desc->dims[2], C = input_desc->dims[3] / 4,
                K = boxes_desc->dims[1];
  const int64_t e = int64_t(mluOpDataTypeBytes(input_desc->dtype));
  uint32_t taskDim = unionTasks(spec, N * K);
  int64_t mineMax = (N * K + taskDim - 1) / taskDim;
  int64_t boxCap = std::min<int64_t>(mineMax, 256);
  int64_t avail = spec.nramBytes - boxCap * 4 * e - 256;
  const int64_t perChannel = 11 * e + 16; // staging, val, mask, bits, i32
  const int64_t lineFull = std::max(H, W) + 2;
  int64_t cSeg, lineCap;
  if (C * (perChannel + 8 * e) <= avail) {
    cSeg = C;
    lineCap = std::min(lineFull, (avail - C * perChannel) / (4 * C * e));
  } else {
    cSeg = avail / (perChannel + 8 * e);
    lineCap = 2;
  }
  if (cSeg < 1 || lineCap < 2) {
    logError(api, "the device's NRAM is too small");
    return MLUOP_STATUS_NOT_SUPPORTED;
  }
  beginOp(handle,
          llvm::formatv("border_align_forward: {0} input {1} boxes {2} "
                        "pool_size={3} on {4}: c_seg={5} line_cap={6} "
                        "box_cap={7} task_dim={8} UNION1",
                        dtypeName(input_desc->dtype), shapeString(input_desc),
                        shapeString(boxes_desc), pool_size, spec.name, cSeg,
                        lineCap, boxCap, taskDim)
              .str());
  bangsim::Module *module = kernelModule(handle, api, "border_align.mlu");
  if (!module)
    return MLUOP_STATUS_INTERNAL_ERROR;
  using A = bangsim::KernelArg;
  std::vector<A> args = {
      A::pointer(input),      A::pointer(boxes),      A::pointer(output),
      A::pointer(argmax_idx), A::i32(int32_t(N)),     A::i32(int32_t(H)),
      A::i32(int32_t(W)),     A::i32(int32_t(C)),     A::i32(int32_t(K)),
      A::i32(pool_size),      A::i32(int32_t(cSeg)),  A::i32(int32_t(lineCap)),
      A::i32(int32_t(boxCap))};
  std::string kernel = input_desc->dtype == MLUOP_DTYPE_HALF
                           ? "border_align_forward<half>"
                           : "border_align_forward<float>";
  return launch(handle, api, *module, kernel, bangsim::Dim3{taskDim},
                bangsim::FuncType::Union1, args);
}

mluOpStatus_t mluOpBorderAlignBackward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t grad_output_desc,
    const void *grad_output, const mluOpTensorDescriptor_t boxes_desc,
    const void *boxes, const mluOpTensorDescriptor_t argmax_idx_desc,
    const void *argmax_idx, const int32_t pool_size,
    const mluOpTensorDescriptor_t grad_input_desc, void *grad_input) {
  const char *api = "mluOpBorderAlignBackward";
  if (mluOpStatus_t s = checkCommon(api, handle, grad_input_desc, "grad_input",
                                    boxes_desc, grad_output_desc,
                                    "grad_output", argmax_idx_desc, pool_size))
    return s;
  if (mluOpStatus_t s = checkNotNull(api, {{"grad_output", grad_output},
                                           {"boxes", boxes},
                                           {"argmax_idx", argmax_idx},
                                           {"grad_input", grad_input}}))
    return s;
  const bangsim::DeviceSpec &spec = handle->spec;
  const int64_t N = grad_input_desc->dims[0], H = grad_input_desc->dims[1],
                W = grad_input_desc->dims[2],
                C = grad_input_desc->dims[3] / 4, K = boxes_desc->dims[1];
  const int64_t e = int64_t(mluOpDataTypeBytes(grad_input_desc->dtype));
  BackwardPolicy policy;
  if (!backwardPolicy(spec, e, H, W, C, K, policy)) {
    logError(api, llvm::formatv("a row of {0} pixels does not fit the "
                                "device's NRAM",
                                W));
    return MLUOP_STATUS_NOT_SUPPORTED;
  }
  const int64_t items = N * 4 * ((C + policy.cSeg - 1) / policy.cSeg) *
                        ((H + policy.bandRows - 1) / policy.bandRows);
  uint32_t taskDim = unionTasks(spec, items);
  beginOp(handle,
          llvm::formatv("border_align_backward: {0} grad_output {1} boxes {2} "
                        "pool_size={3} on {4}: c_seg={5} band_rows={6} "
                        "box_cap={7} items={8} task_dim={9} UNION1",
                        dtypeName(grad_input_desc->dtype),
                        shapeString(grad_output_desc), shapeString(boxes_desc),
                        pool_size, spec.name, policy.cSeg, policy.bandRows,
                        policy.boxCap, items, taskDim)
              .str());
  bangsim::Module *module = kernelModule(handle, api, "border_align.mlu");
  if (!module)
    return MLUOP_STATUS_INTERNAL_ERROR;
  using A = bangsim::KernelArg;
  const bool isHalf = grad_input_desc->dtype == MLUOP_DTYPE_HALF;
  std::vector<A> args = {A::pointer(grad_output),
                         A::pointer(boxes),
                         A::pointer(argmax_idx),
                         A::pointer(grad_input),
                         A::i32(int32_t(N)),
                         A::i32(int32_t(H)),
                         A::i32(int32_t(W)),
                         A::i32(int32_t(C)),
                         A::i32(int32_t(K)),
                         A::i32(pool_size),
                         A::i32(int32_t(policy.cSeg)),
                         A::i32(int32_t(policy.bandRows)),
                         A::i32(int32_t(policy.boxCap))};
  return launch(handle, api, *module,
                isHalf ? "border_align_backward<half>"
                       : "border_align_backward<float>",
                bangsim::Dim3{taskDim}, bangsim::FuncType::Union1, args);
}
