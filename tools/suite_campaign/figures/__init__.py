"""The suite's figures, one module a kind: `suite-campaign plot KIND ARGS...` (cli.py).

Each module draws one figure from the file a program wrote (a CSV, a profile, a results
file) and has `main(argv, prog)`; it reads its inputs by the suite's input rules
(tools/suite_inputs.py): a bad input or output path is ONE line on stderr,
"suite-campaign plot KIND: <file>: <place>: expected ..., found ...", exit status 1 (2 for
a bad command line), and no plot (written whole or not at all). `suite-campaign plot KIND
--help` gives each one's arguments.
"""
import importlib

# kind -> (module, what it draws)
FIGURES = {
    "bsp-profile": ("bsp_profile", "a bsplib profile's bytes per superstep and process (Figure 2), "
                                   "and measured against predicted superstep widths (Figure 8)"),
    "multigrid-cycle": ("multigrid_cycle", "one W-cycle of a multigrid run, measured and replayed on "
                                           "BSP machine files (Figures 8-10)"),
    "multigrid-projection": ("multigrid_projection", "multigrid-model's CSV: the W-cycle against P, "
                                                     "replay and eq. 5, and their share not work"),
    "tycho-projection": ("tycho_projection", "tycho-model's CSV: GM and TM against P, and the PCE "
                                             "(Figure 9)"),
    "sweep3d-model-scaling": ("sweep3d_model_scaling", "sweep3d-model's CSV: predicted time against "
                                                       "processes, with the LogGP breakdown"),
    "kba-replay-scaling": ("kba_replay_scaling", "sweep3d-model --replay's weak and strong scaling "
                                                 "CSVs: replay, LogGP and pipeline models, and their "
                                                 "differences"),
}


def program_name(kind):
    """How the figure's error lines and usage name it."""
    return f"suite-campaign plot {kind}"


def describe():
    """The kinds and what each draws, for `suite-campaign plot --help`."""
    import textwrap
    return "\n".join(textwrap.fill(what, 96, initial_indent=f"  {kind:22s} ", subsequent_indent=" " * 25)
                     for kind, (_, what) in FIGURES.items())


def run(kind, argv):
    """Draws the figure `kind` from argv and exits (suite_inputs.run: 0, or one line and 1/2)."""
    import suite_inputs as si  # tools/, put on sys.path by tools/suite-campaign
    prog = program_name(kind)
    module = importlib.import_module(f".{FIGURES[kind][0]}", __name__)
    si.run(prog, lambda: module.main(argv, prog))
