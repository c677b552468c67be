//===- Harness.cpp - Run intrinsics on the simulated device and check them ===//
#include "Harness.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace intrtest;

bangsim::Device &intrtest::device() {
  static std::unique_ptr<bangsim::Device> dev = [] {
    auto d = bangsim::Device::open(bangsim::defaultDeviceSpec());
    if (!d) {
      llvm::errs() << "cannot open the device: " << llvm::toString(d.takeError())
                   << "\n";
      std::abort();
    }
    return std::move(*d);
  }();
  return *dev;
}

std::string Batch::source() const {
  std::string s;
  s += "// " + name + "\n";
  s += "__nram__ char nram[" + std::to_string(std::max<size_t>(image.size(), 64)) + "];\n";
  s += "__wram__ char wram[" + std::to_string(std::max<size_t>(wimage.size(), 64)) + "];\n";
  s += "__mlu_global__ void k(const char *in, const char *win, char *out, int bytes, int wbytes) {\n";
  s += "  __memcpy(nram, in, bytes, GDRAM2NRAM);\n";
  s += "  if (wbytes) __memcpy(wram, win, wbytes, GDRAM2WRAM);\n";
  s += body;
  s += "  __memcpy(out, nram, bytes, NRAM2GDRAM);\n";
  s += "}\n";
  return s;
}

bangsim::LaunchStats Batch::run() {
  bangsim::Device &dev = device();
  std::string diags;
  llvm::raw_string_ostream diagStream(diags);
  bangsim::CompileOptions opts;
  opts.diagnostics = &diagStream;
  // The ctest entry intrinsics.inline runs the suite on inlined bodies; the
  // plain one on the native device library (where this host can run it).
  if (std::getenv("BANGC_TEST_INLINE_INTRINSICS"))
    opts.inlineIntrinsics = true;
  std::string src = source();
  auto mod = bangsim::Module::compileString(name + ".mlu", src,
                                            dev.spec(), opts);
  if (!mod) {
    ADD_FAILURE() << name << ": compile failed: "
                  << llvm::toString(mod.takeError()) << "\n"
                  << diags << "\n--- source:\n"
                  << src;
    return {};
  }
  auto kernel = (*mod)->findKernel("k");
  if (!kernel) {
    ADD_FAILURE() << llvm::toString(kernel.takeError());
    return {};
  }
  size_t bytes = std::max<size_t>(image.size(), 64);
  size_t wbytes = wimage.size();
  image.resize(bytes);
  auto in = dev.malloc(bytes), outp = dev.malloc(bytes),
       win = dev.malloc(std::max<size_t>(wbytes, 64));
  if (!in || !outp || !win) {
    ADD_FAILURE() << "malloc failed";
    llvm::consumeError(in.takeError());
    llvm::consumeError(outp.takeError());
    llvm::consumeError(win.takeError());
    return {};
  }
  llvm::cantFail(dev.copyToDevice(*in, image.data(), bytes));
  if (wbytes)
    llvm::cantFail(dev.copyToDevice(*win, wimage.data(), wbytes));
  std::vector<bangsim::KernelArg> args = {
      bangsim::KernelArg::pointer(*in), bangsim::KernelArg::pointer(*win),
      bangsim::KernelArg::pointer(*outp), bangsim::KernelArg::i32((int32_t)bytes),
      bangsim::KernelArg::i32((int32_t)wbytes)};
  auto stats = dev.launch(**kernel, (*mod)->staticLayout(), bangsim::Dim3{},
                          bangsim::FuncType::Block, args);
  bangsim::LaunchStats result;
  if (!stats) {
    ADD_FAILURE() << name << ": launch failed: "
                  << llvm::toString(stats.takeError());
  } else {
    result = *stats;
    out.resize(bytes);
    llvm::cantFail(dev.copyFromDevice(out.data(), *outp, bytes));
    for (const Check &c : checks)
      compare(c);
  }
  llvm::cantFail(dev.free(*in));
  llvm::cantFail(dev.free(*outp));
  llvm::cantFail(dev.free(*win));
  return result;
}

namespace {

double asDouble(const uint8_t *p, char kind, int size, bool isSigned) {
  if (kind == 'f') {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (kind == 'h') {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return bangc::halfToFloat(b);
  }
  int64_t v = 0;
  switch (size) {
  case 1:
    v = isSigned ? (int64_t)(int8_t)p[0] : (int64_t)p[0];
    break;
  case 2: {
    uint16_t u;
    std::memcpy(&u, p, 2);
    v = isSigned ? (int64_t)(int16_t)u : (int64_t)u;
    break;
  }
  default: {
    uint32_t u;
    std::memcpy(&u, p, 4);
    v = isSigned ? (int64_t)(int32_t)u : (int64_t)u;
  }
  }
  return (double)v;
}

uint64_t rawBits(const uint8_t *p, int size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size);
  return v;
}

/// Distance in units in the last place between two non-NaN floats of the
/// kind ('f' or 'h'), through their ordered bit patterns.
int64_t ulpDistance(uint64_t a, uint64_t b, char kind) {
  int bits = kind == 'f' ? 32 : 16;
  uint64_t sign = uint64_t(1) << (bits - 1);
  auto ordered = [&](uint64_t x) -> int64_t {
    return (x & sign) ? -(int64_t)(x & (sign - 1)) : (int64_t)x;
  };
  int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

std::string show(const uint8_t *p, char kind, int size, bool isSigned) {
  std::string s;
  llvm::raw_string_ostream os(s);
  double v = asDouble(p, kind, size, isSigned);
  os << llvm::format("%.9g", v);
  if (kind != 'i')
    os << llvm::format(" (0x%0*llx)", size * 2, (unsigned long long)rawBits(p, size));
  return s;
}

} // namespace

void Batch::compare(const Check &c) const {
  int size = c.elemBytes;
  size_t n = c.bytes.size() / size;
  int shown = 0, bad = 0;
  std::string report;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t *got = out.data() + c.off + i * size;
    const uint8_t *want = c.bytes.data() + i * size;
    bool ok;
    if (c.kind == 'i') {
      ok = std::memcmp(got, want, size) == 0;
    } else {
      double g = asDouble(got, c.kind, size, true);
      double w = asDouble(want, c.kind, size, true);
      if (std::isnan(g) || std::isnan(w))
        ok = std::isnan(g) && std::isnan(w);
      else if (c.cmp == Cmp::Exact)
        ok = rawBits(got, size) == rawBits(want, size);
      else if (c.cmp == Cmp::Ulps)
        ok = (std::isinf(g) || std::isinf(w))
                 ? g == w
                 : ulpDistance(rawBits(got, size), rawBits(want, size), c.kind) <=
                       (int64_t)c.tol;
      else
        ok = g == w || std::fabs(g - w) <= c.tol ||
             std::fabs(g - w) <= 1e-6 * std::fabs(w);
    }
    if (!ok) {
      ++bad;
      if (shown++ < 6)
        report += "    [" + std::to_string(i) + "] got " +
                  show(got, c.kind, size, c.isSigned) + ", want " +
                  show(want, c.kind, size, c.isSigned) + "\n";
    }
  }
  if (bad)
    ADD_FAILURE() << name << ": " << c.label << ": " << bad << " of " << n
                  << " elements differ\n"
                  << report;
}
