//===- Harness.h - Run intrinsics on the simulated device and check them --===//
//
// A Batch is one generated kernel: an NRAM image (and a WRAM image) built on
// the host, a list of intrinsic calls on regions of it, and for each checked
// region the bytes a scalar C++ reference expects there. run() compiles the
// kernel through bangsim::Module, copies the images to GDRAM, then to NRAM
// and WRAM, runs the calls on one core, copies NRAM back and compares every
// checked region.
//
// Many calls go into one Batch: compiling a module costs far more than
// running it.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TEST_INTRINSICS_HARNESS_H
#define BANGC_TEST_INTRINSICS_HARNESS_H

#include "bangsim/Device.h"
#include "bangsim/Module.h"
#include "support/Half.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace intrtest {

/// A binary16 value on the host, as its bits.
struct H {
  uint16_t bits = 0;
  H() = default;
  static H fromBits(uint16_t b) {
    H h;
    h.bits = b;
    return h;
  }
  /// Rounded to nearest even (support/Half.cpp, independent of the device).
  static H round(float f) { return fromBits(bangc::floatToHalf(f)); }
  float f() const { return bangc::halfToFloat(bits); }
};

template <typename T> struct Ty;
template <> struct Ty<float> {
  static constexpr const char *name = "float";
  static float toF(float x) { return x; }
  static float fromF(float x) { return x; }
};
template <> struct Ty<H> {
  static constexpr const char *name = "half";
  static float toF(H x) { return x.f(); }
  static H fromF(float x) { return H::round(x); }
};
template <> struct Ty<int8_t> { static constexpr const char *name = "int8_t"; };
template <> struct Ty<uint8_t> { static constexpr const char *name = "uint8_t"; };
template <> struct Ty<int16_t> { static constexpr const char *name = "int16_t"; };
template <> struct Ty<uint16_t> { static constexpr const char *name = "uint16_t"; };
template <> struct Ty<int32_t> { static constexpr const char *name = "int32_t"; };
template <> struct Ty<uint32_t> { static constexpr const char *name = "uint32_t"; };

template <typename T> constexpr bool isFloat = std::is_same_v<T, float> || std::is_same_v<T, H>;

inline bool isNaN(float x) { return x != x; }
inline bool isNaN(H x) { return (x.bits & 0x7fff) > 0x7c00; }
template <typename T> bool isNaN(T) { return false; }

/// Counts that are not multiples of any vector width, and small ones.
inline const std::vector<int> &counts() {
  static const std::vector<int> c = {1, 7, 67, 261};
  return c;
}

/// Random data with the special values mixed in.
class Gen {
public:
  explicit Gen(uint32_t seed) : rng(seed) {}
  std::mt19937 rng;

  uint32_t u32() { return rng(); }
  int range(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }

  float specialFloat() {
    static const float s[] = {
        NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -1e-40f,
        1.4e-45f, -1.4e-45f, 1.17549435e-38f, 3.4028235e38f, -3.4028235e38f,
        0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 1.0f, -1.0f, 65504.0f, 65519.996f,
        65520.0f, -65520.0f, 6e-8f, 3e-8f, -3e-8f, 6.1e-5f, 2147483520.0f,
        2147483648.0f, -2147483648.0f, -2147483904.0f, 32767.5f, -32768.5f,
        32768.0f, 100000.0f, 0.49999997f, 8388609.0f, 1e10f, -1e10f};
    return s[range(0, sizeof(s) / sizeof(s[0]) - 1)];
  }
  float randomFloat() {
    switch (range(0, 9)) {
    case 0:
      return specialFloat();
    case 1: { // any bit pattern
      uint32_t b = u32();
      float f;
      std::memcpy(&f, &b, 4);
      return f;
    }
    case 2: // small integers and halves: ties for rounding
      return range(-40, 40) * 0.5f;
    case 3: // a wide range of magnitudes
      return std::ldexp(uniform(-1, 1), range(-30, 30));
    default:
      return uniform(-100, 100);
    }
  }
  H randomHalf() {
    switch (range(0, 9)) {
    case 0: {
      static const uint16_t s[] = {0x7e00, 0xfe00, 0x7c00, 0xfc00, 0x0000,
                                   0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff,
                                   0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00,
                                   0x3800, 0x3e00, 0x4100, 0xc100, 0x7d01};
      return H::fromBits(s[range(0, sizeof(s) / sizeof(s[0]) - 1)]);
    }
    case 1:
      return H::fromBits((uint16_t)u32());
    case 2:
      return H::round(range(-40, 40) * 0.5f);
    default:
      return H::round(uniform(-100, 100));
    }
  }
  template <typename T> T randomInt() {
    switch (range(0, 5)) {
    case 0: {
      const T s[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                     0, 1, (T)-1, (T)2};
      return s[range(0, 5)];
    }
    case 1:
      return (T)range(-5, 5);
    default:
      return (T)u32();
    }
  }
  template <typename T> T value() {
    if constexpr (std::is_same_v<T, float>)
      return randomFloat();
    else if constexpr (std::is_same_v<T, H>)
      return randomHalf();
    else
      return randomInt<T>();
  }
  template <typename T> std::vector<T> vec(int n) {
    std::vector<T> v(n);
    for (T &x : v)
      x = value<T>();
    return v;
  }
};

