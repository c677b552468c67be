// tin_shift.cpp: calling an mlu-ops operator from a CNRT program, as a user
// of mlu-ops writes it: a queue and device memory from CNRT, a handle bound
// to the queue, tensor descriptors, mluOpTinShiftForward, a sync, and a check
// against a CPU reference. Build and run it:
//
//   bangc-sim compile examples/cnrt/tin_shift.cpp -lmluop -o tin_shift
//   ./tin_shift
#include <cnrt.h>
#include <mlu_op.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CNRT_CHECK(call)                                                       \
  do {                                                                         \
    cnrtRet_t ret_ = (call);                                                   \
    if (ret_ != cnrtSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   cnrtGetErrorStr(ret_));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define MLUOP_CHECK(call)                                                      \
  do {                                                                         \
    mluOpStatus_t status_ = (call);                                            \
    if (status_ != MLUOP_STATUS_SUCCESS) {                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   mluOpGetErrorString(status_));                              \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

int main() {
  // A clip of 2 videos, 8 frames, 16 channels in 4 groups, 7x7 pixels; each
  // group of channels moves through time by its own shift.
  const int N = 2, T = 8, C = 16, HW = 49, G = 4;
  std::vector<float> input(N * T * C * HW), output(input.size());
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = float(i % 1000) * 0.5f;
  std::vector<int> shifts = {1, -1, 2, 0, -3, 0, 1, 8};

  cnrtQueue_t queue;
  CNRT_CHECK(cnrtSetDevice(0));
  CNRT_CHECK(cnrtQueueCreate(&queue));
  mluOpHandle_t handle;
  MLUOP_CHECK(mluOpCreate(&handle));
  MLUOP_CHECK(mluOpSetQueue(handle, queue));

  mluOpTensorDescriptor_t input_desc, shifts_desc, output_desc;
  MLUOP_CHECK(mluOpCreateTensorDescriptor(&input_desc));
  MLUOP_CHECK(mluOpCreateTensorDescriptor(&shifts_desc));
  MLUOP_CHECK(mluOpCreateTensorDescriptor(&output_desc));
  const int data_dims[4] = {N, T, C, HW}, shift_dims[2] = {N, G};
  MLUOP_CHECK(mluOpSetTensorDescriptor(input_desc, MLUOP_LAYOUT_ARRAY,
                                       MLUOP_DTYPE_FLOAT, 4, data_dims));
  MLUOP_CHECK(mluOpSetTensorDescriptor(output_desc, MLUOP_LAYOUT_ARRAY,
                                       MLUOP_DTYPE_FLOAT, 4, data_dims));
  MLUOP_CHECK(mluOpSetTensorDescriptor(shifts_desc, MLUOP_LAYOUT_ARRAY,
                                       MLUOP_DTYPE_INT32, 2, shift_dims));

  const size_t data_bytes = input.size() * sizeof(float);
  const size_t shift_bytes = shifts.size() * sizeof(int);
  void *dev_input, *dev_shifts, *dev_output;
  CNRT_CHECK(cnrtMalloc(&dev_input, data_bytes));
  CNRT_CHECK(cnrtMalloc(&dev_shifts, shift_bytes));
  CNRT_CHECK(cnrtMalloc(&dev_output, data_bytes));
  CNRT_CHECK(cnrtMemcpy(dev_input, input.data(), data_bytes,
                        cnrtMemcpyHostToDev));
  CNRT_CHECK(cnrtMemcpy(dev_shifts, shifts.data(), shift_bytes,
                        cnrtMemcpyHostToDev));

  MLUOP_CHECK(mluOpTinShiftForward(handle, input_desc, dev_input, shifts_desc,
                                   dev_shifts, output_desc, dev_output));
  CNRT_CHECK(cnrtQueueSync(queue));
  CNRT_CHECK(cnrtMemcpy(output.data(), dev_output, data_bytes,
                        cnrtMemcpyDevToHost));

  // output[n, t, c, :] = input[n, t - shift, c, :], 0 outside the clip.
  int wrong = 0;
  for (int n = 0; n < N; ++n)
    for (int t = 0; t < T; ++t)
      for (int c = 0; c < C; ++c)
        for (int p = 0; p < HW; ++p) {
          int src = t - shifts[n * G + c / (C / G)];
          float want = src >= 0 && src < T
                           ? input[((n * T + src) * C + c) * HW + p]
                           : 0.0f;
          if (output[((n * T + t) * C + c) * HW + p] != want)
            ++wrong;
        }
  std::printf("tin_shift forward [%d, %d, %d, %d] by %d groups: %s\n", N, T,
              C, HW, G, wrong ? "WRONG" : "correct");

  CNRT_CHECK(cnrtFree(dev_input));
  CNRT_CHECK(cnrtFree(dev_shifts));
  CNRT_CHECK(cnrtFree(dev_output));
  MLUOP_CHECK(mluOpDestroyTensorDescriptor(input_desc));
  MLUOP_CHECK(mluOpDestroyTensorDescriptor(shifts_desc));
  MLUOP_CHECK(mluOpDestroyTensorDescriptor(output_desc));
  MLUOP_CHECK(mluOpDestroy(handle));
  CNRT_CHECK(cnrtQueueDestroy(queue));
  return wrong ? 1 : 0;
}
