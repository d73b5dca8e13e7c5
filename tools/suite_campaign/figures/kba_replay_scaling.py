"""Plots sweep3d-model's weak and strong scaling CSVs (--replay --csv): T_iteration of the replay, the LogGP model and the
pipeline model against processes, weak and strong scaling side by side, and the models'
differences from the replay in percent.
usage: suite-campaign plot kba-replay-scaling WEAK.csv STRONG.csv OUT.png
The CSVs are read as sweep3d_model_scaling.py reads them, with --replay's columns required and
the replay's times > 0; a bad one is one line naming the file and the place."""
import suite_inputs as si

from .sweep3d_model_scaling import REPLAY_COLUMNS, read_model_csv


def read(path):
    """sweep3d-model --replay --csv's columns, checked; the replay's times > 0 (the
    differences are relative to them)."""
    d = read_model_csv(path, [REPLAY_COLUMNS])
    for i, t in enumerate(d["replay_seconds"]):
        if t <= 0:
            raise si.Refusal(path, f"line {i + 2} column replay_seconds", "a replayed time > 0 s", repr(t))
    return d


def main(argv, prog):
    if len(argv) != 3:
        raise si.UsageError(f"usage: {prog} WEAK.csv STRONG.csv OUT.png")
    weak, strong, png = argv
    si.check_plot_output(png, [weak, strong])
    data = [read(weak), read(strong)]
    plt = si.import_pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(10, 6.4), sharex="col", gridspec_kw={"height_ratios": [2, 1]})
    for col, (title, path) in enumerate([("weak scaling, 5x5x400 per rank", weak), ("strong scaling, 150^3", strong)]):
        d = data[col]
        p = d["processes"]
        get = lambda k: [v * 1e3 for v in d[k]]  # noqa: E731
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
    si.save_figure(fig, png, dpi=72)
