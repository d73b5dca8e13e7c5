// A tycho rank's memory from counts (run_memory.hpp).
//
// Checked against the peak RSS of real runs (/usr/bin/time -v, the largest rank's, Release
// build, 2026-12-01, --iterations 1 --no-results unless said; `blevel`, the default then);
// ratios are measured / estimated, METIS's partition at 2 ranks (cube-10717: 5473 cells and
// 277 shared faces on the largest part; cube-1374: 698 and 70):
//                                          1 rank              2 ranks
//   cube-10717 S8, 2 groups                 98224 kB  1.00     69140 kB  1.03
//   cube-10717 S8, 16 groups               486668 kB  0.99    284916 kB  1.00
//   cube-10717 --product 16x64, 2 groups   922988 kB  1.02    547448 kB  1.02
//   cube-10717 --product 16x64, 8 groups  2984184 kB  1.01   1679840 kB  1.01
//   cube-10717 --sn 2, 1 group              31204 kB  0.96     30716 kB  1.03
//   cube-10717 --mcps 1, 1 group (12-07)   274368 kB  1.03    221280 kB  1.02
//   cube-10717 8 groups --nonblocking      266924 kB  1.00    156980 kB  1.01
//   cube-10717 8 groups --threads 2        267040 kB  1.00    163096 kB  1.01
//   cube-10717 S8 --priority octant         93352 kB  0.95     66988 kB  1.00
//   cube-10717 S8, band-octant (2026-12-04) 106396 kB  (blevel the same hour: 106000 kB)
//   cube-1374 S8, 64 groups                254048 kB  0.99    162096 kB  0.99
//   cube-1374 --product 16x64, 8 groups    405376 kB  1.01    255840 kB  1.02
//   cube-1374 --scheme step, 8 groups       54736 kB  0.98     45060 kB  1.04
//   cube-1374 --mcps 4 --iterations 3           -             49400 kB  1.03
// Threads add nothing measurable (their stacks are touched a few KB deep), nor does the
// scheme (step keeps 4 nodal values a group, as LD does). With --tol the history of the sweeps after the first is not foreseen:
// cube-1374 --mcps 1 --tol 1e-3 took 13 sweeps, 335 MB against 57 MB estimated.
#include "tycho/run_memory.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mpi.h>

#include "tycho/ld_tet.hpp"
#include "tycho/step_history.hpp"
#include "tycho/sweep_plan.hpp"

