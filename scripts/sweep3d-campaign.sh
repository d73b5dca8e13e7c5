#!/usr/bin/env bash
# Sweep3D validation campaign, the papers' way: measure the machine, calibrate W_g (and
# W_before, W_after) on 1-rank runs, one per blocking, then run a set of process grids and
# blockings, each predicted from its calibration run, and report measured vs predicted per
# run with the mean and max error per model (perf-report: table, CSV, PNG).
#
#   bash scripts/sweep3d-campaign.sh                  # defaults below
#   GRIDS="1x2 2x1 2x2 4x2" BLOCKINGS="10:3 5:6 25:1" DECK=my.input bash scripts/sweep3d-campaign.sh
#
# GRIDS default to those that fit the cores (a 2x2 run on 2 cores measures the scheduler).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
bdir=${BUILD_DIR:-build}
case $bdir in /*) b=$bdir ;; *) b=$top/$bdir ;; esac
[ -x "$b/sweep3d/sweep3d" ] || BUILD_DIR=${BUILD_DIR:-build} bash scripts/build.sh >/dev/null
out=${OUT_DIR:-results/sweep3d-campaign}
mkdir -p "$out"
out=$(cd "$out" && pwd)
deck=$(cd "$(dirname "${DECK:-inputs/sweep3d/input50}")" && pwd)/$(basename "${DECK:-inputs/sweep3d/input50}")
mpiexec=$(command -v mpiexec.mpich || command -v mpiexec)
cores=$(nproc)
if [ -z "${GRIDS:-}" ]; then
  GRIDS="1x2 2x1"
  [ "$cores" -ge 4 ] && GRIDS="$GRIDS 2x2"
fi
BLOCKINGS=${BLOCKINGS:-"10:3 5:6"}

cd "$out"
[ -f machine.machine ] || "$mpiexec" -n 2 "$b/instrument/loggps-probe" --out machine.machine >probe.txt
runs=()
for blk in $BLOCKINGS; do
  mk=${blk%:*} mmi=${blk#*:}
  cal=cal-mk$mk-mmi$mmi.h5
  echo "calibration: 1 rank, mk $mk, mmi $mmi"
  "$mpiexec" -n 1 "$b/sweep3d/sweep3d" "$deck" --mk "$mk" --mmi "$mmi" --machine machine.machine \
    --results "$cal" >"${cal%.h5}.txt"
  for g in $GRIDS; do
    p=$(( ${g%x*} * ${g#*x} ))
    run=run-$g-mk$mk-mmi$mmi.h5
    echo "run: $g ($p ranks), mk $mk, mmi $mmi, predicted from $cal"
    "$mpiexec" -n "$p" "$b/sweep3d/sweep3d" "$deck" --grid "$g" --mk "$mk" --mmi "$mmi" \
      --machine machine.machine --calibration "$cal" --results "$run" >"${run%.h5}.txt"
    runs+=("$run")
  done
done
"$top/tools/perf-report" --csv campaign.csv --plot campaign.png "${runs[@]}"
echo "campaign: every run's output, results file and the summary are in $out"
