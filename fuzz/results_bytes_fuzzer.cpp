// The results-file reader (instrument::read_results_bytes, then the calibration readers)
// on arbitrary bytes. A results file is sealed (a CRC-32 of the bytes after its 512-byte
// user block, instrument/src/results_seal.hpp), and the reader refuses a file whose seal does
// not match before libhdf5 sees a byte, so a mutation left as it is almost never gets past
// the seal. The mutator therefore reseals most of what it makes (a seal-aware mutator): HDF5
// and the reader behind it see files damaged here and there exactly as a damaged file whose
// seal was recomputed, and a crash reproduces from its input as it is (in the apps too).
// Seeds: sealed results files (corpus/make_h5_seeds.py, and files of real runs).
#include <cstdint>
#include <cstring>
#include <random>

#include "fuzz_input.hpp"
#include "results_readers.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

// Of every kResealOf mutations, all but one are resealed; the rest keep the seal check's
// refusals (a stale seal, a truncated or extended file, a damaged user block) in the mix.
constexpr unsigned kResealOf = 8;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::keep_hdf5_free_lists();
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  size = LLVMFuzzerMutate(data, size, max_size);
  std::minstd_rand choose(seed);
  if (choose() % kResealOf != 0) {
    const std::string resealed = fuzz::sealed(fuzz::as_text(data, size));
    if (!resealed.empty()) std::memcpy(data, resealed.data(), instrument::seal::kUserBlockBytes);
  }
  return size;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::read_like_the_apps(fuzz::as_text(data, size));
  return 0;
}
