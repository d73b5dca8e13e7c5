#!/usr/bin/env bash
# Meshes the multigrid app's body-in-box.geo with gmsh (Debian package gmsh) into OUT_DIR
# (default ./meshes, not committed), in Gmsh 4.1 binary, at the sizes given (default 0.15
# and 0.08: about 3.9k and 19k tetrahedra). They are coarsest grids: the app refines them
# (--grids), so a few thousand cells already make a fine grid of a few million.
#
#   inputs/multigrid/make_meshes.sh [OUT_DIR] [SIZE...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-meshes}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(0.15 0.08)
mkdir -p "$out"
command -v gmsh >/dev/null || { echo "make_meshes.sh: gmsh not found (apt-get install gmsh)" >&2; exit 1; }
for h in "${sizes[@]}"; do
  name="$out/body-in-box-h$h"
  if ! gmsh -3 "$here/body-in-box.geo" -setnumber h "$h" -format msh41 -bin -o "$name.msh" >"$name.log" 2>&1 ||
     grep -q '^Error' "$name.log"; then
    tail -n 5 "$name.log" >&2
    echo "make_meshes.sh: gmsh failed on body-in-box.geo at h = $h (log: $name.log)" >&2
    exit 1
  fi
  echo "$name.msh: $(grep -a -m1 -o '[0-9]* nodes [0-9]* elements' "$name.log")"
done
