//===- DeviceSpec.cpp - Device specs: built-in profiles and JSON ----------===//
#include "bangsim/DeviceSpec.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace bangsim;
using llvm::Error;
using llvm::Expected;

namespace {

// Built-in profiles. Numbers are public figures where they exist; the rest
// are estimates, marked as such.
//
// mlu270: Cambricon MLU270 (MLUv02). 4 clusters x 4 IPU cores, 16 GB DDR4 at
//   102 GB/s, 1 GHz (Cambricon MLU270 product brief). NRAM 512 KiB and WRAM
//   1 MiB per core, SRAM 2 MiB per cluster (Cambricon BANG C developer guide,
//   MLU270 memory table). Per-core DMA bandwidth, latency and vector widths
//   are estimates.
// mlu370: Cambricon MLU370 (MLUv03). 4 clusters x 4 cores (mlu-ops
//   BANG-C-OPS-Develop-Guide.md §5.3.1, MLU370-X8), 24 GB LPDDR5 at
//   307.2 GB/s, 72 TFLOPS FP16 (MLU370-S4 product brief); 1.3 GHz, the X8's
//   clock (Develop-Guide §5.3.4: S4 360-1000 MHz, X4 500-1000, X8 1300).
//   NRAM 768 KiB, WRAM 1 MiB per core, SRAM 4 MiB per cluster (BANG C guide,
//   MLU370 memory table). 72 TFLOPS / 16 cores / 1.3 GHz ~ 1728 fp16 MACs per
//   cycle per core, rounded to 2048. GDRAM's 64 B blocks (§5.3.3) and the
//   vector unit's 128 B per cycle (§5.3.4) are the guide's; the rest are
//   assumptions, listed with their sources in bangsim/DeviceSpec.def.
// mlu370-s4: the same chip on the MLU370-S4 (and X4) board, at 1.0 GHz,
//   the top of the S4's and X4's clock ranges (Develop-Guide §5.3.4). The
//   per-cycle rates are the chip's; GDRAM's 307.2 GB/s is the board's, so a
//   cycle moves 1.3x the bytes: compute takes the same cycles and 1.3x the
//   time, copies fewer cycles.
// mlu290: Cambricon MLU290-M5 (MLUv02, the training card of that generation).
//   64 cores, which we lay out as 16 clusters x 4 cores like MLU270's; 32 GB
//   HBM2 at 1228 GB/s (MLU290-M5 product brief). Assumptions: the clock,
//   the core's memories (taken as MLU270's: same MLUv02 core) and every rate
//   not named above, scaled from mlu270.
// mlu590: Cambricon MLU590 (MLUv05, the cncc arch mtp_592). Few figures are
//   published; all of these are assumptions: 8 clusters x 4 cores, HBM at
//   1.6 TB/s, 1.5 GHz, NRAM 512 KiB, WRAM 512 KiB per core, SRAM 2 MiB per
//   cluster (kernel code must read __MLU_*_SIZE__, not hard-code them), and
//   mlu370's per-core rates.
// tiny: a small made-up card whose 16 KiB NRAM forces kernels onto their
//   split paths in tests.
const char *const mlu270JSON = R"({
  "name": "mlu270", "clusters": 4, "cores_per_cluster": 4,
  "nram_kib": 512, "wram_kib": 1024, "sram_kib": 2048, "gdram_mib": 16384,
  "clock_ghz": 1.0, "gdram_gbps": 102.4, "gdram_core_gbps": 25.6,
  "onchip_gbps": 256, "dma_latency_cycles": 600, "nram_banks": 0,
  "vector_bytes_per_cycle": {"move": 128, "alu": 128, "mul": 128, "div": 16,
    "cvt": 64, "act": 32, "reduce": 64, "atomic": 4},
  "macs_per_cycle": 1024, "scalar_ipc": 1.0
})";
const char *const mlu370JSON = R"({
  "name": "mlu370", "clusters": 4, "cores_per_cluster": 4,
  "nram_kib": 768, "wram_kib": 1024, "sram_kib": 4096, "gdram_mib": 24576,
  "clock_ghz": 1.3, "gdram_gbps": 307.2, "gdram_core_gbps": 38.4,
  "onchip_gbps": 512, "dma_latency_cycles": 500, "gdram_access_bytes": 64,
  "gdram_write_efficiency": 0.9, "gdram_strided_read_efficiency": 0.8,
  "gdram_strided_write_efficiency": 0.7, "nram_banks": 0,
  "vector_bytes_per_cycle": {"move": 128, "alu": 128, "mul": 128, "div": 32,
    "cvt": 128, "act": 64, "reduce": 128, "atomic": 8},
  "vector_granule_bytes": 128, "compute_startup_cycles": 8,
  "macs_per_cycle": 2048, "scalar_ipc": 1.0
})";
const char *const mlu290JSON = R"({
  "name": "mlu290", "clusters": 16, "cores_per_cluster": 4,
  "nram_kib": 512, "wram_kib": 1024, "sram_kib": 2048, "gdram_mib": 32768,
  "clock_ghz": 1.3, "gdram_gbps": 1228.8, "gdram_core_gbps": 38.4,
  "onchip_gbps": 256, "dma_latency_cycles": 600, "nram_banks": 0,
  "vector_bytes_per_cycle": {"move": 128, "alu": 128, "mul": 128, "div": 16,
    "cvt": 64, "act": 32, "reduce": 64, "atomic": 4},
  "macs_per_cycle": 2048, "scalar_ipc": 1.0
})";
const char *const mlu590JSON = R"({
  "name": "mlu590", "clusters": 8, "cores_per_cluster": 4,
  "nram_kib": 512, "wram_kib": 512, "sram_kib": 2048, "gdram_mib": 81920,
  "clock_ghz": 1.5, "gdram_gbps": 1600, "gdram_core_gbps": 51.2,
  "onchip_gbps": 512, "dma_latency_cycles": 500, "nram_banks": 0,
  "vector_bytes_per_cycle": {"move": 256, "alu": 256, "mul": 256, "div": 32,
    "cvt": 128, "act": 64, "reduce": 128, "atomic": 8},
  "macs_per_cycle": 4096, "scalar_ipc": 1.0
})";
const char *const tinyJSON = R"({
  "name": "tiny", "clusters": 2, "cores_per_cluster": 2,
  "nram_kib": 16, "wram_kib": 16, "sram_kib": 64, "gdram_mib": 1024,
  "clock_ghz": 1.0, "gdram_gbps": 32, "gdram_core_gbps": 16,
  "onchip_gbps": 64, "dma_latency_cycles": 100, "nram_banks": 4,
  "vector_bytes_per_cycle": {"move": 64, "alu": 64, "mul": 64, "div": 8,
    "cvt": 32, "act": 16, "reduce": 32, "atomic": 4},
  "macs_per_cycle": 256, "scalar_ipc": 1.0
})";

