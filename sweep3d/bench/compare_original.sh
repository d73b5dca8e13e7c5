#!/usr/bin/env bash
# Our sweep3d against the original LANL Sweep3D 2.2b on the same decks, same process grids,
# same blocking: both programs time the same region (the iteration loop) and print it as
# "Elapsed time was:" and "Wall grind time:" (microseconds per cell-angle-iteration).
# Runs alternate (original, ours, then ours, original, ...) so a load change on a shared
# machine hits both; the figures are medians.
#
#   sweep3d/bench/compare_original.sh ORIGINAL_EXE BUILD_DIR [DECK...]
#   REPS=21 RANKS="1 2" sweep3d/bench/compare_original.sh ~/sweep3d-2.2b/sweep3d.mpi build
#
# DECK: files in the original's five-record form (default: inputs/sweep3d/input50 and the
# reference deck ctest/sweep3d/golden/a_s4p0_vac_nofix_1x1/input). For P ranks the first
# two fields of record 1 (npe_i npe_j) become 1 and P; mk and mmi stay as the deck says
# (on one rank both programs use mk = kt, mmi = mm, the original's rule). Each deck is
# written to ./input of a scratch directory, where the original reads it and ours is run
# as `sweep3d input --no-results`. The first repetition of each case checks that the two
# reports agree up to the timing lines, so the timings compare the same computation.
#
# Obtaining and building the original (its code is not part of this repository):
#   Sweep3D 2.2b from LANL (the ASCI benchmark tarball; public mirrors exist on GitHub).
#   Files: driver.f read_input.f decomp.f inner_auto.f inner.f initialize.f (initxs,
#   initsnc, initgeom) source.f sweep.f flux_err.f octant.f timers.c msg_stuff.cpp
#   msg_stuff.h and its makefile. With MPICH's wrappers and the makefile's own object list
#   and rules (mpi_stuff.f is made by `cpp -P -DMPI msg_stuff.cpp`):
#     make mpi SHELL=/bin/sh FC=mpifort OPTIMIZE="-O2 -std=legacy" CC=gcc CFLAGS=-O2 \
#          'MPI_FFLAGS=$(FFLAGS)' MPI_LDFLAGS=
#   gives sweep3d.mpi. (x86-64 gfortran without -march emits no FMA, so -ffp-contract=off
#   is not needed; its report then matches ../shared/specs/sweep3d-2.2b-reference/ bit for
#   bit up to the timing lines.)
set -euo pipefail

usage="usage: compare_original.sh ORIGINAL_EXE BUILD_DIR [DECK...]"
[ $# -ge 2 ] || { echo "compare_original.sh: expected two arguments; $usage" >&2; exit 1; }
orig=$1 build=$2
shift 2
if [ ! -f "$orig" ] || [ ! -x "$orig" ]; then
  echo "compare_original.sh: the original's executable '$orig' does not exist or is not executable (see the comment at the top of this script for how to build it)" >&2
  exit 1
fi
ours=$build/sweep3d/sweep3d
[ -x "$ours" ] ||
  { echo "compare_original.sh: '$ours' does not exist; build the sweep3d target in '$build' first" >&2; exit 1; }
orig=$(cd "$(dirname "$orig")" && pwd)/$(basename "$orig")
ours=$(cd "$(dirname "$ours")" && pwd)/$(basename "$ours")

top=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -eq 0 ]; then
  set -- "$top/inputs/sweep3d/input50" "$top/ctest/sweep3d/golden/a_s4p0_vac_nofix_1x1/input"
fi
for d in "$@"; do
  [ -f "$d" ] || { echo "compare_original.sh: deck '$d' does not exist" >&2; exit 1; }
done
reps=${REPS:-11}
ranks=${RANKS:-"1 2"}
mpiexec=$(command -v mpiexec.mpich || command -v mpiexec)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# value after the label on the line starting with it (gfortran writes 1.0E-002 forms too)
field() { awk -v label="$2" 'index($0, label) { sub(".*" label, ""); print $1 + 0; exit }' "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# the original's report without its timing lines; ours prints more after it
report() { awk '{ print } /Wall grind time:/ { exit }' "$1" | grep -v -e 'time was:' -e 'grind time:'; }

run() {  # run WHO OUTFILE: one run in the current directory, or stop with the reason
  local who=$1 out=$2 cmd
  if [ "$who" = original ]; then cmd=("$mpiexec" -n "$p" "$orig")
  else cmd=("$mpiexec" -n "$p" "$ours" input --no-results); fi
  if ! "${cmd[@]}" >"$out" 2>"$out.err" || ! grep -q 'Elapsed time was:' "$out"; then
    echo "compare_original.sh: $who failed on $name at $p rank(s) in $PWD: $(tail -n 1 "$out.err")" >&2
    exit 1
  fi
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $reps runs of each program per case, alternating"
printf '%-28s %5s %4s | %12s %12s | %12s %12s | %9s %9s\n' deck ranks grid \
  "orig elap s" "orig ns/cai" "ours elap s" "ours ns/cai" "ratio o/o" "rng o/o"
for d in "$@"; do
  name=$(basename "$(dirname "$d")")/$(basename "$d")
  for p in $ranks; do
    dir=$scratch/$(echo "$name" | tr / _)-$p
    mkdir -p "$dir"
    awk -v p="$p" 'NR == 1 { $1 = 1; $2 = p } { print }' "$d" >"$dir/input"
    cd "$dir"
    : >orig.elapsed; : >orig.grind; : >ours.elapsed; : >ours.grind; : >ratios
    for ((r = 1; r <= reps; r++)); do
      if ((r % 2)); then order="original ours"; else order="ours original"; fi
      for who in $order; do run "$who" "$who.$r.txt"; done
      if [ "$r" -eq 1 ] && ! diff <(report original.1.txt) <(report ours.1.txt) >report.diff; then
        echo "compare_original.sh: the reports of $name at $p rank(s) differ, so the runs do not compare the same computation:" >&2
        head -n 6 report.diff >&2
        exit 1
      fi
      oe=$(field "original.$r.txt" 'Elapsed time was:')
      ue=$(field "ours.$r.txt" 'Elapsed time was:')
      echo "$oe" >>orig.elapsed; echo "$ue" >>ours.elapsed
      field "original.$r.txt" 'Wall grind time:' >>orig.grind
      field "ours.$r.txt" 'Wall grind time:' >>ours.grind
      awk -v a="$oe" -v b="$ue" 'BEGIN { print a / b }' >>ratios
    done
    oe=$(median <orig.elapsed) ue=$(median <ours.elapsed)
    og=$(median <orig.grind) ug=$(median <ours.grind)
    rng=$(sort -g ratios | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.1f-%.1f", lo, hi }')
    awk -v n="$name" -v p="$p" -v oe="$oe" -v og="$og" -v ue="$ue" -v ug="$ug" -v rng="$rng" 'BEGIN {
      printf "%-28s %5d %4s | %12.5f %12.3f | %12.5f %12.3f | %9.2f %9s\n",
             n, p, "1x" p, oe, og * 1000, ue, ug * 1000, oe / ue, rng }'
    cd "$top"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ns/cai: the programs' own \"Wall grind time\" in ns per cell-angle-iteration (median);"
echo "ratio o/o: median elapsed of the original / median elapsed of ours; rng o/o: the"
echo "lowest and highest ratio of one alternating pair"