/// How a checked region is compared.
enum class Cmp {
  Exact,  ///< the same bits, except that any NaN matches any NaN
  Ulps,   ///< within `tol` units in the last place (floats), NaN matches NaN
  Abs,    ///< within `tol` absolute, or a relative 1e-6, NaN matches NaN
};

class Batch {
public:
  explicit Batch(std::string name) : name(std::move(name)) {}

  /// Appends `values` to the NRAM (or WRAM) image; returns its byte offset.
  template <typename T> int64_t nram(const std::vector<T> &values) {
    return place(image, values.data(), values.size() * sizeof(T));
  }
  template <typename T> int64_t wram(const std::vector<T> &values) {
    return place(wimage, values.data(), values.size() * sizeof(T));
  }
  /// Reserves `bytes` of NRAM filled with a pattern.
  int64_t scratch(int64_t bytes) {
    std::vector<uint8_t> fill(bytes, 0xa5);
    return place(image, fill.data(), bytes);
  }
  /// A C expression for a pointer into NRAM / WRAM.
  static std::string p(const char *type, int64_t off) {
    return "((" + std::string(type) + " *)(nram + " + std::to_string(off) + "))";
  }
  static std::string w(const char *type, int64_t off) {
    return "((" + std::string(type) + " *)(wram + " + std::to_string(off) + "))";
  }
  template <typename T> static std::string p(int64_t off) { return p(Ty<T>::name, off); }
  template <typename T> static std::string w(int64_t off) { return w(Ty<T>::name, off); }

  void call(const std::string &statement) { body += "  " + statement + "\n"; }

  /// After run(), the NRAM region at `off` must hold `expected`.
  template <typename T>
  void expect(int64_t off, const std::vector<T> &expected, std::string label,
              Cmp cmp = Cmp::Exact, double tol = 0) {
    Check c;
    c.off = off;
    c.label = std::move(label);
    c.cmp = cmp;
    c.tol = tol;
    c.elemBytes = sizeof(T);
    c.kind = std::is_same_v<T, float> ? 'f' : std::is_same_v<T, H> ? 'h' : 'i';
    c.isSigned = std::is_signed_v<T> || isFloat<T>;
    c.bytes.resize(expected.size() * sizeof(T));
    if (!c.bytes.empty()) // an empty vector's data() may be null
      std::memcpy(c.bytes.data(), expected.data(), c.bytes.size());
    checks.push_back(std::move(c));
  }

  std::string source() const;
  /// Compiles and runs the kernel and checks every region; returns the
  /// launch's statistics.
  bangsim::LaunchStats run();
  /// The NRAM image after run().
  const std::vector<uint8_t> &result() const { return out; }

private:
  struct Check {
    int64_t off;
    std::string label;
    Cmp cmp;
    double tol;
    int elemBytes;
    char kind;
    bool isSigned;
    std::vector<uint8_t> bytes;
  };
  static int64_t place(std::vector<uint8_t> &img, const void *data, size_t bytes) {
    int64_t off = (int64_t)((img.size() + 63) & ~size_t(63));
    img.resize(off + bytes);
    if (bytes) // an empty input's data may be null
      std::memcpy(img.data() + off, data, bytes);
    return off;
  }
  void compare(const Check &c) const;

  std::string name;
  std::vector<uint8_t> image, wimage, out;
  std::string body;
  std::vector<Check> checks;
};

/// The shared simulated device.
bangsim::Device &device();

/// Reference of one element-wise call, element by element.
template <typename D, typename S, typename F>
std::vector<D> mapRef(const std::vector<S> &a, F f) {
  std::vector<D> r(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    r[i] = f(a[i]);
  return r;
}

} // namespace intrtest

#endif // BANGC_TEST_INTRINSICS_HARNESS_H
