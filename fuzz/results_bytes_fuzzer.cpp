// The results-file reader (instrument::read_results, then sweep3d's read_calibration) on
// arbitrary bytes: mostly what HDF5's own file-format parser makes of a damaged file, and,
// from the seed files (real results files), of a file damaged here and there. The readers
// take a path, so the bytes go through a scratch file in /dev/shm.
#include <cstdint>

#include "fuzz_input.hpp"
#include "results_readers.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::free_hdf5_memory_at_once();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::ScratchFile scratch("results-bytes.h5");
  scratch.write(data, size);
  fuzz::read_like_the_apps(scratch.path());
  return 0;
}
