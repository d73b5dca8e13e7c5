#!/usr/bin/python3
"""Draws the paper's two pictures from a bsplib profile (BSP_PROFILE=profile.csv):

  Figure 2 (communication profile): bytes leaving (top) and entering (bottom) each process
  per superstep, as stacked bands (one shade per process) in a column whose x-extent is the
  superstep's comm+sync time; the gaps between columns are the computation (w_max).

  Figure 8 (actual vs predicted): the same timeline, measured, above the timeline in which
  each superstep's comm+sync width is replaced by l + h g(h) of a machine file.

usage: plot_profile.py PROFILE.csv [MACHINE_FILE] [-o OUT_PREFIX]
Writes OUT_PREFIX-communication.png and, with a machine file, OUT_PREFIX-predicted.png.
Needs only numpy and matplotlib (Debian's python3-matplotlib)."""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bsp_machine_file import read_machine  # noqa: E402


def read_profile(path):
    steps = {}
    # Not csv.reader: the profiler writes labels (bsp_profile_label's text) unquoted, so a
    # label may hold commas; it is what lies between the second field and the last nine.
    with open(path) as f:
        lines = [ln.rstrip("\r\n") for ln in f if ln.strip() and not ln.startswith("#")]
    header, rows = lines[0].split(","), []
    for ln in lines[1:]:
        fields = ln.split(",")
        rows.append(fields[:2] + [",".join(fields[2:-9])] + fields[-9:])
    col = {name: i for i, name in enumerate(header)}
    for r in rows:
        s, p = int(r[col["superstep"]]), int(r[col["pid"]])
        st = steps.setdefault(s, {"label": r[col["label"]], "proc": {}})
        st["proc"][p] = {k: float(r[col[k]]) for k in
                         ("t_begin", "t_enter", "t_exit", "bytes_out", "bytes_in")}
    out = []
    for s in sorted(steps):
        st = steps[s]
        procs = st["proc"]
        w = max(v["t_enter"] - v["t_begin"] for v in procs.values())
        comm = min(v["t_exit"] - v["t_enter"] for v in procs.values())
        h = max(max(v["bytes_out"], v["bytes_in"]) for v in procs.values())
        out.append({"index": s, "label": st["label"], "w": w, "comm": comm, "h": h,
                    "out": [procs[p]["bytes_out"] for p in sorted(procs)],
                    "in": [procs[p]["bytes_in"] for p in sorted(procs)]})
    return out


def columns(ax_out, ax_in, steps, widths, title):
    """Stacked bands per process in columns of the given widths (seconds)."""
    nprocs = len(steps[0]["out"]) if steps else 0
    colours = plt.cm.tab20.colors
    t = 0.0
    for st, width in zip(steps, widths):
        t += st["w"]
        for ax, key in ((ax_out, "out"), (ax_in, "in")):
            base = 0.0
            for p, b in enumerate(st[key]):
                if b > 0:
                    ax.bar(t * 1e6, b, width=width * 1e6, bottom=base, align="edge",
                           color=colours[p % len(colours)], edgecolor="none",
                           label=f"process {p}" if (key == "out" and st is steps[0]) else None)
                base += b
            if key == "out" and base > 0:
                ax.text(t * 1e6, base, str(st["index"]), fontsize=7, va="bottom")
        t += width
    ax_out.set_ylabel("bytes out")
    ax_in.set_ylabel("bytes in")
    ax_in.invert_yaxis()
    ax_out.set_title(title, fontsize=9)
    if nprocs <= 16:
        handles = [plt.Rectangle((0, 0), 1, 1, color=colours[p % len(colours)])
                   for p in range(nprocs)]
        ax_out.legend(handles, [f"process {p}" for p in range(nprocs)], fontsize=6,
                      loc="upper right")
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("profile")
    ap.add_argument("machine", nargs="?")
    ap.add_argument("-o", "--out", default="bsp-profile")
    a = ap.parse_args()
    steps = read_profile(a.profile)
    if not steps:
        sys.exit("plot_profile.py: the profile has no supersteps")

    fig, (ax_out, ax_in) = plt.subplots(2, 1, sharex=True, figsize=(10, 5))
    columns(ax_out, ax_in, steps, [s["comm"] for s in steps],
            f"communication profile (Figure 2): {a.profile}")
    ax_in.set_xlabel("time [us] (gaps: largest local computation; columns: comm+sync)")
    legend = "; ".join(f"{s['index']}: {s['label']}" for s in steps[:12])
    fig.text(0.01, 0.005, legend, fontsize=6)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(f"{a.out}-communication.png", dpi=120)
    print(f"wrote {a.out}-communication.png")

    if a.machine:
        m = read_machine(a.machine, "plot_profile.py")
        pred = [m["l"] + ((s["h"] + m["n_half"]) * m["g"] if s["h"] > 0 else 0.0) for s in steps]
        fig, axes = plt.subplots(4, 1, sharex=True, figsize=(10, 8))
        t_meas = columns(axes[0], axes[1], steps, [s["comm"] for s in steps], "measured")
        t_pred = columns(axes[2], axes[3], steps, pred,
                         f"predicted: comm+sync = l + h g(h) of {m['name']}")
        axes[3].set_xlabel(f"time [us]; total measured {t_meas * 1e6:.1f} us, "
                           f"predicted {t_pred * 1e6:.1f} us")
        fig.suptitle("actual vs predicted superstep widths (Figure 8 / 9)", fontsize=10)
        fig.tight_layout()
        fig.savefig(f"{a.out}-predicted.png", dpi=120)
        print(f"wrote {a.out}-predicted.png")


if __name__ == "__main__":
    main()
