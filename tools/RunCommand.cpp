//===- RunCommand.cpp - bangc-sim run -------------------------------------===//
#include "tools/Commands.h"
#include "tools/CommonOptions.h"
#include "tools/CompileWatchdog.h"

#include "bangsim/Device.h"
#include "bangsim/Module.h"
#include "support/Half.h"
#include "support/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"

#include <cfloat>
#include <cmath>

using namespace bangc;
using namespace bangc::tools;

static const char *const head =
    "usage: bangc-sim run FILE.mlu --kernel NAME [options] --arg ARG...\n"
    "\n"
    "Compiles FILE.mlu and runs one kernel on the simulated device.\n"
    "\n";

static const char *const tail =
    "\n"
    "ARG, one --arg per kernel parameter, in order:\n"
    "  in:FILE.npy                 a device buffer filled from FILE\n"
    "  out:FILE.npy:DTYPE:D0xD1..  a zeroed buffer, written to FILE after\n"
    "  inout:FILE.npy              filled from FILE, written back after\n"
    "  i8:V i16:V i32:V i64:V u32:V f16:V f32:V f64:V   scalars\n"
    "  struct:TYPE:V,TYPE:V,...    a struct by value: its fields in order\n"
    "                              (scalar TYPEs), laid out as C does\n"
    "\n"
    "Compiled modules are cached in $BANGC_CACHE_DIR, else\n"
    "$XDG_CACHE_HOME/bangc-sim, else ~/.cache/bangc-sim.\n"
    "\n"
    "Exit status: 0 success, 1 compile or file error, 2 usage error,\n"
    "3 device fault.\n";

namespace {

/// One --arg: a buffer or a scalar.
struct RunArg {
  enum Kind { In, Out, InOut, Scalar } kind = Scalar;
  std::string file;
  NpyArray array; ///< read (in, inout) or made (out) by run()
  DType outType = DType::F32;
  std::vector<int64_t> outShape;
  bangsim::KernelArg scalar{'i', 0};
  void *device = nullptr;
};

llvm::Expected<std::vector<int64_t>> parseShape(llvm::StringRef text) {
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef, 4> dims;
  text.split(dims, 'x');
  for (llvm::StringRef d : dims) {
    int64_t v;
    if (d.getAsInteger(10, v) || v < 0)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "bad shape '%s': want D0xD1x...",
                                     text.str().c_str());
    shape.push_back(v);
  }
  return shape;
}

llvm::Expected<bangsim::KernelArg> parseScalar(llvm::StringRef type,
                                               llvm::StringRef value) {
  auto bad = [&] {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad %s value '%s'", type.str().c_str(),
                                   value.str().c_str());
  };
  if (type == "f16" || type == "f32" || type == "f64") {
    double d;
    if (value.getAsDouble(d))
      return bad();
    // A finite value too large for the type is an error, not infinity
    // (inf and nan spelled as such are taken).
    double max = type == "f16" ? 65504.0 : type == "f32" ? FLT_MAX : DBL_MAX;
    if (std::isfinite(d) && std::fabs(d) > max)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "bad %s value '%s': outside the finite "
                                     "range of %s (magnitude at most %g)",
                                     type.str().c_str(), value.str().c_str(),
                                     type.str().c_str(), max);
    if (type == "f16")
      return bangsim::KernelArg::f16bits(floatToHalf(float(d)));
    if (type == "f32")
      return bangsim::KernelArg::f32(float(d));
    return bangsim::KernelArg::f64(d);
  }
  int64_t v;
  if (value.getAsInteger(0, v))
    return bad();
  // Each integer kind takes exactly its own range: 4294967297 is not an i32
  // (it would arrive as 1). u32 is the unsigned 32-bit range.
  auto outside = [&](int64_t lo, int64_t hi) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "bad %s value '%s': outside [%lld, %lld]", type.str().c_str(),
        value.str().c_str(), (long long)lo, (long long)hi);
  };
  struct Range {
    const char *type;
    int64_t lo, hi;
  };
  for (Range r : {Range{"i8", INT8_MIN, INT8_MAX},
                  Range{"i16", INT16_MIN, INT16_MAX},
                  Range{"i32", INT32_MIN, INT32_MAX},
                  Range{"u32", 0, UINT32_MAX}, Range{"bool", 0, 1}})
    if (type == r.type && (v < r.lo || v > r.hi))
      return outside(r.lo, r.hi);
  if (type == "i8")
    return bangsim::KernelArg::i8(int8_t(v));
  if (type == "i16")
    return bangsim::KernelArg::i16(int16_t(v));
  if (type == "i32" || type == "u32")
    return bangsim::KernelArg::i32(int32_t(uint32_t(v)));
  if (type == "i64")
    return bangsim::KernelArg::i64(v);
  if (type == "bool")
    return bangsim::KernelArg::boolean(v != 0);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown argument kind '%s'",
                                 type.str().c_str());
}

