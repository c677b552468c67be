//===- tin_shift.cpp - mluOpTinShiftForward / mluOpTinShiftBackward -------===//
//
// Parameter checks (seed 001 section 3.5, with mlu-ops' statuses: strided
// tensors and tensors of 2^31 elements or more are NOT_SUPPORTED), the task
// policy (regime, chunk sizes and task dimensions from the device spec) and
// the launch of the tin_shift kernel of kernels/tin_shift/tin_shift.mlu.
//
//===----------------------------------------------------------------------===//
#include "kernels/core/Internal.h"
#include "kernels/tin_shift/TinShiftPolicy.h"

#include <algorithm>
#include <climits>

using namespace mluop;

TinShiftPolicy mluop::chooseTinShiftPolicy(const bangsim::DeviceSpec &spec,
                                           int64_t N, int64_t T, int64_t C,
                                           int64_t HW, int64_t G,
                                           int64_t elemBytes) {
  const int64_t cap = spec.nramBytes / elemBytes; // NRAM elements
  const int64_t gs = C / G;
  const int cores = spec.numCores(), cpc = spec.coresPerCluster;
  const double latency = double(spec.dmaLatencyCycles);
  TinShiftPolicy best;
  best.estCycles = -1;
  // Cost of one candidate: items spread round-robin over taskDim tasks; an
  // item costs a load and a store of its bytes plus two DMA latencies.
  auto consider = [&](int regime, int64_t c, int64_t t, int64_t h,
                      int64_t items, int64_t itemElems) {
    int64_t active = std::min<int64_t>(items, cores);
    int64_t taskDim = (active + cpc - 1) / cpc * cpc;
    double bw = std::min(spec.gdramCoreGBps,
                         spec.gdramGBps / double(std::min<int64_t>(taskDim, cores))) /
                spec.clockGHz;
    double perItem = 2 * latency + 2 * double(itemElems * elemBytes) / bw;
    double waves = double((items + taskDim - 1) / taskDim);
    double est = waves * perItem;
    if (best.estCycles < 0 || est < best.estCycles * 0.999) {
      best.regime = regime;
      best.cChunk = c;
      best.tChunk = t;
      best.hwChunk = h;
      best.items = items;
      best.taskDim = uint32_t(taskDim);
      best.estCycles = est;
    }
  };
  if (T * HW <= cap) {
    int64_t fit = std::min(gs, cap / (T * HW));
    for (int64_t c = fit; c >= 1; --c)
      consider(1, c, T, HW, N * G * ((gs + c - 1) / c), T * c * HW);
  } else if (HW <= cap) {
    int64_t fit = std::min(T, cap / HW);
    for (int64_t t = fit; t >= 1; --t)
      consider(2, 1, t, HW, N * C * ((T + t - 1) / t), t * HW);
  } else {
    int64_t minBlocks = (HW + cap - 1) / cap;
    for (int64_t k = minBlocks; k < minBlocks + cores; ++k) {
      int64_t h = (HW + k - 1) / k;
      consider(3, 1, 1, h, N * C * T * ((HW + h - 1) / h), h);
    }
  }
  return best;
}

std::string TinShiftPolicy::describe() const {
  static const char *const names[] = {"", "channels", "split T", "split HW"};
  return llvm::formatv("regime {0} ({1}): c_chunk={2} t_chunk={3} "
                       "hw_chunk={4} items={5} task_dim={6} UNION1",
                       regime, names[regime], cChunk, tChunk, hwChunk, items,
                       taskDim);
}

