// The grids of the multigrid cycle: a coarse tetrahedral mesh and its uniform refinements
// (tycho's refine_uniform: every cell into eight, children 8c..8c+7 of parent c; the fine
// nodes are the coarse nodes, then one midpoint per coarse edge in sorted-edge order). So
// the grids nest, r = 1/8 exactly, and the transfers are exact: a fine node is a coarse node
// or the midpoint of a coarse edge, and linear interpolation is the average of its ends.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tycho/mesh.hpp"

namespace mg {

using tycho::Index;

struct Grid {
  tycho::Mesh mesh;
  // Per node: 1 if it is on the boundary (a node of a boundary face): Dirichlet.
  std::vector<std::uint8_t> dirichlet;
  // For a grid with a coarser one: fine node j >= coarse_nodes is the midpoint of the coarse
  // edge midpoint_of[j - coarse_nodes] = (low, high). Empty on the coarsest grid.
  std::size_t coarse_nodes = 0;
  std::vector<std::array<Index, 2>> midpoint_of;
};

// Refuses a coarse mesh with a node in no cell (a dangling node: it would be a free unknown
// with no equation) or two nodes at one point (a crack: both sides would be boundary):
// InputError(name, "node N", ...).
void check_nodes(const tycho::Mesh& mesh, const std::string& name);

// grids[0] is the coarsest, grids.back() the finest (the paper numbers them the other way:
// its grid i is grids[size - i]). `levels` >= 1 grids; the coarse mesh is checked already.
// Throws instrument::InputError(name, "refinement", ...) if a refined grid would not fit.
std::vector<Grid> build_hierarchy(const tycho::Mesh& coarse, int levels, const std::string& name);

// The unit cube [0,1]^3 cut into n^3 small cubes, each into 6 tetrahedra around its main
// diagonal (Kuhn's triangulation, conforming across cubes): 6 n^3 cells, (n+1)^3 nodes.
tycho::Mesh kuhn_cube_grid(int n);

}  // namespace mg
