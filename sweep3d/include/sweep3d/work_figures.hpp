// What a run measured per unit of work, read back from the gathered results on rank 0: the
// figures the models take from a calibration run (W_g, W_before and W_after per local cell)
// and the sweep's grind time, and our report lines after the original's.
#pragma once
#include <ostream>

#include "instrument/run_results.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/model/calibration.hpp"

namespace sweep3d {

struct WorkFigures {
  bool measured = false;        // false: the hooks were compiled out (SUITE_INSTRUMENT=OFF)
  double sweep_grind_ns = 0.0;  // wall seconds in the sweeps (max over ranks) / (its*it_g*jt_g*kt*mm*8)
  // W_g, as Sundaram-Stukel & Vernon define it (the time to compute one grid point): the
  // sweep's local work (all of the sweep but its MPI calls: the kernel, face copies,
  // boundaries) / cell-angles swept, per rank, over the ranks that had iterations without
  // (with) fixups; in nanoseconds. The kernel alone, likewise.
  instrument::RankStats wg_nofix_ns, wg_fix_ns, kernel_nofix_ns, kernel_fix_ns;
  int wg_nofix_ranks = 0, wg_fix_ranks = 0;
  // Seconds per iteration per local cell of the source and of the flux error (max over ranks,
  // over rank 0's cells, the most of any rank).
  double w_before_s_per_cell = 0.0, w_after_s_per_cell = 0.0;
};

// Rank 0 (gathered results are valid there only).
WorkFigures work_figures(const RunResult& run, const instrument::RunResults& gathered);

// This run as a calibration for later runs' models.
model::WorkCalibration calibration_of(const RunResult& run, const WorkFigures& figures);

// Our lines after the original's report: sweep grind time, W_g, memory, flux check, kernel.
void print_our_timing(std::ostream& out, const RunResult& run, const WorkFigures& figures);

}  // namespace sweep3d
