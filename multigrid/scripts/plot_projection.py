#!/usr/bin/python3
"""Plots multigrid-model's CSV: the W-cycle against P as the LogGOPS replay and eq. 5 project
it, beside perfect scaling from P = 1, and the share of each that is not work (communication
and synchronisation), where the coarse grids' supersteps take over.

    /usr/bin/python3 multigrid/scripts/plot_projection.py PROJECTION.csv PROJECTION.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def column(rows, key):
    return [float(r[key]) if r[key] != "" else None for r in rows]


def main(csv_path, png_path):
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{csv_path}: no rows to plot")
    procs = [int(r["procs"]) for r in rows]
    replay, eq5 = column(rows, "replay_seconds"), column(rows, "eq5_seconds")
    have_eq5 = all(v is not None for v in eq5)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot(procs, replay, "s-", label="replay (LogGOPS simulator, counted messages)")
    if have_eq5:
        left.plot(procs, eq5, "o--", label="eq. 5 (l, g from bspprobe)")
    if procs[0] == 1:
        left.plot(procs, [replay[0] / p for p in procs], ":", color="grey", label="replay at P = 1, divided by P")
    left.set_xscale("log", base=2)
    left.set_yscale("log")
    left.set_xlabel("P (processes)")
    left.set_ylabel("W-cycle [s]")
    left.set_title("multigrid: projected W-cycle")
    left.grid(True, alpha=0.3)
    left.legend(fontsize=8)
    right.plot(procs, [c / t if t > 0 else 0 for c, t in zip(column(rows, "replay_comm_sync"), replay)], "s-",
               label="replay: not work (slowest process)")
    if have_eq5:
        right.plot(procs, [c / t if t > 0 else 0 for c, t in zip(column(rows, "eq5_comm_sync"), eq5)], "o--",
                   label="eq. 5: C2 g + C3 l terms")
    right.set_xscale("log", base=2)
    right.set_ylim(0, 1.05)
    right.set_xlabel("P (processes)")
    right.set_ylabel("share of the W-cycle")
    right.set_title("communication and synchronisation")
    right.grid(True, alpha=0.3)
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    print(f"{png_path}: {len(rows)} process counts")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
