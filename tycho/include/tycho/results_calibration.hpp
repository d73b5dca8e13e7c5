// What a tycho run leaves for later runs' models in its results file (/tycho/calibration):
// T_elem, the time of one cell-angle task (all groups) in the cell solves, measured at the
// run's E_p cells per rank. T_elem depends on E_p (cache regimes, the paper's Table 1), on the
// groups, the directions, the scheme and the threads, so those go with it. Also T_unpack, the
// time the sweep takes to unpack one received face record (unpack_probe.hpp), for the models'
// receive.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "instrument/results_extras.hpp"
#include "instrument/results_file.hpp"
#include "tycho/driver.hpp"
#include "tycho/model/measured_path.hpp"
#include "tycho/model/telem.hpp"

namespace tycho {

struct TychoCalibration {
  double e_p = 0;        // cells per rank: mesh cells / ranks
  double t_elem_s = 0;   // every rank's compute time summed / every rank's tasks, s per task
  // T_elem over the scored iterations (first_scored_iteration), as the measured sweep is;
  // false: a file written before 2026-12-03, whose T_elem counted every iteration, the first
  // one's cold tasks too (5-7% above the steady cost at 4374 cells on the AMD EPYC Zen 5).
  bool t_elem_scored = true;
  int groups = 0, directions = 0;
  std::string scheme;    // "ld" or "step", as --scheme spells it
  int threads = 1;
  // The order of ready tasks, as --priority spells it: it decides which cell records a task
  // finds in cache (octant's T_elem is up to a third below blevel's at one rank on
  // cube-85736). "": not recorded (a file written before 2026-12-04; calibration_priority).
  std::string priority;
  std::int64_t mcps = 0; // the run's MCPS (T_elem falls as it grows); 0: a file written before it was kept
  std::string mesh;      // the mesh file the run read
  // T_unpack, s per face record (unpack_probe.hpp, at this run's E_p, directions and groups);
  // 0: not measured (a file written before it was kept: the models then leave it unpriced).
  double unpack_s_per_record = 0;
  // Its fixed part a message, s (unpack_probe.hpp); and what a buffered send call adds to an
  // MPI_Isend: s a call + s a byte (bsend_probe.hpp). -1: not measured (older files).
  double unpack_s_per_message = -1;
  double bsend_extra_s_per_call = -1, bsend_extra_s_per_byte = -1;
  // T_step, s a step: the time a one-rank sweep's critical path spends outside the cell solves
  // and the message calls (the step loop's bookkeeping: popping the step's tasks, ordering
  // them, the probes that found nothing; the sweep's reset of its ready queue is in its first
  // step's compute, so in T_elem), per step of the walked sweeps (tycho/model/measured_path.hpp).
  // Measured only at one rank, where every step is on the path and no wait is. -1: not
  // measured (a run at P > 1, an untraced build, or a file written before it was kept).
  double step_s = -1;
  std::string path;      // the results file it came from ("" when made from this run)
  // Its run's own mark (instrument::calibration_unreliable_because): "" if none. Read, not written.
  std::string unreliable_because;
};

// How a calibration's T_elem point is named in a model's source: its path, and for a file
// from before t_elem_iterations was kept, that its T_elem counts the first iteration too.
std::string telem_point_name(const TychoCalibration& c);
// A calibration's point of T_elem(E_p, MCPS), named as above: what the run's models and
// tycho-model fit their curve through.
model::TelemPoint telem_point(const TychoCalibration& c);

// The order a calibration's run swept in: the recorded one, or for a file from before the
// order was recorded (2026-12-04) "blevel", the default then. Checked against a run's or a
// projection's order, so an old file is not taken for band-octant, whose T_elem is up to
// 0.6x blevel's on cube-85736.
std::string calibration_priority(const TychoCalibration& c);
// The same as a refusal names it: the recorded order, or that none was and blevel is assumed.
std::string calibration_priority_found(const TychoCalibration& c);

const char* scheme_option_name(Scheme s);  // "ld", "step"

// Rank 0, after run_tycho: this run's calibration, T_unpack and the buffered send's extra
// measured now (tens of ms at an MCPS of a few thousand; the step is capped at 8 MiB, so under
// a second whatever --mcps says).
// T_step from `path` (the run's walked sweeps) when the run has one rank.
TychoCalibration calibration_of(const RunOptions& options, const RunResult& result,
                                const model::MeasuredSweepPath& path);

// T_step of a one-rank run: the walked sweeps' mean time outside solves and messages over their
// mean step count; -1 at more ranks, with no walked sweep or no step.
double step_seconds_of(const RunResult& result, const model::MeasuredSweepPath& path);

// Adds /tycho/calibration.
void add_calibration(const TychoCalibration& c, instrument::ResultsExtras& extras);

// Reads /tycho/calibration of a tycho results file. InputError(path, attribute, what was
// expected) when the file is not a tycho results file or an attribute is missing, of the
// wrong type or out of range (e_p and t_elem_s finite and > 0). mcps and unpack_s_per_record
// may be missing (files written before they were kept): then 0; when present, unpack_s_per_record
// is in [1e-10, 1e-3] s; unpack_s_per_message and bsend_extra_s_per_call may be missing (-1),
// else 0 or in [1e-10, 1e-3] s; bsend_extra_s_per_byte may be missing (-1), else 0 or in
// [1e-15, 1e-6] s; step_s_per_step may be missing (-1), else 0 or in [1e-10, 1e-2] s.
TychoCalibration read_tycho_calibration(const std::string& path);

// The same on a results document already read from `path` (the fuzz targets' route).
TychoCalibration tycho_calibration_from(const instrument::ResultsDocument& doc, const std::string& path);

// Collective over comm: each of `paths` read once, by rank 0, and parsed on every rank from
// the same bytes (so every rank sees one version of a file and reaches one verdict); the
// documents in order, for tycho_calibration_from and the run's other figures (/tycho pce).
std::vector<instrument::ResultsDocument> read_tycho_results_shared(const std::vector<std::string>& paths,
                                                                   MPI_Comm comm);

}  // namespace tycho
