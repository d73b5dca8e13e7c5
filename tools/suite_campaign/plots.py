"""The campaign report's PNGs (matplotlib, Agg): measured and modelled against P, the error
heat-map, the per-phase stacks and the projections.

Rules every plot keeps, so that each reads at a glance: legends sit outside the axes (below
or right), never over data; a legend holds at most MAX_LEGEND entries, more series are split
into more panels; the figure grows with its panels; axes are linear unless the values span
more than LOG_SPAN (then log, labelled in plain numbers).

Each function draws one figure and writes it with output_file.write_output (a temporary
renamed over the target); it returns the path written.
"""
import io
import math

from .output_file import write_output

MAX_LEGEND = 8        # entries of one legend; more series go to another panel
LOG_SPAN = 30.0       # max/min above which an axis turns logarithmic
FONT = 11
PANEL_W, PANEL_H = 6.4, 4.2   # inches of one panel
MAX_PANELS = 48       # of one figure; more would be a poster, not a plot
MAX_STACK_PHASES = 7  # phases shown in a stack; the rest is summed as "other"


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": FONT, "axes.titlesize": FONT + 1,
                         "legend.fontsize": FONT - 1})
    return plt


def save(fig, path):
    plt = pyplot()

    def fill(fd):
        try:
            with io.open(fd, "wb", closefd=True) as out:
                # "tight" makes room for the legends outside the axes.
                fig.savefig(out, format="png", dpi=90, bbox_inches="tight")
        finally:
            plt.close(fig)
    write_output(path, "plot", fill)
    return path


def label(text):
    """Text shown as given: not mathtext ('$' pairs), not hidden from a legend (leading '_')."""
    text = str(text).replace("$", r"\$")
    return " " + text if text.startswith("_") else text


def scale_axis(ax, which, values):
    """Linear unless the positive values span more than LOG_SPAN."""
    pos = [v for v in values if v is not None and math.isfinite(v) and v > 0]
    if pos and max(pos) / min(pos) > LOG_SPAN:
        getattr(ax, f"set_{which}scale")("log")
        if which == "x":  # ranks and sizes: plain numbers, not 10^k
            from matplotlib.ticker import ScalarFormatter
            formatter = ScalarFormatter()
            formatter.set_scientific(False)
            ax.xaxis.set_major_formatter(formatter)
        return True
    return False


def grid_of(n, columns=2):
    cols = min(columns, n)
    rows = (n + cols - 1) // cols
    return rows, cols


def chunks(items, size):
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def median(values):
    v = sorted(values)
    n = len(v)
    return None if n == 0 else (v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2]))


TIME_UNITS = (("s", 1.0), ("ms", 1e-3), ("us", 1e-6))


def time_unit(values):
    """(name, seconds per unit) for these seconds: the unit in which their median magnitude
    is at least 1 (s, ms or us), so most of them read as 1 to 999."""
    mags = [abs(v) for v in values if v is not None and math.isfinite(v) and v != 0]
    if not mags:
        return TIME_UNITS[0]
    typical = median(mags)
    for name, scale in TIME_UNITS:
        if typical >= scale:
            return name, scale
    return TIME_UNITS[-1]


