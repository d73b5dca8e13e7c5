// The unit cube meshed by gmsh's default 3-D Delaunay algorithm at one size (0.25: 390
// tetrahedra): a mesh whose cells near the boundary have all four corners on it, the kind
// on which the multigrid's default smoothing interval converges slowly (multigrid/BENCHMARKS.md).
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Physical Volume("box", 1) = {1};
Mesh.MeshSizeMin = 0.25;
Mesh.MeshSizeMax = 0.25;
Mesh.Optimize = 1;
