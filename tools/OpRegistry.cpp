//===- OpRegistry.cpp - The operators `bangc-sim op` can run --------------===//
//
// Each entry names its inputs, outputs and attributes and runs the operator
// through the C API: host arrays to device buffers, descriptors, the call,
// device buffers back to host arrays.
//
//===----------------------------------------------------------------------===//
#include "tools/OpRegistry.h"

#include <cstdint>
#include <memory>

using namespace bangc::tools;
using bangc::DType;
using bangc::NpyArray;

namespace {

mluOpDataType_t toMluOp(DType t) {
  switch (t) {
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, CTYPE, NPY, ALIAS1,      \
                    ALIAS2, MLUOP, TASKIR)                                     \
  case DType::ENUM:                                                            \
    return MLUOP_DTYPE_##MLUOP;
#include "support/DTypes.def"
  }
  return MLUOP_DTYPE_INVALID;
}

/// The layout a host array is described with: the operators here take
/// their 4-D tensors as NHWC (BorderAlign requires it, as mlu-ops; TinShift
/// takes any layout), everything else as ARRAY.
mluOpTensorLayout_t layoutOf(const NpyArray &a) {
  return a.shape.size() == 4 ? MLUOP_LAYOUT_NHWC : MLUOP_LAYOUT_ARRAY;
}

/// A device copy of a host array with its descriptor; frees both.
struct DeviceTensor {
  mluOpHandle_t handle = nullptr;
  mluOpTensorDescriptor_t desc = nullptr;
  void *ptr = nullptr;
  size_t bytes = 0;
  ~DeviceTensor() {
    if (desc)
      mluOpDestroyTensorDescriptor(desc);
    if (ptr)
      mluOpFree(handle, ptr);
  }
  mluOpStatus_t init(mluOpHandle_t h, const NpyArray &a, bool upload,
                     std::string &error, const std::string &name) {
    handle = h;
    if (a.shape.size() > MLUOP_DIM_MAX) {
      error = name + ": more than 8 dimensions";
      return MLUOP_STATUS_BAD_PARAM;
    }
    std::vector<int> dims;
    for (int64_t d : a.shape) {
      if (d > INT32_MAX) {
        error = name + ": a dimension is too large";
        return MLUOP_STATUS_NOT_SUPPORTED;
      }
      dims.push_back(int(d));
    }
    mluOpCreateTensorDescriptor(&desc);
    if (mluOpStatus_t s =
            mluOpSetTensorDescriptor(desc, layoutOf(a), toMluOp(a.dtype),
                                     int(dims.size()), dims.data()))
      return s;
    bytes = a.byteSize();
    if (mluOpStatus_t s = mluOpMalloc(handle, &ptr, bytes))
      return s;
    if (upload && bytes)
      return mluOpMemcpyHostToDevice(handle, ptr, a.data.data(), bytes);
    return MLUOP_STATUS_SUCCESS;
  }
  mluOpStatus_t download(NpyArray &a) {
    if (!bytes)
      return MLUOP_STATUS_SUCCESS;
    return mluOpMemcpyDeviceToHost(handle, a.data.data(), ptr, bytes);
  }
};

/// Uploads the named inputs, allocates the outputs (as shaped in
/// run.outputs), calls `op` with the device tensors in the order
/// inputs..., outputs..., and downloads the outputs.
template <typename F>
mluOpStatus_t runWith(OpRun &run, const std::vector<std::string> &ins,
                      const std::vector<std::string> &outs, F op) {
  std::vector<std::unique_ptr<DeviceTensor>> in, out;
  for (const std::string &name : ins) {
    in.push_back(std::make_unique<DeviceTensor>());
    if (mluOpStatus_t s =
            in.back()->init(run.handle, run.inputs.at(name), true, run.error,
                            name))
      return s;
  }
  for (const std::string &name : outs) {
    out.push_back(std::make_unique<DeviceTensor>());
    if (mluOpStatus_t s = out.back()->init(run.handle, run.outputs.at(name),
                                           false, run.error, name))
      return s;
  }
  if (mluOpStatus_t s = op(in, out))
    return s;
  for (size_t i = 0; i < outs.size(); ++i)
    if (mluOpStatus_t s = out[i]->download(run.outputs.at(outs[i])))
      return s;
  return MLUOP_STATUS_SUCCESS;
}

std::vector<int64_t> shapeOr(const NpyArray &a) { return a.shape; }

