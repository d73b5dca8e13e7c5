#!/usr/bin/env bash
# The paper's Table 3 for our runs: mean and max |relative error| of the GM, MSM and TM
# (Kerbyson, Hoisie & Pautz) over a calibrate-then-predict campaign on this machine.
#
#   tycho/campaign/table3.sh BUILD_DIR [OUT_DIR] [MESH ...]
#
# 1. loggps-probe measures the machine (T_comm).
# 2. Calibration runs, per mesh, at P = 1 and 2 with MCPS 512: T_elem at E_p = N and N/2
#    (/tycho/calibration), and the PCE of that mesh and P.
# 3. Predicted runs, per mesh, at P = 1 and 2 with MCPS 64 and 2048 (none of them a
#    calibration run): --calibration gets every calibration run, the one of the same mesh and
#    P first (its PCE feeds the GM), so T_elem(E_p) is the paper's piecewise fit over all of
#    them; the run prints its GM, MSM and TM rows beside its measured sweep.
# 4. The table: per model, the predicted runs, mean |error| and max |error|, beside the paper's.
# Default meshes: LANL's cube-4128 and cube-10717. Timings on a 2-core guest are noisy: run it
# on an idle machine.
set -euo pipefail
build=$(cd "$1" && pwd)
out=${2:-results/tycho-table3}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")/../.." && pwd)
meshes=("$@")
[ ${#meshes[@]} -gt 0 ] || meshes=("$here/../shared/meshes/tycho2/cube-4128.smesh" "$here/../shared/meshes/tycho2/cube-10717.smesh")
mpiexec=${MPIEXEC:-mpiexec}
mkdir -p "$out"
cd "$out"
tycho=("$build/tycho/tycho")
"$mpiexec" -n 2 "$build/instrument/loggps-probe" --out machine.machine > probe.log

for mesh in "${meshes[@]}"; do
  name=$(basename "$mesh" .smesh)
  for p in 1 2; do
    "$mpiexec" -n "$p" -bind-to core "${tycho[@]}" "$mesh" --mcps 512 --results "cal-$name-p$p.h5" > "cal-$name-p$p.log"
  done
done

rows=rows.txt
: > "$rows"
for mesh in "${meshes[@]}"; do
  name=$(basename "$mesh" .smesh)
  for p in 1 2; do
    cals="cal-$name-p$p.h5"
    for m in "${meshes[@]}"; do
      n=$(basename "$m" .smesh)
      for q in 1 2; do [ "$n-p$q" = "$name-p$p" ] || cals+=",cal-$n-p$q.h5"; done
    done
    for mcps in 64 2048; do
      log="run-$name-p$p-mcps$mcps.log"
      "$mpiexec" -n "$p" -bind-to core "${tycho[@]}" "$mesh" --mcps "$mcps" --machine machine.machine \
        --calibration "$cals" --results "run-$name-p$p-mcps$mcps.h5" > "$log"
      # "GM     T_sweep   measured  modelled  +12.7%  ..." -> run model measured modelled error
      awk -v run="$name P=$p MCPS=$mcps" '$2 == "T_sweep" && ($1 == "GM" || $1 == "MSM" || $1 == "TM") {
        e = $5; sub(/%/, "", e); print run "|" $1 "|" $3 "|" $4 "|" e }' "$log" >> "$rows"
    done
  done
done

echo "Predicted runs (calibration runs excluded); error = (modelled - measured) / measured"
printf '%-32s %-5s %14s %14s %9s\n' run model "measured [s]" "modelled [s]" error
while IFS='|' read -r run model meas mod err; do
  printf '%-32s %-5s %14s %14s %8s%%\n' "$run" "$model" "$meas" "$mod" "$err"
done < "$rows"
echo
echo "Table 3 (ours, this machine) beside Kerbyson, Hoisie & Pautz's"
printf '%-5s %5s %14s %13s %14s\n' model runs "mean |error|" "max |error|" "paper (mean)"
for model in GM MSM TM; do
  paper=$(case $model in GM) echo 8.6%;; MSM) echo 12.6%;; TM) echo 4.9%;; esac)
  awk -F'|' -v m="$model" -v paper="$paper" '$2 == m { e = $5 < 0 ? -$5 : $5; s += e; n++; if (e > x) x = e }
    END { printf "%-5s %5d %13.1f%% %12.1f%% %14s\n", m, n, n ? s / n : 0, x, paper }' "$rows"
done