/// Bytes of a scalar of signature letter `kind`.
unsigned scalarBytes(char kind) {
  switch (kind) {
  case 'b': case 'z': return 1;
  case 'h': case 'e': return 2;
  case 'i': case 'f': return 4;
  default: return 8;
  }
}

/// A struct by value from its fields, TYPE:V,TYPE:V,... in declaration
/// order, laid out as C lays out a struct of them: each field at a multiple
/// of its size, the whole padded to a multiple of the largest (padding is
/// zero). An array member is its elements, one field each.
llvm::Expected<bangsim::KernelArg> parseStruct(llvm::StringRef text,
                                               llvm::StringRef fields) {
  std::vector<uint8_t> bytes;
  unsigned align = 1;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  fields.split(parts, ',');
  for (llvm::StringRef field : parts) {
    auto [type, value] = field.split(':');
    if (type.empty() || value.empty())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "bad --arg '%s': want struct:TYPE:V,TYPE:V,... (the fields in "
          "order, e.g. struct:i32:4,f32:0.5)",
          text.str().c_str());
    auto scalar = parseScalar(type, value);
    if (!scalar)
      return scalar.takeError();
    unsigned size = scalarBytes(scalar->kind);
    align = std::max(align, size);
    bytes.resize(llvm::alignTo(bytes.size(), size), 0);
    for (unsigned i = 0; i < size; ++i) // little-endian, as the host
      bytes.push_back(uint8_t(scalar->bits >> (8 * i)));
  }
  bytes.resize(llvm::alignTo(bytes.size(), align), 0);
  return bangsim::KernelArg::aggregate(bytes.data(), bytes.size());
}

llvm::Expected<RunArg> parseArg(llvm::StringRef text) {
  auto [kind, rest] = text.split(':');
  RunArg arg;
  if (kind == "struct") {
    auto value = parseStruct(text, rest);
    if (!value)
      return value.takeError();
    arg.scalar = std::move(*value);
    return std::move(arg);
  }
  if (kind == "in" || kind == "inout") {
    arg.kind = kind == "in" ? RunArg::In : RunArg::InOut;
    arg.file = rest.str(); // read by run(): a bad file is an input error
    return std::move(arg);
  }
  if (kind == "out") {
    llvm::SmallVector<llvm::StringRef, 3> parts;
    rest.split(parts, ':');
    if (parts.size() != 3)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "bad --arg '%s': want "
                                     "out:FILE.npy:DTYPE:D0xD1...",
                                     text.str().c_str());
    auto dtype = parseDTypeName(parts[1]);
    if (!dtype)
      return dtype.takeError();
    auto shape = parseShape(parts[2]);
    if (!shape)
      return shape.takeError();
    arg.kind = RunArg::Out;
    arg.file = parts[0].str();
    arg.outType = *dtype;
    arg.outShape = std::move(*shape); // sized against the device by run()
    return std::move(arg);
  }
  auto scalar = parseScalar(kind, rest);
  if (!scalar)
    return scalar.takeError();
  arg.scalar = *scalar;
  return std::move(arg);
}

llvm::Expected<bangsim::Dim3> parseDim(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  text.split(parts, ',');
  uint32_t v[3] = {1, 1, 1};
  if (parts.size() > 3)
    parts.clear();
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].trim().getAsInteger(10, v[i]) || v[i] == 0 ||
        v[i] > (1u << 24))
      parts.clear();
  // At most 2^24 tasks in all, as a launch allows (checked here before the
  // product can wrap).
  if (!parts.empty() && uint64_t(v[0]) * v[1] * v[2] > (1u << 24))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad --dim '%s': more than 2^24 tasks",
                                   text.str().c_str());
  if (parts.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad --dim '%s': want X[,Y[,Z]] of "
                                   "positive integers",
                                   text.str().c_str());
  return bangsim::Dim3{v[0], v[1], v[2]};
}

struct RunCommand {
  CommonOptions common;
  LaunchArgs launching;
  std::string input, kernel;
  bangsim::Dim3 dim;
  bangsim::FuncType type = bangsim::FuncType::Block;
  std::vector<RunArg> args;
  bool time = false;

