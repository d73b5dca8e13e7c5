#!/usr/bin/env bash
# Installs the Debian packages the suite needs, only those missing (idempotent; quick when all
# are present). Needs root (or sudo) the first time.
set -euo pipefail
source "$(dirname "$0")/usage.sh"
script_takes_no_arguments "$0" "" "$@"

# What both README commands need and no more: the compilers and CMake, git (the build stamps
# results with `git describe`), MPICH and the MPICH-flavoured HDF5, zlib (the results seal),
# METIS's library, Catch2 (the tests), and Python with h5py, NumPy and Matplotlib (perf-report,
# the plots, the test scripts, the campaign runner), the OTF2 library and otf2-print (trace
# export), Slurm and MUNGE (the campaign runner's Slurm backend, tested against a real one-node
# Slurm) and Chromium (the test that renders the campaign report). The meshes are made by the
# suite's own tools.
packages=(build-essential cmake git mpich libmpich-dev libhdf5-mpich-dev zlib1g-dev
          libmetis-dev catch2 python3 python3-h5py python3-numpy python3-matplotlib
          libotf2-trace-dev otf2-tools slurm-wlm munge chromium)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
