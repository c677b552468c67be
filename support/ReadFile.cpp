//===- ReadFile.cpp - Reading an input file with a bound ------------------===//
#include "support/ReadFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace {

Error fileError(StringRef Path, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           (Path + ": " + What).str());
}

} // namespace

Expected<std::unique_ptr<MemoryBuffer>>
bangc::readInputFile(StringRef Path, uint64_t MaxBytes) {
  std::string P = Path.str();
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
  // below as not a regular file.
  int FD = ::open(P.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0)
    return fileError(Path, Twine("cannot open: ") + std::strerror(errno));
  struct stat St;
  if (::fstat(FD, &St) != 0) {
    int E = errno;
    ::close(FD);
    return fileError(Path, Twine("cannot open: ") + std::strerror(E));
  }
  if (!S_ISREG(St.st_mode)) {
    ::close(FD);
    return fileError(Path, S_ISDIR(St.st_mode)
                               ? "is a directory, not a file"
                               : "is not a regular file (a device, FIFO or "
                                 "socket cannot be read as an input)");
  }
  uint64_t Size = uint64_t(St.st_size);
  if (Size > MaxBytes) {
    ::close(FD);
    return fileError(Path, Twine("is ") + Twine(Size) +
                               " bytes, more than the limit of " +
                               Twine(MaxBytes) + " bytes");
  }
  // Exactly the size fstat gave: a file that grows meanwhile is read only
  // that far.
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getOpenFileSlice(
      FD, Path, Size, /*Offset=*/0);
  ::close(FD);
  if (!Buf)
    return fileError(Path, "cannot read: " + Buf.getError().message());
  return std::move(*Buf);
}