  CommandLine commandLine() {
    std::vector<Option> rows = {
        text("--kernel", "NAME",
             "the kernel: 'vadd', or 'vadd<float>' for a template", kernel),
        custom("--dim", "X[,Y[,Z]]", "task dimensions (default 1)",
               [this](llvm::StringRef v) {
                 auto d = parseDim(v);
                 if (!d)
                   return llvm::toString(d.takeError());
                 dim = *d;
                 return std::string();
               }),
        custom("--type", "TYPE",
               "block, union1, union2, union4, union8 (default block)",
               [this](llvm::StringRef v) {
                 auto t = bangsim::parseFuncType(v);
                 if (!t)
                   return llvm::toString(t.takeError());
                 type = *t;
                 return std::string();
               }),
        custom("--arg", "ARG", "the kernel's next argument (ARG below)",
               [this](llvm::StringRef v) {
                 auto arg = parseArg(v);
                 if (!arg)
                   return llvm::toString(arg.takeError());
                 args.push_back(std::move(*arg));
                 return std::string();
               })};
    for (Option &row : launching.options("the launch"))
      rows.push_back(std::move(row));
    std::vector<Option> more = {
        integer<int64_t>("--printf-limit", "N",
                         "print at most N lines of __bang_printf per launch "
                         "(default 10000; 0 prints none)",
                         launching.launch.printfLimit, 0, INT64_MAX,
                         "want a count of lines >= 0"),
        flag("--no-cache",
             "compile without the compile cache: never read or write it "
             "(docs/cache.md)",
             common.compile.useCache, false),
        flag("--time",
             "print where the compile spent its time, and whether the "
             "compile cache had the module",
             time)};
    for (Option &row : more)
      rows.push_back(std::move(row));
    CommandLine cmd{"run", head, tail};
    cmd.groups = {{"", std::move(rows)}, {"compile options", common.options()}};
    cmd.positional = onlyOne(input, "more than one input file");
    return cmd;
  }

  int check() {
    if (input.empty())
      return usageError("run", "no input file");
    if (kernel.empty())
      return usageError("run", "no --kernel");
    bangsim::LaunchOptions &launch = launching.launch;
    launch.checkRaces = common.checkRaces;
    // Isolated but under a debugger's eyes (-g) or when asked not to.
    launch.isolate = !launching.noIsolate && !common.compile.debugInfo;
    return -1;
  }

  /// Checks --arg kinds against the kernel's parameters.
  int matchSignature(const bangsim::Kernel &k) {
    if (args.size() != k.signature.size())
      return usageError("run", llvm::formatv("kernel '{0}' takes {1} "
                                             "arguments; {2} --arg given",
                                             k.pretty, k.signature.size(),
                                             args.size()));
    for (size_t i = 0; i < args.size(); ++i) {
      char want = k.signature[i];
      char have = args[i].kind == RunArg::Scalar ? args[i].scalar.kind : 'p';
      if (want != have)
        return usageError(
            "run", llvm::formatv("--arg {0} does not fit parameter {0} of "
                                 "'{1}' (kind '{2}', parameter wants '{3}'; "
                                 "p pointer, b i8, h i16, i i32/u32, l i64, "
                                 "e f16, f f32, d f64, s struct)",
                                 i + 1, k.pretty, have, want));
      size_t wantBytes = i < k.params.size() ? k.params[i].size : 0;
      if (want == 's' && args[i].scalar.bytes.size() != wantBytes)
        return usageError(
            "run", llvm::formatv("--arg {0} is a struct of {1} bytes (its "
                                 "fields laid out as C does); parameter {0} "
                                 "of '{2}' has {3}",
                                 i + 1, args[i].scalar.bytes.size(), k.pretty,
                                 wantBytes));
    }
    return -1;
  }

  int fail(llvm::Error e) {
    llvm::WithColor::error(llvm::errs(), "bangc-sim")
        << llvm::toString(std::move(e)) << "\n";
    return 1;
  }

