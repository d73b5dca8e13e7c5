"""A small real campaign for the report's tests, made by hand (not through the runner, so the
report is tested on its own): sweep3d's small deck, calibrated at 1 rank and predicted at
2 ranks (grid 1x2), 2 repetitions each, traced; a campaign.json as the runner writes it
(/work/notes/campaign-design.md), plus one failed run and one run whose results file is not
a results file, which the report must list without stopping.

  make_campaign(build, out_dir, repo) -> out_dir
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tools"))


def step(id_, group, role, rep, config, ranks, calibrations=(), load=None):
    return {"id": id_, "kind": "run", "group": group, "app": "sweep3d", "role": role, "rep": rep,
            "config": config, "ranks": ranks, "command": [], "env": {}, "dir": f"runs/{id_}",
            "results": f"runs/{id_}/results.h5", "csv": None, "trace": True, "extrap": ["mk"],
            "calibrations": list(calibrations), "post": [], "status": "done", "exit": 0,
            "error": None, "elapsed": 0.5, "started": None, "finished": None, "job_id": None,
            "load": load or {"loadavg_before": 0.1, "loadavg_after": 0.2, "steal": 0.0,
                             "busy_others": 0.01}}


def make_campaign(build, out_dir, repo=REPO):
    sweep3d = os.path.join(build, "sweep3d", "sweep3d")
    deck = os.path.join(repo, "inputs", "sweep3d", "small.input")
    steps = []
    n = 0
    for rep in (1, 2):  # alternate order: each repetition calibrates, then predicts
        n += 1
        cal = step(f"{n:04d}", "sweep3d-cal", "calibrate", rep, {"mk": 10, "mmi": 3, "ranks": 1}, 1)
        n += 1
        pred = step(f"{n:04d}", "sweep3d-pred", "predict", rep,
                    {"grid": "1x2", "mk": 10, "mmi": 3, "ranks": 2}, 2, [cal["id"]],
                    load={"loadavg_before": 1.5, "loadavg_after": 1.9, "steal": 0.0,
                          "busy_others": 0.4} if rep == 2 else None)
        steps += [cal, pred]
    for s in steps:
        run_dir = os.path.join(out_dir, s["dir"])
        os.makedirs(run_dir, exist_ok=True)
        args = [deck, "--mk", "10", "--mmi", "3", "--trace", "100000",
                "--results", os.path.join(out_dir, s["results"])]
        if s["role"] == "predict":
            args += ["--grid", "1x2", "--calibration",
                     ",".join(os.path.join(out_dir, f"runs/{c}/results.h5") for c in s["calibrations"])]
        else:
            args += ["--no-machine"]
        s["command"] = ["mpiexec", "-n", str(s["ranks"])] + ([] if s["ranks"] > 1 else ["-bind-to", "core"]) \
            + [sweep3d] + args
        with open(os.path.join(run_dir, "stdout.txt"), "w") as out:
            subprocess.run(["mpiexec", "-n", str(s["ranks"]), sweep3d] + args, stdout=out,
                           stderr=subprocess.STDOUT, check=True, timeout=120)
    failed = step("0005", "sweep3d-pred", "predict", 3, {"grid": "2x1", "mk": 10, "mmi": 3, "ranks": 2},
                  2, ["0001"])
    failed.update(status="failed", exit=1, error="sweep3d: error: --grid 2x1: a made-up failure")
    garbage = step("0006", "sweep3d-pred", "predict", 3, {"grid": "1x2", "mk": 5, "mmi": 3, "ranks": 2},
                   2, ["0001"])
    os.makedirs(os.path.join(out_dir, garbage["dir"]), exist_ok=True)
    with open(os.path.join(out_dir, garbage["results"]), "w") as f:
        f.write("not HDF5\n")
    steps += [failed, garbage]
    write_manifest(out_dir, "report-test", "2026-12-01T22:40:00Z", build, repo, steps)
    return out_dir


def write_manifest(out_dir, name, created, build, repo, steps):
    """The campaign's campaign.json, as the runner writes it, over the made-up steps."""
    manifest = {"format": "suite-campaign-1", "name": name, "spec": "spec.toml",
                "spec_sha256": "0" * 64, "created": created, "host": "testhost",
                "cpu": "Test CPU", "build": os.path.abspath(build), "repo": repo,
                "backend": "local", "steps": steps}
    with open(os.path.join(out_dir, "campaign.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    make_campaign(sys.argv[1], sys.argv[2])
