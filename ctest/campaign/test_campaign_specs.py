"""Every spec of campaigns/ parses and plans: `suite-campaign run SPEC --dry-run` exits 0,
writes nothing, and prints the plan the spec asks for: its prepare commands and probes first,
then the runs of every group and every repetition, each predicted run (and projection) with
its calibrations resolved, never one calibrated by itself, and the campaign's calibrations
of its own repetition when the scope says so.

Usage: /usr/bin/python3 test_campaign_specs.py BUILD_DIR SPEC.toml
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(REPO, "tools", "suite-campaign")
STEP = re.compile(r"(\d{4}) (prepare|probe|run) (\S+)(?: rep (\d+))?(?: calibrations ([\d,]+))?: (.*)")


def fail(message):
    sys.exit(f"campaign specs: {message}")


def main():
    if len(sys.argv) != 3:
        sys.exit(f"usage: {sys.argv[0]} BUILD_DIR SPEC.toml")
    build, spec_path = (os.path.abspath(a) for a in sys.argv[1:])
    with open(spec_path, "rb") as f:
        spec = tomllib.load(f)
    scratch = tempfile.mkdtemp(prefix="campaign-specs-")
    try:
        out = os.path.join(scratch, "campaign")
        p = subprocess.run([RUNNER, "run", spec_path, "--out", out, "--build", build, "--dry-run"],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0 or p.stderr:
            fail(f"{spec_path}: --dry-run exit {p.returncode}, stderr: {p.stderr.strip()}")
        if os.path.exists(out):
            fail(f"{spec_path}: --dry-run wrote {out}")
        check_plan(spec_path, spec, p.stdout, out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def check_plan(spec_path, spec, text, out):
    steps = [STEP.match(line) for line in text.splitlines() if not line[5:].startswith("  post:")]
    if not steps or not all(steps):
        fail(f"{spec_path}: a plan line not understood in:\n{text}")
    kinds = [m.group(2) for m in steps]
    want = ["prepare"] * len(spec.get("prepare", [])) + ["probe"] * len(spec.get("probe", []))
    if kinds[:len(want)] != want or "prepare" in kinds[len(want):] or "probe" in kinds[len(want):]:
        fail(f"{spec_path}: prepare and probe steps first, in the spec's order; got {kinds}")
    reps = spec["campaign"].get("repetitions", 1)
    runs = [m for m in steps if m.group(2) == "run"]
    by_id = {m.group(1): m for m in runs}
    groups = {g["name"]: g for g in spec["group"]}
    for name, g in groups.items():
        mine = [m for m in runs if m.group(3) == name]
        if not mine:
            fail(f"{spec_path}: group {name} has no run in the plan")
        if sorted({int(m.group(4)) for m in mine}) != list(range(1, reps + 1)):
            fail(f"{spec_path}: group {name}: runs of repetitions {sorted({m.group(4) for m in mine})}, "
                 f"expected 1..{reps}")
        for m in mine:
            if g["program"] not in m.group(6):
                fail(f"{spec_path}: run {m.group(1)} of {name} does not run {g['program']}: {m.group(6)}")
            cals = m.group(5).split(",") if m.group(5) else []
            if bool(cals) != ("calibrated_by" in g):
                fail(f"{spec_path}: run {m.group(1)} of {name}: calibrations {cals} "
                     f"({'with' if 'calibrated_by' in g else 'without'} calibrated_by)")
            selected = {s["group"] for s in g.get("calibrated_by", [])}
            scope = g.get("calibration_scope", "repetition")
            for c in cals:
                cal = by_id.get(c)
                if cal is None or cal.group(3) not in selected:
                    fail(f"{spec_path}: run {m.group(1)} of {name}: calibration {c} is not a run of {selected}")
                if int(c) >= int(m.group(1)):
                    fail(f"{spec_path}: run {m.group(1)} of {name}: calibration {c} does not run before it")
                if scope == "repetition" and cal.group(4) != m.group(4):
                    fail(f"{spec_path}: run {m.group(1)} (rep {m.group(4)}) calibrated by {c} "
                         f"of rep {cal.group(4)}")
                if cal.group(6).split(" --results ")[0] == m.group(6).split(" --results ")[0]:
                    fail(f"{spec_path}: run {m.group(1)} is its calibration {c}")
            for placeholder in re.findall(r"\{[^{}]*\}", m.group(6)):
                fail(f"{spec_path}: run {m.group(1)}: placeholder {placeholder} left in the command")
    print(f"{os.path.basename(spec_path)}: {len(steps)} steps planned, {len(runs)} runs of "
          f"{len(groups)} groups over {reps} repetitions")


if __name__ == "__main__":
    main()
