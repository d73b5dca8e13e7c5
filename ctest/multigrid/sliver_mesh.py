#!/usr/bin/env python3
"""Writes a Gmsh 2.2 ASCII mesh: the unit cube as n^3 Kuhn cubes of 6 tetrahedra, and beside it
one flat tetrahedron that passes the reader's volume check (its volume 1.3e-12 x its longest
edge cubed, the check's least 1e-12) but whose refined octahedron children do not (0.84e-12:
their longest edge, the octahedron's diagonal, is 0.577 of the parent's, not 0.5).
Usage: sliver_mesh.py OUT.msh [N]"""
import itertools
import math
import sys

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 4
nodes = {}


def node(p):
    return nodes.setdefault(p, len(nodes) + 1)


cells = []
for i, j, k in itertools.product(range(n), repeat=3):
    for perm in itertools.permutations(range(3)):
        corner = [i, j, k]
        path = [node(tuple(c / n for c in corner))]
        for axis in perm:
            corner[axis] += 1
            path.append(node(tuple(c / n for c in corner)))
        cells.append(path)
h = 9e-12  # the cap's height over its base, an equilateral triangle of side 1 at x in [2, 3]
cap = [(2.0, 0.0, 0.0), (3.0, 0.0, 0.0), (2.5, math.sqrt(3) / 2, 0.0), (2.5, math.sqrt(3) / 6, h)]
cells.append([node(p) for p in cap])
with open(out, "w") as f:
    f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n" % len(nodes))
    for p, tag in sorted(nodes.items(), key=lambda item: item[1]):
        f.write("%d %.17g %.17g %.17g\n" % (tag, *p))
    f.write("$EndNodes\n$Elements\n%d\n" % len(cells))
    for e, c in enumerate(cells, 1):
        f.write("%d 4 2 1 1 %s\n" % (e, " ".join(map(str, c))))
    f.write("$EndElements\n")
