// The HDF5 readers of the suite, run on one file as their programs run them: the results
// reader, and sweep3d's and tycho's calibration readers (which read a results file, then
// check its calibration group). Bad input must be an InputError; afterwards no HDF5 identifier may be
// left open (a leaked one keeps the file open in the process).
//
// Results files are sealed (instrument/src/results_seal.hpp: a CRC-32 of the file after its
// 512-byte user block, in that block), and the reader refuses a file whose seal does not
// match before HDF5 parses a byte. A mutated file almost never matches, so the targets seal
// what they give the reader: then the reader and HDF5 behind it see the damage.
#pragma once
#include <hdf5.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_input.hpp"
#include "instrument/error.hpp"
#include "instrument/results_file.hpp"
#include "results_seal.hpp"
#include "sweep3d/model/calibration.hpp"
#include "tycho/results_calibration.hpp"

namespace fuzz {

// HDF5 keeps freed memory on free lists of its own: "regular" lists (one kind of struct each,
// among them the metadata cache every file open allocates and zeroes, H5C_t, about 1 MiB) and
// "block" lists (buffers by size: the core driver's image, the metadata accumulator, type
// conversion buffers). A block without a list is under ASan a fresh mmap and a page fault per
// page at every open: measured with perf, 80% of the HDF5 targets' time with no lists, and
// still over half with regular lists only (results_structure went from ~100 to ~430 exec/s
// when the block lists were kept too). The lists stay warm after the first inputs, so an input
// then allocates and frees in balance, and libFuzzer's leak check does not re-run it. The
// limit (64 MiB each) bounds what HDF5 may hold. Set once, from LLVMFuzzerInitialize.
inline void keep_hdf5_free_lists() {
  constexpr int kListBytes = 64 << 20;  // global and per list
  H5set_free_list_limits(kListBytes, kListBytes, 0, 0, kListBytes, kListBytes);
}

// `bytes` with its first 512 bytes replaced by the seal of the rest ("" when shorter).
inline std::string sealed(std::string_view bytes) {
  const std::size_t n = instrument::seal::kUserBlockBytes;
  if (bytes.size() < n) return {};
  return instrument::seal::user_block_for(bytes.substr(n)).append(bytes.substr(n));
}

inline void require_no_open_hdf5_identifiers(const std::string& name) {
  if (const ssize_t open = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL); open != 0) {
    std::fprintf(stderr, "results readers: %zd HDF5 identifiers left open after reading %s\n", open,
                 name.c_str());
    std::abort();
  }
}

// read_results_bytes on `bytes`; if the file is ours, sweep3d's and tycho's calibration
// readers on the document (calibration_from, tycho_calibration_from: what read_calibration
// and read_tycho_calibration do after reading the same file, whose HDF5 parse would only
// repeat this one's).
inline void read_like_the_apps(std::string_view bytes) {
  try {
    const instrument::ResultsDocument doc = instrument::read_results_bytes(bytes, "fuzz.h5");
    try {
      (void)sweep3d::model::calibration_from(doc, "fuzz.h5");
    } catch (const instrument::InputError&) {
    }
    try {
      (void)tycho::tycho_calibration_from(doc, "fuzz.h5");
    } catch (const instrument::InputError&) {
    }
  } catch (const instrument::InputError&) {
  }
  require_no_open_hdf5_identifiers("fuzz.h5");
}

}  // namespace fuzz
