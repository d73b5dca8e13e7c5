"""A one-rank calibration beside copies of itself (a group's `companions`, backend_local.py):
the copy runs on the next CPU of the runner's mask, writes no results and leaves its last
output beside the run's; the run is told --beside 1; no copy outlives its step; a copy that
fails fails the step with its line; a runner confined to one CPU runs the step without its
copy and records so; the Slurm backend refuses companions in one line.

Usage: /usr/bin/python3 test_companions.py BUILD_DIR
"""

import os
import subprocess
import sys

import h5py

from campaign_testlib import RUNNER, build_dir, check, check_equal, manifest, run, scratch, write

BUILD = build_dir()
TMP = scratch()

OUT = os.path.join(TMP, "out")
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
        "sh", "OUT/runs/0001/results.h5", "--results", "{results}"]
""".replace("OUT", OUT)

if len(os.sched_getaffinity(0)) < 2:
    print("one CPU: no companion can run beside a run here; the test checks nothing else")
    raise SystemExit(0)

spec_path = write(os.path.join(TMP, "companions.toml"), SPEC)
out = OUT
result = run("run", spec_path, "--out", out, "--build", BUILD)
check_equal(result.returncode, 1, f"exit status (the second step fails); stderr:\n{result.stderr}")
steps = {s["id"]: s for s in manifest(out)["steps"]}

cal = steps["0001"]
check_equal((cal["status"], cal["error"]), ("done", None), "the calibration beside its copy")
check_equal((cal["command"][-2:], cal["companions_run"]), (["--beside", "1"], 1), "the run is told of its companion")
run_dir = os.path.join(out, cal["dir"])
with open(os.path.join(run_dir, "companion0.stdout.txt"), encoding="utf-8") as f:
    copy_out = f.read()
# The copy's last run got as far as sweep3d's own report, or was stopped in it.
check(copy_out == "" or "SWEEP3D" in copy_out.upper(), f"the copy's output: {copy_out[:200]!r}")
# The run told of its companion (machine_load.hpp).
with h5py.File(os.path.join(out, cal["results"]), "r") as f:
    detail = f.attrs["machine_load_detail"]
detail = detail.decode() if isinstance(detail, bytes) else str(detail)
check("; 1 companion runs beside it on purpose (--beside), counted as its own" in detail,
      f"the run's load detail names its companion: {detail}")


def under_out():
    """The processes whose working directory is in the campaign's directory."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if cwd.startswith(out):
            found.append(f"{pid} {cmd}")
    return found


# No copy outlives its step: nothing runs in the campaign's directory once the runner returned.
left = under_out()
check(not left, "processes left in the campaign's directory:\n" + "\n".join(left))

bad = steps["0002"]
check_equal(bad["status"], "failed", "a step whose copy fails")
check_equal(bad["error"], f"companion 0 (CPU {sorted(os.sched_getaffinity(0))[1]}) ended before the run did: "
            "the copy failed", "its error names the copy's line")

# A runner on one CPU: the calibration runs without its copy, untold, and the step says so.
one_spec = write(os.path.join(TMP, "one_cpu.toml"), SPEC.split("# A calibration whose copy fails")[0])
one_out = os.path.join(TMP, "one_cpu")
one = subprocess.run(["taskset", "-c", str(sorted(os.sched_getaffinity(0))[0]), sys.executable, RUNNER,
                      "run", one_spec, "--out", one_out, "--build", BUILD], capture_output=True, text=True, timeout=300)
check_equal(one.returncode, 0, f"one CPU: exit status; stderr:\n{one.stderr}")
step = manifest(one_out)["steps"][0]
check_equal((step["status"], step["companions_run"]), ("done", 0), "one CPU: the step ran without its copy")
check(not os.path.exists(os.path.join(one_out, step["dir"], "companion0.stdout.txt")), "one CPU: a copy ran")
with h5py.File(os.path.join(one_out, step["results"]), "r") as f:
    detail = f.attrs["machine_load_detail"]
detail = detail.decode() if isinstance(detail, bytes) else str(detail)
check("--beside" not in detail, f"one CPU: the run was told of a companion: {detail}")

# The Slurm backend places its jobs itself: companions are refused before anything is written.
slurm_out = os.path.join(TMP, "slurm")
result = run("run", spec_path, "--out", slurm_out, "--build", BUILD, "--backend", "slurm")
check_equal(result.returncode, 2, f"slurm: exit status; stderr {result.stderr!r}")
check_equal(result.stderr, f"suite-campaign: error: {spec_path}: group cal: companions run with the local "
            "backend only (a Slurm job would place them itself)\n", "slurm: the line")
check(not os.path.exists(slurm_out), "slurm: output written")
print("companions: the copy beside the run, its failure and the Slurm refusal pass")
