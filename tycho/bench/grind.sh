#!/usr/bin/env bash
# The sweep's grind time, set-up apart: ns per cell-angle-group (P x sweep time per iteration /
# (cells x directions x groups), the median over iterations of the max over ranks), each
# configuration run REPS times (default 5) in alternation (ranks bound to cores: this guest's second vCPU
# computes slower alone), the median of the runs printed.
#   tycho/bench/grind.sh BUILD_DIR MESH "[@OTHER_BUILD_DIR] NP [tycho options]" [...]
# e.g. tycho/bench/grind.sh build ../shared/meshes/tycho2/cube-10717.smesh "1" "1 --priority direction" "2"
# A configuration starting with @DIR runs DIR's tycho instead: a before/after pair alternated.
# ITERATIONS (default 5) source iterations a run; the median is over iterations 2 to the last.
# PAUSE=SECONDS (default 0) sleeps before each run (back-to-back runs on a PVM guest: vs_tycho2.sh).
set -euo pipefail
build=$1 mesh=$2
shift 2
reps=${REPS:-5}
declare -A runs
for ((r = 0; r < reps; r++)); do
  for config in "$@"; do
    exe=$build/tycho/tycho
    read -r np opts <<<"$config"
    if [[ $np == @* ]]; then
      exe=${np#@}/tycho/tycho
      read -r np opts <<<"$opts"
      [ -n "$np" ] || { echo "grind.sh: '$config' names a build but no rank count" >&2; exit 2; }
    fi
    sleep "${PAUSE:-0}"
    # shellcheck disable=SC2086
    g=$(mpiexec -n "$np" -bind-to core "$exe" "$mesh" --iterations "${ITERATIONS:-5}" --no-results $opts |
        sed -n 's/.*grind: \([0-9.]*\) ns per cell-angle-group.*/\1/p')
    [ -n "$g" ] || { echo "grind.sh: no grind line from '$config'" >&2; exit 1; }
    runs[$config]+="$g "
  done
done
printf '%-40s %12s   %s\n' "np options" "median ns" "runs"
for config in "$@"; do
  med=$(tr ' ' '\n' <<<"${runs[$config]}" | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
  printf '%-40s %12s   %s\n' "$config" "$med" "${runs[$config]}"
done