struct Builtin {
  const char *name;
  const char *json;
};
const Builtin builtins[] = {
    {"mlu270", mlu270JSON}, {"mlu290", mlu290JSON}, {"mlu370", mlu370JSON},
    {"mlu590", mlu590JSON}, {"tiny", tinyJSON}};

// Boards that clock a built-in chip differently: the chip's spec with the
// board's name and clock.
struct Board {
  const char *name;
  const char *chip;
  double clockGHz;
};
const Board boards[] = {{"mlu370-s4", "mlu370", 1.0}};

// cncc's names of the architectures (--bang-mlu-arch=mtp_NNN, and the
// generation names --bang-arch=compute_NN), the built-in profile each
// selects and its __BANG_ARCH__.
struct BangArch {
  const char *cnccName;
  const char *device;
  int arch;
};
const BangArch bangArches[] = {
    {"mtp_270", "mlu270", 270},   {"mtp_290", "mlu290", 290},
    {"mtp_372", "mlu370", 372},   {"mtp_592", "mlu590", 592},
    {"compute_20", "mlu270", 270}, {"compute_30", "mlu370", 372},
    {"compute_50", "mlu590", 592}};

/// The vector_bytes_per_cycle keys: the table's BANGSIM_DEVICE_RATE rows.
struct RateKey {
  BangOpClass opClass;
  const char *key;
};
const RateKey rateKeys[] = {
#define BANGSIM_DEVICE_RATE(CLASS, KEY, ASSUMED, SOURCE) {CLASS, KEY},
#include "bangsim/DeviceSpec.def"
};

