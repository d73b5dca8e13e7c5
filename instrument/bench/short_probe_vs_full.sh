#!/bin/bash
# The apps' short probe against loggps-probe in full, as sweep3d's model rows see them: each
# round measures a fresh short probe (an emptied XDG cache, then a default sweep3d 1x2 run,
# twice) and a fresh loggps-probe file (the same run twice with --machine), alternated.
# Prints each probe's time and the LogGP rows' errors: T_iter, sweeps' comm + sync, reductions.
#
#   bash instrument/bench/short_probe_vs_full.sh [BUILD_DIR] [ROUNDS]     (from the checkout)
#
# Needs 2 idle cores; nothing else should run meanwhile (BENCHMARKS.md, the short probe).
set -euo pipefail
build=${1:-build}
rounds=${2:-5}
deck=$(cd "$(dirname "$0")/../.." && pwd)/inputs/sweep3d/input50
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
row() { grep -E "^loggp +(T_iter|sweeps: comm|reductions)" | awk '{for (i = 1; i <= NF; i++) if ($i ~ /%$/) { printf "%s ", $i; break }}'; }
run() { mpiexec -n 2 -bind-to core "$build/sweep3d/sweep3d" "$deck" --grid 1x2 --mk 10 --mmi 3 --no-results "$@" 2>&1; }
echo "file    round  probe     T_iter comm+sync reductions (two runs)"
for r in $(seq 1 "$rounds"); do
  rm -rf "$work/cache"
  first=$(XDG_CACHE_HOME=$work/cache run)
  t=$(echo "$first" | grep -oE "in [0-9.]+ s with a short probe" | grep -oE "[0-9.]+")
  echo "short   $r      ${t} s    $(echo "$first" | row)| $(XDG_CACHE_HOME=$work/cache run | row)"
  t0=$(date +%s.%N)
  mpiexec -n 2 -bind-to core "$build/instrument/loggps-probe" --out "$work/full.machine" > /dev/null 2>&1
  t1=$(date +%s.%N)
  printf "full    %s      %.2f s  %s| %s\n" "$r" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
    "$(run --machine "$work/full.machine" | row)" \
    "$(run --machine "$work/full.machine" | row)"
done
