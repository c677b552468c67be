//===- TestUtil.h - Helpers of the op library's tests ----------*- C++ -*-===//
#ifndef MLU_OP_TESTUTIL_H
#define MLU_OP_TESTUTIL_H

#include "mlu_op.h"
#include "mlu_op_sim.h"
#include "support/Half.h"

#include <gtest/gtest.h>

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mluop_test {

/// mmcv's ground truth `test/data/mmcv/NAME` (test/data/mmcv/README.md),
/// parsed; a test failure and null when it cannot be read or parsed.
inline std::optional<llvm::json::Value>
readGroundTruth(const std::string &name) {
  std::string path = std::string(BANGC_TEST_DATA_DIR) + "/mmcv/" + name;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    ADD_FAILURE() << path << ": " << buffer.getError().message();
    return std::nullopt;
  }
  auto value = llvm::json::parse((*buffer)->getBuffer());
  if (!value) {
    ADD_FAILURE() << path << ": " << llvm::toString(value.takeError());
    return std::nullopt;
  }
  return std::move(*value);
}

/// The numbers of the nested JSON array `v`, flattened in order. A test
/// failure for a missing array or an element that is neither an array nor a
/// number (`what` names it).
inline std::vector<double> flatNumbers(const llvm::json::Value *v,
                                       const std::string &what) {
  std::vector<double> out;
  if (!v) {
    ADD_FAILURE() << what << ": missing";
    return out;
  }
  if (std::optional<double> number = v->getAsNumber()) {
    out.push_back(*number);
    return out;
  }
  const llvm::json::Array *array = v->getAsArray();
  if (!array) {
    ADD_FAILURE() << what << ": neither an array nor a number";
    return out;
  }
  for (const llvm::json::Value &element : *array) {
    std::vector<double> inner = flatNumbers(&element, what);
    out.insert(out.end(), inner.begin(), inner.end());
  }
  return out;
}

/// Collects log lines while alive.
struct LogCapture {
  std::vector<std::string> lines;
  LogCapture() {
    mluOpSetLogCallback(
        [](mluOpLogLevel_t, const char *line, void *user) {
          static_cast<LogCapture *>(user)->lines.push_back(line);
        },
        this);
  }
  ~LogCapture() { mluOpSetLogCallback(nullptr, nullptr); }
  std::string last() const { return lines.empty() ? "" : lines.back(); }
};

/// One handle per device name for the whole test program (kernels compile
/// once per handle), destroyed at exit so the leak checker sees them freed.
inline mluOpHandle_t handleFor(const std::string &device) {
  struct Handles {
    std::vector<std::pair<std::string, mluOpHandle_t>> list;
    ~Handles() {
      for (auto &entry : list)
        mluOpDestroy(entry.second);
    }
  };
  static Handles handles;
  for (auto &[name, h] : handles.list)
    if (name == device)
      return h;
  mluOpHandle_t h = nullptr;
  EXPECT_EQ(mluOpCreateWithDevice(&h, device.c_str()), MLUOP_STATUS_SUCCESS);
  handles.list.push_back({device, h});
  return h;
}

struct Desc {
  mluOpTensorDescriptor_t d = nullptr;
  Desc(mluOpDataType_t dtype, std::vector<int> dims,
       mluOpTensorLayout_t layout = MLUOP_LAYOUT_ARRAY) {
    mluOpCreateTensorDescriptor(&d);
    EXPECT_EQ(mluOpSetTensorDescriptor(d, layout, dtype, int(dims.size()),
                                       dims.data()),
              MLUOP_STATUS_SUCCESS);
  }
  ~Desc() { mluOpDestroyTensorDescriptor(d); }
  operator mluOpTensorDescriptor_t() const { return d; }
};

/// A device buffer of the handle.
struct Buf {
  mluOpHandle_t h;
  void *p = nullptr;
  size_t bytes;
  Buf(mluOpHandle_t h, size_t bytes) : h(h), bytes(bytes) {
    EXPECT_EQ(mluOpMalloc(h, &p, bytes), MLUOP_STATUS_SUCCESS);
  }
  template <typename T>
  Buf(mluOpHandle_t h, const std::vector<T> &v) : Buf(h, v.size() * sizeof(T)) {
    if (bytes)
      EXPECT_EQ(mluOpMemcpyHostToDevice(h, p, v.data(), bytes),
                MLUOP_STATUS_SUCCESS);
  }
  ~Buf() { mluOpFree(h, p); }
  template <typename T> std::vector<T> get() const {
    std::vector<T> v(bytes / sizeof(T));
    if (bytes)
      EXPECT_EQ(mluOpMemcpyDeviceToHost(h, v.data(), p, bytes),
                MLUOP_STATUS_SUCCESS);
    return v;
  }
};

/// Bit patterns of floats for exact comparison (nan payloads and -0 too).
inline std::vector<uint32_t> bitsOf(const std::vector<float> &v) {
  std::vector<uint32_t> b(v.size());
  std::memcpy(b.data(), v.data(), v.size() * 4);
  return b;
}

/// A small deterministic generator.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  int range(int lo, int hi) { return lo + int(next() % uint64_t(hi - lo + 1)); }
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * float(next() >> 40) / float(1 << 24);
  }
};

} // namespace mluop_test

#endif
