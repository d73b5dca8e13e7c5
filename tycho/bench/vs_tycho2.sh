#!/usr/bin/env bash
# Our sweep against Tycho2's (LANL's unstructured-sweep mini-app, TraverseGraph sweep), run
# alternately, REPS times (default 3), on the same mesh and rank count: the median grind of
# each, ns per cell-angle-group, and their ratio.
#   tycho/bench/vs_tycho2.sh BUILD_DIR SWEEP_X MESH.smesh MESH.pmesh NP ["tycho options" ...]
# SWEEP_X is a Tycho2 build's sweep.x; MESH.pmesh the same mesh cut into NP parts by Tycho2's
# own partitioner. Neither is part of this repository: build Tycho2 yourself. Each "tycho
# options" string is one configuration of ours (default: "--priority band-octant", the default order).
# BASELINE=OTHER_BUILD_DIR adds that build's tycho, run with the same configurations in the
# same alternation: before and after a change, each against the same Tycho2 runs.
# PAUSE=SECONDS (default 0) sleeps that long before each run: on the Firecracker/PVM guests
# (tycho/BENCHMARKS.md) runs started back to back swept up to 1.7x slower than runs a few
# seconds apart, and not equally for every program.
# Building Tycho2 and cutting the meshes: tycho/BENCHMARKS.md ("The peer").
#
# Both run 5 source iterations of S8, 2 groups, at most 512 cell-angle tasks a step, one
# OpenMP thread. Tycho2's grind is NP x the median of its last 5 "Traverse Timer (total)"
# lines (one whole traversal, max over ranks; the lines before them are its priority
# set-up's traversals) / (cells x directions x groups), with Tycho2's S8 of 2 x 8^2 = 128
# directions; ours is the `grind:` line of the tycho program (80 directions). Both times
# cover a whole sweep: resetting the dependency counts, seeding the ready queue, the solves
# and the messages; the set-up before the first sweep is apart. The problem is fixed (S8, 2
# groups, MCPS 512), so options of ours that change it (--sn, --product, --groups, --mcps,
# --scheme) are refused.
set -euo pipefail
build=$1 peer=$2 smesh=$3 pmesh=$4 np=$5
shift 5
[ $# -gt 0 ] || set -- "--priority band-octant"
reps=${REPS:-3}
baseline=${BASELINE:-}
[ -z "$baseline" ] || [ -x "$baseline/tycho/tycho" ] || { echo "vs_tycho2: BASELINE=$baseline has no tycho/tycho" >&2; exit 2; }
for config in "$@"; do
  for word in $config; do
    case $word in
      --sn | --product | --groups | --mcps | --scheme)
        echo "vs_tycho2: $word changes the problem Tycho2 runs (S8, 2 groups, MCPS 512, LD); not compared" >&2
        exit 2 ;;
    esac
  done
done
info=$("$build/tycho/tycho-mesh-info" "$smesh")
cells=$(sed -n 's/^cells \([0-9]*\),.*/\1/p' <<<"$info")
[[ $cells =~ ^[0-9]+$ ]] || { echo "vs_tycho2: no cell count from tycho-mesh-info $smesh" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/input.deck" <<'EOF'
snOrder         8
iterMax         5
errMax          0
maxCellsPerStep 512
intraAngleP     3
interAngleP     1
nGroups         2
sigmaT1         10.0
sigmaS1         5.0
sigmaT2         10.0
sigmaS2         5.0
OutputFile      false
OutputFilename  out.psi
SourceIteration true
OneSidedMPI     false
MPIType         TychoTwoSided
DD_IterMax      100
DD_ErrMax       1e-5
SweepType       TraverseGraph
GaussElim       NoPivot
EOF
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
peer_runs=""
declare -A ours before
for ((r = 0; r < reps; r++)); do
  # Tycho2's MPI_Finalize can abort under MPICH/UCX after its output is complete: judged by
  # the output, not the exit code.
  sleep "${PAUSE:-0}"
  OMP_NUM_THREADS=1 mpiexec -n "$np" -bind-to core "$peer" "$pmesh" "$work/input.deck" >"$work/peer.log" 2>&1 || true
  grep -q "Diff between groups" "$work/peer.log" || { echo "vs_tycho2: Tycho2 did not finish:" >&2; tail -5 "$work/peer.log" >&2; exit 1; }
  g=$(grep -o 'Traverse Timer (total): *[0-9.eE+-]*' "$work/peer.log" | awk '{print $NF}' | tail -5 | median |
      awk -v np="$np" -v n="$cells" '{printf "%.1f", np * $1 / (n * 128 * 2) * 1e9}')
  [ -n "$g" ] || { echo "vs_tycho2: no 'Traverse Timer (total)' lines in Tycho2's output" >&2; exit 1; }
  peer_runs+="$g "
  for config in "$@"; do
    sleep "${PAUSE:-0}"
    # shellcheck disable=SC2086
    g=$(OMP_NUM_THREADS=1 mpiexec -n "$np" -bind-to core "$build/tycho/tycho" "$smesh" --iterations 5 --no-results $config |
        sed -n 's/.*grind: \([0-9.]*\) ns per cell-angle-group.*/\1/p')
    [ -n "$g" ] || { echo "vs_tycho2: no grind line from tycho $config" >&2; exit 1; }
    ours[$config]+="$g "
    [ -n "$baseline" ] || continue
    sleep "${PAUSE:-0}"
    # shellcheck disable=SC2086
    g=$(OMP_NUM_THREADS=1 mpiexec -n "$np" -bind-to core "$baseline/tycho/tycho" "$smesh" --iterations 5 --no-results $config |
        sed -n 's/.*grind: \([0-9.]*\) ns per cell-angle-group.*/\1/p')
    [ -n "$g" ] || { echo "vs_tycho2: no grind line from the baseline's tycho $config" >&2; exit 1; }
    before[$config]+="$g "
  done
done
p=$(median <<<"$peer_runs")
# Each run's ratio to the Tycho2 run of its own repetition, and their median: on a shared
# machine the load drifts between repetitions, and a ratio within one repetition drifts less
# than either column's median.
run_ratios() { paste -d' ' <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$peer_runs" | grep .) |
               awk '{printf "%.2f ", $1 / $2}'; }
row() {  # label, runs
  local m r
  m=$(median <<<"$2")
  r=$(run_ratios "$2")
  printf '%-36s %12s %8s %10s   %s\n' "$1" "$m" "$(awk -v a="$m" -v b="$p" 'BEGIN {printf "%.2f", a / b}')" \
    "$(median <<<"$r")" "$2"
}
printf '%-36s %12s %8s %10s   %s\n' "$np ranks, $cells cells" "median ns" "/ Tycho2" "run ratio" "runs"
printf '%-36s %12s %8s %10s   %s\n' "Tycho2 TraverseGraph" "$p" "1.00" "1.00" "$peer_runs"
for config in "$@"; do
  row "tycho $config" "${ours[$config]}"
  [ -z "$baseline" ] || row "baseline $config" "${before[$config]}"
done
