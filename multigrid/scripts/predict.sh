#!/usr/bin/env bash
# Calibrate-then-predict for the multigrid W-cycle (issue 13's fidelity goal): C1 from a run
# on a small hierarchy at one process predicts a refined hierarchy at 1 and 2 processes, with
# l and g from bspprobe at each process count. Eq. 5 and the replay (eq. 3 and by pattern) are
# read from each predicted run's table; the calibration runs are never scored.
#
#   multigrid/scripts/predict.sh [BUILD] [OUT] [REPS] [CAL_CUBE] [CUBE] [GRIDS]
#     defaults: build, /tmp/mg-predict, 5 repetitions, --cube 4 calibrates --cube 8, 3 grids
#
# Each repetition makes its own calibration run just before its predictions, so drift of the
# machine between repetitions does not leak from one into another. Prints every run's errors
# and, per model and process count, the median error over the repetitions.
set -euo pipefail
build=${1:-build}
out=${2:-/tmp/mg-predict}
reps=${3:-5}
cal_cube=${4:-4}
cube=${5:-8}
grids=${6:-3}
mpiexec=$(command -v mpiexec.mpich || command -v mpiexec)
mg=$build/multigrid/multigrid
[ -x "$mg" ] || { echo "predict.sh: $mg not built" >&2; exit 1; }
mkdir -p "$out"
for p in 1 2; do "$mpiexec" -n $p "$build/bsplib/bspprobe" --out "$out/p$p.machine" >/dev/null; done
rows="$out/rows.txt"
: >"$rows"
for rep in $(seq 1 "$reps"); do
  "$mpiexec" -n 1 -bind-to core "$mg" --cube "$cal_cube" --grids "$grids" --results "$out/cal-$rep.h5" >/dev/null
  for p in 1 2; do
    "$mpiexec" -n $p "$mg" --cube "$cube" --grids "$grids" --machine "$out/p$p.machine" \
      --calibration "$out/cal-$rep.h5" --no-results >"$out/run-$rep-p$p.txt"
    # model, measured, modelled, error of the T_cycle rows
    awk -v rep="$rep" -v p="$p" '$2 == "T_cycle" && ($1 == "eq5" || $1 ~ /^replay-/) {
           print rep, p, $1, $3, $4, $5 }' "$out/run-$rep-p$p.txt" >>"$rows"
  done
done
echo "rep p model measured[s] modelled[s] error"
cat "$rows"
echo
echo "median error over $reps repetitions (calibration: --cube $cal_cube at 1 process; predicted: --cube $cube)"
awk '{ gsub("%", "", $6); key = $3 " p=" $2; v[key, ++n[key]] = $6 }
     END { for (k in n) { m = n[k]
             for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[k, j] + 0 < v[k, i] + 0) { t = v[k, i]; v[k, i] = v[k, j]; v[k, j] = t }
             med = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
             printf "  %-22s %+6.1f%%  (%d runs)\n", k, med, m } }' "$rows" | sort
