"""Plots sweep3d-model's CSV: predicted time against processes (the paper's Figures 7-8),
with the LogGP breakdown into computation, communication and synchronisation (Figure 9).

usage: suite-campaign plot sweep3d-model-scaling MODEL.csv OUT.png
The CSV must be sweep3d-model's as written (with or without --replay's columns): its header
exactly, 1 to 10000 rows, processes a whole number >= 1 and the plotted times finite and
>= 0; anything else is one line naming the file and the place (tools/suite_inputs.py)."""
import suite_inputs as si

COLUMNS = ("processes", "npe_i", "npe_j", "it", "jt", "kt", "mk", "mmi", "loggp_seconds", "loggp_computation",
           "loggp_communication", "loggp_synchronization", "pipeline_seconds")
REPLAY_COLUMNS = COLUMNS + ("replay_seconds", "replay_compute", "replay_send", "replay_receive", "replay_wait",
                            "replay_collective", "replay_events", "replay_wall_seconds", "loggp_on_loggps_seconds",
                            "loggp_on_loggps_synchronization", "pipeline_on_loggps_seconds")
MAX_ROWS = 10000


def read_model_csv(path, headers=(COLUMNS, REPLAY_COLUMNS)):
    """The rows of sweep3d-model's CSV with processes and the times this plot and
    kba_replay_scaling.py draw checked: {column: values} of what is present."""
    rows = si.read_csv_rows(path, "sweep3d-model CSV", list(headers), MAX_ROWS)
    data = {"processes": si.csv_wholes(rows, path, "processes", 1, 2**31 - 1)}
    for key in ("loggp_seconds", "loggp_computation", "loggp_communication", "loggp_synchronization",
                "pipeline_seconds", "replay_seconds"):
        if key in rows[0]:
            data[key] = si.csv_reals(rows, path, key, unit="s")
    return data


def main(argv, prog):
    csv_path, png_path = si.csv_to_plot_arguments([prog] + argv, f"usage: {prog} MODEL.csv OUT.png")
    d = read_model_csv(csv_path)
    plt = si.import_pyplot()
    p = d["processes"]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax.plot(p, d["loggp_seconds"], "o-", label="LogGP (Sundaram-Stukel & Vernon)")
    ax.plot(p, d["pipeline_seconds"], "s--", label="pipeline (Hoisie et al.)")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("processes")
    ax.set_ylabel("predicted time [s]")
    ax.set_title("Sweep3D: predicted time")
    ax.grid(True, alpha=0.3)
    ax.legend()
    comp, comm, sync = d["loggp_computation"], d["loggp_communication"], d["loggp_synchronization"]
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
    si.save_figure(fig, png_path, dpi=110)