def measured_vs_modelled(path, title, terms):
    """terms: {term: {series label: [(ranks, [measured per rep], [modelled per rep])]}}.
    One panel per term (and per MAX_LEGEND - 2 series of it): per series the median measured
    with min-max bars over the repetitions (solid) and the median modelled (dashed), same
    colour; two legend entries say which line style is which."""
    plt = pyplot()
    from matplotlib.lines import Line2D
    per_panel = MAX_LEGEND - 2
    panels = []
    for term, series in terms.items():
        names = list(series)
        parts = chunks(names, per_panel)
        for i, part in enumerate(parts):
            suffix = f" ({i + 1}/{len(parts)})" if len(parts) > 1 else ""
            panels.append((term + suffix, {n: series[n] for n in part}))
    panels = panels[:MAX_PANELS]
    rows, cols = grid_of(len(panels))
    fig, axes = plt.subplots(rows, cols, figsize=(PANEL_W * cols, (PANEL_H + 1.2) * rows),
                             squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (term, series) in zip(axes.flat, panels):
        xs_all, ys_all = [], []
        handles = []
        unit, scale = time_unit([v for points in series.values() for p in points
                                 for v in p[1] + p[2]])
        for i, (name, points) in enumerate(series.items()):
            c = colours[i % len(colours)]
            points = sorted((p[0], [v / scale for v in p[1]], [v / scale for v in p[2]])
                            for p in points)
            xs = [p[0] for p in points]
            meas = [median(p[1]) for p in points]
            lo = [m - min(p[1]) if p[1] else 0 for m, p in zip(meas, points)]
            hi = [max(p[1]) - m if p[1] else 0 for m, p in zip(meas, points)]
            mod = [median(p[2]) for p in points]
            ax.errorbar(xs, meas, yerr=[lo, hi], fmt="-o", color=c, capsize=4, lw=1.8)
            ax.plot(xs, mod, "--s", color=c, markerfacecolor="none", lw=1.5)
            handles.append(Line2D([], [], color=c, lw=6, label=label(name or "(one configuration)")))
            xs_all += xs
            ys_all += [v for v in meas + mod if v is not None] + \
                [v for p in points for v in p[1]]
        handles += [Line2D([], [], color="k", marker="o", ls="-", label="measured (median, min-max)"),
                    Line2D([], [], color="k", marker="s", ls="--", markerfacecolor="none",
                           label="modelled (median)")]
        scale_axis(ax, "x", xs_all)
        if not scale_axis(ax, "y", ys_all):
            ax.set_ylim(bottom=0)
        ax.set_xticks(sorted(set(xs_all)))
        ax.set_title(label(term))
        ax.set_xlabel("P (MPI ranks)")
        ax.set_ylabel(f"time [{unit}]")
        ax.grid(True, alpha=0.3)
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2,
                  frameon=False)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    height = (PANEL_H + 1.2) * rows
    fig.suptitle(label(title), fontsize=FONT + 3, y=1 - 0.15 / height)
    fig.subplots_adjust(hspace=0.75, wspace=0.3, top=1 - 0.9 / height)
    return save(fig, path)


def error_heatmap(path, title, configurations, columns, errors, breaks=()):
    """errors[i][j]: the error of the medians (a fraction, None for none) of configuration i
    and column j ("model/term", a model's columns side by side, a line between models).
    Diverging colours centred at 0, the value in each cell; a thin line before each column
    index in `breaks` (e.g. where a model's per-superstep columns start)."""
    plt = pyplot()
    import numpy as np
    from matplotlib.colors import TwoSlopeNorm
    data = np.array([[np.nan if e is None else 100 * e for e in row] for row in errors], dtype=float)
    finite = data[np.isfinite(data)]
    bound = max(1.0, float(np.max(np.abs(finite)))) if finite.size else 1.0
    width = max(6.0, 0.9 * len(columns) + 3.0)
    height = max(3.0, 0.5 * len(configurations) + 2.5)
    fig, ax = plt.subplots(figsize=(width, height))
    cmap = plt.get_cmap("RdBu_r").copy()
    cmap.set_bad("#dddddd")
    image = ax.imshow(np.ma.masked_invalid(data), cmap=cmap, aspect="auto",
                      norm=TwoSlopeNorm(vmin=-bound, vcenter=0.0, vmax=bound))
    ax.set_xticks(range(len(columns)))
    ax.set_xticklabels([label(c) for c in columns], rotation=45, ha="right")
    ax.set_yticks(range(len(configurations)))
    ax.set_yticklabels([label(c) for c in configurations])
    small = FONT - 2 if len(columns) < 20 else FONT - 4
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            v = data[i, j]
            text = "n/a" if not np.isfinite(v) else f"{v:+.0f}%"
            dark = np.isfinite(v) and abs(v) > 0.6 * bound
            ax.text(j, i, text, ha="center", va="center", fontsize=small,
                    color="white" if dark else "black")
    for j in range(1, len(columns)):  # a line between models ("model/term" columns)
        if columns[j].split("/", 1)[0] != columns[j - 1].split("/", 1)[0]:
            ax.axvline(j - 0.5, color="black", lw=2)
        elif j in breaks:
            ax.axvline(j - 0.5, color="black", lw=1, ls="--")
    bar = fig.colorbar(image, ax=ax, pad=0.02)
    bar.set_label("error [%]")
    ax.set_title(label(title) + "\n(modelled - measured) / measured, of the medians over repetitions")
    return save(fig, path)


