// The profile and its predictions as the suite's HDF5 results file (instrument's writer):
//   /machine                      the first machine file's keys (the measured machine)
//   /compare                      per superstep: measured comm+sync vs the library's model
//                                 (superstep curves) of that machine, or l + h g(h) if its
//                                 file has none (model "bsp"); the totals and the whole run
//   /bsp/process/<quantity>       [superstep][process] arrays: t_begin, t_enter, t_exit (s),
//                                 bytes_out, bytes_in, msgs_out, msgs_in, gets_out, and
//                                 pushes, pops where the profile recorded them (format 3)
//   /bsp/supersteps               table: superstep, label, w_max, h, measured comm+sync
//   /bsp/prediction/<machine>     table: superstep, pattern, l+hg, l+hg(h), and by_pattern
//                                 where the file has curves, for every machine given
//                                 (Figure 9's 'fortune telling' for other machines)
#pragma once
#include <string>
#include <vector>

#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"

namespace bspmodel {

// Throws std::runtime_error naming the file on failure; leaves no partial file.
void write_profile_results(const std::string& path, const Profile& prof,
                           const std::vector<BspMachine>& machines);

}  // namespace bspmodel
