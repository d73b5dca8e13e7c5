#!/usr/bin/env bash
# README command (1): set up, build, and run the validation job a new user sees first, the
# campaign campaigns/main.toml (tools/suite-campaign):
#   1. measure this machine (loggps-probe: LogGP/LogGPS parameters, eager limit S; bspprobe:
#      the BSP machine at 2 processes),
#   2. per repetition (three, for the noise floor), the calibration runs: Sweep3D on the
#      canonical 50^3 S6 deck at 1 rank with the blocking of the parallel run (W_g, W_before,
#      W_after), tycho on a cube of 10368 tetrahedra (12^3 Kuhn cubes of side 100/12, made by
#      tycho-mesh-example) and on its lower half (5184, what each rank of two holds) at 1 rank
#      (T_elem), multigrid's 7^3 and 9^3 cubes on 4 grids at 2 ranks (C1);
#      then the runs they predict: Sweep3D at 1x2 ranks (LogGP and pipeline models; the run
#      replayed by the LogGOPS simulator and its trace exported to OTF2), tycho at 2 ranks (GM,
#      MSM, TM), multigrid on 4 grids (eq. 5 and the per-superstep replay, and replayed on the
#      paper's IBM SP2), the BSPlib paper's 500-relation example profiled and predicted; then
#      the generated KBA program replayed at 4 .. 16384 ranks beside both Sweep3D models,
#   3. the report: report.html (measured against modelled per app, model and term, the error
#      of the medians beside the noise floor, the plots), errors.csv, extrap.jsonl, traces/,
#      and here each first predicted run's measured-vs-modelled table.
# Results go to ${OUT_DIR:-results/main-job} (a new campaign each time: an older one there is
# moved aside to OUT_DIR.old); the build to ${BUILD_DIR:-build} (BUILD_TYPE as scripts/build.sh
# takes it). Timings on a 2-core machine are noisy: the point is the table
# and its noise floor, not the absolute seconds.
set -euo pipefail
source "$(dirname "$0")/usage.sh"
script_takes_no_arguments "$0" "the settings are environment variables: OUT_DIR, BUILD_DIR, BUILD_TYPE" "$@"
cd "$(dirname "$0")/.."
top=$PWD
bash scripts/install-deps.sh
# Only the programs this job runs; the test command (scripts/test.sh) builds the rest in the
# same directory with the same options, so nothing built here is compiled twice.
TARGETS="loggps-probe sweep3d instrument-replay instrument-trace-export sweep3d-model
         tycho-mesh-example tycho bspprobe five_hundred_relation bsp_predict multigrid" \
  BUILD_DIR=${BUILD_DIR:-build} bash scripts/build.sh >/dev/null
bdir=${BUILD_DIR:-build}
case $bdir in /*) b=$bdir ;; *) b=$top/$bdir ;; esac
out=${OUT_DIR:-results/main-job}
if [ -e "$out" ]; then
  rm -rf "$out.old"
  mv "$out" "$out.old"
fi
mkdir -p "$(dirname "$out")"

# The runner prints its progress (runs done and left, ETA) on stderr and, at the end, the
# report's summary: per app, model and term the median error beside the noise floor.
status=0
tools/suite-campaign run campaigns/main.toml --out "$out" --build "$b" || status=$?

# The first repetition's predicted runs and projection as each program printed them: the
# measured-vs-modelled tables (bsp_predict's, a post command of its run, for bsplib).
/usr/bin/python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
for step in json.load(open(os.path.join(out, "campaign.json")))["steps"]:
    if step.get("role") in ("predict", "project") and step.get("rep") == 1 and step.get("status") == "done":
        print(f"\n==================== {step['group']} (run {step['id']}) ====================")
        for name in ["stdout.txt"] + [f"post{i}.stdout.txt" for i in range(len(step.get("post", [])))]:
            path = os.path.join(out, step["dir"], name)
            if os.path.isfile(path):
                print(open(path, errors="replace").read(), end="")
PY
echo
echo "main job: report $out/report.html (errors.csv, extrap.jsonl, plots/, traces/ beside it)"
exit "$status"
