//===- OpCommand.cpp - bangc-sim op ---------------------------------------===//
//
// Runs a library operator (kernels/, the mlu-ops style C API) on .npy files.
//
//===----------------------------------------------------------------------===//
#include "tools/Commands.h"
#include "tools/CommonOptions.h"
#include "tools/CompileWatchdog.h"
#include "tools/OpRegistry.h"

#include "mlu_op.h"
#include "mlu_op_sim.h"

#include "bangsim/Stats.h"
#include "support/Npy.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"

#include <map>

using namespace bangc;
using namespace bangc::tools;

static const char *const help =
    "usage: bangc-sim op NAME [options] --in NAME=FILE.npy... "
    "--out NAME=FILE.npy...\n"
    "       bangc-sim op --list\n"
    "\n"
    "Runs an operator of the op library (the mlu-ops style C API of kernels/)\n"
    "on the simulated device: inputs from .npy files, outputs to .npy files.\n"
    "\n"
    "  --list              list the operators with their inputs, outputs and\n"
    "                      attributes\n"
    "  --in NAME=FILE      an input tensor\n"
    "  --out NAME=FILE     where to write an output (outputs not named are\n"
    "                      not written)\n"
    "  --attr KEY=VALUE    an integer attribute\n"
    "  --device SPEC       mlu270, mlu370 (default), tiny, or a JSON spec\n"
    "  --trace FILE.json   write a Chrome trace of the operator's launches\n"
    "  --profile           print where the simulated time went\n"
    "  --stats-json FILE   write the launch statistics as JSON\n"
    "  --threads N         host threads running the simulated cores\n"
    "  --timeout SECONDS   stop a kernel that runs longer than this (wall\n"
    "                      clock: the launch's worker process is ended)\n"
    "  --no-isolate        run the launches in this process, not in a worker\n"
    "                      process under a system-call filter (the default\n"
    "                      but with -g; docs/isolation.md)\n"
    "  --check=race        compile the kernels with --check and report data\n"
    "                      races (docs/device.md): a device fault (exit 3)\n"
    "  --no-cache          compile the operator's kernels without the compile\n"
    "                      cache (docs/cache.md)\n"
    "\n"
    "The operator's policy (how it split the work) and its simulated time go\n"
    "to stderr. Exit status: 0 success, 1 bad input or parameter (the\n"
    "operator's status and reason are printed), 2 usage error, 3 device\n"
    "fault.\n";

namespace {

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "bangc-sim") << message << "\n";
  return 1;
}

void listOps() {
  for (const OpDef &op : registeredOps()) {
    llvm::outs() << op.name << "\n    " << op.summary << "\n    inputs:";
    for (const std::string &n : op.inputs)
      llvm::outs() << " " << n;
    llvm::outs() << "\n    outputs:";
    for (const std::string &n : op.outputs)
      llvm::outs() << " " << n;
    if (!op.attrs.empty()) {
      llvm::outs() << "\n    attributes:";
      for (const OpAttr &a : op.attrs)
        llvm::outs() << " " << a.name << (a.required ? "" : "?");
    }
    llvm::outs() << "\n";
  }
}

bool splitPair(llvm::StringRef text, std::string &key, std::string &value) {
  auto [k, v] = text.split('=');
  if (k.empty() || v.empty() || k.size() == text.size())
    return false;
  key = k.str();
  value = v.str();
  return true;
}

} // namespace

namespace {

struct OpCommand {
  CommonOptions common;
  std::string name, tracePath, statsPath;
  std::map<std::string, std::string> ins, outs, attrs;
  bool profile = false, list = false, noCache = false, noIsolate = false;
  bangsim::LaunchOptions launch;
  const OpDef *op = nullptr;
  OpRun run; ///< its attributes, read by parse()

  int parse(llvm::ArrayRef<const char *> argv);
  int execute();
};

} // namespace

int bangc::tools::opParse(llvm::ArrayRef<const char *> argv) {
  return OpCommand().parse(argv);
}

int bangc::tools::opMain(llvm::ArrayRef<const char *> argv) {
  OpCommand cmd;
  int parsed = cmd.parse(argv);
  if (parsed >= 0)
    return parsed;
  CompileWatchdog watchdog(cmd.common.limits); // the operator's kernels
  return cmd.execute();
}

