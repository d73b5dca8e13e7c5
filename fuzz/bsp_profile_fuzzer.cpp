// The bsplib profile (CSV, one row per superstep and process) as bsp_predict reads it
// (bspmodel::read_profile). Its documented error is std::runtime_error "file:line: what".
// read_profile takes a path, so the input goes through a scratch file.
#include <cstdint>
#include <stdexcept>

#include "fuzz_input.hpp"
#include "profile_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::ScratchFile scratch("profile.csv");
  scratch.write(data, size);
  try {
    (void)bspmodel::read_profile(scratch.path());
  } catch (const std::runtime_error&) {
  }
  return 0;
}
