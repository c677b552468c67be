//===- TestUtil.h - Helpers of the op library's tests ----------*- C++ -*-===//
#ifndef MLU_OP_TESTUTIL_H
#define MLU_OP_TESTUTIL_H

#include "mlu_op.h"
#include "mlu_op_sim.h"
#include "support/Half.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace mluop_test {

/// The text of ../shared/testdata/NAME (mmcv's ground truth); a test
/// failure and "" when it cannot be read.
inline std::string readTestData(const std::string &name) {
  std::ifstream f(std::string(MLUOP_SHARED_DIR) + "/testdata/" + name);
  EXPECT_TRUE(f.good()) << "shared/testdata/" << name;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// The numbers of the (nested) array that follows "KEY" in JSON `text`,
/// searching from `from`, flattened in order. The ground-truth files hold
/// arrays of numbers only.
inline std::vector<double> flatNumbers(const std::string &text,
                                       const std::string &key,
                                       size_t from = 0) {
  size_t at = text.find("\"" + key + "\"", from);
  EXPECT_NE(at, std::string::npos) << key;
  at = text.find('[', at);
  std::vector<double> v;
  int depth = 0;
  for (size_t i = at; i < text.size(); ++i) {
    char c = text[i];
    if (c == '[')
      depth++;
    else if (c == ']') {
      if (--depth == 0)
        break;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      char *end;
      v.push_back(std::strtod(text.c_str() + i, &end));
      i = end - text.c_str() - 1;
    }
  }
  return v;
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
