//===- NativeDeviceLib.cpp - The device library compiled ahead of time ----===//
#include "codegen/NativeDeviceLib.h"
#include "codegen/HostTarget.h"

using namespace bangc;

bool NativeDeviceLibrary::matchesHost() const {
  return hostCPU() == cpu && hostFeatures() == features;
}
