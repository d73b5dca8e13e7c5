// The pipeline length of a partitioned sweep (section 3.2 and eq. 8 of Kerbyson, Hoisie &
// Pautz): "the maximum number of PEs traversed in any sweep direction", found by inspecting
// the mesh after partitioning.
//
// Measured on the cells, not on a graph of parts: for a direction Omega, a face's upwind
// cell is the one Omega leaves through it (the sign of Omega.n; a face with Omega.n = 0
// carries nothing). Along every path of upwind-to-downwind cells we count the parts it
// enters; the chain is the most parts any path crosses, a part counted again each time a
// path re-enters it (two parts can feed each other through different faces, so the graph
// of parts has cycles where the graph of cells has none). On a slab partition with the
// parts stacked along x, the chain for Omega along x is P; eq. 8's pipeline term is
// chain - 1 (P_x - 1 + P_y - 1 + P_z - 1 on a logical grid of P_x x P_y x P_z).
//
// Cycles of cells (they occur on unstructured meshes) are broken deterministically: when
// no cell is ready, the lowest-numbered waiting cell has its remaining inflow faces lagged
// (treated as known from the previous iteration); their count is reported.
#pragma once
#include <array>
#include <vector>

#include "tycho/mesh_types.hpp"
#include "mesh/partition.hpp"

namespace tycho {

struct SweepChain {
  Vec3 direction;
  int parts_crossed = 0;          // the longest chain, >= 1
  std::size_t lagged_faces = 0;   // faces lagged to break cycles of cells
};

// The chain on the graph of parts, as the paper puts it ("the maximum number of PEs
// traversed"): each pair of parts sharing faces is joined by one edge, oriented by the sign
// of the net flow sum(Omega.n area) over their shared faces (no edge if it is exactly 0).
// Cycles of parts are broken deterministically: a depth-first search from the parts in
// ascending order, neighbours ascending, drops each edge back into the current path.
// The chain is the number of parts on the longest path that remains. It never exceeds P;
// sweep_chain, which counts re-entries, can (and is the one a sweep's steps obey).
struct PartGraphChain {
  Vec3 direction;
  int parts_crossed = 0;
  std::size_t dropped_edges = 0;  // edges between parts dropped to break cycles
};

// Precondition: mesh.geometry computed; partition covers the mesh's cells.
PartGraphChain part_graph_chain(const Mesh& mesh, const mesh::Partition& partition, const Vec3& direction);

// Precondition: mesh.geometry computed; partition covers the mesh's cells.
SweepChain sweep_chain(const Mesh& mesh, const mesh::Partition& partition, const Vec3& direction);

// The 8 octant diagonals (+-1, +-1, +-1)/sqrt(3); in entry i, bit 0 set means x negative,
// bit 1 y negative, bit 2 z negative.
std::array<Vec3, 8> octant_diagonals();

// sweep_chain and part_graph_chain for each octant diagonal.
std::vector<SweepChain> octant_sweep_chains(const Mesh& mesh, const mesh::Partition& partition);
std::vector<PartGraphChain> octant_part_graph_chains(const Mesh& mesh, const mesh::Partition& partition);

}  // namespace tycho
