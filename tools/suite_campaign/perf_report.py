"""perf-report: the side-by-side tables of one or many suite results files, the campaign
error summary, a CSV of every row and PNG plots of measured vs modelled.

  perf-report run_np1.h5 run_np2.h5 run_np4.h5
  perf-report --csv campaign.csv --plot campaign.png runs/*.h5
  perf-report --x message_bytes --plot size.png size_*.h5

Each file's /compare table is printed as written by the run. The campaign summary groups
rows by their `model` column (a row written without one is grouped by the part of its term
before the first '/', else by the whole term) and gives, per model, the number of rows and
the mean and max |relative error| over all files; rows whose relative error is not a finite
number (NaN when the measured time is 0) and rows whose measured or modelled time is not a
finite number >= 0 (each one named under its file's table) are counted apart as "n/a" and
left out of the mean and max.

The plot has one panel per model: for each term, measured (solid, filled markers) and
modelled (dashed, open markers) seconds against the x of each file, which is the root
attribute `nranks` by default or, with --x NAME, the /input attribute NAME (e.g. a message
size) or a root attribute of that name; it must be a finite number.

Outputs (--csv, --plot) are written through symbolic links to their target, never over
anything that is not a regular file (a device, FIFO or directory is refused), as
<target>.tmp.<pid> renamed over the target when complete; a temporary left by a killed
perf-report is removed by the next one.

Uses only h5py, numpy and matplotlib (Debian's python3-h5py, python3-numpy,
python3-matplotlib). Any input that is not a readable suite results file (missing, not a
regular file, not HDF5, truncated, format != "suite-results-1", or an object of another
shape or type than the layout's) ends the program before anything is written, with one
line `perf-report: error: FILE:OBJECT: expected ...` on stderr and exit status 1; a usage
error exits with status 2.
"""
import argparse
import csv
import io
import math
import os
import sys

from . import results  # noqa: F401 (fuzz_perf_report sets results.READ_TIMEOUT_S)
from .output_file import OutputFile, write_output  # noqa: F401 (part of perf-report's API)
# The reader's names stay reachable from perf-report, as before the move (fuzz_perf_report).
from .results import (FORMAT, LibraryCrash, NotOurs, ReaderBug, quote, read_run,  # noqa: F401
                      read_run_here, shown)

PROG = "perf-report"

# The plot: one panel per model, two lines per term; more would be unreadable (and a
# figure of thousands of panels would need gigabytes).
MAX_PLOT_PANELS = 24
MAX_PLOT_TERMS = 30


def check_outputs(args):
    """Refuses unusable outputs before anything is read or printed: a target that is not a
    regular file, one that is an input, or --csv and --plot naming one file."""
    targets = {}
    for option, what, path in (("--csv", "CSV", args.csv), ("--plot", "plot", args.plot)):
        if path is None:
            continue
        target = OutputFile(path, what).target
        for f in args.files:
            try:
                same = os.path.samefile(f, target)
            except OSError:
                same = False
            if same:
                raise NotOurs(f"{shown(path)}: cannot write {what}: it is the input file "
                              f"{shown(f)}; refusing to replace it")
        if os.path.abspath(target) in targets:
            raise NotOurs(f"{shown(path)}: cannot write {what}: the {targets[os.path.abspath(target)]} "
                          "goes to the same file")
        targets[os.path.abspath(target)] = option


def csv_fill(runs, xname):
    def fill(fd):
        with io.open(fd, "w", newline="", encoding="utf-8", closefd=True) as out:
            w = csv.writer(out)
            w.writerow(["file", "app", "nranks", xname if xname != "nranks" else "x", "model", "kind",
                        "term", "measured_s", "modelled_s", "relative_error", "source"])
            for run in runs:
                a = run["attrs"]
                for r in run["rows"]:
                    w.writerow([run["path"], a["app"] or "", "" if a["nranks"] is None else a["nranks"],
                                f"{run['x']:g}", r["model"], r["kind"], r["term"], repr(r["measured"]),
                                repr(r["modelled"]), repr(r["relative_error"]), r["source"]])
    return fill


def plot_series(runs):
    """series[model][term] = [(x, measured, modelled)], non-finite values left out."""
    series = {}
    for run in runs:
        for r in run["rows"]:
            pts = series.setdefault(r["model"], {}).setdefault(r["term"], [])
            pts.append((run["x"], r["measured"], r["modelled"]))
    return series