namespace tycho {

namespace {

// The program, MPI (its shared-memory segments at 2 ranks), HDF5 and OpenMP: cube-12 (12
// cells) peaks at 23.6 MB at 1 rank, 24.6 MB at 2.
constexpr double kFixedBytes = 24.0 * 1024 * 1024;
// direction_order's working arrays per cell of the whole mesh, for one direction at a time
// (downwind slots, flags, its heap, the b-levels and the order): made and freed per direction.
constexpr double kDirectionOrderBytesPerCell = 64;
// The ready queue's buckets keep their capacity from sweep to sweep: up to a task id (4 B)
// per task; the measured peaks leave about that beyond the arrays counted.
constexpr double kReadyBytesPerTask = 4;

std::uint64_t bytes_of(double bytes) {
  const double most = static_cast<double>(std::numeric_limits<std::uint64_t>::max());
  return bytes >= most ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(std::ceil(bytes));
}

double record_bytes(double groups) { return (1 + 3 * groups) * sizeof(double); }

// The whole mesh as read and checked, with its geometry.
double mesh_bytes(const RunShape& s) {
  return static_cast<double>(s.mesh_cells) * (sizeof(Cell) + sizeof(CellGeometry)) +
         static_cast<double>(s.mesh_faces) * sizeof(Face) + static_cast<double>(s.mesh_nodes) * sizeof(Vec3);
}

// The plan's arrays per local cell: its id, LD record, links, material slot.
double plan_bytes_per_cell() { return sizeof(Index) + sizeof(LdTet) + sizeof(std::array<FaceLink, 4>) + sizeof(std::uint32_t); }

// The plan's arrays per task: in-degree, lagged mask, priority.
constexpr double kPlanBytesPerTask = sizeof(std::uint32_t) + sizeof(std::uint8_t) + sizeof(std::uint32_t);

// Records a sweep sends: each remote face is the outflow of about half the directions.
double records_out(const RunShape& s) { return static_cast<double>(s.remote_faces) * s.directions / 2; }

}  // namespace

RunShape partition_shape(const Mesh& mesh, const mesh::Partition& partition) {
  RunShape s;
  s.mesh_cells = mesh.cells.size();
  s.mesh_faces = mesh.faces.size();
  s.mesh_nodes = mesh.nodes.size();
  s.ranks = std::max(partition.parts, 1);
  std::vector<std::uint64_t> cells(static_cast<std::size_t>(s.ranks), 0), remote(static_cast<std::size_t>(s.ranks), 0);
  for (const std::int32_t p : partition.part_of_cell) ++cells[static_cast<std::size_t>(p)];
  for (const Face& f : mesh.faces) {
    if (f.on_boundary()) continue;
    const std::int32_t a = partition.part_of_cell[f.cells[0]], b = partition.part_of_cell[f.cells[1]];
    if (a == b) continue;
    ++remote[static_cast<std::size_t>(a)];
    ++remote[static_cast<std::size_t>(b)];
  }
  s.cells = *std::max_element(cells.begin(), cells.end());
  s.remote_faces = *std::max_element(remote.begin(), remote.end());
  return s;
}

std::uint64_t history_bytes(const RunShape& s) {
  const double tasks = static_cast<double>(s.cells) * s.directions;
  const double mcps = static_cast<double>(std::max<std::int64_t>(s.mcps, 1));
  // Every step of `sweeps` sweeps (a step does at most MCPS tasks); a send and a receive a
  // step per other rank at most, and at most a message a record.
  const auto records = [&](double sweeps) {
    const double steps = sweeps * std::ceil(tasks / mcps) + 64;
    const double messages = std::min(2 * steps * (s.ranks - 1.0), sweeps * 2 * records_out(s) + 64);
    return steps * sizeof(StepRecord) + messages * sizeof(MessageRecord);
  };
  // A rank's own, with the room for a quarter sweep more that SweepEngine::make_history_room
  // touches ahead; rank 0 also gathers every rank's (twice: the messages received, then the
  // result's copy).
  return bytes_of(records(s.iterations + 0.25) + records(s.iterations) * 2.0 * s.ranks);
}

std::uint64_t run_peak_bytes(const RunShape& s) {
  const double n = static_cast<double>(s.cells), D = s.directions, G = s.groups;
  const double tasks = n * D;
  const double remote = static_cast<double>(s.remote_faces);
  const double others = s.ranks - 1.0;
  const double mcps = static_cast<double>(std::max<std::int64_t>(s.mcps, 1));
  const double records = records_out(s);

  // While the plan is made, the mesh is held with its face normals, the cells' local ids,
  // one direction's order at a time and the plan's arrays, the priorities' renumbering (a
  // bitmap of at most 24 MiB; a sorted copy, 4 B a task, where keys are large: counted;
  // band-octant's 64-bit keys, 8 B a task).
  const double planning = mesh_bytes(s) +
                          static_cast<double>(s.mesh_faces) * (sizeof(Vec3) + sizeof(std::int32_t) + 1) +
                          static_cast<double>(s.mesh_cells) * (sizeof(Index) + kDirectionOrderBytesPerCell) +
                          n * plan_bytes_per_cell() + tasks * (kPlanBytesPerTask + sizeof(std::uint32_t)) +
                          (s.priority == Priority::band_octant ? tasks * sizeof(std::uint64_t) : 0.0);

  // In the sweep (the mesh freed): the plan, psi, the engine's per-task state, the source,
  // scalar flux and its next iterate, ghost faces, and the message buffers.
  double sweeping = n * plan_bytes_per_cell() + static_cast<double>(s.mesh_faces) * sizeof(std::int32_t) +
                    remote * sizeof(RemoteFace) + tasks * (kPlanBytesPerTask + sizeof(std::uint32_t) + kReadyBytesPerTask);
  sweeping += tasks * G * 4 * sizeof(double);        // psi
  sweeping += 3 * n * G * 4 * sizeof(double);        // q, phi, next
  sweeping += remote * D * G * 3 * sizeof(double);   // ghost
  sweeping += std::min(mcps, tasks) * sizeof(std::uint32_t);  // a step's batch
  if (s.ranks > 1) {
    sweeping += std::min(3 * mcps, records) * record_bytes(G);  // a step's outgoing records
    if (s.nonblocking)  // receive buffers and the sends in flight
      sweeping += 2 * std::min(3 * mcps * others, records) * record_bytes(G);
    else  // MPI_Bsend's buffer: a whole sweep's records, each with MPI's overhead, twice
      sweeping += records * (record_bytes(G) + MPI_BSEND_OVERHEAD) * 2;
  }
  // Rank 0 gathers the whole mesh's scalar flux with the cells' ids for the digest.
  sweeping += static_cast<double>(s.mesh_cells) * (G * 4 * sizeof(double) + sizeof(unsigned) + sizeof(std::size_t));
  sweeping += static_cast<double>(history_bytes(s));
  return bytes_of(std::max(planning, sweeping) + kFixedBytes);
}

}  // namespace tycho
