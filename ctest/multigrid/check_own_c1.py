#!/usr/bin/python3
"""A multigrid run with no --calibration prices eq. 5 with its own C1 (a consistency check),
and that C1 carries the run's own C1 of cells in no family of 8, as a calibration file does.

    check_own_c1.py MULTIGRID MPIEXEC RANKS MACHINE

On the 3^3 cube over 3 grids (the coarsest grid's cells are in no family; the middle grid's
are in part at two processes, none at one):
  - the T_cycle row's source names this run's point with "in no family X s" and prices the
    loose cells at "C1 = X s";
  - the coarsest grid's row is priced at C1 = X s, "100% of its cells in no family";
  - the finest grid's row at the point's C1 (of cells in families), not at X;
  - the middle grid's with a share in no family at two processes, none at one.
Before, the run's own point had no loose C1: the coarsest grid was priced at the finest's
C1 and read -60% on every default run. Exit 1 with the first difference.
"""
import re
import subprocess
import sys


def fail(msg):
    print("check_own_c1: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 5:
        fail("usage: check_own_c1.py MULTIGRID MPIEXEC RANKS MACHINE")
    exe, mpiexec, ranks, machine = sys.argv[1:]
    cmd = [mpiexec, "-n", ranks, exe, "--cube", "3", "--grids", "3", "--machine", machine, "--no-results"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=100)
    if p.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    row = re.compile(r"^eq5 +(T_cycle|grid \d) +\S+ +\S+ +\S+ +(.*)$", re.M)
    rows = {m.group(1): m.group(2) for m in row.finditer(p.stdout)}
    for term in ("T_cycle", "grid 1", "grid 2", "grid 3"):
        if term not in rows:
            fail("no eq5 %s row in:\n%s" % (term, p.stdout))
    own = re.search(r"from this run \(a consistency check, not a prediction\) \(p = %s, N/p [0-9.e+]+, [a-z0-9]+: "
                    r"([0-9.e+-]+) s, in no family ([0-9.e+-]+) s\); cells in no family of 8 at C1 = ([0-9.e+-]+) s"
                    % re.escape(ranks), rows["T_cycle"])
    if not own:
        fail("the T_cycle row does not name this run's point with its C1 in no family: " + rows["T_cycle"])
    family, loose, priced = own.groups()
    if loose != priced:
        fail("the point's C1 in no family %s s, the loose cells priced at %s s" % (loose, priced))
    if float(loose) <= 0:
        fail("C1 in no family %s s is not positive" % loose)
    coarsest = re.search(r"C1\(([0-9.e+]+)\) = ([0-9.e+-]+) s \(100% of its cells in no family\)$", rows["grid 3"])
    if not coarsest or coarsest.group(2) != loose:
        fail("the coarsest grid is not priced at the run's C1 in no family (%s s): %s" % (loose, rows["grid 3"]))
    finest = re.search(r"C1\([0-9.e+]+\) = ([0-9.e+-]+) s$", rows["grid 1"])
    if not finest or finest.group(1) != family:
        fail("the finest grid is not priced at the run's C1 %s s: %s" % (family, rows["grid 1"]))
    # The middle grid's families are whole at one process; at two, those of parents split
    # between the processes are not (their cells are loose where they are held).
    split = "of its cells in no family)" in rows["grid 2"] and "100% of its cells" not in rows["grid 2"]
    if split != (ranks != "1"):
        fail("the middle grid %s: %s" % ("has loose cells at one process" if ranks == "1" else
                                         "is not priced as part in no family", rows["grid 2"]))
    print("check_own_c1: %s ranks: C1 %s s, in no family %s s on the coarsest grid" % (ranks, family, loose))


if __name__ == "__main__":
    main()
