#!/usr/bin/env bash
# The recorded-run validation of the replay engine (BENCHMARKS.md, "Replay"): N pairs of
# sweep3d runs of the canonical deck (input50, mk 10, mmi 3), alternating a 1-rank calibration
# (bound to a core, as the main job does) and a 1x2 run, both traced; each 1x2 run replayed by
# instrument-replay with --self (its own compute: the simulator's consistency check) and with
# --costs from the calibration made just before it (a prediction). Prints every pair's errors
# and their medians. Needs an idle machine: a rank preempted inside an MPI call makes the run
# slower than any machine model.
#   scripts/replay-validation.sh [BUILD_DIR] [MACHINE_FILE] [PAIRS]   (defaults: build, a fresh
#   loggps-probe of this machine, 7)
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build}
pairs=${3:-7}
mpiexec=$(command -v mpiexec.mpich || command -v mpiexec)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
machine=${2:-}
if [ -z "$machine" ]; then
  machine=$work/machine.machine
  "$mpiexec" -n 2 "$b/instrument/loggps-probe" --out "$machine" >/dev/null
fi
deck=inputs/sweep3d/input50
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); machine file: $machine"
printf '%5s %12s %12s %12s\n' pair measured_s self_error calibrated_error
self=() cal=()
for i in $(seq 1 "$pairs"); do
  "$mpiexec" -n 1 -bind-to core "$b/sweep3d/sweep3d" $deck --mk 10 --mmi 3 --trace 100000 \
    --results "$work/cal.h5" >/dev/null
  "$mpiexec" -n 2 "$b/sweep3d/sweep3d" $deck --grid 1x2 --mk 10 --mmi 3 --trace 100000 \
    --machine "$machine" --results "$work/run.h5" >/dev/null
  s=$("$b/instrument/instrument-replay" "$work/run.h5" --self | tail -n 1)
  c=$("$b/instrument/instrument-replay" "$work/run.h5" --costs "$work/cal.h5" | tail -n 1)
  se=$(sed -E 's/.* error ([-+0-9.]+)%$/\1/' <<<"$s")
  ce=$(sed -E 's/.* error ([-+0-9.]+)%$/\1/' <<<"$c")
  measured=$(sed -E 's/.*measured ([0-9.e+-]+) .*/\1/' <<<"$s")
  printf '%5d %12s %11s%% %15s%%\n' "$i" "$measured" "$se" "$ce"
  self+=("$se") cal+=("$ce")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
echo "median error over $pairs pairs: --self $(median "${self[@]}")%, calibrated from 1 rank $(median "${cal[@]}")%"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
