#!/usr/bin/env bash
# Calibrate-then-predict for the multigrid W-cycle (issue 13's fidelity goal): C1 from a run
# on a hierarchy of CAL_GRIDS grids predicts the hierarchy refined once more (GRIDS grids on
# the same coarse cube: the finest grid 8x larger) at the same process count (1, then 2),
# with l and g from bspprobe at that count. Eq. 5 and the replay (eq. 3 and by pattern) are
# read from each predicted run's table; the calibration runs are never scored.
#
# With LARGE ("CUBE GRIDS", default "10 4": 3072000 cells, out of the L3) a second calibration
# run on another, larger mesh gives C1 out of cache too, and eq. 5 takes C1(N/p) fitted over
# the two (c1_curve.hpp); LARGE = none: the small run's C1 alone. The scored mesh is neither.
#
# Why calibrate at each P: C1 is the slowest process's work per cell, and on this VM the
# second vCPU computes ~30% slower than the first while the first is idle (README.md), so a
# one-process C1 is the fast core's and eq. 5 at two processes came out 25% short with it
# (multigrid/BENCHMARKS.md). The paper, too, took its constants per machine configuration.
# Why refine rather than take a small cube: at two processes w holds the CPU time of packing
# and adding the partition surface, which eq. 5 has no term for (g prices only the transfer);
# a small calibration mesh has relatively more surface and put eq. 5 25% high.
#
#   multigrid/scripts/predict.sh [BUILD] [OUT] [REPS] [CUBE] [CAL_GRIDS] [GRIDS] [LARGE]
#     defaults: build, /tmp/mg-predict, 5 repetitions, --cube 8, 3 grids (196608 cells)
#     calibrate 4 (1572864 cells, larger than the 32 MiB L3 with the coarse grids), "10 4"
#
# Each repetition makes its own calibration run just before its predictions, so drift of the
# machine between repetitions does not leak from one into another. Prints every run's errors
# and, per model and process count, the median error over the repetitions.
set -euo pipefail
build=${1:-build}
out=${2:-/tmp/mg-predict}
reps=${3:-5}
cube=${4:-8}
cal_grids=${5:-3}
grids=${6:-4}
large=${7:-10 4}
mpiexec=$(command -v mpiexec.mpich || command -v mpiexec)
mg=$build/multigrid/multigrid
[ -x "$mg" ] || { echo "predict.sh: $mg not built" >&2; exit 1; }
mkdir -p "$out"
for p in 1 2; do "$mpiexec" -n $p "$build/bsplib/bspprobe" --out "$out/p$p.machine" >/dev/null; done
rows="$out/rows.txt"
: >"$rows"
for rep in $(seq 1 "$reps"); do
  for p in 1 2; do
    "$mpiexec" -n $p "$mg" --cube "$cube" --grids "$cal_grids" --results "$out/cal-$rep-p$p.h5" >/dev/null
    cal="$out/cal-$rep-p$p.h5"
    if [ "$large" != none ]; then
      read -r large_cube large_grids <<<"$large"
      "$mpiexec" -n $p "$mg" --cube "$large_cube" --grids "$large_grids" --cycles 4 \
        --results "$out/cal-large-$rep-p$p.h5" >/dev/null
      cal="$cal,$out/cal-large-$rep-p$p.h5"
    fi
    "$mpiexec" -n $p "$mg" --cube "$cube" --grids "$grids" --machine "$out/p$p.machine" \
      --calibration "$cal" --no-results >"$out/run-$rep-p$p.txt"
    # model, measured, modelled, error of the T_cycle rows
    # (the replay's comm+sync row as "<model>:comm", the part it models on its own)
    # and, with LARGE, "eq5-one-C1": the same run scored by eq. 5 with the small run's C1 on
    # every grid and every cell (the paper's one constant: no curve, no loose cells' C1) (eq. 5 is linear in each grid's C1: subtract n_i N_i/p (C1(N_i/p) - C1_small)),
    # so the curve and the single constant are compared on the very same measured cycles.
    awk -v rep="$rep" -v p="$p" -v large="$large" '
         NF == 9 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $6 ~ /^[0-9]+$/ { n[$1] = $6; cells[$1] = $2 }
         $1 == "eq5" && $2 == "grid" && match($0, /\) = [0-9.e+-]+ s/) { c1[$3] = substr($0, RSTART + 4, RLENGTH - 6) + 0 }
         $2 == "T_cycle" && ($1 == "eq5" || $1 ~ /^replay-/) { print rep, p, $1, $3, $4, $5 }
         $1 == "eq5" && $2 == "T_cycle" && large != "none" && match($0, /: [0-9.e+-]+ s[);,]/) {
           small = substr($0, RSTART + 2, RLENGTH - 5) + 0; measured = $3; eq5 = $4 }
         $2 == "comm+sync" && $1 ~ /^replay-/ { print rep, p, $1 ":comm", $3, $4, $5 }
         END { if (small > 0) { one = eq5
                 for (i in c1) one -= n[i] * cells[i] / p * (c1[i] - small)
                 printf "%s %s eq5-one-C1 %s %.6g %+.1f%%\n", rep, p, measured, one, 100 * (one - measured) / measured } }' \
      "$out/run-$rep-p$p.txt" >>"$rows"
  done
done
echo "rep p model measured[s] modelled[s] error"
cat "$rows"
echo
echo "median error over $reps repetitions (--cube $cube: calibration --grids $cal_grids and --cube/--grids $large, predicted --grids $grids, all at p)"
awk '{ gsub("%", "", $6); key = $3 " p=" $2; v[key, ++n[key]] = $6 }
     END { for (k in n) { m = n[k]
             for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[k, j] + 0 < v[k, i] + 0) { t = v[k, i]; v[k, i] = v[k, j]; v[k, j] = t }
             med = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
             printf "  %-22s %+6.1f%%  (%d runs)\n", k, med, m } }' "$rows" | sort
