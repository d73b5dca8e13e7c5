// The bsplib profile (CSV, one row per superstep and process) as bsp_predict reads it:
// bspmodel::parse_profile, the text half of read_profile. Its documented error is
// instrument::InputError "file:line: what"; anything else is a finding.
#include <cstdint>

#include "bsplib/model/profile_table.hpp"
#include "fuzz_input.hpp"
#include "instrument/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)bspmodel::parse_profile(fuzz::as_text(data, size), "profile.csv");
  } catch (const instrument::InputError&) {
  }
  return 0;
}
