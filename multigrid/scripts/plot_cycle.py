#!/usr/bin/python3
"""The paper's Figures 8-10 for our code: one W-cycle of a multigrid run, superstep by
superstep, as measured and as the BSP cost model replays it on machine files.

  plot_cycle.py RUN.h5 OUT.png MACHINE [MACHINE ...] [--cycle K]

Reads /multigrid/supersteps (w, h, comm+sync of every superstep) and draws, for cycle K
(default 2: the first is warm-up), the cumulative time through the cycle: measured
(w + comm+sync as profiled) and, per machine file, w + l + (h + N_1/2) g_inf (eq. 3). A
machine the run did not run on (the paper's IBM SP2 switch or ethernet, inputs/bsp/) gives
the prediction of Figure 9. Text output: the cycle's totals, so the figure can be checked.
"""
import os
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bsplib", "scripts"))
from bsp_machine_file import read_machine  # noqa: E402


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    cycle = 2
    if "--cycle" in argv:
        cycle = int(argv[argv.index("--cycle") + 1])
        args.remove(str(cycle))
    if len(args) < 3:
        sys.exit(__doc__)
    run, out, machines = args[0], args[1], [read_machine(m, "plot_cycle.py") for m in args[2:]]
    with h5py.File(run, "r") as f:
        if "/multigrid/supersteps" not in f:
            sys.exit(f"plot_cycle.py: {run}: no /multigrid/supersteps (a multigrid results file)")
        s = f["/multigrid/supersteps"][:]
    labels = [x.decode() if isinstance(x, bytes) else x for x in s["label"]]
    # A cycle is the run of "grid" supersteps between two monitor supersteps.
    cycles, current = [], []
    for i, lab in enumerate(labels):
        if s["grid"][i] > 0:
            current.append(i)
        elif current:
            cycles.append(current)
            current = []
    if current:
        cycles.append(current)
    if not 1 <= cycle <= len(cycles):
        sys.exit(f"plot_cycle.py: {run} has {len(cycles)} cycles; --cycle {cycle} is not one of them")
    idx = cycles[cycle - 1]
    w, h, comm = s["w"][idx], s["h"][idx], s["comm_sync"][idx]

    fig, ax = plt.subplots(figsize=(9, 4.5))
    series = [("measured", w + comm)]
    for m in machines:
        name, l, g, nhalf = m["name"], m["l"], m["g"], m["n_half"]
        series.append((name, w + l + (h > 0) * (h + nhalf) * g))
    for name, per_step in series:
        t = per_step.cumsum()
        ax.step(range(1, len(t) + 1), 1e3 * t, where="post", label=f"{name}: {1e3 * t[-1]:.3f} ms")
        print(f"{name}: {1e3 * t[-1]:.4f} ms over {len(t)} supersteps")
    grids = s["grid"][idx]
    for k in range(1, len(idx)):
        if grids[k] != grids[k - 1]:
            ax.axvline(k + 0.5, color="0.85", lw=0.5, zorder=0)
    ax.set_xlabel(f"superstep of W-cycle {cycle} (grey lines: the grid changes)")
    ax.set_ylabel("time through the cycle [ms]")
    ax.set_yscale("log")
    ax.set_title("W-cycle: measured and replayed (w + l + h g(h)) per superstep")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
