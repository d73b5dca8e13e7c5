// Machine files (instrument::MachineFile::parse) and the typed parameter sets built from
// them: LogGP and LogGPS (read_params validates), as every app that takes --machine does,
// and the BSP machine with its superstep curves (bspmodel::machine_from), as bsp_predict
// reads it, and the cold-message and after-stream figures sweep3d reads. Bad input must be an
// InputError.
#include <cstdint>
#include <string>

#include "bsplib/model/machine_params.hpp"
#include "fuzz_input.hpp"
#include "instrument/error.hpp"
#include "instrument/loggp.hpp"
#include "instrument/loggp_cold.hpp"
#include "instrument/loggp_pending.hpp"
#include "instrument/loggps.hpp"
#include "instrument/machine_file.hpp"

namespace {

template <class F>
void expect_input_error(F&& read) {
  try {
    read();
  } catch (const instrument::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  instrument::MachineFile file;
  try {
    file = instrument::MachineFile::parse(fuzz::as_text(data, size), "fuzz.machine");
  } catch (const instrument::InputError&) {
    return 0;
  }
  // What the readers of a parsed file ask of it.
  for (const auto& key : file.keys()) {
    expect_input_error([&] { (void)file.get_double(key); });
    expect_input_error([&] { (void)file.require_bytes(key); });
    (void)file.get_string(key);
  }
  (void)file.text();
  expect_input_error([&] { (void)instrument::loggp::read_params(file); });
  expect_input_error([&] { (void)instrument::loggps::read_params(file); });
  // The cold-message and after-stream figures (loggps-probe's experiments 5 and 6).
  expect_input_error([&] { (void)instrument::loggp::read_cold(file); });
  expect_input_error([&] { (void)instrument::loggp::read_after_stream(file); });
  expect_input_error([&] { (void)instrument::loggp::read_pending(file); });  // experiment 7
  expect_input_error([&] { (void)bspmodel::machine_from(file, "fuzz.machine"); });
  return 0;
}