namespace {

bool isFloat(mluOpDataType_t t) {
  return t == MLUOP_DTYPE_HALF || t == MLUOP_DTYPE_FLOAT;
}

mluOpStatus_t tinShift(const char *api, bool forward, mluOpHandle_t handle,
                       const mluOpTensorDescriptor_t in_desc, const void *in,
                       const mluOpTensorDescriptor_t shifts_desc,
                       const void *shifts,
                       const mluOpTensorDescriptor_t out_desc, void *out) {
  const char *inName = forward ? "input" : "grad_output";
  const char *outName = forward ? "output" : "grad_input";
  if (mluOpStatus_t s =
          checkNotNull(api, {{"handle", handle},
                             {std::string(inName) + "_desc", in_desc},
                             {"shifts_desc", shifts_desc},
                             {std::string(outName) + "_desc", out_desc}}))
    return s;
  if (in_desc->dims.size() != 4)
    return badParam(api, llvm::formatv("{0} must be 4-D [N, T, C, HW]; it is "
                                       "{1}-D",
                                       inName, in_desc->dims.size()));
  if (out_desc->dims.size() != 4)
    return badParam(api, llvm::formatv("{0} must be 4-D [N, T, C, HW]; it is "
                                       "{1}-D",
                                       outName, out_desc->dims.size()));
  if (shifts_desc->dims.size() != 2)
    return badParam(api, llvm::formatv("shifts must be 2-D [N, G]; it is "
                                       "{0}-D",
                                       shifts_desc->dims.size()));
  if (mluOpStatus_t s = checkDense(api, {{std::string(inName) + "_desc", in_desc},
                                         {"shifts_desc", shifts_desc},
                                         {std::string(outName) + "_desc",
                                          out_desc}}))
    return s;
  if (!isFloat(in_desc->dtype))
    return badParam(api, llvm::formatv("{0} dtype must be half or float; it "
                                       "is {1}",
                                       inName, dtypeName(in_desc->dtype)));
  if (out_desc->dtype != in_desc->dtype)
    return badParam(api, llvm::formatv("{0} dtype ({1}) differs from {2} "
                                       "dtype ({3})",
                                       outName, dtypeName(out_desc->dtype),
                                       inName, dtypeName(in_desc->dtype)));
  if (shifts_desc->dtype != MLUOP_DTYPE_INT32)
    return badParam(api, llvm::formatv("shifts dtype must be int32; it is {0}",
                                       dtypeName(shifts_desc->dtype)));
  if (in_desc->dims != out_desc->dims)
    return badParam(api, llvm::formatv("{0} shape {1} differs from {2} shape "
                                       "{3}",
                                       outName, shapeString(out_desc), inName,
                                       shapeString(in_desc)));
  const int64_t N = in_desc->dims[0], T = in_desc->dims[1],
                C = in_desc->dims[2], HW = in_desc->dims[3];
  const int64_t G = shifts_desc->dims[1];
  if (N == 0 || C == 0 || HW == 0)
    return badParam(api, llvm::formatv("{0} {1} has a zero dimension other "
                                       "than T",
                                       inName, shapeString(in_desc)));
  if (shifts_desc->dims[0] == 0 || G == 0)
    return badParam(api, llvm::formatv("shifts {0} has a zero dimension",
                                       shapeString(shifts_desc)));
  if (shifts_desc->dims[0] != N)
    return badParam(api, llvm::formatv("N of {0} ({1}) differs from N of "
                                       "shifts ({2})",
                                       inName, N, shifts_desc->dims[0]));
  if (C % G != 0)
    return badParam(api, llvm::formatv("channels ({0}) must be a multiple of "
                                       "the shift groups ({1})",
                                       C, G));
  if (mluOpStatus_t s = checkElementCount(
          api, {{inName, in_desc}, {"shifts", shifts_desc}, {outName, out_desc}}))
    return s;
  if (T == 0) {
    log(MLUOP_LOG_DEBUG, std::string("[") + api + "] T == 0: nothing to do");
    return MLUOP_STATUS_SUCCESS;
  }
  if (mluOpStatus_t s = checkNotNull(
          api, {{inName, in}, {"shifts", shifts}, {outName, out}}))
    return s;
  const int64_t elem = int64_t(mluOpDataTypeBytes(in_desc->dtype));
  if (C * HW * elem > INT_MAX) {
    logError(api, llvm::formatv("{0} {1} is too large (a row of C*HW must "
                                "stay under 2 GiB)",
                                inName, shapeString(in_desc)));
    return MLUOP_STATUS_NOT_SUPPORTED;
  }

  TinShiftPolicy policy =
      chooseTinShiftPolicy(handle->spec, N, T, C, HW, G, elem);
  beginOp(handle, std::string(forward ? "tin_shift_forward" : "tin_shift_"
                                                              "backward") +
                      ": " + dtypeName(in_desc->dtype) + " " +
                      shapeString(in_desc) + " G=" + std::to_string(G) +
                      " on " + handle->spec.name + ": " + policy.describe());
  bangsim::Module *module = kernelModule(handle, api, "tin_shift.mlu");
  if (!module)
    return MLUOP_STATUS_INTERNAL_ERROR;
  using A = bangsim::KernelArg;
  std::vector<A> args = {A::pointer(in),
                         A::pointer(shifts),
                         A::pointer(out),
                         A::i32(int32_t(N)),
                         A::i32(int32_t(T)),
                         A::i32(int32_t(C)),
                         A::i32(int32_t(HW)),
                         A::i32(int32_t(G)),
                         A::i32(forward || handle->tinShiftBackwardLikeForward
                                    ? 1
                                    : -1),
                         A::i32(policy.regime),
                         A::i32(int32_t(policy.cChunk)),
                         A::i32(int32_t(policy.tChunk)),
                         A::i32(int32_t(policy.hwChunk))};
  std::string kernel = in_desc->dtype == MLUOP_DTYPE_HALF ? "tin_shift<half>"
                                                          : "tin_shift<float>";
  return launch(handle, api, *module, kernel, bangsim::Dim3{policy.taskDim},
                bangsim::FuncType::Union1, args);
}

} // namespace

mluOpStatus_t mluOpTinShiftForward(mluOpHandle_t handle,
                                   const mluOpTensorDescriptor_t input_desc,
                                   const void *input,
                                   const mluOpTensorDescriptor_t shifts_desc,
                                   const void *shifts,
                                   const mluOpTensorDescriptor_t output_desc,
                                   void *output) {
  return tinShift("mluOpTinShiftForward", true, handle, input_desc, input,
                  shifts_desc, shifts, output_desc, output);
}

mluOpStatus_t
mluOpTinShiftBackward(mluOpHandle_t handle,
                      const mluOpTensorDescriptor_t grad_output_desc,
                      const void *grad_output,
                      const mluOpTensorDescriptor_t shifts_desc,
                      const void *shifts,
                      const mluOpTensorDescriptor_t grad_input_desc,
                      void *grad_input) {
  return tinShift("mluOpTinShiftBackward", false, handle, grad_output_desc,
                  grad_output, shifts_desc, shifts, grad_input_desc,
                  grad_input);
}
