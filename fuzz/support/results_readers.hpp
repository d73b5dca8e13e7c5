// The HDF5 readers of the suite, run on one file as their programs run them: the results
// reader, and sweep3d's calibration reader (which reads a results file, then checks its
// calibration group). Bad input must be an InputError; afterwards no HDF5 identifier may be
// left open (a leaked one keeps the file open in the process).
#pragma once
#include <hdf5.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "calibration.hpp"
#include "instrument/error.hpp"
#include "instrument/results_file.hpp"

namespace fuzz {

// HDF5 keeps freed blocks on free lists of its own, so an input often ends with more
// allocations than frees, and libFuzzer then re-runs it under a full leak check. Without the
// lists HDF5 frees at once: set once, from LLVMFuzzerInitialize.
inline void free_hdf5_memory_at_once() { H5set_free_list_limits(0, 0, 0, 0, 0, 0); }

inline void read_like_the_apps(const std::string& path) {
  bool ours = false;
  try {
    (void)instrument::read_results(path);
    ours = true;
  } catch (const instrument::InputError&) {
  }
  if (ours) {
    try {
      (void)sweep3d::model::read_calibration(path);
    } catch (const instrument::InputError&) {
    }
  }
  // Every identifier a reader opened, anywhere in the process.
  if (const ssize_t open = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL); open != 0) {
    std::fprintf(stderr, "results readers: %zd HDF5 identifiers left open after reading %s\n", open,
                 path.c_str());
    std::abort();
  }
}

}  // namespace fuzz
