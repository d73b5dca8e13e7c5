"""A small real campaign through the local backend (issue 38): a probe step, sweep3d
calibrations and predictions, the 500-relation with bsp_predict as its post command, over
two alternated repetitions. One calibration has a bad argument: it is recorded failed with
the program's own error line, its predicted runs are failed without running ("calibration
NNNN failed"), the others still run. A run writing no results file is failed "no results
file"; a step over its timeout is killed and failed "timed out after 1 s". `status` lists
the counts and each failure.

Usage: /usr/bin/python3 test_local_backend.py BUILD_DIR
"""

import os
import time

from campaign_testlib import build_dir, check, check_equal, manifest, run, scratch, write

from suite_campaign.backend_local import check_results_file
from suite_campaign import machine_state


def sample(total, busy, steal, children_cpu):
    one = machine_state.Sample.__new__(machine_state.Sample)
    one.loadavg, one.ticks, one.children_cpu = 0.5, (total, busy, steal), children_cpu
    return one


# The load record's arithmetic on made-up samples (2 CPUs, 100 ticks a second): 200 ticks of
# which 150 busy and 10 steal, the run's own CPU time 1.0 s = 100 ticks: others used 50 of 200.
tps = machine_state.TICKS_PER_SECOND
rec = machine_state.load_between(sample(1000, 400, 0, 0.0),
                                 sample(1000 + 2 * tps, 400 + 1.5 * tps, 0.1 * tps, 1.0), cpus=2)
check_equal((rec["busy_others"], rec["steal"]), (0.25, 0.05), "load record of a 1 s run")
# Under MIN_TICKS_PER_CPU ticks a CPU: unknown, not a guess from a few ticks.
rec = machine_state.load_between(sample(1000, 400, 0, 0.0), sample(1040, 430, 0, 0.1), cpus=2)
check_equal((rec["busy_others"], rec["steal"]), (None, None), "load record of a 0.2 s run")

BUILD = build_dir()
TMP = scratch()

SPEC = """
[campaign]
name = "local"
repetitions = 2
timeout = 120

# A probe whose measurement does not depend on how busy the machine is: the committed
# machine file of the paper's IBM SP2, copied through mpiexec as a probe's would be written.
[[probe]]
name = "bsp"
program = "/bin/cp"
ranks = 1
args = ["{inputs}/bsp/ibm-sp2-switch-p2.machine", "{machine}"]

[[group]]
name = "sw-cal"
app = "sweep3d"
role = "calibrate"
program = "sweep3d/sweep3d"
ranks = 1
axes = { mk = [2, -1] }
args = ["{inputs}/sweep3d/small.input", "--mk", "{mk}", "--results", "{results}"]

[[group]]
name = "sw-pred"
app = "sweep3d"
role = "predict"
program = "sweep3d/sweep3d"
ranks = 2
axes = { mk = [2, -1] }
args = ["{inputs}/sweep3d/small.input", "--grid", "1x2", "--mk", "{mk}",
        "--machine", "{repo}/ctest/sweep3d/replay_this_vm.machine", "--calibration", "{calibrations}", "--results", "{results}"]
calibrated_by = [{ group = "sw-cal", match = { mk = "same" } }]

[[group]]
name = "no-results"
app = "sweep3d"
role = "calibrate"
program = "sweep3d/sweep3d"
ranks = 1
args = ["{inputs}/sweep3d/small.input", "--no-results"]

[[group]]
name = "bsp500"
app = "bsplib"
role = "calibrate"
program = "bsplib/five_hundred_relation"
ranks = 2
args = ["5"]
env = { BSP_PROFILE = "{dir}/profile.csv" }

[[group.post]]
program = "bsplib/bsp_predict"
args = ["{dir}/profile.csv", "{probe.bsp}", "--h5", "{results}"]
"""

spec_path = write(os.path.join(TMP, "local.toml"), SPEC)
out = os.path.join(TMP, "out")
result = run("run", spec_path, "--out", out, "--build", BUILD)
check_equal(result.returncode, 1, f"exit status (some runs failed); stderr:\n{result.stderr}")
m = manifest(out)
steps = {s["id"]: s for s in m["steps"]}
by_what = {(s["name"], s["rep"], s["config"].get("mk")): s for s in m["steps"]}
check_equal(len(steps), 1 + 2 * (2 + 2 + 1 + 1), "steps")
check_equal(m["format"], "suite-campaign-1", "manifest format")
with open(spec_path, "rb") as f, open(os.path.join(out, "spec.toml"), "rb") as g:
    check(f.read() == g.read(), "spec.toml is not the spec given")