mluOpStatus_t tinShift(OpRun &run, bool forward) {
  const std::string in = forward ? "input" : "grad_output";
  const std::string out = forward ? "output" : "grad_input";
  const NpyArray &x = run.inputs.at(in);
  run.outputs[out] = NpyArray(x.dtype, x.shape);
  return runWith(run, {in, "shifts"}, {out}, [&](auto &i, auto &o) {
    return forward ? mluOpTinShiftForward(run.handle, i[0]->desc, i[0]->ptr,
                                          i[1]->desc, i[1]->ptr, o[0]->desc,
                                          o[0]->ptr)
                   : mluOpTinShiftBackward(run.handle, i[0]->desc, i[0]->ptr,
                                           i[1]->desc, i[1]->ptr, o[0]->desc,
                                           o[0]->ptr);
  });
}

/// [N, K, 4, C] from input [N, H, W, 4C] and boxes [N, K, 4]; the empty
/// shape when the inputs do not say (the operator reports why).
std::vector<int64_t> borderShape(const std::vector<int64_t> &feature,
                                 const std::vector<int64_t> &boxes) {
  if (feature.size() != 4 || boxes.size() < 2)
    return {0};
  return {boxes[0], boxes[1], 4, feature[3] / 4};
}

mluOpStatus_t borderForward(OpRun &run) {
  const NpyArray &x = run.inputs.at("input");
  const NpyArray &b = run.inputs.at("boxes");
  auto shape = borderShape(x.shape, b.shape);
  run.outputs["output"] = NpyArray(x.dtype, shape);
  run.outputs["argmax_idx"] = NpyArray(DType::I32, shape);
  int32_t pool = int32_t(run.attrs.at("pool_size"));
  return runWith(run, {"input", "boxes"}, {"output", "argmax_idx"},
                 [&](auto &i, auto &o) {
                   return mluOpBorderAlignForward(
                       run.handle, i[0]->desc, i[0]->ptr, i[1]->desc,
                       i[1]->ptr, pool, o[0]->desc, o[0]->ptr, o[1]->desc,
                       o[1]->ptr);
                 });
}

mluOpStatus_t borderBackward(OpRun &run) {
  const NpyArray &g = run.inputs.at("grad_output");
  int64_t height = run.attrs.at("height"), width = run.attrs.at("width");
  int64_t channels = g.shape.size() == 4 ? g.shape[3] : 0;
  int64_t batch = g.shape.empty() ? 0 : g.shape[0];
  if (height <= 0 || width <= 0) {
    run.error = "--attr height and width must be positive";
    return MLUOP_STATUS_BAD_PARAM;
  }
  run.outputs["grad_input"] =
      NpyArray(g.dtype, {batch, height, width, 4 * channels});
  int32_t pool = int32_t(run.attrs.at("pool_size"));
  return runWith(run, {"grad_output", "boxes", "argmax_idx"}, {"grad_input"},
                 [&](auto &i, auto &o) {
                   return mluOpBorderAlignBackward(
                       run.handle, i[0]->desc, i[0]->ptr, i[1]->desc,
                       i[1]->ptr, i[2]->desc, i[2]->ptr, pool, o[0]->desc,
                       o[0]->ptr);
                 });
}

} // namespace

const std::vector<OpDef> &bangc::tools::registeredOps() {
  static const std::vector<OpDef> ops = {
      {"tin_shift_forward",
       "TinShift: output[n,t,c] = input[n,t-s,c] (s = shifts[n, c/(C/G)]), "
       "zero outside [0,T)",
       {"input", "shifts"},
       {"output"},
       {},
       [](OpRun &r) { return tinShift(r, true); }},
      {"tin_shift_backward",
       "TinShift gradient (the adjoint): grad_input[n,t,c] = "
       "grad_output[n,t+s,c]",
       {"grad_output", "shifts"},
       {"grad_input"},
       {},
       [](OpRun &r) { return tinShift(r, false); }},
      {"border_align_forward",
       "BorderAlign: max over pool_size+1 bilinear samples of each box "
       "border; input NHWC [N,H,W,4C], boxes [N,K,4]",
       {"input", "boxes"},
       {"output", "argmax_idx"},
       {{"pool_size", "samples per border minus one", true, 0}},
       borderForward},
      {"border_align_backward",
       "BorderAlign gradient: grad_output to the 4 pixels around each argmax "
       "sample",
       {"grad_output", "boxes", "argmax_idx"},
       {"grad_input"},
       {{"pool_size", "samples per border minus one", true, 0},
        {"height", "H of grad_input", true, 0},
        {"width", "W of grad_input", true, 0}},
       borderBackward},
  };
  return ops;
}

const OpDef *bangc::tools::findOp(const std::string &name) {
  for (const OpDef &op : registeredOps())
    if (op.name == name)
      return &op;
  return nullptr;
}
