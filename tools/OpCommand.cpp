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

static const char *const head =
    "usage: bangc-sim op NAME [options] --in NAME=FILE.npy... "
    "--out NAME=FILE.npy...\n"
    "       bangc-sim op --list\n"
    "\n"
    "Runs an operator of the op library (the mlu-ops style C API of kernels/)\n"
    "on the simulated device: inputs from .npy files, outputs to .npy files.\n"
    "\n";

static const char *const tail =
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

/// --in, --out, --attr: KEY=VALUE into `into`, the last for a KEY.
Option pairOption(llvm::StringRef spelling, llvm::StringRef meta,
                  llvm::StringRef help,
                  std::map<std::string, std::string> &into) {
  std::string name = spelling.str(), want = "want " + meta.str();
  return custom(spelling, meta, help, [&into, name, want](llvm::StringRef v) {
    auto [key, value] = v.split('=');
    if (key.empty() || value.empty())
      return badValue(name, v, want);
    into[key.str()] = value.str();
    return std::string();
  });
}

} // namespace

namespace {

struct OpCommand {
  CommonOptions common;
  LaunchArgs launching;
  std::string name;
  std::map<std::string, std::string> ins, outs, attrs;
  bool list = false, noCache = false;
  const OpDef *op = nullptr;
  OpRun opRun; ///< its attributes, read by check()

  CommandLine commandLine();
  int check();
  int run();
};

} // namespace

int bangc::tools::opParse(llvm::ArrayRef<const char *> argv) {
  return parseOnly<OpCommand>(argv);
}

int bangc::tools::opMain(llvm::ArrayRef<const char *> argv) {
  return parseAndRun<OpCommand>(argv);
}

CommandLine OpCommand::commandLine() {
  std::vector<Option> rows = {
      flag("--list",
           "list the operators with their inputs, outputs and attributes",
           list),
      pairOption("--in", "NAME=FILE.npy", "an input tensor", ins),
      pairOption("--out", "NAME=FILE.npy",
                 "where to write an output (outputs not named are not "
                 "written)",
                 outs),
      pairOption("--attr", "KEY=VALUE", "an integer attribute", attrs)};
  for (Option &row : launching.options("the launches"))
    rows.push_back(std::move(row));
  rows.push_back(flag("--no-cache",
                      "compile the operator's kernels without the compile "
                      "cache (docs/cache.md)",
                      noCache));
  CommandLine cmd{"op", head, tail, 22};
  cmd.groups = {{"", std::move(rows)}, {"compile options", common.options()}};
  cmd.positional = onlyOne(name, "more than one operator name");
  return cmd;
}

/// Checks the command line against the operator's inputs, outputs and
/// attributes; no file is read.
int OpCommand::check() {
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
      opRun.attrs[at.name] = at.defaultValue;
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
    opRun.attrs[at.name] = v;
  }
  for (auto &[k, v] : attrs)
    if (!opRun.attrs.count(k))
      return usageError("op", name + " has no attribute '" + k + "'");
  return -1;
}

int OpCommand::run() {
  CompileWatchdog watchdog(common.limits); // the operator's kernels
  for (auto &[k, path] : ins) {
    auto array = readNpy(path);
    if (!array)
      return fail(llvm::toString(array.takeError()));
    opRun.inputs[k] = std::move(*array);
  }
  std::optional<bangsim::DeviceSpec> spec = common.loadDevice();
  if (!spec)
    return 1;
  mluOpHandle_t handle = nullptr;
  if (mluOpStatus_t s = mluOpCreateWithDevice(&handle, common.device.c_str()))
    return fail(llvm::formatv("cannot open device '{0}': {1}", common.device,
                              mluOpGetErrorString(s)));
  opRun.handle = handle;
  mluop::setCompileCache(handle, !noCache);
  bangsim::LaunchOptions &launch = launching.launch;
  launch.checkRaces = common.checkRaces;
  launch.isolate = !launching.noIsolate && !common.compile.debugInfo;
  mluop::setLaunchOptions(handle, launch);
  mluOpStatus_t status = op->run(opRun);
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
    std::string why = opRun.error.empty() ? "" : ": " + opRun.error;
    return status == MLUOP_STATUS_EXECUTION_FAILED
               ? (llvm::WithColor::error(llvm::errs(), "bangc-sim")
                      << name << " failed: " << mluOpGetErrorString(status)
                      << why << "\n",
                  3)
               : fail(name + " failed: " + mluOpGetErrorString(status) + why);
  }
  for (auto &[k, path] : outs)
    if (llvm::Error e = writeNpy(path, opRun.outputs.at(k)))
      return fail(llvm::toString(std::move(e)));
  if (!policy.empty())
    llvm::errs() << policy << "\n";
  if (!launched) {
    llvm::errs() << name << ": nothing to do (no launch)\n";
    return 0;
  }
  if (!launching.report(stats))
    return 1;
  llvm::errs() << llvm::formatv(
      "{0}: {1} tasks, {2} simulated cycles ({3:F2} us), IO efficiency "
      "{4:F1}%, compute efficiency {5:F1}%\n",
      stats.kernel, stats.tasks, uint64_t(stats.cycles), stats.seconds * 1e6,
      stats.ioEfficiency * 100, stats.computeEfficiency * 100);
  return 0;
}