Error specError(llvm::StringRef origin, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "device spec " + origin + ": " + msg);
}

/// The deepest nesting of arrays and objects in a spec: a spec needs 2.
/// llvm::json parses (and destroys) values recursively, so a document nested
/// 200000 deep would overflow the stack; it is refused before parsing.
constexpr int MaxJsonDepth = 64;

/// Whether `json` nests arrays and objects deeper than `limit` (brackets
/// inside strings do not count).
bool nestsDeeperThan(llvm::StringRef json, int limit) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

/// The largest spec file read: a spec is well under a kilobyte.
constexpr uint64_t MaxSpecFileBytes = 1 << 20;

/// Reads field `key` of `obj` into `out` if present; it must be a number in
/// [lo, hi].
Error readNumber(const llvm::json::Object &obj, llvm::StringRef key,
                 double &out, double lo, double hi, llvm::StringRef origin) {
  const llvm::json::Value *v = obj.get(key);
  if (!v)
    return Error::success();
  std::optional<double> d = v->getAsNumber();
  if (!d)
    return specError(origin, "'" + key + "' must be a number");
  if (!(*d >= lo && *d <= hi))
    return specError(origin, llvm::formatv("'{0}' is {1}, outside [{2}, {3}]",
                                           key, llvm::format("%g", *d),
                                           llvm::format("%g", lo),
                                           llvm::format("%g", hi)));
  out = *d;
  return Error::success();
}

Error readInt(const llvm::json::Object &obj, llvm::StringRef key, int64_t &out,
              double lo, double hi, llvm::StringRef origin, int64_t scale) {
  double d = double(out) / scale;
  if (Error e = readNumber(obj, key, d, lo, hi, origin))
    return e;
  if (d != double(int64_t(d)))
    return specError(origin, "'" + key + "' must be a whole number");
  out = int64_t(d) * scale;
  return Error::success();
}

// How JSON gives a field (the table's KIND column): readField reads one
// kind into its field's type.
enum class Kind { Text, Count, KiB, MiB, Real, Rates };

int64_t unitOf(Kind kind) {
  return kind == Kind::KiB ? 1024 : kind == Kind::MiB ? 1024 * 1024 : 1;
}

Error readField(const llvm::json::Object &obj, llvm::StringRef key, Kind,
                std::string &out, double, double, llvm::StringRef origin) {
  // A name that is not a string is the origin's.
  out = obj.getString(key).value_or(origin).str();
  return Error::success();
}

Error readField(const llvm::json::Object &obj, llvm::StringRef key, Kind kind,
                int64_t &out, double lo, double hi, llvm::StringRef origin) {
  return readInt(obj, key, out, lo, hi, origin, unitOf(kind));
}

Error readField(const llvm::json::Object &obj, llvm::StringRef key, Kind kind,
                int &out, double lo, double hi, llvm::StringRef origin) {
  int64_t wide = out;
  if (Error e = readInt(obj, key, wide, lo, hi, origin, unitOf(kind)))
    return e;
  out = int(wide);
  return Error::success();
}

Error readField(const llvm::json::Object &obj, llvm::StringRef key, Kind,
                double &out, double lo, double hi, llvm::StringRef origin) {
  return readNumber(obj, key, out, lo, hi, origin);
}

