// The results-file reader (instrument::read_results_bytes, then the calibration readers)
// on well-formed, sealed HDF5 files of any structure: the input is a program of HDF5 calls
// (see support/h5_program.hpp) that builds the file, so types, shapes, links and missing
// parts are explored rather than HDF5's own format checks.
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz_input.hpp"
#include "h5_program.hpp"
#include "results_readers.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::keep_hdf5_free_lists();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::ScratchFile scratch("results-structure.h5");
  fuzz::build_h5_file(data, size, scratch.path());  // with a 512-byte user block, unsealed
  std::ifstream in(scratch.path(), std::ios::binary);
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fuzz::read_like_the_apps(fuzz::sealed(file));
  return 0;
}
