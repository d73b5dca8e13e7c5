#!/bin/bash
# How much the 500-relation example's measured whole run (w + comm+sync) moves between
# launches, beside the machine's plain-MPI latency just before each launch (the 1-byte round
# trip of `loggps-probe --quick`, no bsplib involved): on this 2-vCPU VM the host moves the
# two vCPUs between states whose MPI latency differs up to 4x, and within one state the
# example still varies between launches. No model fed from another launch can be nearer
# to a launch than that spread (bsplib/BENCHMARKS.md). Run on an idle machine.
# Usage: launch_spread.sh BUILD_DIR [N=12] [OUT=.]
set -euo pipefail
b=$1 n=${2:-12} out=${3:-.}
mkdir -p "$out"
mpiexec -n 2 "$b/bsplib/bspprobe" --out "$out/spread.machine" >/dev/null
for ((i = 1; i <= n; ++i)); do
  rtt=$(mpiexec -n 2 "$b/instrument/loggps-probe" --quick --out "$out/loggps.machine" |
        grep -A3 'bytes    RTT meas' | awk 'NR == 3 {print $2}')
  BSP_PROFILE="$out/spread.csv" mpiexec -n 2 "$b/bsplib/five_hundred_relation" 5 >/dev/null
  whole=$("$b/bsplib/bsp_predict" "$out/spread.csv" "$out/spread.machine" |
          sed -n 's/.*measured w + comm+sync = \([0-9.]*\) us.*/\1/p' | head -1)
  echo "launch $i: MPI 1-byte round trip $rtt us; example's whole run $whole us"
done
