// The sweep's schedule at a rank count never run: the per-step records (step_history.hpp)
// that P ranks sweeping one iteration would leave, made in one process from the mesh, the
// partition, the quadrature and the priority scheme alone, for the trace model at P beyond this machine (the
// paper's Figure 9 runs its Trace Model Evaluator on traces of P it could not run either).
//
// The schedule is the sweep engine's, with time replaced by rounds: in round r every rank
// that has ready tasks takes at most MCPS of the highest priority (sweep_plan.hpp's blevel,
// band-octant or octant key, the one the engine's plan gives; the last pushed first among
// equals, as the engine's buckets),
// solves them, releases its own downwind tasks for its next step, and sends one message per
// downwind rank with the face records the step produced (8 + 24 G bytes each); every message
// of round r is received in round r, after the sends, by a rank that records a step then
// (with no work if it had none ready). A rank with nothing ready and nothing arriving
// records no step: the engine's rank would sit in one blocking receive. Dependencies, lagged
// faces and b-levels are sweep_dag.hpp's, so the tasks and records are exactly the engine's;
// which step a record travels in is the lockstep assumption's. The replay then charges the
// steps T_elem and the messages LogGOPS, so a rank late in the replay still receives its
// messages in this order (as in MPI, by pair) but later.
//
// Cost: O(tasks x (4 + log of a rank's ready tasks)) time, 6 bytes of memory per task (cells x
// directions), 16 per ready task, 4 per cell (its rank's order), and for octant and
// band-octant 32 per cell (its slab in each octant).
#pragma once
#include <cstdint>
#include <vector>

#include "tycho/mesh_types.hpp"
#include "mesh/partition.hpp"
#include "tycho/step_history.hpp"
#include "tycho/sweep_plan.hpp"

namespace tycho {

struct ProjectedSchedule {
  std::vector<RankHistory> ranks;      // iteration 0, steps numbered per rank from 0
  std::int64_t rounds = 0;             // lockstep rounds until every task was done
  std::int64_t records = 0;            // face records sent between ranks in the sweep
  std::size_t lagged_faces = 0;        // (face, direction) pairs lagged, over all directions
};

// std::invalid_argument for MCPS < 1, no direction, groups < 1, a partition whose size is
// not the mesh's cell count, or a priority other than blevel, band-octant and octant (octant:
// at most 512 directions). Precondition: a checked mesh (mesh/mesh_checks.hpp).
ProjectedSchedule project_schedule(const Mesh& mesh, const mesh::Partition& partition, const std::vector<Vec3>& omega,
                                   int groups, std::int64_t mcps, Priority priority);

}  // namespace tycho
