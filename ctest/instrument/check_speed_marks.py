#!/usr/bin/python3
"""An app's speed check (instrument/speed_check.hpp) end to end, for every app that makes it.

    check_speed_marks.py GROUP WORK_DIR CALIBRATION|- -- COMMAND...

COMMAND is a one-rank run of the app with a machine file (no --results, --calibration or
--no-results: added here); GROUP its results file's group (tycho, multigrid, sweep3d); CALIBRATION a
calibration run's results file the runs match (a fixture), or - for the first run's own.
- The run with --results keeps its figure as /GROUP's speed_check_ns (> 0), the figure its
  summary prints as "the run's" (the mean of the two it prints for its one rank).
- A run priced by a copy of the calibration whose speed_check_ns is three times that figure (a
  CPU three times slower then; 1.15x marks) says in one line that its CPU was faster than when
  that calibration ran, naming it and the check the summary named, and its results file says
  reliable = 0 with that line. (Three times, so that the host's slow spells, 1.3-1.4x on the
  guests measured, cannot undo it.)
- A copy without the attribute (a file from before the check) is not compared.
Exit 1 with the first difference.
"""
import os
import re
import shutil
import subprocess
import sys

import h5py
import numpy

from check_calibration_marks import seal

SUMMARY = re.compile(r"speed check \((.*)\): ([0-9.]+) ns before the \w+, ([0-9.]+) after "
                     r"\(rank 0; the run's ([0-9.]+)\)", re.IGNORECASE)  # sweep3d's lines start upper-case


def fail(msg):
    print("check_speed_marks: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def speed_of(path, group):
    with h5py.File(path, "r") as f:
        return float(f[group].attrs.get("speed_check_ns", 0.0))


def copy_with_speed(source, path, group, speed):
    """SOURCE with /GROUP's speed_check_ns set to SPEED (None: removed), sealed again."""
    shutil.copyfile(source, path)
    with h5py.File(path, "r+") as f:
        attrs = f[group].attrs
        if "speed_check_ns" in attrs:
            del attrs["speed_check_ns"]
        if speed is not None:
            attrs.create("speed_check_ns", speed, dtype=numpy.float64)
    seal(path)


def main():
    if len(sys.argv) < 6 or sys.argv[4] != "--":
        fail("usage: check_speed_marks.py GROUP WORK_DIR CALIBRATION|- -- COMMAND...")
    group, work, calibration, command = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[5:]
    os.makedirs(work, exist_ok=True)
    own = os.path.join(work, "own.h5")
    out = run(command + ["--results", own])
    m = SUMMARY.search(out)
    if not m:
        fail("the summary prints no speed check:\n" + out)
    what = m.group(1)
    before, after, printed = (float(x) for x in m.groups()[1:])
    speed = speed_of(own, group)
    if not speed > 0 or abs(speed - printed) > 0.051 or abs(speed - (before + after) / 2) > 0.11:
        fail("/%s speed_check_ns %r against the printed %s (before %s, after %s)" %
             (group, speed, printed, before, after))
    if calibration == "-":
        calibration = own
    elif not speed_of(calibration, group) > 0:
        fail("the calibration %s keeps no /%s speed_check_ns" % (calibration, group))

    slow = os.path.join(work, "slow_cal.h5")
    copy_with_speed(calibration, slow, group, 3 * speed)
    pred = os.path.join(work, "pred.h5")
    out = run(command + ["--calibration", slow, "--results", pred])
    lines = [ln for ln in out.splitlines() if ln.startswith("speed: this run's CPU took")]
    want = re.compile(r"speed: this run's CPU took " + re.escape(what) + r" [0-9.]+x faster than when calibration " +
                      re.escape(slow) + r" ran \([0-9.]+ against " + "%.1f" % (3 * speed) + r" ns\): its constants "
                      r"came from a CPU at another speed \(the host's load moved between the runs\); the "
                      r"measured-vs-modelled comparison is unreliable$")
    if len(lines) != 1 or not want.match(lines[0]):
        fail("expected one line saying the run was faster than %s; found %r\n%s" % (slow, lines, out))
    ratio = float(re.search(r"\) ([0-9.]+)x faster than", lines[0]).group(1))
    if not ratio > 1.5:  # 3x, moved by a slow spell at most 1.4x
        fail("the line's ratio %s, expected about 3: %r" % (ratio, lines[0]))
    with h5py.File(pred, "r") as f:
        a = f["compare"].attrs
        because = a.get("unreliable_because", b"")
        because = because.decode() if isinstance(because, bytes) else str(because)
        if int(a["reliable"]) != 0 or lines[0] not in because.split("\n"):
            fail("the results file says reliable = %d, because %r" % (int(a["reliable"]), because))

    old = os.path.join(work, "old_cal.h5")
    copy_with_speed(calibration, old, group, None)
    out = run(command + ["--calibration", old, "--no-results"])
    if "than when calibration " + old in out:
        fail("a calibration without a speed check was compared:\n" + out)
    print("check_speed_marks: ok (%s, %s: %.2f ns)" % (group, what, speed))


if __name__ == "__main__":
    main()
