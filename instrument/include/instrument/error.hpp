// Typed errors for bad input. `main` turns them into one line naming the file, the place
// and what was expected, and a non-zero exit of every rank (see mpi_main.hpp).
#pragma once
#include <stdexcept>
#include <string>

namespace instrument {

// An input problem: the file (or option) it is in, where in it, and what was expected.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string where, std::string expected)
      : std::runtime_error(format(file, where, expected)),
        file_(std::move(file)), where_(std::move(where)), expected_(std::move(expected)) {}
  const std::string& file() const noexcept { return file_; }
  const std::string& where() const noexcept { return where_; }
  const std::string& expected() const noexcept { return expected_; }

 private:
  static std::string format(const std::string& f, const std::string& w, const std::string& e) {
    std::string s = f;
    if (!w.empty()) s += ":" + w;
    return s + ": " + e;
  }
  std::string file_, where_, expected_;
};

}  // namespace instrument
