// Small meshes built in code, with geometry that can be worked by hand: test meshes, the
// fuzzer's seeds (tycho-mesh-example writes them), and checks of the refinement to come.
#pragma once
#include "mesh/mesh.hpp"

namespace mesh {

// The corner tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1): volume 1/6, three faces of
// area 1/2 on the coordinate planes, one of area sqrt(3)/2 with normal (1,1,1)/sqrt(3).
Mesh corner_tet_mesh();

// corner_tet_mesh and its mirror in the plane x = 0, material 1 and 2, sharing the face on
// x = 0 (nodes (0,0,0), (0,1,0), (0,0,1)): 2 cells, 7 faces, 5 nodes, volume 1/3.
Mesh two_tet_mesh();

// The cube [0, side]^3 as n^3 small cubes, each cut into 6 tetrahedra around its diagonal
// from its low corner to its high one (Kuhn's triangulation, conforming across cubes), each
// of volume (side/n)^3/6: 6 n^3 cells, (n+1)^3 nodes. Nodes x fastest, then y, then z, at
// side * (i/n); cells cube by cube in the same order, 6 a cube. For n = 1: 18 faces (12 on
// the boundary, 2 per cube face), node i at x = bit 0, y = bit 1, z = bit 2 of i. The one
// builder of this mesh: multigrid's default grid and its residual histories rely on this
// order, and so do the tests that name its cells.
Mesh kuhn_cube_mesh(int n, double side);

// The lowest `layers` layers (in z, 1 <= layers <= n) of kuhn_cube_mesh(n, side), numbered
// alike: the slab [0, side]^2 x [0, side * layers / n], 6 n^2 layers cells. With layers = n
// the cube itself. What one rank holds of the cube cut across z: a one-rank calibration on
// the piece a rank of a parallel run will sweep (tycho's T_elem rises steeply with the cells
// a rank holds where they leave the caches, so a point near the run's is worth more than a
// fit across the step).
Mesh kuhn_slab_mesh(int n, int layers, double side);

// A triangular prism, its top turned by `twist` degrees about the z axis, coned from its
// centre p = (0, 0, 1/2): cell 0 on the bottom triangle a0 a1 a2 (z = 0), cell 1 on the top
// b0 b1 b2 (z = 1), and per side i (a_i a_i+1 b_i+1 b_i) two cells, 2 + 2i and 3 + 2i, on
// its halves. With `along_twist` the sides are cut by the diagonals a_i b_i+1 (Schoenhardt's
// untetrahedralisable prism for twist > 0: hence the centre): the six side cells then form a
// ring that a direction along z runs round, a cycle of the sweep. With the other diagonals,
// no cycle. 8 cells, 7 nodes.
Mesh twisted_prism_mesh(double twist, bool along_twist);

}  // namespace mesh
