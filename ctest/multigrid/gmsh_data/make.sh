#!/usr/bin/env bash
# Regenerates the test mesh of ctest/multigrid/run.cmake's gmsh-box tests from box.geo with
# gmsh (Debian package gmsh; written with 4.8.4), binary Gmsh 4.1.
set -euo pipefail
cd "$(dirname "$0")"
gmsh -3 box.geo -format msh41 -bin -o box.msh >/dev/null
ls -l box.msh
