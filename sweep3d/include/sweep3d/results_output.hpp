// The run's results file: the suite's HDF5 layout (instrument/results_file.hpp: phases,
// counters, trace of every rank, /compare and /model) plus what sweep3d adds:
//   /sweep3d               attrs: decomposition (npe_i, npe_j, it, jt, kt, mk, mmi, mmo, kb of
//                          rank 0), kernel, threads, send mode, grind times, W_g, memory
//   /sweep3d/ranks         table: rank, pi, pj, it, jt, istart, jstart (every rank's share)
//   /sweep3d/calibration   attrs: what later runs' models read (sweep3d/model/calibration.hpp)
//   /sweep3d/critical_path attrs: the measured critical path per iteration by category (when
//                          the models ran and the run was traced)
//   /solution              attrs: balance (source, absorption, six leakages, residual),
//                          converged, iterations, flux checks
//   /solution/iterations   table: its, err, fixs, fixups_on
#pragma once
#include <string>

#include "instrument/comm.hpp"
#include "instrument/run_results.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/model_report.hpp"
#include "sweep3d/work_figures.hpp"

namespace sweep3d {

// The run's metadata and every input as given (the deck's twenty fields and its text).
instrument::RunInfo run_info(const RunResult& run, instrument::Comm& comm);

// Collective. `gathered`, `figures` and `models` are rank 0's. A failed write ends every rank
// with one line (instrument::CollectiveError).
void write_results_file(const std::string& path, const RunResult& run, const WorkFigures& figures,
                        instrument::RunResults gathered, const ModelReport& models, instrument::Comm& comm);

}  // namespace sweep3d
