// The results-file reader (instrument::read_results_bytes, then the calibration readers)
// on arbitrary bytes, twice: as they are (the seal check: almost all refused there), and
// resealed (support/results_readers.hpp), so that HDF5's own file-format parser and the
// reader behind it see a file damaged here and there. Seeds: sealed results files.
#include <cstdint>

#include "fuzz_input.hpp"
#include "results_readers.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::keep_hdf5_free_lists();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = fuzz::as_text(data, size);
  fuzz::read_like_the_apps(bytes);
  if (const std::string resealed = fuzz::sealed(bytes); !resealed.empty())
    fuzz::read_like_the_apps(resealed);
  return 0;
}
