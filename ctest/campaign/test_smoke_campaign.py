"""campaigns/smoke.toml end to end (issue 38's "done when"): `suite-campaign run` exits 0 and
leaves report.html, errors.csv with rows for sweep3d, tycho, multigrid and bsplib, a non-empty
extrap.jsonl of Extra-P's JSON Lines, a projection's table and at least one OTF2 trace that
otf2-print reads.

Usage: /usr/bin/python3 test_smoke_campaign.py BUILD_DIR
"""

import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(REPO, "tools", "suite-campaign")
SPEC = os.path.join(REPO, "campaigns", "smoke.toml")
APPS = ("sweep3d", "tycho", "multigrid", "bsplib")


def fail(message):
    sys.exit(f"smoke campaign: {message}")


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(f"usage: {sys.argv[0]} BUILD_DIR")
    build = os.path.abspath(sys.argv[1])
    scratch = tempfile.mkdtemp(prefix="campaign-smoke-")
    try:
        os.environ["XDG_CACHE_HOME"] = os.path.join(scratch, "cache")
        out = os.path.join(scratch, "smoke")
        p = subprocess.run([RUNNER, "run", SPEC, "--out", out, "--build", build],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            status = subprocess.run([RUNNER, "status", out], capture_output=True, text=True)
            fail(f"suite-campaign run exit {p.returncode}:\n{p.stderr[-3000:]}\n{status.stdout}")
        check(out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def check(out):
    report = os.path.join(out, "report.html")
    if not os.path.isfile(report) or os.path.getsize(report) < 1000:
        fail(f"no report.html (or a near-empty one) in {out}")
    with open(os.path.join(out, "errors.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    apps = {r["app"] for r in rows}
    if not set(APPS) <= apps:
        fail(f"errors.csv has rows for {sorted(apps)}, expected every one of {APPS}")
    lines = open(os.path.join(out, "extrap.jsonl")).read().splitlines()
    if not lines:
        fail("extrap.jsonl is empty")
    for n, line in enumerate(lines, 1):
        m = json.loads(line)
        if not (isinstance(m.get("params"), dict) and "p" in m["params"] and isinstance(m.get("callpath"), str)
                and m.get("metric") == "time" and isinstance(m.get("value"), (int, float))):
            fail(f"extrap.jsonl line {n}: not an Extra-P measurement: {line}")
    if not any("cube" in json.loads(line)["params"] for line in lines):
        fail("extrap.jsonl: no measurement with multigrid's size parameter cube (extrap = [\"cube\"])")
    manifest = json.load(open(os.path.join(out, "campaign.json")))
    projections = [s for s in manifest["steps"] if s.get("role") == "project"]
    if not projections or not all(os.path.getsize(os.path.join(out, s["csv"])) > 0 for s in projections):
        fail("the sweep3d projection wrote no table.csv")
    traces = glob.glob(os.path.join(out, "traces", "**", "*.otf2"), recursive=True)
    if not traces:
        fail(f"no OTF2 trace under {out}/traces (sweep3d-pred has trace = true)")
    p = subprocess.run(["otf2-print", traces[0]], capture_output=True, text=True, timeout=120)
    events = {line.split()[0] for line in p.stdout.splitlines() if line.strip()}
    if p.returncode != 0 or not {"MPI_SEND", "MPI_RECV", "ENTER", "LEAVE"} <= events:
        fail(f"otf2-print {traces[0]}: exit {p.returncode}, expected MPI_SEND, MPI_RECV, ENTER and "
             f"LEAVE events: {p.stderr.strip()[:500]}")
    print(f"smoke campaign: {len(manifest['steps'])} steps done; errors.csv {len(rows)} rows for "
          f"{sorted(apps)}; extrap.jsonl {len(lines)} lines; {len(traces)} OTF2 traces")


if __name__ == "__main__":
    main()
