// The short BSP probe of the apps: bspprobe's own loops (bsp_probe_measure) and fits
// (bsp_probe_fit), with fewer repetitions and a smaller largest h-relation, for an app that
// finds no BSP machine file of this host and p in the per-user cache
// (instrument/machine_cache.hpp). bspprobe measures the same in full.
//
// It runs in an SPMD section of its own before the app's (bsp_sections.hpp), so that its
// supersteps stay out of the app's profile: call it outside any section, in a program that
// initialised MPI itself.
#pragma once
#include <string>

#include "instrument/machine_cache.hpp"

namespace bspmodel {

// Collective over MPI_COMM_WORLD (every process is the section's). Process 0 fits l and g
// (and N_1/2, the superstep curves at p >= 2) and writes them as a BSP machine file at
// `path` (write_machine_file). A fit outside the machine-file ranges is measured again, up
// to three times, and not after `time_limit` seconds on process 0's clock (past it the try
// under way stops between two repetitions, and no fit is made); then it, or a file
// it cannot write, throws std::runtime_error on process 0 only, after every process has left
// the section. `program` names the app in the file.
void measure_bsp_machine_short(const std::string& path, const std::string& program, double time_limit);

// The cache's BSP kind (machine_cache.hpp), at the p of MPI_COMM_WORLD: a cached file must
// read as a BSP machine file of that p; else measure_bsp_machine_short. At one process too:
// l is then the cost of a superstep alone, which eq. 5 charges.
instrument::machine_cache::Probe bsp_cache_probe(const std::string& program);

}  // namespace bspmodel