def plot_fill(runs, xname, path):
    series = plot_series(runs)
    if not series:
        raise NotOurs(f"{shown(path)}: nothing to plot (no /compare rows in the inputs)")
    if len(series) > MAX_PLOT_PANELS:
        raise NotOurs(f"{shown(path)}: cannot plot {len(series)} models, more than the "
                      f"{MAX_PLOT_PANELS} panels of one plot; use --csv")
    for model, terms in series.items():
        if len(terms) > MAX_PLOT_TERMS:
            raise NotOurs(f"{shown(path)}: cannot plot model {quote(model)}: {len(terms)} terms, "
                          f"more than the {MAX_PLOT_TERMS} of one panel; use --csv")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import ScalarFormatter
    except ImportError as e:
        raise NotOurs(f"cannot import matplotlib ({e}): install Debian's python3-matplotlib") from None

    def label(s):
        # Not mathtext ('$' pairs) and not hidden from the legend (a leading '_').
        return shown(s).replace("$", r"\$")

    n = len(series)
    # One panel per row: each legend sits right of its own panel without covering another.
    fig, axes = plt.subplots(n, 1, figsize=(9.0, 4.5 * n), squeeze=False)
    xlabel = "MPI ranks (nranks)" if xname == "nranks" else f"{label(xname)} (/input)"
    for ax, (model, terms) in zip(axes[:, 0], series.items()):
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        xs_all, ys_all = [], []
        for i, (term, pts) in enumerate(terms.items()):
            pts.sort()
            c = colours[i % len(colours)]
            for col, style, face in ((1, "-o", None), (2, "--s", "none")):
                good = [(p[0], p[col]) for p in pts if math.isfinite(p[col])]
                kw = {"markerfacecolor": face} if face else {}
                ax.plot([g[0] for g in good], [g[1] for g in good], style, color=c,
                        label=f"{label(term)} {'measured' if col == 1 else 'modelled'}", **kw)
                ys_all += [g[1] for g in good]
            xs_all += [p[0] for p in pts]
        pos_x = [v for v in xs_all if v > 0]
        if pos_x and max(pos_x) / min(pos_x) >= 8:
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(ScalarFormatter())
        pos_y = [v for v in ys_all if v > 0]
        if pos_y and max(pos_y) / min(pos_y) >= 100:
            ax.set_yscale("log")
        else:
            ax.set_ylim(bottom=min([0.0] + ys_all))
        ax.set_xticks(sorted(set(xs_all)))
        ax.set_title(f"model: {label(model)}")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("time [s]")
        ax.grid(True, alpha=0.3)
        # Outside the axes: a legend inside would hide points.
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    fig.suptitle("Measured (solid) vs modelled (dashed)", y=0.995)
    fig.subplots_adjust(hspace=0.45, top=0.95)

    def fill(fd):
        try:
            with io.open(fd, "wb", closefd=True) as out:
                # bbox "tight" makes room for the legends outside the axes (tight_layout cannot).
                fig.savefig(out, format="png", dpi=110, bbox_inches="tight")
        finally:
            plt.close(fig)
    return fill


# ---------------------------------------------------------------- report

def percent(e, signed=True):
    if e is None or not math.isfinite(e):
        return "n/a"
    return f"{100 * e:+.1f}%" if signed else f"{100 * e:.1f}%"


def print_table(header, rows, right):
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)] if rows else [len(h) for h in header]

    def line(cells):
        out = []
        for j, c in enumerate(cells):
            c = str(c)
            last = j == len(cells) - 1
            out.append(c.rjust(widths[j]) if right[j] else (c if last else c.ljust(widths[j])))
        return "  ".join(out)
    print(line(header))
    print("-" * (sum(widths) + 2 * (len(widths) - 1)))
    for r in rows:
        print(line(r))


def print_run(run, xname):
    a = run["attrs"]
    extra = f", {shown(xname)} = {run['x']:g}" if xname != "nranks" else ""
    ranks = "?" if a["nranks"] is None else a["nranks"]
    print(f"== {shown(run['path'])}: {shown(a['app'] or '?')}, {ranks} ranks{extra}, "
          f"{shown(a['date'] or '?')}")
    if not run["rows"]:
        print("(no compare rows)\n")
        return
    print_table(["model", "kind", "term", "measured [s]", "modelled [s]", "error", "inputs from"],
                [[shown(r["model"]), r["kind"], shown(r["term"]), f"{r['measured']:.6g}",
                  f"{r['modelled']:.6g}", percent(row_error(r)), shown(r["source"])] for r in run["rows"]],
                [False, False, False, True, True, True, False])
    for i, r in enumerate(run["rows"]):
        if r["problem"]:
            print(f"note: /compare row {i} ({shown(r['term'])}): {r['problem']}: not a time >= 0, "
                  "row left out of the error summary")
    print()


