"""A one-rank calibration beside copies of itself (a group's `companions`, backend_local.py):
the copy runs on the next CPU of the runner's mask, writes no results and leaves its last
output beside the run's; the run is told --beside 1; no copy outlives its step; a copy that
fails fails the step with its line; the Slurm backend refuses companions in one line.

Usage: /usr/bin/python3 test_companions.py BUILD_DIR
"""

import os
import subprocess

from campaign_testlib import build_dir, check, check_equal, manifest, run, scratch, write

BUILD = build_dir()
TMP = scratch()

SPEC = """
[campaign]
name = "companions"
timeout = 120

[[group]]
name = "cal"
app = "sweep3d"
role = "calibrate"
program = "sweep3d/sweep3d"
ranks = 1
companions = 1
args = ["{inputs}/sweep3d/small.input", "--no-machine", "--results", "{results}"]

# A calibration whose copy fails: the copy sees --no-results where the run sees --results.
[[group]]
name = "failing-copy"
app = "sweep3d"
role = "calibrate"
program = "/bin/sh"
ranks = 1
companions = 1
args = ["-c", "case \\"$*\\" in *--no-results*) echo the copy failed >&2; exit 3;; esac; sleep 2; cp \\"$1\\" \\"$3\\"",
        "sh", "{dir}/../0001/results.h5", "--results", "{results}"]
"""

if len(os.sched_getaffinity(0)) < 2:
    print("one CPU: no companion can run beside a run here; the test checks nothing else")
    raise SystemExit(0)

spec_path = write(os.path.join(TMP, "companions.toml"), SPEC)
out = os.path.join(TMP, "out")
result = run("run", spec_path, "--out", out, "--build", BUILD)
check_equal(result.returncode, 1, f"exit status (the second step fails); stderr:\n{result.stderr}")
steps = {s["id"]: s for s in manifest(out)["steps"]}

cal = steps["0001"]
check_equal((cal["status"], cal["error"]), ("done", None), "the calibration beside its copy")
check_equal(cal["command"][-2:], ["--beside", "1"], "the run is told of its companion")
run_dir = os.path.join(out, cal["dir"])
with open(os.path.join(run_dir, "companion0.stdout.txt"), encoding="utf-8") as f:
    copy_out = f.read()
# The copy's last run got as far as sweep3d's own report, or was stopped in it.
check(copy_out == "" or "SWEEP3D" in copy_out.upper(), f"the copy's output: {copy_out[:200]!r}")
check(not os.path.exists(os.path.join(run_dir, "companion0.results.h5")), "the copy wrote results")
# No copy outlives its step: nothing of the campaign runs once the runner has returned.
ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
check(not any(out in line and "--no-results" in line for line in ps.splitlines()),
      "a companion outlived its step:\n" + "\n".join(l for l in ps.splitlines() if out in l))

bad = steps["0002"]
check_equal(bad["status"], "failed", "a step whose copy fails")
check_equal(bad["error"], f"companion 0 (CPU {sorted(os.sched_getaffinity(0))[1]}) ended before the run did: "
            "the copy failed", "its error names the copy's line")

# The Slurm backend places its jobs itself: companions are refused before anything is written.
slurm_out = os.path.join(TMP, "slurm")
result = run("run", spec_path, "--out", slurm_out, "--build", BUILD, "--backend", "slurm")
check_equal(result.returncode, 2, f"slurm: exit status; stderr {result.stderr!r}")
check_equal(result.stderr, f"suite-campaign: error: {spec_path}: group cal: companions run with the local "
            "backend only (a Slurm job would place them itself)\n", "slurm: the line")
check(not os.path.exists(slurm_out), "slurm: output written")
print("companions: the copy beside the run, its failure and the Slurm refusal pass")
