"""Plots tycho-model's CSV (the paper's Figure 9): the GM and the TM per iteration against P,
and the projected schedule's PCE (eq. 4) with the TM's split of the slowest rank.

    tools/suite-campaign plot tycho-projection PROJECTION.csv PROJECTION.png

The CSV must be tycho-model's as written: its header exactly, 14 fields a row, 1 to 10000
rows, P a whole number >= 1, every time a finite number >= 0 and the PCE in [0, 1]. Anything
else is refused with one line naming the file, the line and what was expected (the suite's
input rules, tools/suite_inputs.py); the plot is written whole or not at all.
"""
import suite_inputs as si

COLUMNS = ("ranks", "cells_per_rank", "steps", "rounds", "pce", "gm_seconds", "gm_compute", "gm_comm",
           "tm_seconds", "tm_compute", "tm_send", "tm_receive", "t_elem_seconds", "records")
MAX_ROWS = 10000  # one row per projected P: more would not fit one plot


def read_projection(path):
    """ranks and the plotted columns of tycho-model's CSV, every value checked."""
    rows = si.read_csv_rows(path, "tycho-model CSV", [COLUMNS], MAX_ROWS)
    data = {"ranks": si.csv_wholes(rows, path, "ranks", 1, 2**31 - 1),
            "pce": si.csv_reals(rows, path, "pce", 0.0, 1.0)}
    for key in ("gm_seconds", "tm_seconds", "tm_compute", "tm_receive"):
        data[key] = si.csv_reals(rows, path, key, unit="s")
    return data


def main(argv, prog):
    csv_path, png_path = si.csv_to_plot_arguments([prog] + argv, f"usage: {prog} PROJECTION.csv PROJECTION.png")
    d = read_projection(csv_path)

    plt = si.import_pyplot()
    p = d["ranks"]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax.plot(p, d["gm_seconds"], "o-", label="GM (eq. 6, 8, 9)")
    ax.plot(p, d["tm_seconds"], "s--", label="TM (projected schedule, LogGOPS replay)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("P (ranks)")
    ax.set_ylabel("sweep per iteration [s]")
    ax.set_title("tycho: projected iteration time")
    ax.grid(True, alpha=0.3)
    ax.legend()
    bx.plot(p, d["pce"], "o-", color="black", label="PCE of the projected schedule")
    total = d["tm_seconds"]
    for key, style, name in (("tm_compute", "^-", "TM compute share"), ("tm_receive", "v-", "TM receive share")):
        bx.plot(p, [v / t if t > 0 else 0 for v, t in zip(d[key], total)], style, label=name)
    bx.set_xscale("log", base=2)
    bx.set_ylim(0, 1.05)
    bx.set_xlabel("P (ranks)")
    bx.set_title("efficiency and the slowest rank's split")
    bx.grid(True, alpha=0.3)
    bx.legend()
    fig.tight_layout()
    si.save_figure(fig, png_path, dpi=110)
    print(f"{png_path}: {len(p)} rank counts, TM at P = {p[-1]}: {total[-1]:.6g} s")
