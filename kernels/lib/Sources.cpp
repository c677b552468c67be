//===- Sources.cpp - The embedded kernel sources --------------------------===//
#include "Internal.h"

extern const unsigned char mluop_kernel_tin_shift[];
extern const unsigned long mluop_kernel_tin_shift_size;
extern const unsigned char mluop_kernel_border_align[];
extern const unsigned long mluop_kernel_border_align_size;

std::string mluop::tinShiftSource() {
  return std::string(reinterpret_cast<const char *>(mluop_kernel_tin_shift),
                     mluop_kernel_tin_shift_size);
}

std::string mluop::borderAlignSource() {
  return std::string(reinterpret_cast<const char *>(mluop_kernel_border_align),
                     mluop_kernel_border_align_size);
}
