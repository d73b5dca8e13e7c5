#!/usr/bin/env bash
# Set-up against the W-cycle of two builds, alternated (multigrid/BENCHMARKS.md, "Set-up
# against the W-cycle"): each round runs `multigrid --cube N --grids 4 --no-results` of both
# builds at --cube 8 and 10, P = 1 (pinned to a core) and P = 2, 2 s apart, and swaps the
# pair's order every round: on a guest that gives freed memory back to its host, a run that
# follows a larger one starts on memory freed moments before and still backed, so a fixed
# order favours the second build. Then prints the medians (setup_table.py). PAUSE 0 runs
# them back to back: memory the previous run freed is still backed (a warm guest).
#   multigrid/bench/setup_ab.sh BUILD_B BUILD_A OUT_DIR [ROUNDS (default 6)] [CPU (default 1)] [PAUSE s (default 2)]
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 BUILD_B BUILD_A OUT_DIR [ROUNDS] [CPU] [PAUSE]" >&2
  exit 2
fi
b_build=$1 a_build=$2 out=$3 rounds=${4:-6} cpu=${5:-1} pause=${6:-2}
for d in "$b_build" "$a_build"; do
  if [ ! -x "$d/multigrid/multigrid" ]; then
    echo "setup_ab.sh: $d/multigrid/multigrid: not a built multigrid" >&2
    exit 1
  fi
done
mkdir -p "$out"
for ((r = 1; r <= rounds; ++r)); do
  if ((r % 2)); then order="B A"; else order="A B"; fi
  for n in 8 10; do
    for p in 1 2; do
      for which in $order; do
        build=$b_build
        [ "$which" = A ] && build=$a_build
        sleep "$pause"
        log="$out/c${n}_p${p}_${which}_r$r.txt"
        if [ "$p" = 1 ]; then
          taskset -c "$cpu" "$build/multigrid/multigrid" --cube "$n" --grids 4 --no-results > "$log" 2>&1
        else
          mpiexec -n 2 "$build/multigrid/multigrid" --cube "$n" --grids 4 --no-results > "$log" 2>&1
        fi
      done
    done
  done
done
python3 "$(dirname "$0")/setup_table.py" "$out"
