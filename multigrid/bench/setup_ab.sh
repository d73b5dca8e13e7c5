#!/usr/bin/env bash
# Set-up against the W-cycle of two builds (multigrid/BENCHMARKS.md, "Set-up against the
# W-cycle"): `multigrid --cube N --grids 4 --no-results` of both builds at --cube 8 and 10,
# P = 1 (pinned to a core) and P = 2, PAUSE s apart, in one of two orders:
# - alternate (the default): each round runs the pair once and swaps its order every round: on
#   a guest that gives freed memory back to its host, a run that follows a larger one starts on
#   memory freed moments before and still backed, so a fixed order favours the second build.
# - blocks: per grid and P, ROUNDS runs of B in a row, then ROUNDS of A, then ROUNDS of B again:
#   what a user running one build again and again sees, each run starting on memory the same
#   build left (with the heap on huge pages, a run after one of a build without pays the
#   kernel's gathering of huge pages). The first run of each block follows another build or
#   grid: it is logged apart (OUT_DIR/first) and left out of the medians.
# Then prints the medians (setup_table.py). PAUSE 0 runs them back to back: memory the previous
# run freed is still backed (a warm guest).
#   multigrid/bench/setup_ab.sh BUILD_B BUILD_A OUT_DIR [ROUNDS (default 6)] [CPU (default 1)] [PAUSE s (default 2)] [alternate|blocks]
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 BUILD_B BUILD_A OUT_DIR [ROUNDS] [CPU] [PAUSE] [alternate|blocks]" >&2
  exit 2
fi
b_build=$1 a_build=$2 out=$3 rounds=${4:-6} cpu=${5:-1} pause=${6:-2} order=${7:-alternate}
for d in "$b_build" "$a_build"; do
  if [ ! -x "$d/multigrid/multigrid" ]; then
    echo "setup_ab.sh: $d/multigrid/multigrid: not a built multigrid" >&2
    exit 1
  fi
done
case "$order" in
  alternate | blocks) ;;
  *)
    echo "setup_ab.sh: order '$order': expected alternate or blocks" >&2
    exit 2
    ;;
esac
if [ "$order" = blocks ] && [ "$rounds" -lt 2 ]; then
  echo "setup_ab.sh: blocks of $rounds run: expected at least 2 (a block's first run is left out)" >&2
  exit 2
fi
if compgen -G "$out/c*_p*_*.txt" > /dev/null; then
  echo "setup_ab.sh: $out holds the logs of an earlier comparison: expected a new or empty directory" >&2
  exit 2
fi
mkdir -p "$out/first"

# one_run WHICH N P LOG: one run of build WHICH (B or A) at --cube N on P processes.
one_run() {
  local build=$b_build
  [ "$1" = A ] && build=$a_build
  sleep "$pause"
  if [ "$3" = 1 ]; then
    taskset -c "$cpu" "$build/multigrid/multigrid" --cube "$2" --grids 4 --no-results > "$4" 2>&1
  else
    mpiexec -n 2 "$build/multigrid/multigrid" --cube "$2" --grids 4 --no-results > "$4" 2>&1
  fi
}

if [ "$order" = alternate ]; then
  for ((r = 1; r <= rounds; ++r)); do
    if ((r % 2)); then pair="B A"; else pair="A B"; fi
    for n in 8 10; do
      for p in 1 2; do
        for which in $pair; do one_run "$which" "$n" "$p" "$out/c${n}_p${p}_${which}_r$r.txt"; done
      done
    done
  done
else
  for n in 8 10; do
    for p in 1 2; do
      block=0
      for which in B A B; do
        block=$((block + 1))
        for ((r = 1; r <= rounds; ++r)); do
          log="$out/c${n}_p${p}_${which}_r${block}_$r.txt"
          [ "$r" = 1 ] && log="$out/first/c${n}_p${p}_${which}_r${block}_$r.txt"
          one_run "$which" "$n" "$p" "$log"
        done
      done
    done
  done
fi
python3 "$(dirname "$0")/setup_table.py" "$out"
