// The results-file reader (instrument::read_results, then sweep3d's read_calibration) on
// well-formed HDF5 files of any structure: the input is a program of HDF5 calls (see
// support/h5_program.hpp) that builds the file, so types, shapes, links and missing parts
// are explored rather than HDF5's own format checks.
#include <cstdint>

#include "fuzz_input.hpp"
#include "h5_program.hpp"
#include "results_readers.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::free_hdf5_memory_at_once();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::ScratchFile scratch("results-structure.h5");
  fuzz::build_h5_file(data, size, scratch.path());
  fuzz::read_like_the_apps(scratch.path());
  return 0;
}
