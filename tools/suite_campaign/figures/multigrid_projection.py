"""Plots multigrid-model's CSV: the W-cycle against P as the LogGOPS replay and eq. 5 project
it, beside perfect scaling from P = 1, and the share of each that is not work (communication
and synchronisation), where the coarse grids' supersteps take over.

    tools/suite-campaign plot multigrid-projection PROJECTION.csv PROJECTION.png

The CSV must be multigrid-model's as written: its header exactly, 10 fields a row, 1 to 10000
rows, P a whole number >= 1, every time a finite number >= 0, the eq. 5 columns empty on every
row (no --machine) or on none. Anything else is refused with one line naming the file, the
line and what was expected (tools/suite_inputs.py); the plot is written whole or not at all.
"""
import suite_inputs as si

COLUMNS = ("procs", "cells_per_proc", "imbalance", "h_grid1_bytes", "replay_seconds", "replay_work",
           "replay_comm_sync", "eq5_seconds", "eq5_work", "eq5_comm_sync")
MAX_ROWS = 10000  # one row per projected P: more would not fit one plot


def read_projection(path):
    """procs and the plotted columns of multigrid-model's CSV, every value checked; the eq. 5
    columns None when the CSV has none."""
    rows = si.read_csv_rows(path, "multigrid-model CSV", [COLUMNS], MAX_ROWS)
    data = {"procs": si.csv_wholes(rows, path, "procs", 1, 2**31 - 1)}
    for key in ("replay_seconds", "replay_comm_sync"):
        data[key] = si.csv_reals(rows, path, key, unit="s")
    have_eq5 = rows[0]["eq5_seconds"] != ""
    for key in ("eq5_seconds", "eq5_comm_sync"):
        for r in rows:
            if (r[key] != "") != have_eq5:
                raise si.Refusal(path, f"line {r['line']} column {key}",
                                 "the eq. 5 columns empty on every row or on none (as on line 2)",
                                 si.quote(r[key]) if r[key] else "an empty field")
        data[key] = si.csv_reals(rows, path, key, unit="s") if have_eq5 else None
    return data


def shares(parts, totals):
    return [c / t if t > 0 else 0 for c, t in zip(parts, totals)]


def main(argv, prog):
    csv_path, png_path = si.csv_to_plot_arguments([prog] + argv, f"usage: {prog} PROJECTION.csv PROJECTION.png")
    d = read_projection(csv_path)
    plt = si.import_pyplot()

    procs, replay, eq5 = d["procs"], d["replay_seconds"], d["eq5_seconds"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot(procs, replay, "s-", label="replay (LogGOPS simulator, counted messages)")
    if eq5 is not None:
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
    right.plot(procs, shares(d["replay_comm_sync"], replay), "s-", label="replay: not work (slowest process)")
    if eq5 is not None:
        right.plot(procs, shares(d["eq5_comm_sync"], eq5), "o--", label="eq. 5: C2 g + C3 l terms")
    right.set_xscale("log", base=2)
    right.set_ylim(0, 1.05)
    right.set_xlabel("P (processes)")
    right.set_ylabel("share of the W-cycle")
    right.set_title("communication and synchronisation")
    right.grid(True, alpha=0.3)
    right.legend(fontsize=8)
    fig.tight_layout()
    si.save_figure(fig, png_path, dpi=110)
    print(f"{png_path}: {len(procs)} process counts, replay at P = {procs[-1]}: {replay[-1]:.6g} s")
