// The run's results file: the suite's HDF5 layout (instrument/results_file.hpp: phases,
// counters, trace, /compare and /model) plus what tycho adds:
//   /tycho                 attrs: mesh, cells, faces, ranks, quadrature, directions, groups,
//                          scheme, mcps, priority, sends, threads, lagged_pairs, setup_s,
//                          sweep_s (median), t_elem_s, grind_ns, digest (hex), pce (the scored iterations', run_report.hpp),
//                          speed_check_ns (speed_check.hpp)
//   /tycho/steps           table: every rank's step records (step_history.hpp), the inputs of
//                          PCE (eq. 4) and of the mesh-specific model (eq. 6)
//   /tycho/pce             table: PCE (eq. 4) of every iteration
//   /tycho/messages        table: every rank's messages (peer, bytes, send or recv)
//   /tycho/calibration     attrs: T_elem at this E_p, what a later run's --calibration reads
//                          (results_calibration.hpp)
//   /tycho/critical_path   table: each walked sweep's critical path by category (compute, comm,
//                          other) and its span (model/measured_path.hpp), when the models ran
//                          and the run was traced
//   /solution              attrs: iterations, converged, balance residual, particle rates, digest
//   /solution/iterations   table: change, sweep and iteration seconds, balance residual
#pragma once
#include <mpi.h>

#include <string>

#include "instrument/comparison.hpp"
#include "instrument/run_results.hpp"
#include "tycho/driver.hpp"
#include "tycho/model/measured_path.hpp"
#include "tycho/results_calibration.hpp"

namespace tycho {

// The run's metadata and every option as given (the root and /input attributes).
instrument::RunInfo run_info(const RunOptions& options, MPI_Comm comm);

// Collective. `result`, `gathered`, `comparison` and `critical_path` are rank 0's, and
// `calibration`, this run's figures (calibration_of) when the models measured them already
// (null: measured here). A failed write leaves no file and ends every rank with one line
// (instrument::CollectiveError).
void write_results_file(const std::string& path, const RunOptions& options, const RunResult& result,
                        instrument::RunResults gathered, const instrument::Comparison& comparison,
                        const model::MeasuredSweepPath& critical_path, MPI_Comm comm,
                        const TychoCalibration* calibration = nullptr);

}  // namespace tycho
