// The memory a multigrid run and a projection take, from the counts an option implies,
// before anything is built: so that `--cube 200` or `--grids 8` is refused in a second with
// the figure, not after minutes by a bad_alloc or the OOM killer.
//
// Each estimate adds the sizes of the structures the run holds at its peak (sizeof of the
// structs in mesh/mesh.hpp, hierarchy.hpp, local_level.hpp, grid_partition.hpp) per cell,
// from the counts of a tetrahedral mesh: 4 faces a cell, each inside one shared by two cells
// (2 faces a cell); about 1/6 node a cell on a refined mesh (0.171, the larger measured, is counted). METIS's own
// work arrays and the refinement's temporaries with faces are the figures measured rather
// than derived (run_memory.cpp says how).
#pragma once
#include <cstdint>
#include <vector>

#include "multigrid/hierarchy.hpp"

namespace mg {

// The finest grid's cells of `grids` grids refined uniformly from `coarse_cells` (8 children
// a cell a level), saturated at UINT64_MAX.
std::uint64_t finest_cells(std::uint64_t coarse_cells, int grids);

// What the estimates need of the grids: the coarsest (the mesh made or read, with its faces
// and geometry) and the finest, and whether every grid is a mesh read (--mesh-sequence)
// rather than a refinement of the one below (which has no geometry, and no faces in a run).
struct GridsShape {
  std::uint64_t coarsest = 0;
  std::uint64_t finest = 0;
  std::uint64_t total = 0;  // a sequence's cells, all grids together
  bool sequence = false;
  // A refinement whose finest grid keeps its cells by parent (FinestCells::by_parent: a run
  // without --partition), not their corners.
  bool finest_by_parent = false;
};
// `grids` grids refined from a mesh of `coarse_cells` cells, the finest's cells kept by parent
// or stored.
GridsShape refined_grids(std::uint64_t coarse_cells, int grids, bool finest_by_parent = false);
// A sequence of meshes of these cells, coarsest first.
GridsShape grid_sequence(const std::vector<std::uint64_t>& cells);

// The grids build_hierarchy (or build_sequence) holds: meshes, Dirichlet flags, midpoints and
// a sequence's stencils and parents, all grids together; refined grids with their faces or not
// (and without, the finest's cells by parent where grids.finest_by_parent says so).
std::uint64_t hierarchy_bytes(const GridsShape& grids, GridFaces faces);

// One process of the multigrid program at its peak, the largest of three stages: the grids as
// the finest is made (the whole hierarchy without refined faces, which every process builds,
// and its parent grid's edges); the grids with the inherited parts (the finest's kept by
// parent) and the larger of METIS's partition of the grid it partitions (none at one process)
// and the process's own levels as numbered; and the levels with their vectors once the grids
// are freed (its 1/processes share of the cells, its slots, the smoother's vectors). Plus the
// libraries' fixed share.
std::uint64_t run_peak_bytes(const GridsShape& grids, int processes);

// multigrid-model at its peak: the hierarchy with faces, and the larger of the refinement's
// temporaries for the finest grid's faces and one partition into `largest_p` parts at a time
// with its inherited parts and the node holders count_traffic builds.
std::uint64_t projection_peak_bytes(const GridsShape& grids, int largest_p);

}  // namespace mg
