#!/usr/bin/env bash
# The recorded-run validation of the replay engine (BENCHMARKS.md, "Replay"): N pairs of
# sweep3d runs of the canonical deck (input50, mk 10, mmi 3), alternating a 1-rank calibration
# (bound to a core, as the main job does) and a 1x2 run, both traced; each 1x2 run replayed by
# instrument-replay with --self (its own compute: the simulator's consistency check) and with
# --costs from the calibration made just before it (a prediction). Prints every pair's errors
# and their medians. The same runs are also replayed on the machine file read as Ino's paper
# (loggps.H = 0, loggps.rendezvous_send = after_injection: the probe's extension 2 off), so
# the effect of the measured rendezvous is seen on identical runs. Needs an idle machine: a rank preempted inside an MPI call makes the run
# slower than any machine model.
#   scripts/replay-validation.sh [BUILD_DIR] [MACHINE_FILE] [PAIRS]   (defaults: build, a fresh
#   loggps-probe of this machine, 7)
set -euo pipefail
source "$(dirname "$0")/usage.sh"
script_help "$0" "$@"
cd "$(dirname "$0")/.."
if [ $# -gt 3 ]; then
  echo "replay-validation.sh: '$4': expected at most BUILD_DIR MACHINE_FILE PAIRS; -h for help" >&2
  exit 2
fi
b=${1:-build}
pairs=${3:-7}
if [ ! -x "$b/sweep3d/sweep3d" ] || [ ! -x "$b/instrument/instrument-replay" ] || [ ! -x "$b/instrument/loggps-probe" ]; then
  echo "replay-validation.sh: '$b': expected a build directory with sweep3d/sweep3d, instrument/instrument-replay and instrument/loggps-probe; -h for help" >&2
  exit 2
fi
if ! [[ $pairs =~ ^[1-9][0-9]*$ ]]; then
  echo "replay-validation.sh: '$pairs': expected PAIRS, a positive number of run pairs; -h for help" >&2
  exit 2
fi
mpiexec=$(command -v mpiexec.mpich || command -v mpiexec)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
machine=${2:-}
if [ -z "$machine" ]; then
  machine=$work/machine.machine
  "$mpiexec" -n 2 "$b/instrument/loggps-probe" --out "$machine" >/dev/null
fi
deck=inputs/sweep3d/input50
paper=$work/paper.machine
grep -v -E '^loggps\.(H|rendezvous_send) ' "$machine" >"$paper"
printf 'loggps.H = 0\nloggps.rendezvous_send = after_injection\n' >>"$paper"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); machine file: $machine"
grep -E '^loggps\.(S|H|rendezvous_send) ' "$machine" | tr '\n' ' '
echo
printf '%5s %12s %12s %12s %14s %14s  %s\n' pair measured_s self_error calibrated_error paper_self paper_calib machine
error_of() { sed -E 's/.* error ([-+0-9.]+)%$/\1/' <<<"$1"; }
self=() cal=() pself=() pcal=() busy_pairs=0
for i in $(seq 1 "$pairs"); do
  "$mpiexec" -n 1 -bind-to core "$b/sweep3d/sweep3d" $deck --mk 10 --mmi 3 --trace 100000 \
    --results "$work/cal.h5" >/dev/null
  "$mpiexec" -n 2 "$b/sweep3d/sweep3d" $deck --grid 1x2 --mk 10 --mmi 3 --trace 100000 \
    --machine "$machine" --results "$work/run.h5" >/dev/null
  full=$("$b/instrument/instrument-replay" "$work/run.h5" --self)
  s=$(tail -n 1 <<<"$full")
  # instrument-replay says so when the run was recorded on a busy machine (machine_load.hpp):
  # such a pair's errors are the machine's, not the model's, and stay out of the medians.
  verdict=idle
  if grep -q "^machine: busy during this run" <<<"$full"; then verdict="BUSY: unreliable"; fi
  c=$("$b/instrument/instrument-replay" "$work/run.h5" --costs "$work/cal.h5" | tail -n 1)
  ps=$("$b/instrument/instrument-replay" "$work/run.h5" --self --machine "$paper" | tail -n 1)
  pc=$("$b/instrument/instrument-replay" "$work/run.h5" --costs "$work/cal.h5" --machine "$paper" | tail -n 1)
  se=$(error_of "$s") ce=$(error_of "$c") pse=$(error_of "$ps") pce=$(error_of "$pc")
  measured=$(sed -E 's/.*measured ([0-9.e+-]+) .*/\1/' <<<"$s")
  printf '%5d %12s %11s%% %15s%% %13s%% %13s%%  %s\n' "$i" "$measured" "$se" "$ce" "$pse" "$pce" "$verdict"
  if [ "$verdict" = idle ]; then
    self+=("$se") cal+=("$ce") pself+=("$pse") pcal+=("$pce")
  else
    busy_pairs=$((busy_pairs + 1))
  fi
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
idle_pairs=$((pairs - busy_pairs))
if [ "$idle_pairs" -eq 0 ]; then
  echo "no median: every pair ran on a busy machine (unreliable comparisons); rerun on an idle one"
else
  [ "$busy_pairs" -gt 0 ] && echo "$busy_pairs of $pairs pairs ran on a busy machine: left out of the medians"
  echo "median error over $idle_pairs pairs: --self $(median "${self[@]}")%, calibrated from 1 rank $(median "${cal[@]}")%"
  echo "  on the paper's rendezvous (H = 0, after_injection): --self $(median "${pself[@]}")%, calibrated $(median "${pcal[@]}")%"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
