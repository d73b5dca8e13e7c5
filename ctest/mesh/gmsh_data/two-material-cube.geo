// The test meshes of the .msh readers: the unit cube cut at x = 0.5 into two boxes, physical
// volumes 1 (x < 0.5) and 2 (x > 0.5), coarse (135 tetrahedra) so the files stay a few KB.
// make.sh meshes it once and writes the same mesh in the four encodings.
h = 1;
Point(1) = {0, 0, 0, h};
edge[] = Extrude {0, 1, 0} { Point{1}; };
side[] = Extrude {0, 0, 1} { Line{edge[1]}; };
inner[] = Extrude {0.5, 0, 0} { Surface{side[1]}; };
outer[] = Extrude {0.5, 0, 0} { Surface{inner[0]}; };
Physical Volume("inner", 1) = {inner[1]};
Physical Volume("outer", 2) = {outer[1]};
