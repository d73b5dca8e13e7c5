// What every fuzz target shares: the input as text, and a scratch file for the readers that
// take a path (HDF5 files, until a reader takes bytes).
//
// A target catches only the exceptions its reader documents for bad input; anything else
// leaves LLVMFuzzerTestOneInput, std::terminate aborts, and libFuzzer records a finding with
// the exception's type and message (libstdc++'s terminate handler prints both).
#pragma once
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// An accepted input broke what its reader promises (`what`): a finding. Prints the promise and
// aborts; libFuzzer then keeps the input as a crash.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
  }
}

// One file per process in /dev/shm (memory; /tmp when there is none), rewritten for every
// input and removed at exit. Per process because `-jobs`/`-workers` run several at once.
class ScratchFile {
 public:
  // `name` ends the path: "/dev/shm/suite-fuzz-<pid>-<name>".
  explicit ScratchFile(const std::string& name) {
    const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    path_ = std::string(dir) + "/suite-fuzz-" + std::to_string(getpid()) + "-" + name;
  }
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  const std::string& path() const { return path_; }

  // Replaces the file's contents; aborts (a broken fuzzing set-up, not a finding in the
  // reader) when it cannot.
  void write(const std::uint8_t* data, std::size_t size) const {
    std::FILE* f = std::fopen(path_.c_str(), "wb");
    if (!f || (size && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
      std::perror(path_.c_str());
      std::abort();
    }
  }

 private:
  std::string path_;
};

}  // namespace fuzz
