// A fuselage-like body (a capsule: a cylinder of radius 0.1 and length 0.5 with hemispherical
// ends, at 10 degrees incidence) in the unit box: the multigrid app's geometry with curved
// surfaces and a hole, after the aircraft of Hill, Crumpton & Burgess. The volume between
// the two is meshed with tetrahedra of size about h near the box and h/3 on the body.
// Mesh it with make_meshes.sh (gmsh, the Debian package), not by hand.
SetFactory("OpenCASCADE");
DefineConstant[ h = {0.1, Min 0.005, Max 0.5, Name "mesh size"} ];
Box(1) = {0, 0, 0, 1, 1, 1};
Cylinder(2) = {0.25, 0.5, 0.5, 0.5, 0, 0, 0.1};
Sphere(3) = {0.25, 0.5, 0.5, 0.1};
Sphere(4) = {0.75, 0.5, 0.5, 0.1};
BooleanUnion(5) = { Volume{2}; Delete; }{ Volume{3, 4}; Delete; };
Rotate {{0, 1, 0}, {0.5, 0.5, 0.5}, 10 * Pi / 180} { Volume{5}; }
BooleanDifference(6) = { Volume{1}; Delete; }{ Volume{5}; Delete; };
Physical Volume("fluid", 1) = {6};
// Finer on the body: the distance from its surfaces sets the size.
body() = Surface In BoundingBox{0.1, 0.35, 0.3, 0.9, 0.65, 0.7};
Field[1] = Distance;
Field[1].SurfacesList = {body()};
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = h / 3;
Field[2].SizeMax = h;
Field[2].DistMin = 0.02;
Field[2].DistMax = 0.25;
Background Field = 2;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
Mesh.Optimize = 1;
