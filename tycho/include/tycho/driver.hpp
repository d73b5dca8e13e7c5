// One tycho run: read and partition the mesh, build the plan, source-iterate with the
// parallel sweep, and gather what the report and the models need.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "instrument/recorder.hpp"
#include "instrument/speed_check.hpp"
#include "mesh/partition.hpp"
#include "tycho/problem.hpp"
#include "tycho/source_iteration.hpp"
#include "tycho/step_history.hpp"
#include "tycho/sweep_engine.hpp"
#include "tycho/sweep_plan.hpp"

namespace tycho {

struct RunOptions {
  std::string mesh_path;
  std::string partition_path;  // empty: METIS k-way into the number of ranks
  std::string materials_path;  // empty: every material the default problem's (problem.hpp)
  int sn = 8;                  // level-symmetric order; 0 when product is used
  int product_polar = 0, product_azimuthal = 0;
  int groups = 2;
  Scheme scheme = Scheme::linear_discontinuous;
  Priority priority = Priority::band_octant;
  SweepOptions sweep;
  // --mcps auto: called with the mesh's cells once it is read; returns the MCPS to use and
  // says why (model_report.hpp's auto_mcps).
  std::function<std::int64_t(std::size_t cells, std::string& why)> choose_mcps;
  int iterations = 5;     // the cap
  double tolerance = 0;   // 0: exactly `iterations` iterations
};

struct RunResult {
  Problem problem;
  std::size_t mesh_cells = 0, mesh_faces = 0;
  int ranks = 1;
  std::size_t local_cells = 0;
  std::size_t lagged_faces = 0;       // (face, direction) pairs over the whole mesh
  double setup_s = 0;                 // read, partition and plan, max over ranks
  std::int64_t mcps = 0;              // the MCPS the sweep used (--mcps, or chosen)
  std::string mcps_reason;            // with --mcps auto: why the GM chose it
  TransportResult transport;
  std::uint64_t digest = 0;           // phi_digest of the final scalar flux
  std::vector<RankHistory> histories; // rank 0: every rank's, by rank
  std::vector<double> compute_s;      // rank 0: every rank's time in the tasks, scored iterations only
  std::vector<double> gather_solve_s; // rank 0: of compute_s, every rank's in the gathers and solves
  std::vector<std::int64_t> tasks;    // rank 0: every rank's cell-angle tasks per sweep
  instrument::SpeedCheck speed_check; // rank 0: every rank's speed check before and after the sweeps
};

// The problem, the mesh and its partition, read and checked. The app reads them before its
// machine probe, so that a bad mesh, partition or materials file ends every rank with one line
// (instrument::CollectiveError) before seconds of probing. `mcps_final`: options.sweep.mcps is
// the run's (no choose_mcps), so the run's memory is checked here too.
struct TychoInput {
  Problem problem;
  Mesh mesh;
  mesh::Partition partition;
  int on_node = 1;                                    // processes on this rank's node
  std::optional<std::int64_t> memory_checked_for_mcps;  // the MCPS the memory check saw, if it ran
  double read_s = 0;                                  // this rank's time reading and partitioning
};
TychoInput read_tycho_input(const RunOptions& options, MPI_Comm comm, bool mcps_final);

// Collective, on the input read_tycho_input gave (read with these options). Bad input ends
// every rank with one line (instrument::CollectiveError).
RunResult run_tycho(const RunOptions& options, TychoInput&& input, MPI_Comm comm, instrument::Recorder& recorder,
                    std::ostream* out);

}  // namespace tycho
