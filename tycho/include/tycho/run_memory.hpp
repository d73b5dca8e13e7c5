// The memory one tycho rank takes at its peak, from counts known once the mesh is read and
// partitioned and before the sweep plan is made: so that `--product 64x256 --groups 64` is
// refused in a second with the figure, not after 39 s of planning by running out of memory.
//
// The peak is in the sweep: the angular flux of every local cell, direction and group (4
// nodal values each, with LD and with step alike), the plan's and the engine's per-task
// arrays, the ghost faces and the MPI_Bsend buffer sized for a whole sweep's records, the
// scalar flux and source, the step history; rank 0 also gathers the whole mesh's scalar flux
// and every rank's history. Each term is a sizeof of the structs in sweep_plan.hpp,
// sweep_engine.hpp, step_history.hpp times a count; run_memory.cpp gives the measured peaks
// it was checked against.
#pragma once
#include <cstdint>

#include "tycho/mesh_types.hpp"
#include "mesh/partition.hpp"
#include "tycho/sweep_plan.hpp"

namespace tycho {

struct RunShape {
  std::uint64_t mesh_cells = 0, mesh_faces = 0, mesh_nodes = 0;  // the whole mesh (every rank reads it)
  std::uint64_t cells = 0;         // the largest part's cells
  std::uint64_t remote_faces = 0;  // the most faces one part shares with other parts
  int ranks = 1;
  int directions = 0;
  int groups = 0;
  std::int64_t mcps = 512;
  bool nonblocking = false;
  int iterations = 5;  // the sweeps whose steps the history keeps (those certain to be done)
  Priority priority = Priority::band_octant;  // band-octant's plan keeps 64-bit keys while it is made
};

// The mesh's counts and, over the parts of `partition`, the largest part's cells and the
// most faces a part shares with others (one pass over the faces).
RunShape partition_shape(const Mesh& mesh, const mesh::Partition& partition);

// The step and message history of `shape`'s sweeps, rank 0's gathered copies included: the
// share of run_peak_bytes that --mcps and --iterations set.
std::uint64_t history_bytes(const RunShape& shape);

// One rank of a run of `shape` at its peak (rank 0's extras counted on every rank).
std::uint64_t run_peak_bytes(const RunShape& shape);

}  // namespace tycho
