"""Draws the paper's two pictures from a bsplib profile (BSP_PROFILE=profile.csv):

  Figure 2 (communication profile): bytes leaving (top) and entering (bottom) each process
  per superstep, as stacked bands (one shade per process) in a column whose x-extent is the
  superstep's comm+sync time; the gaps between columns are the computation (w_max).

  Figure 8 (actual vs predicted): the same timeline, measured, above the timeline in which
  each superstep's comm+sync width is replaced by l + h g(h) of a machine file.

usage: suite-campaign plot bsp-profile PROFILE.csv [MACHINE_FILE] [-o OUT_PREFIX]
Writes OUT_PREFIX-communication.png and, with a machine file, OUT_PREFIX-predicted.png.
Needs only numpy and matplotlib (Debian's python3-matplotlib). The profile is read as the C++
reader reads it (bsp_profile_file.py), the machine file as bsp_machine_file.py does; a bad
input is one line naming the file and the place, and no plot."""
import suite_inputs as si

from ..bsp_machine_file import read_machine
from ..bsp_profile_file import read_profile


def superstep_widths(path):
    """Per superstep of the profile (bsp_profile_file.py checks it): w, comm+sync, h and the
    bytes out and in of each process."""
    out = []
    for st in read_profile(path):
        procs = st["procs"]
        out.append({"index": st["index"], "label": st["label"],
                    "w": max(v["t_enter"] - v["t_begin"] for v in procs),
                    "comm": min(v["t_exit"] - v["t_enter"] for v in procs),
                    "h": max(max(v["bytes_out"], v["bytes_in"]) for v in procs),
                    "out": [v["bytes_out"] for v in procs], "in": [v["bytes_in"] for v in procs]})
    return out


def columns(plt, ax_out, ax_in, steps, widths, title):
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


def label(text):
    return si.shown(text).replace("$", r"\$")  # not mathtext


def main(argv, prog):
    ap = si.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("profile")
    ap.add_argument("machine", nargs="?")
    ap.add_argument("-o", "--out", default="bsp-profile")
    a = ap.parse_args(argv)
    # "" is a name given empty (a shell variable left unset), never "no machine file".
    for name, what in ((a.profile, "a bsplib profile's file name"),
                       (a.machine, "a BSP machine file's name (or no second argument)"),
                       (a.out, "a prefix for the plots' names (-o)")):
        if name == "":
            raise si.Refusal("(empty path)", "", what, "an empty path")
    inputs = [a.profile] + ([a.machine] if a.machine is not None else [])
    outputs = [f"{a.out}-communication.png"] + ([f"{a.out}-predicted.png"] if a.machine is not None else [])
    for out in outputs:
        si.check_plot_output(out, inputs)
    steps = superstep_widths(a.profile)
    m = read_machine(a.machine) if a.machine is not None else None
    plt = si.import_pyplot()

    fig, (ax_out, ax_in) = plt.subplots(2, 1, sharex=True, figsize=(10, 5))
    columns(plt, ax_out, ax_in, steps, [s["comm"] for s in steps],
            f"communication profile (Figure 2): {label(a.profile)}")
    ax_in.set_xlabel("time [us] (gaps: largest local computation; columns: comm+sync)")
    legend = "; ".join(f"{s['index']}: {label(s['label'])}" for s in steps[:12])
    fig.text(0.01, 0.005, legend, fontsize=6)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    si.save_figure(fig, outputs[0], dpi=120)
    print(f"wrote {outputs[0]}")

    if m:
        pred = [m["l"] + ((s["h"] + m["n_half"]) * m["g"] if s["h"] > 0 else 0.0) for s in steps]
        fig, axes = plt.subplots(4, 1, sharex=True, figsize=(10, 8))
        t_meas = columns(plt, axes[0], axes[1], steps, [s["comm"] for s in steps], "measured")
        t_pred = columns(plt, axes[2], axes[3], steps, pred,
                         f"predicted: comm+sync = l + h g(h) of {label(m['name'])}")
        axes[3].set_xlabel(f"time [us]; total measured {t_meas * 1e6:.1f} us, "
                           f"predicted {t_pred * 1e6:.1f} us")
        fig.suptitle("actual vs predicted superstep widths (Figure 8 / 9)", fontsize=10)
        fig.tight_layout()
        si.save_figure(fig, outputs[1], dpi=120)
        print(f"wrote {outputs[1]}")
