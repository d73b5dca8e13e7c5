#include "results_seal.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "instrument/error.hpp"

namespace instrument::seal {

namespace {

constexpr std::string_view kMagic = "suite-results-seal-1";

std::string io_error(const std::string& path, const char* doing) {
  return "sealing " + path + ": " + doing + ": " + std::strerror(errno);
}

// zlib's crc32 takes a uInt length: feed it in pieces below 2^30.
std::uint32_t crc32_update(std::uint32_t crc, const char* data, std::size_t n) {
  uLong c = crc;
  while (n > 0) {
    const std::size_t piece = n < (std::size_t{1} << 30) ? n : (std::size_t{1} << 30);
    c = ::crc32(c, reinterpret_cast<const Bytef*>(data), static_cast<uInt>(piece));
    data += piece;
    n -= piece;
  }
  return static_cast<std::uint32_t>(c);
}

std::string header_text(std::uint32_t crc, std::uint64_t bytes) {
  char text[96];
  std::snprintf(text, sizeof text, "%s crc32 %08" PRIx32 " bytes %" PRIu64 "\n", kMagic.data(), crc,
                bytes);
  return text;
}

}  // namespace

std::uint32_t crc32_of(std::string_view bytes) {
  return crc32_update(static_cast<std::uint32_t>(::crc32(0L, Z_NULL, 0)), bytes.data(), bytes.size());
}

std::string user_block_for(std::string_view body) {
  std::string block = header_text(crc32_of(body), body.size());
  block.resize(kUserBlockBytes, '\0');
  return block;
}

void seal_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(io_error(path, "open"));
  std::uint32_t crc = static_cast<std::uint32_t>(::crc32(0L, Z_NULL, 0));
  std::uint64_t total = 0;
  std::vector<char> buffer(std::size_t{1} << 20);
  off_t at = static_cast<off_t>(kUserBlockBytes);
  for (;;) {
    const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string e = io_error(path, "read");
      ::close(fd);
      throw std::runtime_error(e);
    }
    if (n == 0) break;
    crc = crc32_update(crc, buffer.data(), static_cast<std::size_t>(n));
    total += static_cast<std::uint64_t>(n);
    at += n;
  }
  std::string block = header_text(crc, total);
  block.resize(kUserBlockBytes, '\0');
  std::size_t done = 0;
  while (done < block.size()) {
    const ssize_t n = ::pwrite(fd, block.data() + done, block.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string e = io_error(path, "write");
      ::close(fd);
      throw std::runtime_error(e);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) throw std::runtime_error(io_error(path, "close"));
}

void verify(std::string_view file, const std::string& name) {
  const std::string unsealed =
      "not a sealed suite results file (no seal in its first 512 bytes: written by another "
      "tool or an older version of the suite; expected a file written by one of the suite's "
      "programs)";
  if (file.size() < kUserBlockBytes || file.substr(0, kMagic.size()) != kMagic)
    throw InputError(name, "", unsealed);
  const std::string_view block = file.substr(0, kUserBlockBytes);
  const std::string_view body = file.substr(kUserBlockBytes);
  const std::size_t end = block.find('\n');
  const std::string expected = header_text(crc32_of(body), body.size());
  if (end == std::string_view::npos || block.substr(0, end + 1) != expected) {
    const bool size_differs =
        end != std::string_view::npos &&
        block.substr(0, end).find(" bytes " + std::to_string(body.size())) == std::string_view::npos;
    throw InputError(name, "",
                     std::string("the file does not match its seal (") +
                         (size_differs ? "its length differs from the length it was written with: truncated or extended"
                                       : "its bytes differ from those it was written with: damaged or edited") +
                         " after it was written); expected the file as the suite wrote it");
  }
}

}  // namespace instrument::seal
