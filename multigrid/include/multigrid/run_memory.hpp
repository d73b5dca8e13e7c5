// The memory a multigrid run and a projection take, from the counts an option implies,
// before anything is built: so that `--cube 200` or `--grids 8` is refused in a second with
// the figure, not after minutes by a bad_alloc or the OOM killer.
//
// Each estimate adds the sizes of the structures the run holds at its peak (sizeof of the
// structs in mesh/mesh.hpp, hierarchy.hpp, local_level.hpp, grid_partition.hpp) per finest
// cell, from the counts of a tetrahedral mesh: 4 faces a cell, each inside one shared by two
// cells (2 faces a cell); about 1/6 node a cell on a refined mesh (1/5 is counted); the
// coarser grids 1/8, 1/64, ... of the finest (8/7 of it in all). METIS's own work arrays are
// the one figure measured rather than derived (run_memory.cpp says how).
#pragma once
#include <cstdint>

namespace mg {

// The finest grid's cells of `grids` grids refined uniformly from `coarse_cells` (8 children
// a cell a level), saturated at UINT64_MAX.
std::uint64_t finest_cells(std::uint64_t coarse_cells, int grids);

// The grids build_hierarchy holds (meshes with their geometry, the transfers' stencils,
// parents and midpoints), all grids together, for a finest grid of `finest` cells.
std::uint64_t hierarchy_bytes(std::uint64_t finest);

// One process of the multigrid program at its peak: the whole hierarchy (every process builds
// it), the inherited parts, and the larger of METIS's partition of the finest grid (none at
// one process) and the process's own levels (its 1/processes share of the cells, its slots,
// the smoother's vectors), plus the libraries' fixed share.
std::uint64_t run_peak_bytes(std::uint64_t finest, int processes);

// multigrid-model at its peak: the hierarchy, one partition into `largest_p` parts at a time
// with its inherited parts and the node holders count_traffic builds.
std::uint64_t projection_peak_bytes(std::uint64_t finest, int largest_p);

}  // namespace mg
