//===- FaultMessage.h - The message of a faulting launch -------*- C++ -*-===//
//
// Helpers the fault tests share (FaultSuiteTest.cpp, DeviceLibFaultTest.cpp):
// compile a module of faulty kernels, launch one kernel by name, take the
// LaunchFault's message out of a failed launch, and check that a message
// holds its expected parts in order.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_TEST_FAULTMESSAGE_H
#define BANGC_TEST_FAULTMESSAGE_H

#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

/// The LaunchFault's message of a failed launch, or a line saying what else
/// the error was.
inline std::string faultMessage(llvm::Error e) {
  std::string message;
  llvm::handleAllErrors(
      std::move(e), [&](const bangsim::LaunchFault &f) { message = f.message; },
      [&](const llvm::ErrorInfoBase &other) {
        message = "not a fault: " + other.message();
      });
  return message;
}

/// The fault message of a launch, or a line saying it did not fault.
inline std::string faultMessage(llvm::Expected<bangsim::LaunchStats> stats) {
  if (stats)
    return "the launch did not fault";
  return faultMessage(stats.takeError());
}

/// Success if `message` holds each of `parts`, each after the one before.
inline ::testing::AssertionResult
holdsInOrder(const std::string &message,
             const std::vector<std::string> &parts) {
  size_t at = 0;
  for (const std::string &part : parts) {
    size_t found = message.find(part, at);
    if (found == std::string::npos)
      return ::testing::AssertionFailure() << "missing '" << part << "' in:\n"
                                           << message;
    at = found + part.size();
  }
  return ::testing::AssertionSuccess();
}

/// `source` compiled as `file`, or null after a test failure that shows the
/// diagnostics.
inline std::unique_ptr<bangsim::Module>
compileOrFail(const char *file, const std::string &source,
              const bangsim::DeviceSpec &spec,
              bangsim::CompileOptions options) {
  std::string diags;
  llvm::raw_string_ostream os(diags);
  options.diagnostics = &os;
  auto m = bangsim::Module::compileString(file, source, spec, options);
  if (!m) {
    ADD_FAILURE() << llvm::toString(m.takeError()) << diags;
    return nullptr;
  }
  return std::move(*m);
}

/// Launches kernel `name` of `m` on `device`.
inline llvm::Expected<bangsim::LaunchStats>
launchByName(bangsim::Device &device, const bangsim::Module &m,
             llvm::StringRef name, std::vector<bangsim::KernelArg> args,
             bangsim::Dim3 dim, bangsim::FuncType type,
             bangsim::LaunchOptions options = {}) {
  auto k = m.findKernel(name);
  if (!k)
    return k.takeError();
  return device.launch(**k, m.staticLayout(), dim, type, args, options);
}

#endif // BANGC_TEST_FAULTMESSAGE_H
