// The run's results file: the suite's HDF5 layout (instrument/results_file.hpp: phases,
// counters, trace of every rank) plus what sweep3d adds:
//   /sweep3d             attrs: decomposition (npe_i, npe_j, it, jt, kt, mk, mmi, mmo, kb of
//                        rank 0), kernel, threads, send mode, grind times, W_g, memory
//   /sweep3d/ranks       table: rank, pi, pj, it, jt, istart, jstart (every rank's share)
//   /solution            attrs: balance (source, absorption, six leakages, residual),
//                        converged, iterations
//   /solution/iterations table: its, err, fixs, fixups_on and rank 0's seconds of the
//                        iteration, W_before, sweep, kernel, W_after
#pragma once
#include <string>

#include "instrument/comm.hpp"
#include "instrument/recorder.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/model_report.hpp"

namespace sweep3d {

// Collective. A failed write ends every rank with one line (instrument::CollectiveError).
// `models` (rank 0) adds /compare, /model and /machine; the run's own calibration goes to
// /sweep3d/calibration so that later runs can be predicted from this one.
void write_results_file(const std::string& path, const RunResult& result, instrument::Recorder& recorder,
                        instrument::Comm& comm, const std::string& deck_path, const ModelReport& models);

}  // namespace sweep3d
