#!/bin/sh
# hooks_on_off.sh ON_BUILD OFF_BUILD [RUNS]: what the instrument hooks cost a whole run.
#
# Runs sweep3d on the main deck (inputs/sweep3d/input50, mk = 10, mmi = 3, no results file)
# from a build with the hooks on (SUITE_INSTRUMENT=ON) and one with them compiled out
# (-DSUITE_INSTRUMENT=OFF), alternately ON, OFF, ON, OFF, ... RUNS times each (default 11),
# at 1 rank and at 2 ranks (--grid 1x2), and prints the median of the "Elapsed time was"
# each run prints, per build, and their ratio. Alternating spreads a loaded machine's noise
# over both builds alike; the medians resist the odd disturbed run.
#
#   cmake -S . -B build-off -DCMAKE_BUILD_TYPE=Release -DSUITE_INSTRUMENT=OFF
#   cmake --build build-off -j --target sweep3d
#   instrument/bench/hooks_on_off.sh build build-off
set -eu

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 ON_BUILD OFF_BUILD [RUNS]" >&2
  exit 2
fi
on_exe=$1/sweep3d/sweep3d
off_exe=$2/sweep3d/sweep3d
runs=${3:-11}
repo=$(cd "$(dirname "$0")/../.." && pwd)
deck=$repo/inputs/sweep3d/input50
for exe in "$on_exe" "$off_exe"; do
  if [ ! -x "$exe" ]; then
    echo "$0: error: $exe: no sweep3d executable (build the sweep3d target first)" >&2
    exit 1
  fi
done
case $runs in
  '' | *[!0-9]*) echo "$0: error: RUNS must be a positive integer, got '$runs'" >&2; exit 2 ;;
esac

# elapsed EXE NP ARGS...: the elapsed seconds one run prints.
elapsed() {
  exe=$1
  np=$2
  shift 2
  out=$(mpiexec -n "$np" "$exe" "$deck" --mk 10 --mmi 3 --no-results "$@")
  t=$(printf '%s\n' "$out" | awk '/Elapsed time was:/ { print $4; exit }')
  if [ -z "$t" ]; then
    echo "$0: error: $exe printed no 'Elapsed time was:' line" >&2
    exit 1
  fi
  echo "$t"
}

median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

printf 'hooks on vs off: sweep3d %s --mk 10 --mmi 3, %s alternating runs each, median elapsed\n' \
  "inputs/sweep3d/input50" "$runs"
printf '%-22s %14s %14s %10s\n' "run" "hooks on [s]" "hooks off [s]" "on / off"
for config in "1" "2 --grid 1x2"; do
  # shellcheck disable=SC2086  # the config's words are the rank count and options
  set -- $config
  np=$1
  shift
  : >"$tmp/on"
  : >"$tmp/off"
  i=0
  while [ "$i" -lt "$runs" ]; do
    elapsed "$on_exe" "$np" "$@" >>"$tmp/on"
    elapsed "$off_exe" "$np" "$@" >>"$tmp/off"
    i=$((i + 1))
  done
  on=$(median <"$tmp/on")
  off=$(median <"$tmp/off")
  label="-n $np${1:+ $*}"
  awk -v l="$label" -v a="$on" -v b="$off" 'BEGIN { printf "%-22s %14.4f %14.4f %10.3f\n", l, a, b, a / b }'
done
