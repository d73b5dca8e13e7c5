#include "instrument/input_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "instrument/error.hpp"

namespace instrument {

namespace {

constexpr std::size_t kQuotedBytes = 24;

std::string file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Closes on every path out, including the throws.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(Descriptor&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  Descriptor& operator=(Descriptor&&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Opens without blocking (a FIFO with no writer would block a plain open) and checks that
// what it opened is a regular file; returns the descriptor and its size.
Descriptor open_regular(const std::string& path, const std::string& what, off_t& size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    if (err == ENXIO) {  // a socket, or a FIFO opened for writing: nothing to read
      throw InputError(path, "", "cannot open " + what + ": not a regular file");
    }
    throw InputError(path, "", "cannot open " + what + ": " + std::strerror(err));
  }
  Descriptor d(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    throw InputError(path, "", "cannot read " + what + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    throw InputError(path, "", what + " is " + file_kind(st.st_mode) +
                                   ", not a regular file; expected a regular file");
  }
  size = st.st_size;
  return d;
}

std::string size_limit(std::size_t max_bytes) { return std::to_string(max_bytes) + " bytes"; }

void require_at_most(const std::string& path, const std::string& what, off_t size,
                     std::size_t max_bytes) {
  if (size < 0 || static_cast<std::uint64_t>(size) > max_bytes) {
    throw InputError(path, "", what + " is " + std::to_string(size) +
                                   " bytes, more than the " + size_limit(max_bytes) +
                                   " expected of one");
  }
}

}  // namespace

std::string read_input_file(const std::string& path, const std::string& what,
                            std::size_t max_bytes) {
  off_t size = 0;
  const Descriptor d = open_regular(path, what, size);
  require_at_most(path, what, size, max_bytes);
  // Read to the end, not to st_size: the file may change while it is read, and a file that
  // grows past the limit is refused like one that was too large from the start.
  std::string text;
  text.reserve(static_cast<std::size_t>(size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(d.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(path, "", "cannot read " + what + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      throw InputError(path, "", what + " grew past " + size_limit(max_bytes) +
                                     " while being read; expected a file that does not change");
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

MappedInputFile::MappedInputFile(const std::string& path, const std::string& what,
                                 std::size_t max_bytes) {
  off_t size = 0;
  const Descriptor d = open_regular(path, what, size);
  require_at_most(path, what, size, max_bytes);
  if (size == 0) return;  // mmap refuses a length of 0; the empty view is the whole file
  void* p = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, d.get(), 0);
  if (p == MAP_FAILED)
    throw InputError(path, "", "cannot read " + what + ": " + std::strerror(errno));
  // The parsers read front to back: ask the kernel to read ahead and drop pages behind.
  ::madvise(p, static_cast<std::size_t>(size), MADV_SEQUENTIAL);
  data_ = static_cast<const char*>(p);
  size_ = static_cast<std::size_t>(size);
}

MappedInputFile::~MappedInputFile() {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
}

void require_regular_input(const std::string& path, const std::string& what) {
  off_t size = 0;
  (void)open_regular(path, what, size);
}

std::string quote_token(std::string_view token) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string q = "\"";
  const std::size_t n = token.size() < kQuotedBytes ? token.size() : kQuotedBytes;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
      q += "\\x";
      q += kHex[c >> 4];
      q += kHex[c & 0xf];
    } else {
      q += static_cast<char>(c);
    }
  }
  if (token.size() > kQuotedBytes) q += "...";
  return q + "\"";
}

}  // namespace instrument
