#!/usr/bin/env bash
# Regenerates the test meshes of ctest/mesh/unit_gmsh_*.cpp from two-material-cube.geo with
# gmsh (Debian package gmsh; written with 4.8.4): meshed once as ASCII 4.1, then that mesh
# saved as binary 4.1 and ASCII and binary 2.2, so all four hold the same nodes and cells.
set -euo pipefail
cd "$(dirname "$0")"
gmsh -3 two-material-cube.geo -format msh41 -o cube-4.1-ascii.msh >/dev/null
gmsh cube-4.1-ascii.msh -save -format msh41 -bin -o cube-4.1-binary.msh >/dev/null
gmsh cube-4.1-ascii.msh -save -format msh22 -o cube-2.2-ascii.msh >/dev/null
gmsh cube-4.1-ascii.msh -save -format msh22 -bin -o cube-2.2-binary.msh >/dev/null
ls -l cube-*.msh
