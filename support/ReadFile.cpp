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

Error fileError(StringRef path, const Twine &what) {
  return createStringError(inconvertibleErrorCode(),
                           (path + ": " + what).str());
}

} // namespace

Expected<std::unique_ptr<MemoryBuffer>>
bangc::readInputFile(StringRef path, uint64_t maxBytes) {
  std::string p = path.str();
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
  // below as not a regular file.
  int fd = ::open(p.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return fileError(path, Twine("cannot open: ") + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return fileError(path, Twine("cannot open: ") + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return fileError(path, S_ISDIR(st.st_mode)
                               ? "is a directory, not a file"
                               : "is not a regular file (a device, FIFO or "
                                 "socket cannot be read as an input)");
  }
  uint64_t size = uint64_t(st.st_size);
  if (size > maxBytes) {
    ::close(fd);
    return fileError(path, Twine("is ") + Twine(size) +
                               " bytes, more than the limit of " +
                               Twine(maxBytes) + " bytes");
  }
  // Exactly the size fstat gave: a file that grows meanwhile is read only
  // that far.
  ErrorOr<std::unique_ptr<MemoryBuffer>> buf =
      MemoryBuffer::getOpenFileSlice(fd, path, size, /*Offset=*/0);
  ::close(fd);
  if (!buf)
    return fileError(path, "cannot read: " + buf.getError().message());
  return std::move(*buf);
}
