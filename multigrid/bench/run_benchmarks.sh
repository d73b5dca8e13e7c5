#!/bin/bash
# run_benchmarks.sh [BUILD]: the smoother's sweep beside the memory bandwidth of this machine.
#
# Runs stream_triad on one thread and on two, then multigrid_smoother_bench with --stream-gbs
# the one-thread triad's best (the smoother runs on one process, so one core's bandwidth is
# its bound) on a mesh that fits in the last-level cache (--cube 16 --grids 2, 196608 cells)
# and on one that does not: --cube 16 --grids 3 (1572864 cells, 28 MB of minimal traffic) where
# the last-level cache is at most 16 MiB, else --cube 24 --grids 4 (42467328 cells, 737 MB;
# about 14 GB of memory and 3 minutes, most of it building the grids). The cache's size is
# read from sysfs; a cache of 512 MiB or more leaves no mesh here out of it, which is said.
# Then the same at two processes, each sweeping a copy of its own at once, against the
# two-thread triad's best: --cube 20 --grids 4 each (24576000 cells, 427 MB of minimal
# traffic a process, 854 MB together; about 17 GB of memory), or --cube 16 --grids 3 where
# the last-level cache is at most 16 MiB. Then one process of two OpenMP threads (--threads 2)
# sweeping one such copy, against the same two-thread triad (issue 40, goal 4): the two
# processes' and the two threads' fractions of one bound side by side.
# BUILD is the build directory (default build), with the targets stream_triad and
# multigrid_smoother_bench built; mpirun on the PATH.
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
two=$("$triad" --threads 2)
echo "$two"
best_of() { printf '%s\n' "$1" | sed -n 's/^ triad (24 B\/element): *best \([0-9.]*\) GB\/s.*/\1/p'; }
gbs=$(best_of "$one")
gbs2=$(best_of "$two")
if [ -z "$gbs" ] || [ -z "$gbs2" ]; then
  echo "$0: error: stream_triad printed no 'triad (24 B/element): best' line" >&2
  exit 1
fi
l3_kib=$(sed -n 's/^\([0-9]*\)K$/\1/p' /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || true)
l3_kib=${l3_kib:-32768}
echo
echo "last-level cache: $((l3_kib / 1024)) MiB"
if [ "$l3_kib" -ge 524288 ]; then
  echo "$0: warning: the largest mesh here (737 MB of minimal traffic) fits in this cache" >&2
fi
echo
"$smoother" --cube 16 --grids 2 --stream-gbs "$gbs"
echo
if [ "$l3_kib" -le 16384 ]; then
  "$smoother" --cube 16 --grids 3 --stream-gbs "$gbs"
else
  "$smoother" --cube 24 --grids 4 --reps 5 --stream-gbs "$gbs"
fi
echo
if [ "$l3_kib" -le 16384 ]; then
  two_copies=(--cube 16 --grids 3)
else
  two_copies=(--cube 20 --grids 4 --reps 5)
fi
mpirun -np 2 "$smoother" "${two_copies[@]}" --stream-gbs "$gbs2"
echo
"$smoother" "${two_copies[@]}" --threads 2 --stream-gbs "$gbs2"