/// An object of rates by class key; the classes it omits are 64 bytes a
/// cycle (BANG_OP_MAC, the matrix unit's, is macs_per_cycle: 0 here).
Error readField(const llvm::json::Object &obj, llvm::StringRef key, Kind,
                VectorRates &out, double lo, double hi,
                llvm::StringRef origin) {
  out.fill(64);
  out[BANG_OP_MAC] = 0;
  const llvm::json::Value *v = obj.get(key);
  if (!v)
    return Error::success();
  const llvm::json::Object *classes = v->getAsObject();
  if (!classes)
    return specError(origin, "'" + key + "' must be an object");
  for (const auto &kv : *classes) {
    const RateKey *rate =
        std::find_if(std::begin(rateKeys), std::end(rateKeys),
                     [&](const RateKey &r) { return kv.first == r.key; });
    if (rate == std::end(rateKeys))
      return specError(origin, "unknown op class '" + kv.first.str() +
                                   "' in '" + key + "'");
    if (Error e =
            readNumber(*classes, kv.first, out[rate->opClass], lo, hi, origin))
      return e;
  }
  return Error::success();
}

/// A field as the JSON form prints it: sizes in their unit, numbers as
/// given (llvm::json prints doubles with 17 digits: 102.40000000000001).
std::string printed(const std::string &v, Kind) {
  // Quoted and escaped as JSON: a name may hold quotes, backslashes and
  // control characters (found by bangc-fuzz-spec).
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::json::Value(llvm::json::fixUTF8(v));
  return out;
}
std::string printed(double v, Kind) {
  return llvm::formatv("{0}", llvm::format("%g", v)).str();
}
std::string printed(int64_t v, Kind kind) {
  return std::to_string(v / unitOf(kind));
}
std::string printed(int v, Kind kind) { return printed(int64_t(v), kind); }
std::string printed(const VectorRates &v, Kind kind) {
  std::string classes;
  for (const RateKey &r : rateKeys)
    classes += llvm::formatv("{0}\"{1}\": {2}", classes.empty() ? "" : ", ",
                             r.key, printed(v[r.opClass], kind));
  return "{" + classes + "}";
}

} // namespace

std::vector<std::string> bangsim::builtinDeviceNames() {
  std::vector<std::string> names;
  for (const Builtin &b : builtins)
    names.push_back(b.name);
  for (const Board &b : boards)
    names.push_back(b.name);
  return names;
}

Expected<DeviceSpec> bangsim::parseDeviceSpec(llvm::StringRef json,
                                              llvm::StringRef origin) {
  if (nestsDeeperThan(json, MaxJsonDepth))
    return specError(origin, llvm::formatv("invalid JSON: arrays and objects "
                                           "nested deeper than {0}",
                                           MaxJsonDepth));
  Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return specError(origin, "invalid JSON: " + toString(parsed.takeError()));
  const llvm::json::Object *obj = parsed->getAsObject();
  if (!obj)
    return specError(origin, "the top level must be an object");

  static const char *const known[] = {
#define BANGSIM_DEVICE_FIELD(FIELD, TYPE, DEFAULT, KEY, ...) KEY,
#include "bangsim/DeviceSpec.def"
      "comment"};
  for (const auto &kv : *obj)
    if (std::find_if(std::begin(known), std::end(known), [&](const char *k) {
          return kv.first == k;
        }) == std::end(known))
      return specError(origin, "unknown field '" + kv.first.str() + "'");

  DeviceSpec spec;
#define BANGSIM_DEVICE_FIELD(FIELD, TYPE, DEFAULT, KEY, KIND, LO, HI, ...)     \
  if (Error e = readField(*obj, KEY, Kind::KIND, spec.FIELD, LO, HI, origin))  \
    return std::move(e);
#include "bangsim/DeviceSpec.def"
  if (spec.nramBanks && spec.nramBytes % spec.nramBanks)
    return specError(origin, "nram_kib must divide evenly into nram_banks");
  if (spec.gdramCoreGBps > spec.gdramGBps)
    return specError(origin,
                     llvm::formatv("'gdram_core_gbps' ({0}) exceeds 'gdram_gbps' "
                                   "({1}): one core cannot outrun the card",
                                   llvm::format("%g", spec.gdramCoreGBps),
                                   llvm::format("%g", spec.gdramGBps)));

  // Develop-Guide §5.3.3: contiguous read > contiguous write > strided read
  // > strided write.
  if (!(spec.gdramStridedWriteEfficiency <= spec.gdramStridedReadEfficiency &&
        spec.gdramStridedReadEfficiency <= spec.gdramWriteEfficiency))
    return specError(origin,
                     llvm::formatv("GDRAM efficiencies must keep the order "
                                   "contiguous read (1) >= "
                                   "'gdram_write_efficiency' ({0}) >= "
                                   "'gdram_strided_read_efficiency' ({1}) >= "
                                   "'gdram_strided_write_efficiency' ({2})",
                                   llvm::format("%g", spec.gdramWriteEfficiency),
                                   llvm::format("%g", spec.gdramStridedReadEfficiency),
                                   llvm::format("%g", spec.gdramStridedWriteEfficiency)));

  return spec;
}

