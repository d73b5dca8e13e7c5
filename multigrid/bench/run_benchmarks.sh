#!/bin/bash
# run_benchmarks.sh [BUILD]: the smoother's sweep beside the memory bandwidth of this machine.
#
# Runs stream_triad on one thread and on two, then multigrid_smoother_bench on the finest of
# 2 and of 3 grids (--cube 16: 196608 and 1572864 cells) with --stream-gbs the one-thread
# triad's best: the smoother runs on one process, so one core's bandwidth is its bound.
# BUILD is the build directory (default build), with the targets stream_triad and
# multigrid_smoother_bench built.
set -euo pipefail

build=${1:-build}
triad=$build/multigrid/stream_triad
smoother=$build/multigrid/multigrid_smoother_bench
for exe in "$triad" "$smoother"; do
  if [ ! -x "$exe" ]; then
    echo "$0: error: $exe: not built (make stream_triad multigrid_smoother_bench)" >&2
    exit 1
  fi
done

one=$("$triad")
echo "$one"
echo
"$triad" --threads 2
gbs=$(printf '%s\n' "$one" | sed -n 's/^ triad (24 B\/element): *best \([0-9.]*\) GB\/s.*/\1/p')
if [ -z "$gbs" ]; then
  echo "$0: error: stream_triad printed no 'triad (24 B/element): best' line" >&2
  exit 1
fi
for grids in 2 3; do
  echo
  "$smoother" --grids "$grids" --stream-gbs "$gbs"
done
