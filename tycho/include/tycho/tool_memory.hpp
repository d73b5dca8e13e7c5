// The memory tycho-refine and tycho-model take for the counts their options imply (cells
// times 8 a refinement, directions, MCPS), so that `--times 7` or `--refine 3` is refused in
// a second with the figure, not after minutes by a bad_alloc.
//
// Each figure adds the sizes of the structures held at the peak (sizeof of the structs in
// mesh/mesh.hpp, mesh/mesh_from_cells.hpp, step_history.hpp) per cell, from the counts of a
// tetrahedral mesh: 4 faces a cell, those inside shared by two (2 a cell); about 1/6 node a
// cell on a refined mesh (1/5 is counted). METIS's own work arrays are the one figure
// measured rather than derived. tool_memory.cpp gives the measured peaks each was checked
// against.
#pragma once
#include <cstdint>

namespace tycho {

enum class Priority;  // sweep_plan.hpp

// cells x 8^times, saturated at UINT64_MAX.
std::uint64_t refined_cell_count(std::uint64_t cells, int times);

// tycho-refine at its peak for a result of `cells` cells: the refined mesh with its geometry
// and the .smesh bytes made from it (write_smesh), more than the last refinement's own
// working arrays (its parent, edges, children, the faces' sort).
std::uint64_t refine_tool_peak_bytes(std::uint64_t cells);

// tycho-model at its peak for a mesh of `cells` cells (refined already), `directions`
// directions, at most `mcps` tasks a step, largest rank count `largest_p`: the mesh, METIS's
// partition (none at one rank), and project_schedule's arrays per cell-direction task, its
// face normals, its step and message records, which the replay reads.
// `priority`: the order projected (tycho-model --priority): blevel's and band-octant's keep a
// b-level a task, octant's and band-octant's a slab per cell and octant.
std::uint64_t model_tool_peak_bytes(std::uint64_t cells, int directions, std::int64_t mcps, int largest_p,
                                    Priority priority);

}  // namespace tycho
