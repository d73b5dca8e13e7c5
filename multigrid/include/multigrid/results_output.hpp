// The run's results file: the suite's layout (phases, /compare, /model) plus
//   /multigrid               attrs: mesh, p, grids, cycles, convergence_factor, l2_error,
//                            cycle_s (mean), setup_s, setup_kernel_s and setup_page_faults
//                            (process 0's set-up: its CPU time in the kernel, its page faults),
//                            speed_check_ns (speed_check.hpp: each process's mean of its check
//                            before the cycles and after, the median over processes; what a
//                            run this file calibrates compares its own with)
//   /multigrid/grids         table: per grid (1 the finest) cells, nodes, imbalance, h bytes,
//                            applications and supersteps per cycle, lambda_max
//   /multigrid/residuals     table: the residual 2-norm before the first cycle and after each
//   /multigrid/supersteps    table: every superstep of the section: label, grid (0 outside the
//                            cycles), w, h, comm+sync as measured
//   /multigrid/core_round_trip  array [sample], s: the cache-line round trip between the
//                            processes' CPUs at bsp_begin and bsp_end (the host's placement;
//                            absent where not measured: p = 1, more processes than CPUs,
//                            several nodes), for the campaign report's placement mark
//   /multigrid/calibration   attrs: c1_seconds_per_cell, c1_loose_seconds_per_cell (both of
//                            the median cycle: c1_cycles = median), cells_per_process, p,
//                            mesh, cell_kernel: what a later run's --calibration reads
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "instrument/comparison.hpp"
#include "instrument/run_results.hpp"
#include "multigrid/driver.hpp"
#include "multigrid/model/c1_curve.hpp"
#include "multigrid/model_report.hpp"

namespace mg {

instrument::RunInfo run_info(const RunOptions& o, MPI_Comm comm);

// Collective; rank 0's `r`, `gathered` and `comparison` are written.
void write_results_file(const std::string& path, const RunOptions& o, const RunResult& r,
                        instrument::RunResults gathered, const instrument::Comparison& comparison, MPI_Comm comm);

// C1 from an earlier multigrid results file, at the N/p it ran. Throws instrument::InputError
// naming the file and the attribute for a file that is not a multigrid run or lacks a finite
// C1 > 0.
C1Point read_c1_calibration(const std::string& path);
// C1(N/p) fitted over the points of several such files (c1_curve.hpp).
C1Curve read_c1_calibrations(const std::vector<std::string>& paths);

}  // namespace mg
