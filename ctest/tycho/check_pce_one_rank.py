#!/usr/bin/python3
"""tycho's GM at one rank uses PCE = 1 (tycho/model_report.hpp), read from the results file.

    check_pce_one_rank.py TYCHO MPIEXEC MESH MACHINE WORK_DIR

  - a 1-rank run with a machine file and no calibration (where the GM used to assume the
    paper's 0.8): /compare's GM row says "PCE 1 (one rank: no idle time by definition)";
  - the same with --pce 0.9: the PCE given wins, and the row says "PCE given (--pce)";
  - the GM's modelled T_sweep is /model/GM's compute + comm + other (#steps x T_step, ours) in both.
Exit 1 with the first difference.
"""
import os
import subprocess
import sys

import h5py

ONE_RANK = "PCE 1 (one rank: no idle time by definition)"


def fail(msg):
    print("check_pce_one_rank: " + msg, file=sys.stderr)
    sys.exit(1)


def gm_row(tycho, mpiexec, mesh, machine, results, *extra):
    cmd = [mpiexec, "-n", "1", tycho, mesh, "--iterations", "2", "--machine", machine, "--results", results, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    with h5py.File(results, "r") as f:
        rows = [r for r in f["compare"][()] if r["model"].decode() == "GM" and r["kind"].decode() == "total"]
        if len(rows) != 1:
            fail("%s: %d GM total rows in /compare, expected 1" % (results, len(rows)))
        parts = float(f["model/GM/compute"][()]) + float(f["model/GM/comm"][()]) + float(f["model/GM/other"][()])
        return rows[0]["source"].decode(), float(rows[0]["modelled"]), parts


def main():
    if len(sys.argv) != 6:
        fail("usage: check_pce_one_rank.py TYCHO MPIEXEC MESH MACHINE WORK_DIR")
    tycho, mpiexec, mesh, machine, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    source, modelled, parts = gm_row(tycho, mpiexec, mesh, machine, os.path.join(work, "np1.h5"))
    if ONE_RANK not in source:
        fail("1-rank run: the GM row's source %r does not say %r" % (source, ONE_RANK))
    if abs(modelled - parts) > 1e-9 * modelled:
        fail("1-rank run: GM T_sweep %r is not compute + comm + other %r" % (modelled, parts))
    given, modelled_given, parts_given = gm_row(tycho, mpiexec, mesh, machine, os.path.join(work, "np1_pce.h5"),
                                                "--pce", "0.9")
    if "PCE given (--pce)" not in given or ONE_RANK in given:
        fail("1-rank run with --pce 0.9: the GM row's source %r, expected the PCE given" % given)
    if abs(modelled_given - parts_given) > 1e-9 * modelled_given:
        fail("1-rank run with --pce: GM T_sweep %r is not compute + comm + other %r" % (modelled_given, parts_given))
    print("GM at one rank: %s" % source)


if __name__ == "__main__":
    main()
