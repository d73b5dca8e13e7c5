#!/bin/sh
# The replay scaling study of issue 10: sweep3d's generated KBA program replayed beside the
# LogGP and pipeline models, weak scaling (5x5x400 cells per rank, the paper's canonical
# size) and strong scaling (150^3), S6 with mk = 10, mmi = 3 (input50's blocking, Sweep3D's
# usual one), on square grids P = 4 .. 65536 (strong: up to 128x128, where ranks still own
# a cell in I and J; 256x256 would leave ranks without cells).
# usage: kba_replay_scaling.sh BUILD_DIR OUT_DIR [MACHINE CALIBRATION.h5]
# Writes OUT_DIR/weak.csv, strong.csv (sweep3d-model's CSV with the replay's columns),
# weak.txt, strong.txt (the printed tables) and scaling.png.
set -eu
build=${1:?usage: kba_replay_scaling.sh BUILD_DIR OUT_DIR [MACHINE CALIBRATION.h5]}
out=${2:?usage: kba_replay_scaling.sh BUILD_DIR OUT_DIR [MACHINE CALIBRATION.h5]}
here=$(cd "$(dirname "$0")" && pwd)
machine=${3:-$here/../../results/main-job/machine.machine}
cal=${4:-$here/../../results/main-job/sweep3d-np1.h5}
model=$build/sweep3d/model/sweep3d-model
mkdir -p "$out"
common="--machine $machine --calibration $cal --mm 6 --mk 10 --mmi 3 --replay"
"$model" $common --per-rank 5x5x400 --procs 4,16,64,256,1024,4096,16384,65536 --csv "$out/weak.csv" | tee "$out/weak.txt"
"$model" $common --grid 150x150x150 --procs 4,16,64,256,1024,4096,16384 --csv "$out/strong.csv" | tee "$out/strong.txt"
/usr/bin/python3 "$here/kba_replay_plot.py" "$out/weak.csv" "$out/strong.csv" "$out/scaling.png"
