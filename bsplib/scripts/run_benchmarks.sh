#!/bin/sh
# Runs the bsplib benchmarks whose figures BENCHMARKS.md quotes (p = 1 and 2 only: more
# processes than cores measure the scheduler, not the library).
# Usage: run_benchmarks.sh BUILD_DIR
set -eu
b=${1:?usage: run_benchmarks.sh BUILD_DIR}/bsplib
mpiexec=${MPIEXEC:-mpiexec}
uptime
for n in 1 2; do "$mpiexec" -n $n "$b/bench_empty_sync"; done
for n in 1 2; do "$mpiexec" -n $n "$b/bench_small_supersteps"; done
for n in 1 2; do "$mpiexec" -n $n "$b/bench_put_words"; done
# The foundation probe's ping-pong is the bandwidth yardstick (--machine).
"$mpiexec" -n 2 "${1}/instrument/loggps-probe" --out /tmp/bsp-bench-loggp.machine >/dev/null
"$mpiexec" -n 2 "$b/bench_put_bandwidth" --machine /tmp/bsp-bench-loggp.machine
"$mpiexec" -n 2 "$b/bench_mechanism" 21
for n in 1 2; do "$mpiexec" -n $n "$b/bspprobe" --out /tmp/bspprobe-p$n.machine; done
uptime
