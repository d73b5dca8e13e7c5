// A logging tool in a borehole, in the spirit of the meshes of Kerbyson, Hoisie & Pautz
// (an oil-well logging problem): a block of rock (material 1) crossed by a vertical
// borehole of radius 10 filled with fluid (material 2), and in it a tool of radius 4 and
// length 60 (material 3) with its axis on the borehole's. Mesh size h from the command line:
//   gmsh -3 tool-in-borehole.geo -setnumber h 8 -o borehole.msh
SetFactory("OpenCASCADE");
If (!Exists(h))
  h = 8;
EndIf
Box(1) = {-50, -50, 0, 100, 100, 100};
Cylinder(2) = {0, 0, 0, 0, 0, 100, 10};
Cylinder(3) = {0, 0, 20, 0, 0, 60, 4};
// Cut the nested solids apart so each region is one volume sharing its faces.
rock[] = BooleanDifference{ Volume{1}; Delete; }{ Volume{2}; };
fluid[] = BooleanDifference{ Volume{2}; Delete; }{ Volume{3}; };
all[] = BooleanFragments{ Volume{rock[], fluid[], 3}; Delete; }{};
Physical Volume("rock", 1) = {rock[]};
Physical Volume("fluid", 2) = {fluid[]};
Physical Volume("tool", 3) = {3};
Mesh.MeshSizeMax = h;
Mesh.MeshSizeMin = h / 4;
Mesh.MeshSizeFromCurvature = 16;  // 16 elements around a circle: the tool stays round