/// Reads the command line and checks it against the operator's inputs,
/// outputs and attributes; no file is read.
int OpCommand::parse(llvm::ArrayRef<const char *> argv) {
  Args a(argv);
  while (!a.done()) {
    if (a.flag("--help") || a.flag("-h")) {
      llvm::outs() << help << "\n" << CompileLimitsHelp;
      return 0;
    }
    if (a.flag("--list")) {
      list = true;
      continue;
    }
    if (common.parse(a))
      continue;
    std::string k, v;
    if (auto x = a.value("--in")) {
      if (!splitPair(*x, k, v))
        return usageError("op", "bad --in '" + *x + "': want NAME=FILE.npy");
      ins[k] = v;
    } else if (auto x = a.value("--out")) {
      if (!splitPair(*x, k, v))
        return usageError("op", "bad --out '" + *x + "': want NAME=FILE.npy");
      outs[k] = v;
    } else if (auto x = a.value("--attr")) {
      if (!splitPair(*x, k, v))
        return usageError("op", "bad --attr '" + *x + "': want KEY=VALUE");
      attrs[k] = v;
    } else if (auto x = a.value("--trace")) {
      tracePath = *x;
      launch.trace = true;
    } else if (auto x = a.value("--stats-json")) {
      statsPath = *x;
    } else if (a.flag("--profile")) {
      profile = true;
    } else if (a.flag("--no-cache")) {
      noCache = true;
    } else if (a.flag("--no-isolate")) {
      noIsolate = true;
    } else if (auto x = a.value("--threads")) {
      if (llvm::StringRef(*x).getAsInteger(10, launch.hostThreads) ||
          launch.hostThreads == 0)
        return usageError("op", "bad --threads '" + *x + "'");
    } else if (auto x = a.value("--timeout")) {
      std::string error = parseTimeout(*x, launch.timeoutSeconds);
      if (!error.empty())
        return usageError("op", error);
    } else if (auto x = a.positional()) {
      if (!name.empty())
        return usageError("op", "more than one operator name");
      name = *x;
    } else {
      return usageError("op", a.error.empty()
                                  ? "unknown option '" + a.peek() + "'"
                                  : a.error);
    }
  }
  if (!a.error.empty())
    return usageError("op", a.error);
  if (list) {
    listOps();
    return 0;
  }
  if (name.empty())
    return usageError("op", "no operator name (see 'bangc-sim op --list')");
  op = findOp(name);
  if (!op)
    return usageError("op", "unknown operator '" + name +
                                "' (see 'bangc-sim op --list')");
  for (const std::string &in : op->inputs)
    if (!ins.count(in))
      return usageError("op", name + " needs --in " + in + "=FILE.npy");
  for (auto &[k, v] : ins)
    if (!llvm::is_contained(op->inputs, k))
      return usageError("op", name + " has no input '" + k + "'");
  for (auto &[k, v] : outs)
    if (!llvm::is_contained(op->outputs, k))
      return usageError("op", name + " has no output '" + k + "'");
  for (const OpAttr &at : op->attrs) {
    auto it = attrs.find(at.name);
    if (it == attrs.end()) {
      if (at.required)
        return usageError("op", name + " needs --attr " + at.name + "=VALUE");
      run.attrs[at.name] = at.defaultValue;
      continue;
    }
    int64_t v;
    if (llvm::StringRef(it->second).getAsInteger(0, v))
      return usageError("op", "bad --attr " + at.name + " value '" +
                                  it->second + "': want an integer");
    // The C API takes every attribute as an int: 4294967306 is not 10.
    if (v < INT32_MIN || v > INT32_MAX)
      return usageError("op", "bad --attr " + at.name + " value '" +
                                  it->second + "': outside [" +
                                  std::to_string(INT32_MIN) + ", " +
                                  std::to_string(INT32_MAX) + "]");
    run.attrs[at.name] = v;
  }
  for (auto &[k, v] : attrs)
    if (!run.attrs.count(k))
      return usageError("op", name + " has no attribute '" + k + "'");
  return -1;
}

int OpCommand::execute() {
  for (auto &[k, path] : ins) {
    auto array = readNpy(path);
    if (!array)
      return fail(llvm::toString(array.takeError()));
    run.inputs[k] = std::move(*array);
  }
  std::optional<bangsim::DeviceSpec> spec = common.loadDevice();
  if (!spec)
    return 1;
  mluOpHandle_t handle = nullptr;
  if (mluOpStatus_t s = mluOpCreateWithDevice(&handle, common.device.c_str()))
    return fail(llvm::formatv("cannot open device '{0}': {1}", common.device,
                              mluOpGetErrorString(s)));
  run.handle = handle;
  mluop::setCompileCache(handle, !noCache);
  launch.checkRaces = common.checkRaces;
  launch.isolate = !noIsolate && !common.compile.debugInfo;
  mluop::setLaunchOptions(handle, launch);
  mluOpStatus_t status = op->run(run);
  std::string policy = mluOpGetLastPolicy(handle);
  bangsim::LaunchStats stats = mluop::mergedLastLaunches(handle);
  bool launched = !mluop::lastLaunches(handle).empty();
  // Trace event names point into the compiled modules: keep the handle (and
  // its modules) alive until the trace is written.
  struct Destroy {
    mluOpHandle_t h;
    ~Destroy() { mluOpDestroy(h); }
  } destroy{handle};
  if (status != MLUOP_STATUS_SUCCESS) {
    std::string why = run.error.empty() ? "" : ": " + run.error;
    return status == MLUOP_STATUS_EXECUTION_FAILED
               ? (llvm::WithColor::error(llvm::errs(), "bangc-sim")
                      << name << " failed: " << mluOpGetErrorString(status)
                      << why << "\n",
                  3)
               : fail(name + " failed: " + mluOpGetErrorString(status) + why);
  }
  for (auto &[k, path] : outs)
    if (llvm::Error e = writeNpy(path, run.outputs.at(k)))
      return fail(llvm::toString(std::move(e)));
  if (!policy.empty())
    llvm::errs() << policy << "\n";
  if (!launched) {
    llvm::errs() << name << ": nothing to do (no launch)\n";
    return 0;
  }
  if (profile)
    bangsim::printProfile(llvm::outs(), stats);
  if (!tracePath.empty())
    if (llvm::Error e = bangsim::writeChromeTrace(tracePath, stats))
      return fail(llvm::toString(std::move(e)));
  if (!statsPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(statsPath, ec);
    if (ec)
      return fail("cannot write '" + statsPath + "'");
    os << bangsim::statsToJSON(stats) << "\n";
  }
  llvm::errs() << llvm::formatv(
      "{0}: {1} tasks, {2} simulated cycles ({3:F2} us), IO efficiency "
      "{4:F1}%, compute efficiency {5:F1}%\n",
      stats.kernel, stats.tasks, uint64_t(stats.cycles), stats.seconds * 1e6,
      stats.ioEfficiency * 100, stats.computeEfficiency * 100);
  return 0;
}