def row_error(r):
    """The row's relative error, or None when it is undefined or its times are not times."""
    e = r["relative_error"]
    return None if r["problem"] or not math.isfinite(e) else e


def campaign_summary(runs):
    """Per model and row kind (totals, then a model's breakdown parts), in first-seen order of
    the models: rows, rows without error, mean and max |error|. Totals and parts are scored
    apart: parts that are each off can add up to a good total."""
    summary = {}
    models = []
    for run in runs:
        for r in run["rows"]:
            if r["model"] not in models:
                models.append(r["model"])
    kinds = {(r["model"], r["kind"]) for run in runs for r in run["rows"]}
    for model in models:
        for kind in ("total", "part"):
            if (model, kind) in kinds:
                summary[(model, kind)] = {"errors": [], "undefined": 0, "files": set()}
    for run in runs:
        for r in run["rows"]:
            s = summary[(r["model"], r["kind"])]
            s["files"].add(run["path"])
            e = row_error(r)
            if e is None:
                s["undefined"] += 1
            else:
                s["errors"].append(abs(e))
    return summary


def print_summary(summary, nfiles):
    print(f"Campaign error summary over {nfiles} file(s): |relative error| per model, totals "
          "and breakdown parts apart (model = the /compare row's model column)")
    rows = []
    for (model, kind), s in summary.items():
        e = s["errors"]
        rows.append([shown(model), "totals" if kind == "total" else "parts", len(s["files"]), len(e),
                     s["undefined"], percent(sum(e) / len(e), False) if e else "n/a",
                     percent(max(e), False) if e else "n/a"])
    print_table(["model", "kind", "files", "rows", "rows n/a", "mean |error|", "max |error|"], rows,
                [False, False, True, True, True, True, True])


# ---------------------------------------------------------------- main

class Parser(argparse.ArgumentParser):
    def error(self, message):
        # One line, as every other refusal (argparse's default adds the usage block).
        raise UsageError(f"{shown(message)} (see {PROG} --help)")


class UsageError(Exception):
    pass


def report(args, state):
    check_outputs(args)
    runs = []
    for f in args.files:
        state["doing"] = f"reading {shown(f)}"
        runs.append(read_run(f, args.x))
    state["doing"] = "writing the report"
    if args.plot:  # refused before anything is printed, as any other bad input
        plot = plot_fill(runs, args.x, args.plot)
    if not args.quiet:
        for run in runs:
            print_run(run, args.x)
    print_summary(campaign_summary(runs), len(runs))
    if args.csv:
        write_output(args.csv, "CSV", csv_fill(runs, args.x))
        print(f"wrote {shown(args.csv)}")
    if args.plot:
        write_output(args.plot, "plot", plot)
        print(f"wrote {shown(args.plot)}")
    sys.stdout.flush()


def main(argv):
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")
    p = Parser(prog=PROG, description=__doc__.split("\n\n")[0],
               formatter_class=argparse.RawDescriptionHelpFormatter,
               epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("files", nargs="+", metavar="FILE", help="results files (HDF5) written by a suite app")
    p.add_argument("--csv", metavar="FILE", help="write every compare row of every file as CSV")
    p.add_argument("--plot", metavar="FILE", help="draw measured vs modelled as a PNG")
    p.add_argument("--x", metavar="NAME", default="nranks",
                   help="x of the plot and CSV: nranks (default) or an /input attribute, e.g. message size")
    p.add_argument("--quiet", action="store_true", help="print only the campaign summary")
    state = {"doing": "reading the arguments"}
    try:
        report(p.parse_args(argv), state)
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except NotOurs as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (perf-report ... | head): not an error of ours to report.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as e:
        if e.filename is None:  # a failed write of the report itself (a full disk, /dev/full)
            print(f"{PROG}: error: cannot write the report to standard output: "
                  f"{e.strerror or e}", file=sys.stderr)
            return 1
        print(f"{PROG}: error: internal error {state['doing']}: {shown(repr(e))}", file=sys.stderr)
        return 1
    except ReaderBug as e:
        last = str(e).strip().splitlines()[-1:] or ["?"]
        print(f"{PROG}: error: internal error {state['doing']}: {shown(last[0])[:300]}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug of ours: still one line, naming the inputs
        print(f"{PROG}: error: internal error {state['doing']}: "
              f"{type(e).__name__}: {shown(str(e))[:300]}", file=sys.stderr)
        return 1
    return 0
