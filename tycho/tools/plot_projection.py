#!/usr/bin/python3
"""Plots tycho-model's CSV (the paper's Figure 9): the GM and the TM per iteration against P,
and the projected schedule's PCE (eq. 4) with the TM's split of the slowest rank.

    /usr/bin/python3 tycho/tools/plot_projection.py PROJECTION.csv PROJECTION.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(csv_path, png_path):
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{csv_path}: no rows to plot")
    p = [int(r["ranks"]) for r in rows]
    col = lambda k: [float(r[k]) for r in rows]  # noqa: E731
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax.plot(p, col("gm_seconds"), "o-", label="GM (eq. 6, 8, 9)")
    ax.plot(p, col("tm_seconds"), "s--", label="TM (projected schedule, LogGOPS replay)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("P (ranks)")
    ax.set_ylabel("sweep per iteration [s]")
    ax.set_title("tycho: projected iteration time")
    ax.grid(True, alpha=0.3)
    ax.legend()
    bx.plot(p, col("pce"), "o-", color="black", label="PCE of the projected schedule")
    total = col("tm_seconds")
    for key, style, name in (("tm_compute", "^-", "TM compute share"), ("tm_receive", "v-", "TM receive share")):
        bx.plot(p, [v / t if t > 0 else 0 for v, t in zip(col(key), total)], style, label=name)
    bx.set_xscale("log", base=2)
    bx.set_ylim(0, 1.05)
    bx.set_xlabel("P (ranks)")
    bx.set_title("efficiency and the slowest rank's split")
    bx.grid(True, alpha=0.3)
    bx.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_projection.py PROJECTION.csv PROJECTION.png")
    main(sys.argv[1], sys.argv[2])
