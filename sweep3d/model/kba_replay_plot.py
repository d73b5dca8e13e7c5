#!/usr/bin/python3
"""Plots kba_replay_scaling.sh's CSVs: T_iteration of the replay, the LogGP model and the
pipeline model against processes, weak and strong scaling side by side, and the models'
differences from the replay in percent.
usage: kba_replay_plot.py WEAK.csv STRONG.csv OUT.png"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "replay_seconds" not in rows[0]:
        sys.exit(f"{path}: no rows with replay_seconds (run sweep3d-model with --replay --csv)")
    return rows


def main(weak, strong, png):
    fig, axes = plt.subplots(2, 2, figsize=(10, 6.4), sharex="col", gridspec_kw={"height_ratios": [2, 1]})
    for col, (title, path) in enumerate([("weak scaling, 5x5x400 per rank", weak), ("strong scaling, 150^3", strong)]):
        rows = read(path)
        p = [int(r["processes"]) for r in rows]
        get = lambda k: [float(r[k]) * 1e3 for r in rows]  # noqa: E731
        rep, lg, pl = get("replay_seconds"), get("loggp_seconds"), get("pipeline_seconds")
        ax, dx = axes[0][col], axes[1][col]
        ax.plot(p, rep, "o-", color="k", label="replay (LogGOPS)")
        ax.plot(p, lg, "s--", label="LogGP model")
        ax.plot(p, pl, "^:", label="pipeline model (HLW)")
        ax.set_xscale("log", base=2)
        if col == 1:
            ax.set_yscale("log")
        ax.set_ylabel("T_iteration [ms]")
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        dx.plot(p, [100 * (a - b) / b for a, b in zip(lg, rep)], "s--", label="LogGP")
        dx.plot(p, [100 * (a - b) / b for a, b in zip(pl, rep)], "^:", label="pipeline")
        dx.axhline(0, color="k", lw=0.8)
        for y in (-10, 10):
            dx.axhline(y, color="grey", lw=0.5, ls="--")
        dx.set_xscale("log", base=2)
        dx.set_xlabel("processes")
        dx.set_ylabel("model - replay [%]")
        dx.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=72)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: kba_replay_plot.py WEAK.csv STRONG.csv OUT.png")
    main(*sys.argv[1:])
