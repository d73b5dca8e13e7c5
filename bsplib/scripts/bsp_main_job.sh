#!/bin/sh
# The bsplib part of the suite's main job: measure this machine with bspprobe, run the
# paper's 500-relation example with the profiler on, and print its predicted-vs-measured
# superstep table for this machine and for the paper's IBM SP2 (switch, ethernet);
# write the HDF5 results file and the two figures.
# Usage: bsp_main_job.sh BUILD_DIR [NPROCS=2] [OUT_DIR=bsp-main-job]
set -eu
build=${1:?usage: bsp_main_job.sh BUILD_DIR [NPROCS] [OUT_DIR]}
np=${2:-2}
out=${3:-bsp-main-job}
here=$(cd "$(dirname "$0")" && pwd)
inputs="$here/../../inputs/bsp"
mpiexec=${MPIEXEC:-mpiexec}
mkdir -p "$out"
"$mpiexec" -n "$np" "$build/bsplib/bspprobe" --out "$out/this-machine-p$np.machine" \
    --name "this machine"
BSP_PROFILE="$out/five_hundred_relation.profile.csv" \
    "$mpiexec" -n "$np" "$build/bsplib/five_hundred_relation" 5
sp2=$np
[ "$sp2" -ge 8 ] && sp2=8
[ "$sp2" = 3 ] && sp2=4
"$build/bsplib/bsp_predict" "$out/five_hundred_relation.profile.csv" \
    "$out/this-machine-p$np.machine" "$inputs/ibm-sp2-switch-p$sp2.machine" \
    "$inputs/ibm-sp2-ethernet-p$sp2.machine" \
    --csv "$out/prediction.csv" --h5 "$out/five_hundred_relation.h5"
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  /usr/bin/python3 "$here/plot_profile.py" "$out/five_hundred_relation.profile.csv" \
      "$out/this-machine-p$np.machine" -o "$out/five_hundred_relation"
fi
