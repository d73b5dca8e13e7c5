// What one rank needs to sweep its part of the mesh, built once at set-up: its cells, how
// each of their faces connects (mesh boundary, a cell of its own, a cell of another rank),
// the tasks' dependency counts and priorities, the lagged faces, and how many face records
// it sends to and receives from each other rank in a sweep.
//
// Tasks. Task t = d * N + i is local cell i of N in direction d (direction-major: the
// per-task arrays of one direction are contiguous, in the cells' Morton order); it does every
// group. Its dependencies are its inflow faces (the cell's face f with
// dot(omega_d, face normal) pointing in, sweep_dag.hpp's rule) that are interior and not
// lagged in d. Lagged faces read the value their upwind cell produced in the previous
// iteration (0 in the first), whichever rank that cell is on, so the answer depends on
// neither the partition nor the schedule.
//
// Face records, the unit of every message: (face id, direction) as two 32-bit words in one
// 8-byte slot, then the G x 3 face values (group-major, the face's own node order).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "tycho/ld_tet.hpp"
#include "tycho/mesh_types.hpp"
#include "mesh/partition.hpp"
#include "tycho/problem.hpp"

namespace tycho {

// blevel: Pautz's b-level (longest downwind path) first, in bands of kBlevelBand levels:
// the higher band first, within a band the lower direction first, then the higher b-level
// (see kBlevelBand); band-octant (the default): blevel's bands, the higher first, and within
// a band octant's order (see band_octant_priority); boundary: nearest to a cell feeding
// another rank first, then b-level; direction: the lowest direction first, then b-level
// (one direction's cells, 64 B each per group pair, stay in cache while it sweeps); octant:
// one octant at a time, and within it slab by slab along the octant's diagonal, every
// direction of the octant in a slab before the next slab (a slab's cell records, read from
// memory once, serve the octant's directions from cache); fifo.
enum class Priority { blevel, band_octant, boundary, direction, octant, fifo };

// blevel's band: b-levels b and b' are in the same band when b / kBlevelBand == b' /
// kBlevelBand. Exact b-level order (a band of 1) interleaves all directions' wavefronts,
// so a task reads upwind psi written thousands of tasks before, out of the L2: callgrind
// on cube-10717 at one rank counted 7.2 L2 (2 MiB) misses a task in the sweep, against 3.51
// with bands of 16, 3.37 with 32 and 3.53 with 64 (octant: 1.6; tycho/BENCHMARKS.md). Within
// a band a direction's cells are swept kBlevelBand levels deep before the next direction.
// The order is still topological: a task's upwind tasks have higher b-levels, so a higher
// band, or the same band, direction and a higher level.
inline constexpr unsigned kBlevelBandBits = 5;
inline constexpr std::uint32_t kBlevelBand = 1u << kBlevelBandBits;
const char* priority_name(Priority p);

// octant's slabs: kOctantSlabCells of a rank's cells to a slab (see octant_slabs).
inline constexpr std::size_t kOctantSlabCells = 512;

// octant's key of task (cell in `slab` of its rank's last_slab + 1, direction d of D in
// `octant`), larger first: the lower octant, then the lower slab, then the lower direction.
// Mixed radix (8, last_slab + 1, D), so the keys are dense: under 8 x slabs x D, which
// make_sweep_plan's limits (cells x D < 2^32, D <= 512) keep under 2^27.
inline std::uint32_t octant_priority(std::uint8_t octant, std::uint32_t slab, std::uint32_t last_slab, std::size_t D,
                                     std::size_t d) {
  const std::uint64_t slabs = std::uint64_t{last_slab} + 1;
  return static_cast<std::uint32_t>(((std::uint64_t{7u - octant} * slabs + (last_slab - slab)) * D) + (D - 1 - d));
}

// band-octant's key of task (cell with b-level `blevel` in direction d, in `slab` of its
// rank's last_slab + 1, d of D in `octant`), larger first: the higher band of b-levels
// (blevel / kBlevelBand), then as octant's key: the lower octant, slab, direction. The bands
// keep blevel's critical-path order, so the schedule's efficiency stays blevel's (projected
// on cube-10717 and cube-85736 at 2-64 ranks: within 1%); within a band a slab's cells are
// swept in the octant's directions one after another, so a cell's record is read once for
// several tasks (octant's reuse; on cube-85736 at one rank 0.22x Tycho2's grind against
// blevel's 0.36x on Zen 4: tycho/BENCHMARKS.md). Mixed radix (bands, 8, last_slab + 1, D)
// in 64 bits (under 2^55 for any plan: cells x D < 2^32), renumbered densely by the plan; no
// limit on D.
inline std::uint64_t band_octant_priority(std::uint32_t blevel, std::uint8_t octant, std::uint32_t slab,
                                          std::uint32_t last_slab, std::size_t D, std::size_t d) {
  const std::uint64_t slabs = std::uint64_t{last_slab} + 1;
  return ((std::uint64_t{blevel / kBlevelBand} * 8 + (7u - octant)) * slabs + (last_slab - slab)) * D + (D - 1 - d);
}

// The keys renumbered 0, 1, ... in their order, equal keys alike (the plan's dense priority
// levels); returns how many differ.
std::size_t renumber_densely(std::vector<std::uint32_t>& key);
// The same for 64-bit keys, into `dense` (resized to key.size()).
std::size_t renumber_densely(const std::vector<std::uint64_t>& key, std::vector<std::uint32_t>& dense);

// A rank's cells (`cells`, in any order) in its plan's order (SweepPlan::cells): along a
// Morton curve through their centroids, ties by cell id.
std::vector<Index> plan_cell_order(const Mesh& mesh, const std::vector<Index>& cells);

// The octant scheme's slabs of a rank's cells (`cells`, in plan_cell_order): per octant, per
// position in `cells`, its slab, the cells ranked by their centroid's projection on the
// octant's diagonal (ties by position), kOctantSlabCells to a slab. The engine's plan and the
// schedule projection (schedule_projection.hpp) both use it, so they order tasks alike.
std::array<std::vector<std::uint32_t>, 8> octant_slabs(const Mesh& mesh, const std::vector<Index>& cells);

enum class LinkKind : std::uint8_t { boundary, local, remote };

// Local face f of a local cell.
struct FaceLink {
  LinkKind kind = LinkKind::boundary;
  std::uint8_t neighbour_face = 0;  // local: the neighbour's local face index
  // local: the neighbour's local node at each of the face's nodes (its LdTet::face_nodes of
  // neighbour_face), kept here so a task does not read the neighbour's whole record.
  std::array<std::uint8_t, 3> neighbour_nodes{};
  Index neighbour = 0;              // local: its local cell; remote: its remote-face slot
  Index face = 0;                   // the global face id
};

// A face this rank shares with another rank.
struct RemoteFace {
  Index face = 0;       // global id
  Index cell = 0;       // the local cell on this side
  std::uint8_t local_face = 0;
  std::int32_t peer = 0;
};

struct SweepPlan {
  int rank = 0, ranks = 1, directions = 0, groups = 0;
  std::vector<Index> cells;            // global ids of the local cells, along a Morton curve
  std::vector<LdTet> tets;             // per local cell; area normals are +- the face's own
  std::vector<std::uint32_t> material_slot;  // per local cell: index into `materials`
  std::vector<MaterialData> materials;
  std::vector<std::array<FaceLink, 4>> links;  // per local cell
  std::vector<RemoteFace> remote_faces;
  std::vector<std::int32_t> remote_slot_of_face;  // per global face: its remote slot, -1

