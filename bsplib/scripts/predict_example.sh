#!/bin/bash
# The prediction check of issue 12: K probe runs, each followed by J profiled runs of the
# paper's 500-relation example, each predicted with that probe's machine file; prints each
# run's whole-run error and how many of supersteps 2..20 l + h g(h) puts within 25%.
# Run on an idle machine (timings). Usage: predict_example.sh BUILD_DIR [K=2] [J=3] [OUT=.]
set -euo pipefail
b=$1/bsplib
k_runs=${2:-2} j_runs=${3:-3} out=${4:-.}
mkdir -p "$out"
for ((k = 1; k <= k_runs; k++)); do
  mpiexec -n 2 "$b/bspprobe" --out "$out/m$k.machine" >"$out/probe$k.log"
  for ((j = 1; j <= j_runs; j++)); do
    BSP_PROFILE="$out/prof$k$j.csv" mpiexec -n 2 "$b/five_hundred_relation" 5 >/dev/null
    "$b/bsp_predict" "$out/prof$k$j.csv" "$out/m$k.machine" >"$out/pred$k$j.txt"
    whole=$(sed -n 's/.*(\([-+0-9.]*%\) vs measured).*/\1/p' "$out/pred$k$j.txt" | head -1)
    # per-superstep rows of the first machine: columns ... measured l+hg l+hg(h) ratio
    within=$(awk '/^machine:/ {m++} m == 1 && /^ +[0-9]+ / && $1 >= 2 && $1 <= 20 {
                    e = ($(NF-1) - $(NF-3)) / $(NF-3); n++; if (e < 0.25 && e > -0.25) ok++ }
                  END {printf "%d of %d", ok, n}' "$out/pred$k$j.txt")
    l=$(sed -n 's/^  p = 2, l = \([0-9.]*\) us.*/\1/p' "$out/pred$k$j.txt" | head -1)
    echo "probe $k run $j: l = $l us, whole run $whole, supersteps 2-20 within 25%: $within"
  done
done