  /// Reads the input files and sizes the outputs, checking every buffer and
  /// their sum against the device's GDRAM before a byte is allocated (sizes
  /// are multiplied and summed with overflow checks). An error is an input
  /// error: exit 1.
  int prepareBuffers(const bangsim::DeviceSpec &spec) {
    uint64_t total = 0, gdram = uint64_t(spec.gdramBytes);
    for (size_t i = 0; i < args.size(); ++i) {
      RunArg &arg = args[i];
      if (arg.kind == RunArg::Scalar)
        continue;
      uint64_t bytes = 0;
      if (arg.kind == RunArg::Out) {
        uint64_t n = dtypeSize(arg.outType);
        bool overflow = false;
        for (int64_t d : arg.outShape)
          overflow |= __builtin_mul_overflow(n, uint64_t(d), &n);
        if (overflow || n > gdram)
          return fail(llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              "--arg %zu (%s): the output's %s bytes do not fit the GDRAM "
              "of device '%s' (%llu bytes)",
              i + 1, arg.file.c_str(),
              overflow ? "more than 2^64" : std::to_string(n).c_str(),
              spec.name.c_str(), (unsigned long long)gdram));
        bytes = n;
      } else {
        auto array = readNpy(arg.file);
        if (!array)
          return fail(array.takeError());
        arg.array = std::move(*array);
        bytes = arg.array.byteSize();
      }
      if (__builtin_add_overflow(total, bytes, &total) || total > gdram)
        return fail(llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "the buffers of --arg 1..%zu need more than the GDRAM of device "
            "'%s' (%llu bytes)",
            i + 1, spec.name.c_str(), (unsigned long long)gdram));
    }
    for (RunArg &arg : args)
      if (arg.kind == RunArg::Out)
        arg.array = NpyArray(arg.outType, arg.outShape);
    return -1;
  }

  int run() {
    CompileWatchdog watchdog(common.limits);
    std::optional<bangsim::DeviceSpec> spec = common.loadDevice();
    if (!spec)
      return 1;
    if (int status = prepareBuffers(*spec); status >= 0)
      return status;
    auto module = bangsim::Module::compileFile(input, *spec, common.compile);
    if (!module)
      return reportCompileError(module.takeError());
    if (time) {
      const bangsim::CompileTimes &t = (*module)->times();
      llvm::errs() << llvm::formatv(
          "compile time: {0:F1} ms (frontend {1:F1}, optimize {2:F1}, codegen "
          "{3:F1}, jit {4:F1}, cache {5:F1} ms); {6}\n",
          t.total() * 1e3, t.frontend * 1e3, t.optimize * 1e3, t.codegen * 1e3,
          t.jit * 1e3, t.cache * 1e3, bangsim::describeCache(t));
    }
    auto k = (*module)->findKernel(kernel);
    if (!k)
      return usageError("run", llvm::toString(k.takeError()));
    if (int status = matchSignature(**k); status >= 0)
      return status;
    auto device = bangsim::Device::open(*spec);
    if (!device)
      return fail(device.takeError());
    std::vector<bangsim::KernelArg> kargs;
    for (RunArg &arg : args) {
      if (arg.kind == RunArg::Scalar) {
        kargs.push_back(arg.scalar);
        continue;
      }
      auto buffer = (*device)->malloc(arg.array.byteSize());
      if (!buffer)
        return fail(buffer.takeError());
      arg.device = *buffer;
      if (arg.kind != RunArg::Out)
        if (llvm::Error e = (*device)->copyToDevice(
                arg.device, arg.array.data.data(), arg.array.byteSize()))
          return fail(std::move(e));
      kargs.push_back(bangsim::KernelArg::pointer(arg.device));
    }
    auto stats = (*device)->launch(**k, (*module)->staticLayout(), dim, type,
                                   kargs, launching.launch);
    if (!stats) {
      int status = 1;
      llvm::handleAllErrors(
          stats.takeError(),
          [&](const bangsim::LaunchFault &f) {
            llvm::WithColor::error(llvm::errs(), "bangc-sim")
                << "device fault: " << f.message << "\n";
            status = 3;
          },
          [&](const llvm::ErrorInfoBase &e) {
            llvm::WithColor::error(llvm::errs(), "bangc-sim") << e.message()
                                                              << "\n";
          });
      return status;
    }
    for (RunArg &arg : args) {
      if (arg.kind != RunArg::Out && arg.kind != RunArg::InOut)
        continue;
      if (llvm::Error e = (*device)->copyFromDevice(
              arg.array.data.data(), arg.device, arg.array.byteSize()))
        return fail(std::move(e));
      if (llvm::Error e = writeNpy(arg.file, arg.array))
        return fail(std::move(e));
    }
    if (!launching.report(*stats))
      return 1;
    llvm::errs() << llvm::formatv(
        "{0}: {1} tasks ({2}), {3} simulated cycles ({4:F2} us), IO "
        "efficiency {5:F1}%\n",
        stats->kernel, stats->tasks, bangsim::funcTypeName(type),
        uint64_t(stats->cycles), stats->seconds * 1e6,
        stats->ioEfficiency * 100);
    return 0;
  }
};

} // namespace

int bangc::tools::runParse(llvm::ArrayRef<const char *> argv) {
  return parseOnly<RunCommand>(argv);
}

int bangc::tools::runMain(llvm::ArrayRef<const char *> argv) {
  return parseAndRun<RunCommand>(argv);
}
