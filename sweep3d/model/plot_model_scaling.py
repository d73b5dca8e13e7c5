#!/usr/bin/python3
"""Plots sweep3d-model's CSV: predicted time against processes (the paper's Figures 7-8),
with the LogGP breakdown into computation, communication and synchronisation (Figure 9)."""
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
    p = [int(r["processes"]) for r in rows]
    col = lambda k: [float(r[k]) for r in rows]  # noqa: E731
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax.plot(p, col("loggp_seconds"), "o-", label="LogGP (Sundaram-Stukel & Vernon)")
    ax.plot(p, col("pipeline_seconds"), "s--", label="pipeline (Hoisie et al.)")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("processes")
    ax.set_ylabel("predicted time [s]")
    ax.set_title("Sweep3D: predicted time")
    ax.grid(True, alpha=0.3)
    ax.legend()
    comp, comm, sync = col("loggp_computation"), col("loggp_communication"), col("loggp_synchronization")
    idx = range(len(p))
    bx.bar(idx, comp, label="computation")
    bx.bar(idx, comm, bottom=comp, label="communication")
    bx.bar(idx, sync, bottom=[a + b for a, b in zip(comp, comm)], label="synchronisation")
    bx.set_xticks(list(idx), [str(x) for x in p], rotation=45)
    bx.set_xlabel("processes")
    bx.set_ylabel("seconds")
    bx.set_title("LogGP critical path breakdown")
    bx.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_model_scaling.py MODEL.csv OUT.png")
    main(sys.argv[1], sys.argv[2])
