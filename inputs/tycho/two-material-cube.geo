// A two-material cube for tycho: [0, 100]^3 (the size of the Tycho2 cubes) cut at x = 50
// into physical volumes 1 (x < 50) and 2 (x > 50). Mesh size h from the command line:
//   gmsh -3 two-material-cube.geo -setnumber h 10 -o cube.msh
If (!Exists(h))
  h = 10;
EndIf
Point(1) = {0, 0, 0, h};
edge[] = Extrude {0, 100, 0} { Point{1}; };
side[] = Extrude {0, 0, 100} { Line{edge[1]}; };
left[] = Extrude {50, 0, 0} { Surface{side[1]}; };
right[] = Extrude {50, 0, 0} { Surface{left[0]}; };
Physical Volume("left", 1) = {left[1]};
Physical Volume("right", 2) = {right[1]};