std::string bangsim::deviceForBangArch(llvm::StringRef cnccArch) {
  for (const BangArch &a : bangArches)
    if (cnccArch == a.cnccName)
      return a.device;
  return "";
}

int bangsim::bangArch(const DeviceSpec &spec) {
  for (const BangArch &a : bangArches)
    if (spec.name == a.device)
      return a.arch;
  return 372;
}

Expected<DeviceSpec> bangsim::loadDeviceSpec(llvm::StringRef nameOrPath) {
  std::string fromArch = deviceForBangArch(nameOrPath);
  if (!fromArch.empty())
    nameOrPath = fromArch;
  for (const Builtin &b : builtins)
    if (nameOrPath == b.name)
      return parseDeviceSpec(b.json, b.name);
  for (const Board &b : boards) {
    if (nameOrPath != b.name)
      continue;
    Expected<DeviceSpec> spec = loadDeviceSpec(b.chip);
    if (spec) {
      spec->name = b.name;
      spec->clockGHz = b.clockGHz;
    }
    return spec;
  }
  // Only a regular file of bounded size: a FIFO or /dev/zero named as a
  // spec is an error, not a block or unbounded memory.
  llvm::sys::fs::file_status status;
  std::error_code statError = llvm::sys::fs::status(nameOrPath, status);
  if (!statError && status.type() != llvm::sys::fs::file_type::regular_file)
    return specError(nameOrPath, "cannot read: not a regular file");
  if (!statError && status.getSize() > MaxSpecFileBytes)
    return specError(nameOrPath, llvm::formatv("cannot read: larger than "
                                               "{0} bytes",
                                               MaxSpecFileBytes));
  auto buffer = llvm::MemoryBuffer::getFile(nameOrPath);
  if (!buffer)
    return specError(nameOrPath, "cannot read: " + buffer.getError().message() +
                                     " (built-in devices: mlu270, mlu290, "
                                     "mlu370, mlu590, tiny, or mtp_NNN)");
  return parseDeviceSpec((*buffer)->getBuffer(), nameOrPath);
}

std::vector<SpecSource> bangsim::deviceSpecSources() {
  std::vector<SpecSource> sources;
  // A field's row, or for the rates each rate's row after it.
  std::string rates;
#define BANGSIM_DEVICE_FIELD(FIELD, TYPE, DEFAULT, KEY, KIND, LO, HI, ASSUMED, \
                             SOURCE)                                           \
  if (Kind::KIND == Kind::Rates)                                               \
    rates = KEY;                                                               \
  else if (Kind::KIND != Kind::Text)                                           \
    sources.push_back({KEY, ASSUMED, SOURCE});
#define BANGSIM_DEVICE_RATE(CLASS, KEY, ASSUMED, SOURCE)                       \
  sources.push_back({rates + "." + KEY, ASSUMED, SOURCE});
#include "bangsim/DeviceSpec.def"
  return sources;
}

const DeviceSpec &bangsim::defaultDeviceSpec() {
  static const DeviceSpec spec = llvm::cantFail(loadDeviceSpec("mlu370"));
  return spec;
}

std::string bangsim::deviceSpecToJSON(const DeviceSpec &spec) {
  std::string out = "{";
#define BANGSIM_DEVICE_FIELD(FIELD, TYPE, DEFAULT, KEY, KIND, ...)             \
  out += std::string(out.size() > 1 ? ",\n" : "\n") +                          \
         "  \"" KEY "\": " + printed(spec.FIELD, Kind::KIND);
#include "bangsim/DeviceSpec.def"
  return out + "\n}";
}
