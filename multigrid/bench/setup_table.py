#!/usr/bin/env python3
"""Medians of the runs setup_ab.sh logged: set-up / W-cycle (the run's own `setup` over its
mean W-cycle), set-up, W-cycle, the set-up's kernel CPU time and the set-up phases' medians
over processes, per grid, process count and build (B before A).

    multigrid/bench/setup_table.py OUT_DIR
"""
import glob
import os
import re
import statistics
import sys

PHASES = ("refinement", "node-ranks", "numbering", "transfers", "batches", "load", "operator")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: setup_table.py OUT_DIR")
    out = sys.argv[1]
    number = r"([0-9.]+(?:e[-+]?[0-9]+)?)"  # small times come with an exponent (9.2e-05)
    summary = re.compile(rf"W-cycle: mean {number} ms over \d+ cycles; setup {number} s "
                         rf"\(process 0: {number} s of CPU time in the kernel")
    phase = re.compile(r"^setup\.(\S+)\s+\d+\s+\S+\s+\S+\s+(\S+)", re.M)  # the median column
    for n in (8, 10):
        for p in (1, 2):
            for build in ("B", "A"):
                logs = sorted(glob.glob(os.path.join(out, f"c{n}_p{p}_{build}_r*.txt")))
                runs, phases = [], {}
                for log in logs:
                    text = open(log).read()
                    m = summary.search(text)
                    if not m:
                        sys.exit(f"setup_table.py: {log}: no W-cycle and set-up line (did the run fail?)")
                    w, s, k = float(m[1]), float(m[2]), float(m[3])
                    runs.append((s * 1000 / w, s, w, k))
                    for name, median in phase.findall(text):
                        phases.setdefault(name, []).append(float(median))
                if not runs:
                    continue
                med = lambda i: statistics.median(r[i] for r in runs)
                ratios = [r[0] for r in runs]
                parts = " ".join(f"{name} {statistics.median(phases[name]):.3f}" for name in PHASES if name in phases)
                print(f"--cube {n} P={p} {build} ({len(runs)} runs): set-up/W-cycle {med(0):.1f} "
                      f"({min(ratios):.1f}-{max(ratios):.1f}), set-up {med(1):.3f} s, W-cycle {med(2):.1f} ms, "
                      f"kernel {med(3):.2f} s; {parts}")


if __name__ == "__main__":
    main()
