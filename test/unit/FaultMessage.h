//===- FaultMessage.h - The message of a faulting launch -------*- C++ -*-===//
#ifndef BANGC_TEST_FAULTMESSAGE_H
#define BANGC_TEST_FAULTMESSAGE_H

#include "bangsim/Device.h"

#include "llvm/Support/Error.h"

#include <string>

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

#endif // BANGC_TEST_FAULTMESSAGE_H
