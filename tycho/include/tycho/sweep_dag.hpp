// The order a sweep direction imposes on the cells: which cell feeds which through each face,
// the faces lagged to break the cycles an unstructured mesh can have, and the priorities the
// parallel sweep schedules by.
//
// One normal per face, not per cell: a face's flow direction must be decided identically by
// its two cells (on two ranks), and two cells computing "their" outward normal from their
// own node orders can disagree in the last bit on a face nearly parallel to Omega. So every
// decision reads face_area_normals(mesh)[f] (A_f n_f, pointing out of faces[f].cells[0]) and
// the rule is exact and antisymmetric:
//   s = dot(omega, normal[f]);  s > 0: cells[0] upwind of cells[1];  s < 0: cells[1] upwind
//   of cells[0];  s == 0: the face carries nothing in this direction (no edge).
// dot(a, b) = a.x b.x + a.y b.y + a.z b.z, in that order (the sweep uses the same bits).
//
// Everything here is global (the whole mesh, independent of the partition) except
// boundary_depth, so the lagged faces, and hence the answer, do not depend on P.
#pragma once
#include <cstdint>
#include <vector>

#include "tycho/mesh_types.hpp"
#include "mesh/partition.hpp"

namespace tycho {

// A_f n_f per face: the area times the unit normal pointing out of faces[f].cells[0].
// Precondition: a checked mesh.
std::vector<Vec3> face_area_normals(const Mesh& mesh);

// The order of one direction.
struct DirectionOrder {
  // Interior faces whose upwind value is taken from the previous iteration (lagged) so that
  // the remaining upwind->downwind graph of cells is acyclic; ascending face ids. Empty on a
  // mesh with no cycle in this direction.
  std::vector<Index> lagged;
  // Per cell: the number of cells on the longest downwind path starting at it (1 for a cell
  // that feeds no cell), over the graph without the lagged faces (the b-level).
  std::vector<std::uint32_t> blevel;
  // The cells in one topological order of that graph (every cell after all its upwind
  // cells), ties by ascending cell index: a serial sweep in this order sees every inflow.
  // Precisely the lexicographically smallest one: each next cell is the lowest-numbered one
  // whose non-lagged upwind cells are all placed (so a cell with lagged inflow need not come
  // where the cycle breaking reached it).
  std::vector<Index> order;
};

// Cycles are detected and broken deterministically, lagging few faces: Kahn's algorithm on
// the cells; when no cell is ready and some are left, the waiting cell with the fewest
// unresolved upwind faces (ties: the lowest index) has those faces lagged, and the sweep
// goes on. So a mesh without cycles lags nothing, and the choice depends only on the mesh
// and omega: the cells Kahn's algorithm has taken when it gets stuck are those no cycle
// reaches, whatever order the ready cells were taken in. Cost O(cells log cells), no
// per-cell allocation. face_normals: face_area_normals(mesh).
DirectionOrder direction_order(const Mesh& mesh, const std::vector<Vec3>& face_normals, const Vec3& omega);

// For the "boundary first" priority: per cell of the partition, the fewest cells on a
// downwind path (within its own part, not crossing lagged faces) from it to a cell that has
// a face feeding another part, counting both ends (1 for such a cell itself); 0 for a cell
// from which no such path exists. `lagged` is direction_order's for omega. A lagged face
// feeds nothing in this sweep (the part downwind reads its previous iterate and does not
// wait for it), so it neither makes its upwind cell a feeding cell nor carries a path.
std::vector<std::uint32_t> boundary_depth(const Mesh& mesh, const std::vector<Vec3>& face_normals,
                                          const Vec3& omega, const mesh::Partition& partition,
                                          const std::vector<Index>& lagged);

}  // namespace tycho