  std::vector<std::uint32_t> in_degree;   // per task: dependencies at a sweep's start
  std::vector<std::uint8_t> lagged_mask;  // per task: bit f set if local face f is lagged in d
  // Per task: its priority as a dense level, 0 .. priority_levels - 1, larger first (the
  // scheme's values renumbered in order; unused by fifo).
  std::vector<std::uint32_t> priority;
  std::size_t priority_levels = 1;
  Priority priority_scheme = Priority::blevel;

  // Lagged (face, direction) pairs whose downwind cell is local: where their previous
  // iteration's values are kept. Key: face * D + d.
  std::unordered_map<std::uint64_t, std::uint32_t> lag_slot;
  std::size_t lagged_faces_global = 0;  // over all directions, the whole mesh

  std::vector<std::int32_t> peers;           // the ranks this one shares faces with, ascending
  std::vector<std::int64_t> records_to;      // per peer: face records sent per sweep
  std::vector<std::int64_t> records_from;    // per peer: face records received per sweep
  std::int64_t records_in = 0;               // sum of records_from

  std::size_t task(std::size_t cell, std::size_t direction) const { return direction * cells.size() + cell; }
  std::size_t direction_of(std::size_t task) const { return task / cells.size(); }
  std::size_t cell_of(std::size_t task) const { return task - direction_of(task) * cells.size(); }
  std::size_t tasks() const { return cells.size() * static_cast<std::size_t>(directions); }
  std::size_t record_doubles() const { return 1 + 3 * static_cast<std::size_t>(groups); }
  int peer_index(std::int32_t rank) const;  // index into peers, -1 if not a peer
};

// The limits of a plan (InputError(name, ...)): a rank's cells x directions under 2^32 (the
// 32-bit task ids), and octant at most 512 directions (its keys). make_sweep_plan checks them;
// the driver too, before the machine probe.
void check_plan_limits(std::size_t rank_cells, std::size_t directions, Priority priority, const std::string& name);

// Builds rank `rank`'s plan. Every rank calls it with the same mesh, partition and problem;
// the directions' orders (sweep_dag.hpp) are computed for the whole mesh, so the lagged faces
// are the same on every rank and for every P. InputError(name, ...) if the task count does
// not fit the 32-bit task ids.
SweepPlan make_sweep_plan(const Mesh& mesh, const mesh::Partition& partition, const Problem& problem, int rank,
                          Priority priority, const std::string& name);

}  // namespace tycho
