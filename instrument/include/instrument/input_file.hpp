// Reading an input file safely: what the suite reads (decks, machine files, profiles,
// results and calibration files) must be a regular file of a sane size, and a bad token
// from it is quoted in an error message short and printable.
//
// Why open with O_NONBLOCK and then fstat: a path that names a FIFO with no writer blocks
// open() forever, and /dev/zero never ends a read; a regular file is refused nothing.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace instrument {

// Reads a whole input file. Refuses, without blocking, what is not a regular file (FIFO,
// device, directory, socket), a missing or unreadable file, and a file larger than max_bytes
// (also one that grows past it while being read). Throws InputError(path, "", why); `what`
// names the kind of file in the message ("input deck", "machine file").
std::string read_input_file(const std::string& path, const std::string& what,
                            std::size_t max_bytes = std::size_t{64} << 20);

// A whole input file mapped read-only, for large inputs (meshes): the same checks as
// read_input_file, but pages are read only as the parser touches them, so a 5 GB file whose
// header is wrong costs one page of memory and no time, and the file's bytes never count
// against the process's anonymous memory. Limitation: a file truncated by another process
// while it is mapped ends the process with SIGBUS when the parser reaches the lost pages.
class MappedInputFile {
 public:
  MappedInputFile(const std::string& path, const std::string& what, std::size_t max_bytes);
  ~MappedInputFile();
  MappedInputFile(const MappedInputFile&) = delete;
  MappedInputFile& operator=(const MappedInputFile&) = delete;
  std::string_view bytes() const noexcept { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

// Same checks without reading: for paths handed to HDF5 (results/calibration files).
void require_regular_input(const std::string& path, const std::string& what);

// A bad token as quoted in an error message: at most its first 24 bytes, then "..." (inside
// the quotes); control bytes, non-ASCII bytes, '"' and '\' as \xNN; in double quotes.
//   quote_token("12\n3") == "\"12\\x0a3\""
std::string quote_token(std::string_view token);

}  // namespace instrument