check_equal((steps["0001"]["status"], steps["0001"]["error"]), ("done", None), "the probe")
check(os.path.isfile(os.path.join(out, "probes", "bsp.machine")), "no probe machine file")
for rep in (1, 2):
    good_cal, bad_cal = by_what[("sw-cal", rep, 2)], by_what[("sw-cal", rep, -1)]
    good_pred, bad_pred = by_what[("sw-pred", rep, 2)], by_what[("sw-pred", rep, -1)]
    for s in (good_cal, good_pred, by_what[("bsp500", rep, None)]):
        check_equal((s["status"], s["exit"], s["error"]), ("done", 0, None), f"run {s['id']}")
        check_equal(check_results_file(os.path.join(out, s["results"])), None,
                    f"run {s['id']}: results file")
        check(s["elapsed"] > 0 and s["started"] and s["finished"], f"run {s['id']}: times")
        load = s["load"]  # None: too short a run for the tick counters
        check(load["loadavg_before"] >= 0 and
              (load["busy_others"] is None or 0 <= load["busy_others"] <= 1) and
              (load["steal"] is None or 0 <= load["steal"] <= 1), f"run {s['id']}: load {load}")
    check_equal(good_pred["calibrations"], [good_cal["id"]], "calibration of a predicted run")
    check(good_pred["command"][-3].endswith(f"runs/{good_cal['id']}/results.h5"),
          "predicted run's --calibration")
    check_equal(bad_cal["status"], "failed", "a calibration with a bad argument")
    check(bad_cal["exit"] not in (0, None) and bad_cal["error"].startswith("sweep3d: error: ")
          and "--mk" in bad_cal["error"], f"its error line: {bad_cal['error']!r}")
    check_equal((bad_pred["status"], bad_pred["error"], bad_pred["started"]),
                ("failed", f"calibration {bad_cal['id']} failed", None),
                "a predicted run whose calibration failed")
    check(not os.path.exists(os.path.join(out, bad_pred["dir"], "stdout.txt")),
          "the predicted run of a failed calibration ran")
    nores = by_what[("no-results", rep, None)]
    check_equal((nores["status"], nores["exit"], nores["error"]), ("failed", 0, "no results file"),
                "a run writing no results file")
    bsp = by_what[("bsp500", rep, None)]
    for name in ("profile.csv", "post0.stdout.txt", "stdout.txt", "status.json"):
        check(os.path.isfile(os.path.join(out, bsp["dir"], name)), f"bsp500 rep {rep}: no {name}")

# Alternated repetitions: every run of rep 1 before any of rep 2.
reps = [s["rep"] for s in m["steps"] if s["kind"] == "run"]
check_equal(reps, sorted(reps), "alternate order")

# One progress line per step, the last one with nothing left.
progress = [l for l in result.stderr.splitlines() if l.startswith("[")]
check_equal(len(progress), len(steps), f"progress lines:\n{result.stderr}")
check(progress[-1].startswith(f"[7/{len(steps)} done, 6 failed, 0 left, ")
      and " elapsed, ETA 0s] run " in progress[-1], f"last progress line: {progress[-1]!r}")

status = run("status", out)
check_equal(status.returncode, 0, "status exit")
lines = status.stdout.splitlines()
check_equal(lines[0], f"campaign local in {out}: 13 steps: 7 done, 6 failed, 0 pending, "
            "0 running, 0 submitted", "status counts")
check_equal(len(lines), 7, f"status: one line per failure:\n{status.stdout}")
check(any(l.startswith("failed: run ") and l.endswith(": no results file") for l in lines),
      "status: the missing results file")

# A step over its timeout: its process group killed, the step failed, the next one runs.
timeout_spec = write(os.path.join(TMP, "timeout.toml"), """
[campaign]
name = "timeout"
timeout = 1

[[group]]
name = "sleeper"
app = "sweep3d"
role = "project"
program = "/bin/sh"
axes = { seconds = [120, 0] }
args = ["-c", "sleep {seconds}; echo n,t > {csv}"]
""")
start = time.monotonic()
result = run("run", timeout_spec, "--out", os.path.join(TMP, "timeout"), "--build", BUILD)
# The runner waits up to twice KILL_GRACE_SECONDS (5 s) for what the step left; a step the
# timeout did not end would take its 120 s.
check(time.monotonic() - start < 40, "the timeout did not end the step")
check_equal(result.returncode, 1, "timeout: exit status")
m = manifest(os.path.join(TMP, "timeout"))
check_equal([(s["status"], s["error"]) for s in m["steps"]],
            [("failed", "timed out after 1 s"), ("done", None)], "timeout: steps")
print("the local campaign, its failures, the timeout and status pass")
