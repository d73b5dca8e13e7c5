#!/bin/bash
# The prediction check of issue 12: K probe runs, each followed by J profiled runs of the
# paper's 500-relation example, each predicted with that probe's machine file; prints each
# run's whole-run error and how many of supersteps 2..20 fall within 25%, for l + h g(h)
# (eq. 3) and for the library's model (the probe's superstep curves by pattern), then the
# median of each over all runs: the example's measured whole run moved between 34 and 52 us
# (median 41) over 16 launches on this VM while its MPI latency held still (launch_spread.sh,
# bsplib/BENCHMARKS.md), so a single run's error says little. Run on an idle machine (timings).
# Usage: predict_example.sh BUILD_DIR [K=2] [J=3] [OUT=.]
set -euo pipefail
b=$1/bsplib
k_runs=${2:-2} j_runs=${3:-3} out=${4:-.}
mkdir -p "$out"
: >"$out/errors.txt"
for ((k = 1; k <= k_runs; k++)); do
  mpiexec -n 2 "$b/bspprobe" --out "$out/m$k.machine" >"$out/probe$k.log"
  for ((j = 1; j <= j_runs; j++)); do
    BSP_PROFILE="$out/prof$k$j.csv" mpiexec -n 2 "$b/five_hundred_relation" 5 >/dev/null
    "$b/bsp_predict" "$out/prof$k$j.csv" "$out/m$k.machine" >"$out/pred$k$j.txt"
    whole=$(sed -n 's/.*w + l+hg(h) = [0-9.]* us (\([-+0-9.]*%\) vs measured).*/\1/p' "$out/pred$k$j.txt" | head -1)
    by_pattern=$(sed -n 's/.*w + by pattern = [0-9.]* us (\([-+0-9.]*%\) vs measured).*/\1/p' "$out/pred$k$j.txt" | head -1)
    # per-superstep rows of the first machine: ... measured l+hg l+hg(h) pattern mod/meas
    within() {
      awk -v col="$1" '/^machine:/ {m++} m == 1 && /^ +[0-9]+ / && $1 >= 2 && $1 <= 20 {
                         e = ($(NF-col) - $(NF-4)) / $(NF-4); n++; if (e < 0.25 && e > -0.25) ok++ }
                       END {printf "%d of %d", ok, n}' "$out/pred$k$j.txt"
    }
    l=$(sed -n 's/^  p = 2, l = \([0-9.]*\) us.*/\1/p' "$out/pred$k$j.txt" | head -1)
    echo "$whole $by_pattern" >>"$out/errors.txt"
    echo "probe $k run $j: l = $l us; whole run: l + h g(h) $whole, by pattern $by_pattern;" \
         "supersteps 2-20 within 25%: l + h g(h) $(within 2), by pattern $(within 1)"
  done
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) "%"}'; }
echo "median whole-run error over $((k_runs * j_runs)) runs: l + h g(h)" \
     "$(tr -d '%+' <"$out/errors.txt" | awk '{print $1}' | median), by pattern" \
     "$(tr -d '%+' <"$out/errors.txt" | awk '{print $2}' | median)"
