#!/usr/bin/env bash
# Meshes tycho's .geo inputs with gmsh (Debian package gmsh) into OUT_DIR (default
# ./meshes, not committed): each geometry at a coarse and a fine size, in Gmsh 4.1 binary.
# Larger cube meshes come from refining (tycho-refine), not from here.
#
#   inputs/tycho/make_meshes.sh [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-meshes}
mkdir -p "$out"
command -v gmsh >/dev/null || { echo "make_meshes.sh: gmsh not found (apt-get install gmsh)" >&2; exit 1; }
mesh() {  # geometry, size, output name
  gmsh -3 "$here/$1.geo" -setnumber h "$2" -format msh41 -bin -o "$out/$3.msh" >"$out/$3.log" 2>&1 ||
    { tail -n 5 "$out/$3.log" >&2; echo "make_meshes.sh: gmsh failed on $1.geo (log: $out/$3.log)" >&2; exit 1; }
  echo "$out/$3.msh: $(grep -a -m1 -o 'Info *: [0-9]* nodes [0-9]* elements' "$out/$3.log" || echo meshed)"
}
mesh two-material-cube 20 two-material-cube-h20
mesh two-material-cube 8 two-material-cube-h8
mesh tool-in-borehole 16 tool-in-borehole-h16
mesh tool-in-borehole 6 tool-in-borehole-h6
