"""A synthetic bsplib campaign for the report's placement mark (issue 39), made by hand: one
bspprobe machine file probed at a cache-line round trip of 150 ns, and four predicted runs of
two configurations, each a made-up profile (two supersteps, two processes) scored by the real
bsp_predict against that file:

  run  configuration  rep  the run's round trips  placement
  0002 shift=a        1    150, 155 ns            same (1.03x)
  0003 shift=a        2    none (not measured)    unknown
  0004 shift=b        1    550, 540 ns            other (3.67x)
  0005 shift=b        2    145, 150 ns            same (1.03x), but its /compare marked
                                                    unreliable by the run (a slow CPU)

  make_campaign(build, out_dir) -> out_dir
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from report_fixture import write_manifest  # noqa: E402  (beside this file)
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))

PROBE_ROUND_TRIP = 150e-9
RUNS = (("0002", "a", 1, (150e-9, 155e-9)), ("0003", "a", 2, ()),
        ("0004", "b", 1, (550e-9, 540e-9)), ("0005", "b", 2, (145e-9, 150e-9)))

MACHINE = f"""format = suite-machine-1
name = test probe
source = bspprobe
bsp.source = bspprobe
bsp.p = 2
bsp.l_seconds = 2e-07
bsp.g_seconds_per_byte = 5e-11
bsp.core_round_trip_seconds = {PROBE_ROUND_TRIP!r}
"""

PROFILE_ROWS = """superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,msgs_out,msgs_in,gets_out
0,0,exchange,0.000000000,0.000001000,0.000002000,0.000001000,0.000001000,2048,2048,1,1,0
0,1,exchange,0.000000000,0.000001000,0.000002{0}00,0.000001000,0.000001{0}00,2048,2048,1,1,0
1,0,bsp_end,0.000002000,0.000002500,0.000003000,0.000000500,0.000000500,0,0,0,0,0
1,1,bsp_end,0.000002000,0.000002500,0.000003000,0.000000500,0.000000500,0,0,0,0,0
"""


def profile_text(round_trips, rep):
    head = "# format = bsplib-profile-2, nprocs = 2, times in seconds since bsp_begin\n"
    if round_trips:
        head += "# core_round_trip_seconds = " + " ".join(f"{v:.6g}" for v in round_trips) + "\n"
    return head + PROFILE_ROWS.format(rep)  # the repetitions' comm+sync differ a little


CPUS_LINE = ("cpus: rank 0 took 1.74x rank 1's time per cell-angle task in iteration 2 (223 ns against 128 ns): "
             "its CPU ran slower (the host's load on it); the measured-vs-modelled comparison is unreliable")


def np_text(text):
    """A fixed-length UTF-8 string attribute, as the suite's writer stores text."""
    import numpy
    return numpy.bytes_(text.encode("utf-8"))


def make_campaign(build, out_dir):
    predict = os.path.join(build, "bsplib", "bsp_predict")
    os.makedirs(os.path.join(out_dir, "probes"), exist_ok=True)
    machine = os.path.join(out_dir, "probes", "bsp-p2.machine")
    with open(machine, "w") as f:
        f.write(MACHINE)
    probe = {"id": "0001", "kind": "probe", "name": "bsp-p2", "group": None, "app": None, "role": None,
             "rep": None, "config": {}, "ranks": 2, "program": os.path.join(build, "bsplib", "bspprobe"),
             "args": ["--out", machine], "command": [], "env": {}, "dir": "probes", "results": None,
             "csv": None, "trace": False, "extrap": [], "calibrations": [], "post": [], "post_env": [],
             "machine": "probes/bsp-p2.machine", "needs": [], "status": "done", "exit": 0,
             "error": None, "elapsed": 1.0, "started": None, "finished": None, "job_id": None,
             "load": None}
    steps = [probe]
    for run_id, shift, rep, round_trips in RUNS:
        rel = f"runs/{run_id}"
        run_dir = os.path.join(out_dir, rel)
        os.makedirs(run_dir, exist_ok=True)
        profile = os.path.join(run_dir, "profile.csv")
        with open(profile, "w") as f:
            f.write(profile_text(round_trips, rep))
        results = os.path.join(run_dir, "results.h5")
        post = [predict, profile, machine, "--h5", results]
        with open(os.path.join(run_dir, "post0.stdout.txt"), "w") as out:
            subprocess.run(post, stdout=out, stderr=subprocess.STDOUT, check=True, timeout=60)
        if run_id == "0005":
            import h5py
            with h5py.File(results, "r+") as f:
                f["compare"].attrs["reliable"] = 0
                f["compare"].attrs["unreliable_because"] = np_text(CPUS_LINE)
        steps.append({"id": run_id, "kind": "run", "name": "bsplib-500", "group": "bsplib-500",
                      "app": "bsplib", "role": "predict", "rep": rep,
                      "config": {"shift": shift, "ranks": 2}, "ranks": 2,
                      "program": os.path.join(build, "bsplib", "five_hundred_relation"), "args": ["5"],
                      "command": [], "env": {"BSP_PROFILE": profile}, "dir": rel, "cwd": rel,
                      "results": f"{rel}/results.h5", "csv": None, "trace": False, "extrap": [],
                      "calibrations": [], "post": [post], "post_env": [{}], "needs": ["0001"],
                      "status": "done", "exit": 0, "error": None, "elapsed": 0.1, "started": None,
                      "finished": None, "job_id": None,
                      "load": {"loadavg_before": 0.1, "loadavg_after": 0.1, "steal": None,
                               "busy_others": None}})
    write_manifest(out_dir, "placement-test", "2026-12-02T23:00:00Z", build, REPO, steps)
    return out_dir


if __name__ == "__main__":
    make_campaign(sys.argv[1], sys.argv[2])