def phase_stacks(path, title, configurations, phases, note=""):
    """phases[c]: {phase: exclusive seconds} of configuration c (median over repetitions), of
    phases that do not overlap (the caller's choice, said in `note` under the title): their
    exclusive times stack to the run's time without counting a nested phase twice. The
    MAX_STACK_PHASES largest phases are shown, the rest summed as "other"."""
    plt = pyplot()
    unit, scale = time_unit([sum(phases[c].values()) for c in configurations])
    totals = {}
    for c in configurations:
        for name, v in phases[c].items():
            totals[name] = totals.get(name, 0.0) + v
    ordered = sorted(totals, key=lambda n: -totals[n])
    shown_names = ordered[:MAX_STACK_PHASES]
    rest = ordered[MAX_STACK_PHASES:]
    width = max(6.0, 0.8 * len(configurations) + 4.0)
    fig, ax = plt.subplots(figsize=(width, 5.0))
    colours = plt.get_cmap("tab10").colors
    bottoms = [0.0] * len(configurations)
    for k, name in enumerate(shown_names + (["other"] if rest else [])):
        if name == "other":
            values = [sum(phases[c].get(n, 0.0) for n in rest) / scale for c in configurations]
            colour = "#bbbbbb"
        else:
            values = [phases[c].get(name, 0.0) / scale for c in configurations]
            colour = colours[k % len(colours)]
        ax.bar(range(len(configurations)), values, bottom=bottoms, color=colour,
               label=label(name if name != "other" else f"other ({len(rest)} phases)"))
        bottoms = [b + v for b, v in zip(bottoms, values)]
    ax.set_xticks(range(len(configurations)))
    ax.set_xticklabels([label(c) for c in configurations], rotation=30, ha="right")
    ax.set_ylabel(f"exclusive time [{unit}]")
    ax.set_title(label(title) + (f"\n{label(note)}" if note else ""), fontsize=FONT)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return save(fig, path)


def projection(path, title, header, rows):
    """A project step's CSV: the first numeric column as x, every other numeric column a
    line; MAX_LEGEND lines a panel."""
    plt = pyplot()

    def number(v):
        try:
            x = float(v)
        except (TypeError, ValueError):
            return None
        return x if math.isfinite(x) else None
    numeric = [j for j in range(len(header))
               if rows and all(number(r[j]) is not None for r in rows if j < len(r))]
    if len(numeric) < 2:
        return None
    xj, ys = numeric[0], numeric[1:]
    parts = chunks(ys, MAX_LEGEND)[:MAX_PANELS]
    fig, axes = plt.subplots(len(parts), 1, figsize=(PANEL_W + 3.0, PANEL_H * len(parts)),
                             squeeze=False)
    xs = [number(r[xj]) for r in rows]
    for ax, part in zip(axes[:, 0], parts):
        values = []
        for j in part:
            y = [number(r[j]) for r in rows]
            ax.plot(xs, y, "-o", label=label(header[j]))
            values += y
        scale_axis(ax, "x", xs)
        scale_axis(ax, "y", values)
        ax.set_xlabel(label(header[xj]))
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    axes[0, 0].set_title(label(title))
    return save(fig, path)
