#!/usr/bin/python3
"""A run or a projection that prices with a calibration whose own run was marked unreliable
says so (instrument/calibration_reader.hpp), in every app and model tool.

    check_calibration_marks.py run CALIBRATION WORK_DIR -- MPIEXEC -n P APP ARGS... --calibration @CAL@ ...
    check_calibration_marks.py projection CALIBRATION WORK_DIR -- TOOL ARGS... --calibration @CAL@ ...

CALIBRATION is a calibration run's results file (a fixture). Two copies of it are made in
WORK_DIR: one whose /compare says reliable = 1 and names no reason, one whose /compare says
reliable = 0 with two reasons (a `cpus:` line, then a `machine:` line). The command runs with
@CAL@ replaced by each copy (a run with `--results FILE` added):
- the clean copy: no `calibration:` line is printed (a run prints its models' table);
- the marked copy: exactly one line, `calibration: COPY, whose constants this comparison uses,
  was marked unreliable when it ran: REASON` ("this projection uses" from a model tool), where
  REASON is the first reason without its closing words ("; the measured-vs-modelled comparison
  is unreliable"); a run's results file says reliable = 0 and names that line among its
  reasons.
Exit 1 with the first difference.
"""
import os
import shutil
import subprocess
import sys

import zlib

import h5py
import numpy

USER_BLOCK = 512  # the results file's seal (instrument/src/results_seal.hpp), as make_vlen_results.py writes it

CPUS = ("cpus: rank 1 took 1.40x rank 0's time per unit of work in iterations 1-3 (2.8 ns against 2 ns): "
        "its CPU ran slower (the host's load on it)")
TAIL = "; the measured-vs-modelled comparison is unreliable"
MACHINE = "machine: busy during this run (a second reason, not repeated): the measured-vs-modelled comparison is unreliable"


def fail(msg):
    print("check_calibration_marks: " + msg, file=sys.stderr)
    sys.exit(1)


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def fixed(value):
    """A fixed-length UTF-8 string, as the suite's writer stores text."""
    raw = value.encode("utf-8")
    return numpy.array(raw, dtype=h5py.string_dtype("utf-8", max(1, len(raw))))


def copy_with_mark(source, path, because):
    """SOURCE with its /compare's verdict replaced, sealed again (the readers refuse an edited file)."""
    shutil.copyfile(source, path)
    with h5py.File(path, "r+") as f:
        attrs = f["compare"].attrs
        attrs.create("reliable", 0 if because else 1, dtype=numpy.int64)
        if "unreliable_because" in attrs:
            del attrs["unreliable_because"]
        if because:
            attrs["unreliable_because"] = fixed(because)
    seal(path)


def seal(path):
    """Seal an edited results file again, as the writer does (the readers refuse it unsealed)."""
    with open(path, "r+b") as f:
        body = f.read()[USER_BLOCK:]
        line = ("suite-results-seal-1 crc32 %08x bytes %d\n" % (zlib.crc32(body), len(body))).encode()
        f.seek(0)
        f.write(line.ljust(USER_BLOCK, b"\0"))


def run(command, calibration, results):
    cmd = [calibration if a == "@CAL@" else a for a in command] + (["--results", results] if results else [])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def compare_attrs(path):
    with h5py.File(path, "r") as f:
        a = f["compare"].attrs
        return int(a["reliable"]), text(a.get("unreliable_because", ""))


def main():
    if len(sys.argv) < 6 or sys.argv[1] not in ("run", "projection") or sys.argv[4] != "--" \
            or "@CAL@" not in sys.argv[5:]:
        fail("usage: check_calibration_marks.py run|projection CALIBRATION WORK_DIR -- COMMAND... (@CAL@ in it)")
    mode, source, work, command = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[5:]
    is_run = mode == "run"
    os.makedirs(work, exist_ok=True)
    clean, marked = os.path.join(work, "clean.h5"), os.path.join(work, "marked.h5")
    copy_with_mark(source, clean, "")
    copy_with_mark(source, marked, CPUS + TAIL + "\n" + MACHINE)

    out = run(command, clean, os.path.join(work, "clean_run.h5") if is_run else None)
    if is_run and " Models " not in out and "Measured vs modelled" not in out:
        fail("the run with the clean calibration printed no models:\n" + out)
    lines = [ln for ln in out.splitlines() if ln.startswith("calibration:")]
    if lines:
        fail("the clean calibration was marked: %r" % lines)

    out = run(command, marked, os.path.join(work, "marked_run.h5") if is_run else None)
    want = "calibration: %s, whose constants this %s uses, was marked unreliable when it ran: %s" % (
        marked, "comparison" if is_run else "projection", CPUS)
    lines = [ln for ln in out.splitlines() if ln.startswith("calibration:")]
    if lines != [want]:
        fail("expected the one line\n  %s\nfound %r\n%s" % (want, lines, out))
    if not is_run:
        print("check_calibration_marks: ok (%s)" % os.path.basename(command[0]))
        return
    reliable, because = compare_attrs(os.path.join(work, "marked_run.h5"))
    if reliable != 0 or want not in because.split("\n"):
        fail("the results file says reliable = %d, because %r; expected 0 with the calibration line" % (
            reliable, because))
    print("check_calibration_marks: ok (%s)" % os.path.basename(command[3] if len(command) > 3 else command[0]))


if __name__ == "__main__":
    main()
