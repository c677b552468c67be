//===- FatBinary.cpp - The device image a host object embeds --------------===//
#include "driver/FatBinary.h"

#include "bangsim/KernelABI.h"

#include "llvm/Support/Endian.h"

#include <cstring>

using namespace bangsim;

namespace {

/// Header fields, by byte offset (docs/host-code.md).
enum : size_t {
  MagicAt = 0,
  VersionAt = 8,
  AbiAt = 12,
  TotalAt = 16,
  DeviceAt = 24,
  ObjectAt = 40,
  SourceAt = 56,
  HeaderBytes = 72,
};

uint64_t align8(uint64_t n) { return (n + 7) & ~uint64_t(7); }

} // namespace

llvm::SmallVector<char, 0> bangsim::writeFatBinary(const FatBinary &fat) {
  llvm::SmallVector<char, 0> out(HeaderBytes, 0);
  auto put32 = [&](size_t at, uint32_t v) {
    llvm::support::endian::write32le(out.data() + at, v);
  };
  auto put64 = [&](size_t at, uint64_t v) {
    llvm::support::endian::write64le(out.data() + at, v);
  };
  auto section = [&](size_t at, llvm::StringRef bytes) {
    uint64_t offset = out.size();
    out.append(bytes.begin(), bytes.end());
    out.resize(align8(out.size()), 0);
    put64(at, offset);
    put64(at + 8, bytes.size());
  };
  section(DeviceAt, fat.device);
  section(ObjectAt, fat.object);
  section(SourceAt, fat.sourceName);
  std::memcpy(out.data() + MagicAt, FatBinaryMagic, sizeof(FatBinaryMagic));
  put32(VersionAt, FatBinaryVersion);
  put32(AbiAt, BANGSIM_ABI_VERSION);
  put64(TotalAt, out.size());
  return out;
}

llvm::Expected<FatBinary> bangsim::readFatBinary(const void *image) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad device image: " + why);
  };
  if (!image)
    return fail("null");
  const char *bytes = static_cast<const char *>(image);
  if (std::memcmp(bytes + MagicAt, FatBinaryMagic, sizeof(FatBinaryMagic)))
    return fail("no BANGFAT1 magic (not compiled by bangc-sim?)");
  uint32_t version = llvm::support::endian::read32le(bytes + VersionAt);
  if (version != FatBinaryVersion)
    return fail("format version " + llvm::Twine(version) + ", expected " +
                llvm::Twine(FatBinaryVersion));
  uint32_t abi = llvm::support::endian::read32le(bytes + AbiAt);
  if (abi != BANGSIM_ABI_VERSION)
    return fail("compiled for kernel ABI " + llvm::Twine(abi) +
                ", this runtime has " + llvm::Twine(BANGSIM_ABI_VERSION) +
                "; recompile it");
  uint64_t total = llvm::support::endian::read64le(bytes + TotalAt);
  if (total < HeaderBytes)
    return fail("size " + llvm::Twine(total) + " is smaller than its header");
  FatBinary fat;
  for (auto [at, field] : {std::pair{size_t(DeviceAt), &fat.device},
                           std::pair{size_t(ObjectAt), &fat.object},
                           std::pair{size_t(SourceAt), &fat.sourceName}}) {
    uint64_t offset = llvm::support::endian::read64le(bytes + at);
    uint64_t size = llvm::support::endian::read64le(bytes + at + 8);
    if (offset < HeaderBytes || offset > total || size > total - offset)
      return fail("a section lies outside its " + llvm::Twine(total) +
                  " bytes");
    *field = llvm::StringRef(bytes + offset, size);
  }
  return fat;
}
