"""The campaign report: DIR/report.html (one self-contained file: plots inline as PNG data,
inline CSS, no external link), DIR/errors.csv, DIR/plots/*.png, the exports (exports.py)
and a text summary on stdout.

Scoring. Only predicted runs are scored (a calibration run fits the constants; comparing a
model with the runs it was fitted on says nothing of it). Per (app, group, model, term,
configuration), over the repetitions:
  error of the medians = (median modelled - median measured) / median measured;
  noise floor          = mean |measured - median measured| / median measured, the spread of
                         the repeated runs: an error below it cannot be told from the noise
                         of this machine ("within noise"); with one repetition there is none;
  busy                 = the run's machine was loaded (load.busy_others > 0.25 or
                         load.steal > 0.05, campaign-design.md): its comparison is unreliable;
  placement            = whether the run's CPUs were where its probe's were (bspprobe's,
                         or loggps-probe's for a 2-rank run; run_placement.py): the ratio of
                         the run's cache-line round trips to the probe's
                         (instrument::placement_ratio); "other" beyond 1.5: its comparison is
                         unreliable as a busy run's; "unknown" where either measured none
                         (p = 1, a probe file without the key, a loggps-probe against
                         another rank count).
  marked               = the kinds of line the run put under its own table when it marked
                         its comparison unreliable (machine, placement, cpus: a rank 1.25x
                         slower than another; speed: a CPU whose fixed check moved 1.15x
                         during the run or from its calibration's; calibration: a
                         calibration file whose own run was marked); such a run is
                         unreliable too;
  reliable error       = the error of the medians over the reliable runs alone (none busy,
                         at another placement or marked), beside the error over all: where the
                         two differ, the machine's disturbances moved the score; none when no
                         run of the configuration is reliable.
A run whose results file cannot be read is listed with its one-line reason; the report goes on.

Layout of report.html, read top-down at a glance: the contents; a summary (per app, model
and total term: the median error of the medians, the median noise floor, the configurations
within noise, the runs on a busy machine, the runs at another placement, the runs marked
unreliable by the run itself; linked to the sections); the failed runs; per app a section,
per model its terms (totals first, then parts, then one table per configuration with
bsplib's supersteps as rows) and its plot below them, then the app's heat-map (columns in
the same order) and per-phase stack; provenance
(with each predicted run's placement); projections; exports. Times in a table
are in one unit chosen for it (s, ms or us, named in the header), 4 significant digits.
"""
import base64
import csv
import html
import io
import math
import os
import re
import sys

from . import exports, plots, run_placement
from .output_file import write_output
from .results import NotOurs, ReaderBug, read_results
from .store import Store

BUSY_OTHERS = 0.25
BUSY_STEAL = 0.05
MAX_PROJECTION_ROWS = 500
MAX_PROJECTION_BYTES = 4 << 20

CSV_COLUMNS = ["app", "group", "model", "term", "kind", "configuration", "rep", "run_id", "ranks",
               "measured_s", "modelled_s", "error", "noise_floor", "below_floor", "busy",
               "placement", "placement_ratio", "marked"]


# ---------------------------------------------------------------- scoring

def median(values):
    return plots.median(values)


def noise_floor(measured):
    """mean |m - median| / median over the repetitions; None with fewer than two or a
    median that is not > 0."""
    good = [m for m in measured if m is not None and math.isfinite(m)]
    if len(good) < 2:
        return None
    med = median(good)
    if not med > 0:
        return None
    return sum(abs(m - med) for m in good) / len(good) / med


def relative_error(modelled, measured):
    if modelled is None or measured is None or not measured > 0:
        return None
    return (modelled - measured) / measured


def below_floor(error, floor):
    """Whether an error (of the medians) cannot be told from the noise: |error| <= floor."""
    return error is not None and floor is not None and abs(error) <= floor


def is_busy(step):
    load = step.get("load") or {}
    try:
        return float(load.get("busy_others") or 0) > BUSY_OTHERS or \
            float(load.get("steal") or 0) > BUSY_STEAL
    except (TypeError, ValueError):
        return False


def unreliable(row):
    """A scored row whose run was on a busy machine, at another placement of its CPUs, or
    marked unreliable by the run itself (a CPU slower than the others, a load the runner's
    samples missed)."""
    return row["busy"] or row["placement"] == run_placement.OTHER or bool(row.get("marked"))


def marked_kinds(text):
    """"cpus, machine" of a run's unreliable_because lines (each "kind: ...")."""
    return ", ".join(ln.split(":", 1)[0] for ln in (text or "").splitlines() if ln.strip())


def configuration_key(config):
    """"k=v;k=v", keys sorted."""
    return ";".join(f"{k}={config[k]}" for k in sorted(config or {}))


def without_ranks(config):
    return configuration_key({k: v for k, v in (config or {}).items() if k != "ranks"})


# ---------------------------------------------------------------- terms and their order

SUPERSTEP = re.compile(r"superstep (\d+) (.*)")


def superstep_of(term):
    """(index, label) of a per-superstep term ("superstep 9 1 cyclic shift (exchange)", as
    bsp_predict writes them), None for any other term."""
    m = SUPERSTEP.fullmatch(term)
    return (int(m.group(1)), m.group(2)) if m else None


def ordered_terms(cells, app):
    """[(model, [headline terms], [superstep terms])] of one app: models in the order they
    first appear, within a model the total terms first, then the parts (each in /compare
    order), the per-superstep terms apart, by superstep. The tables and the heat-map follow it."""
    models = {}
    for key, cell in cells.items():
        if key[0] != app:
            continue
        terms = models.setdefault(key[2], {})
        terms.setdefault(key[3], cell["rows"][0]["kind"])
    out = []
    for model, terms in models.items():
        steps = sorted((t for t in terms if superstep_of(t)), key=lambda t: superstep_of(t)[0])
        head = [t for t in terms if not superstep_of(t)]
        head = [t for t in head if terms[t] == "total"] + [t for t in head if terms[t] != "total"]
        out.append((model, head, steps))
    return out


def apps_of(cells):
    apps = []
    for key in cells:
        if key[0] not in apps:
            apps.append(key[0])
    return apps


# ---------------------------------------------------------------- phases

# Phases that re-split time another phase already holds: instrument::Comm::publish_split
# (instrument/src/comm.cpp) sets the LogGPS split of the send and recv calls' time into
# synchronisation wait and transfer as phases of their own, outside the nesting. Stacked
# beside send and recv they would count that time twice.
SPLIT_PHASES = ("send_sync_wait", "send_transfer", "recv_sync_wait", "recv_transfer")


def phase_stack(phases):
    """{phase: exclusive seconds, mean over ranks} of the phases that do not overlap: every
    timed phase's exclusive time (its own, less the phases nested in it) is disjoint from
    every other's, so they add up to the run's instrumented time; the derived split phases
    (SPLIT_PHASES) are left out."""
    return {name: sum(ph["exclusive"]) / len(ph["exclusive"])
            for name, ph in phases.items() if ph["exclusive"] and name not in SPLIT_PHASES}


# ---------------------------------------------------------------- reading

def read_all(store):
    """{run id: read_results dict} of the done calibrate/predict runs, {run id: reason} of
    those whose results file cannot be read."""
    results, unreadable = {}, {}
    for s in store.steps:
        if s.get("kind") != "run" or s.get("role") not in ("calibrate", "predict") \
                or s.get("status") != "done":
            continue
        if not s.get("results"):
            unreadable[s["id"]] = "no results file in the manifest"
            continue
        try:
            results[s["id"]] = read_results(store.path(s["results"]))
        except NotOurs as e:
            unreadable[s["id"]] = str(e)
        except ReaderBug as e:
            last = (str(e).strip().splitlines() or ["?"])[-1]
            unreadable[s["id"]] = f"internal error reading it: {last[:300]}"
    return results, unreadable


def score(steps, results, placements=None):
    """(rows of errors.csv as dicts, cells): cells[(app, group, model, term, config)] =
    {"rows": [...], "measured_median", "modelled_median", "error", "floor", "below"};
    placements: {run id: run_placement.run_placement} (a run not in it: "unknown")."""
    rows = []
    for s in steps:
        if s.get("role") != "predict" or s["id"] not in results:
            continue
        placed = (placements or {}).get(s["id"]) or {}
        for r in results[s["id"]]["rows"]:
            ok = not r["problem"]
            rows.append({"app": s.get("app") or results[s["id"]]["attrs"]["app"] or "?",
                         "group": s.get("group"), "model": r["model"], "term": r["term"],
                         "kind": r["kind"], "configuration": configuration_key(s.get("config")),
                         "config": s.get("config") or {}, "rep": s.get("rep"), "run_id": s["id"],
                         "ranks": s.get("ranks"),
                         "measured_s": r["measured"] if ok else None,
                         "modelled_s": r["modelled"] if ok else None,
                         "error": relative_error(r["modelled"], r["measured"]) if ok else None,
                         "source": r["source"], "busy": is_busy(s),
                         "placement": placed.get("placement", run_placement.UNKNOWN),
                         "placement_ratio": placed.get("ratio"),
                         "probe_moved": placed.get("probe_moved"),
                         "marked": results[s["id"]].get("marked") or ""})
    cells = {}
    for r in rows:
        key = (r["app"], r["group"], r["model"], r["term"], r["configuration"])
        cells.setdefault(key, {"rows": []})["rows"].append(r)
    for cell in cells.values():
        meas = [r["measured_s"] for r in cell["rows"] if r["measured_s"] is not None]
        mod = [r["modelled_s"] for r in cell["rows"] if r["modelled_s"] is not None]
        cell["measured_median"] = median(meas)
        cell["modelled_median"] = median(mod)
        cell["error"] = relative_error(cell["modelled_median"], cell["measured_median"])
        cell["floor"] = noise_floor(meas)
        cell["below"] = below_floor(cell["error"], cell["floor"])
        calm = [r for r in cell["rows"] if not unreliable(r)]
        cell["reliable_error"] = relative_error(
            median([r["modelled_s"] for r in calm if r["modelled_s"] is not None]),
            median([r["measured_s"] for r in calm if r["measured_s"] is not None]))
        for r in cell["rows"]:
            r["noise_floor"] = cell["floor"]
            r["below_floor"] = cell["below"]
    return rows, cells


def csv_number(v):
    return "" if v is None else repr(float(v))


def write_errors_csv(path, rows):
    def fill(fd):
        with io.open(fd, "w", newline="", encoding="utf-8", closefd=True) as out:
            w = csv.writer(out)
            w.writerow(CSV_COLUMNS)
            for r in rows:
                w.writerow([r["app"], r["group"], r["model"], r["term"], r["kind"],
                            r["configuration"], r["rep"], r["run_id"], r["ranks"],
                            csv_number(r["measured_s"]), csv_number(r["modelled_s"]),
                            csv_number(r["error"]), csv_number(r["noise_floor"]),
                            int(r["below_floor"]), int(r["busy"]), r["placement"],
                            csv_number(r["placement_ratio"]), marked_kinds(r["marked"])])
    write_output(path, "CSV", fill)


# ---------------------------------------------------------------- plots

def heatmap_columns(order):
    """(columns, breaks) of an app's heat-map from ordered_terms: "model/term" model by model
    as the tables are (totals, parts), then the model's supersteps, one column per superstep
    index (its label is the same in every configuration, its pattern suffix is not); breaks:
    the indices where a model's supersteps start."""
    columns, breaks = [], []
    for model, head, steps in order:
        columns += [f"{model}/{t}" for t in head]
        if steps and head:
            breaks.append(len(columns))
        columns += list(dict.fromkeys(f"{model}/superstep {superstep_of(t)[0]}" for t in steps))
    return columns, breaks


def draw_plots(campaign_dir, steps, results, cells):
    """[(app, model or None, title, path)] of the PNGs drawn; plots/ holds nothing else of
    ours."""
    plot_dir = os.path.join(campaign_dir, "plots")
    os.makedirs(plot_dir, exist_ok=True)
    for name in os.listdir(plot_dir):
        if name.endswith(".png"):
            os.remove(os.path.join(plot_dir, name))
    out = []
    by_id = {s["id"]: s for s in steps}
    for app in apps_of(cells):
        order = ordered_terms(cells, app)
        for model, head, _steps in order:
            terms = {t: {} for t in head}  # per-superstep terms: in the table and heat-map only
            for key, cell in cells.items():
                if key[0] != app or key[2] != model or key[3] not in terms:
                    continue
                config = cell["rows"][0]["config"]
                series = terms[key[3]].setdefault(f"{key[1]} {without_ranks(config)}".strip(), {})
                ranks = cell["rows"][0]["ranks"] or 0
                point = series.setdefault(ranks, ([], []))
                point[0].extend(r["measured_s"] for r in cell["rows"] if r["measured_s"] is not None)
                point[1].extend(r["modelled_s"] for r in cell["rows"] if r["modelled_s"] is not None)
            flat = {t: {n: [(p, v[0], v[1]) for p, v in pts.items()] for n, pts in ser.items()}
                    for t, ser in terms.items() if ser}
            if not flat:
                continue
            path = os.path.join(plot_dir, f"{exports.safe_name(app)}-{exports.safe_name(model)}-scaling.png")
            out.append((app, model, f"{app}, model {model}: measured and modelled against P",
                        plots.measured_vs_modelled(path, f"{app}: model {model}", flat)))
        configs = sorted({key[1] + " " + key[4] for key in cells if key[0] == app})
        columns, breaks = heatmap_columns(order)
        errors = [[None] * len(columns) for _ in configs]
        for key, cell in cells.items():
            if key[0] == app:
                step = superstep_of(key[3])
                column = f"{key[2]}/superstep {step[0]}" if step else f"{key[2]}/{key[3]}"
                errors[configs.index(key[1] + " " + key[4])][columns.index(column)] = cell["error"]
        path = os.path.join(plot_dir, f"{exports.safe_name(app)}-errors.png")
        out.append((app, None, f"{app}: error of the medians per configuration and model/term",
                    plots.error_heatmap(path, f"{app}: error of the medians", configs, columns, errors,
                                        breaks)))
    # Per-phase stacks of every calibrate and predict configuration, median over repetitions.
    stacks = {}
    split_apps = set()  # apps whose runs hold the send/recv split (left out of the stack)
    for run_id, data in results.items():
        s = by_id[run_id]
        app = s.get("app") or "?"
        label = f"{s.get('group')} {configuration_key(s.get('config'))}"
        per = stacks.setdefault(app, {}).setdefault(label, {})
        if any(name in data["phases"] for name in SPLIT_PHASES):
            split_apps.add(app)
        for name, seconds in phase_stack(data["phases"]).items():
            per.setdefault(name, []).append(seconds)
    for app, configs in stacks.items():
        phases = {c: {n: median(v) for n, v in ph.items()} for c, ph in configs.items()}
        if not any(phases.values()):
            continue
        path = os.path.join(plot_dir, f"{exports.safe_name(app)}-phases.png")
        labels = sorted(phases)
        out.append((app, None, f"{app}: time per phase per configuration (exclusive times, "
                               "stacked to the instrumented run time)",
                    plots.phase_stacks(path, f"{app}: exclusive time per phase, stacked to the "
                                             "instrumented run time", labels, phases,
                                       "each phase's own time (less the phases nested in it), "
                                       "mean over ranks,\nmedian over repetitions"
                                       + ("; the send/recv wait + transfer split is in send "
                                          "and recv" if app in split_apps else ""))))
    return out


def read_projection(path):
    """(header, rows, note) of a project step's CSV, at most MAX_PROJECTION_ROWS rows."""
    try:
        if os.path.getsize(path) > MAX_PROJECTION_BYTES:
            return None, None, f"{path}: larger than {MAX_PROJECTION_BYTES >> 20} MiB; not shown"
        with open(path, newline="", encoding="utf-8", errors="replace") as f:
            table = list(csv.reader(f))
    except (OSError, csv.Error) as e:
        return None, None, f"{path}: cannot read: {e}"
    if not table:
        return None, None, f"{path}: empty"
    rows = table[1:]
    note = f"first {MAX_PROJECTION_ROWS} of {len(rows)} rows" if len(rows) > MAX_PROJECTION_ROWS else ""
    return table[0], rows[:MAX_PROJECTION_ROWS], note


# ---------------------------------------------------------------- HTML

CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1600px; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #888; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #e8e8f0; } td.n { text-align: right; font-family: monospace; }
.noise { background: #dff0d8; } .busy { background: #fbe3c0; } .fail { background: #f6d0d0; }
img { max-width: 100%; border: 1px solid #ccc; margin: 0.5em 0; display: block; }
.small { font-size: 0.85em; color: #555; } .caption { font-weight: bold; margin-top: 1em; }
.scroll { overflow-x: auto; max-width: 100%; } ul.toc { columns: 2; }
h3 { margin-top: 1.4em; } h4 { margin: 0.9em 0 0.2em 0; }
"""


def esc(text):
    return html.escape("" if text is None else str(text))


def pct(e):
    return "n/a" if e is None or not math.isfinite(e) else f"{100 * e:+.1f}%"


def time_unit(values):
    return plots.time_unit(values)


def in_unit(v, scale):
    """v seconds in the unit of `scale` with 4 significant digits (all the integer digits of
    values of 10000 and above), in fixed point: an exponent only for a value a million
    times below the table's unit."""
    if v is None or not math.isfinite(v):
        return "n/a"
    x = v / scale
    if x == 0:
        return "0"
    decimals = 3 - math.floor(math.log10(abs(x)))
    if decimals > 9:
        return f"{x:.3e}"
    return f"{x:.{max(0, decimals)}f}"


def anchor(*parts):
    """An id for an HTML anchor: the parts' letters and digits, '-' between."""
    return "-".join(re.sub(r"[^A-Za-z0-9]+", "-", str(p)).strip("-") or "x" for p in parts)


def table(header, rows, classes=None, numeric=()):
    out = ["<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>"]
    for i, r in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes and classes[i] else ""
        out.append(f"<tr{cls}>" + "".join(
            f'<td class="n">{c}</td>' if j in numeric else f"<td>{c}</td>"
            for j, c in enumerate(r)) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def image(path, alt):
    with open(path, "rb") as f:
        data = base64.b64encode(f.read()).decode("ascii")
    return f'<img alt="{esc(alt)}" src="data:image/png;base64,{data}">'


def floor_text(floor):
    return "n/a (one repetition)" if floor is None else f"{100 * floor:.1f}%"


def ratio_text(ratio):
    """"1.09x", "3.67x"; "7118x" (a round trip of a process the host descheduled)."""
    return f"{ratio:.2f}x" if ratio < 100 else f"{ratio:.0f}x"


def round_trip_text(seconds):
    return f"{1e9 * seconds:.0f} ns" if seconds < 1e-5 else f"{1e6 * seconds:.0f} us"


def placement_text(r):
    """" (placement 1.09x)" or " <b>other placement 4.41x</b>" of a row; "" when unknown."""
    if r["placement"] == run_placement.OTHER:
        return f" <b>other placement {ratio_text(r['placement_ratio'])}</b>"
    if r["placement"] == run_placement.SAME:
        return f" (placement {ratio_text(r['placement_ratio'])})"
    return ""


def per_run_text(cell):
    return ", ".join(f"{esc(r['run_id'])} (rep {esc(r['rep'])}): {pct(r['error'])}"
                     + (" <b>busy</b>" if r["busy"] else "") + placement_text(r)
                     + (f' <b title="{esc(r["marked"])}">marked by the run ({esc(marked_kinds(r["marked"]))})</b>'
                        if r.get("marked") else "") for r in cell["rows"])


def cell_class(cell):
    return "busy" if any(unreliable(r) for r in cell["rows"]) else "noise" if cell["below"] else ""


def cells_table(first_header, entries):
    """One table of scored cells: entries are (first cells (escaped HTML), cell); the times in
    one unit chosen for the table, named in the headers."""
    unit, scale = time_unit([v for _, c in entries for v in (c["measured_median"], c["modelled_median"])])
    rows, classes = [], []
    for first, c in entries:
        rows.append(first + [in_unit(c["measured_median"], scale), in_unit(c["modelled_median"], scale),
                             pct(c["error"]), floor_text(c["floor"]),
                             "within noise" if c["below"] else "", per_run_text(c)])
        classes.append(cell_class(c))
    n = len(first_header)
    return table(first_header + [f"measured median [{unit}]", f"modelled median [{unit}]",
                                 "error of the medians", "noise floor", "mark", "per-run errors"],
                 rows, classes, numeric=(n, n + 1, n + 2, n + 3))


def app_section(app, cells, figures):
    """An app's section: per model its headline terms (totals first) one table each, its
    per-superstep terms one table per configuration with the supersteps as rows, and the
    model's plot right below; then the app's error heat-map and phase stacks."""
    parts = [f'<h2 id="{anchor("app", app)}">{esc(app)}: models against runs</h2>',
             '<p class="small">Error = (modelled - measured) / measured. Noise floor = '
             "mean |measured - median| / median over the repetitions. Green: the error of "
             "the medians is within the noise floor. Orange: a run on a busy machine, or at "
             "another placement of its CPUs than its probe's (its cache-line round trip more "
             "than 1.5x from the probe's, shown as placement Nx: on a virtual machine the "
             "host's choice of cores sets a small superstep's cost): unreliable.</p>"]
    keys = [k for k in cells if k[0] == app]
    for model, head, steps in ordered_terms(cells, app):
        parts.append(f'<h3 id="{anchor("app", app, "model", model)}">{esc(app)} &middot; '
                     f"model {esc(model)}</h3>")
        for term in head:
            entries = [([esc(k[1]), esc(k[4])], cells[k]) for k in keys if (k[2], k[3]) == (model, term)]
            kind = entries[0][1]["rows"][0]["kind"] if entries else ""
            parts.append(f"<h4>{esc(term)} <span class=\"small\">({esc(kind)})</span></h4>")
            parts.append(cells_table(["group", "configuration"], entries))
        if steps:
            runs = {}
            for k in keys:
                if k[2] == model and superstep_of(k[3]):
                    runs.setdefault((k[1], k[4]), []).append(k)
            for (group, config), ks in runs.items():
                ks.sort(key=lambda k: superstep_of(k[3])[0])
                parts.append(f"<h4>per superstep: {esc(group)} {esc(config)}</h4>")
                parts.append(cells_table(["superstep", "what"], [
                    ([str(superstep_of(k[3])[0]), esc(superstep_of(k[3])[1])], cells[k]) for k in ks]))
        for _app, fig_model, title, path in figures:
            if fig_model == model:
                parts.append(f'<p class="caption">{esc(title)}</p>' + image(path, title))
    for _app, fig_model, title, path in figures:
        if fig_model is None:
            parts.append(f"<h3>{esc(title)}</h3>" + image(path, title))
    return "\n".join(parts)


def summary_rows(cells):
    """Per (app, model, headline total term): [app, model, term, configurations, median error
    of the medians, median noise floor, within noise "n/N", busy runs "n/N", runs at another
    placement "n/K" of the K whose placement is known ("n/a" when none is, "n/K (U unknown)"
    when some are not), runs marked unreliable by the run itself "n/N" (any line under its own
    table: a rank's CPU slower than another's, a load or a placement the run saw itself, a
    marked calibration; such a run may be counted in the busy or placement column too), the
    median over the configurations of the error of the reliable runs' medians (None when no
    configuration has a reliable run)]. An app's parts are left out unless it has no total
    term; per-superstep terms always are."""
    out = []
    for app in apps_of(cells):
        order = ordered_terms(cells, app)
        totals = [(m, t) for m, head, _ in order for t in head
                  if any(c["rows"][0]["kind"] == "total" for k, c in cells.items()
                         if k[0] == app and (k[2], k[3]) == (m, t))]
        chosen = totals or [(m, t) for m, head, _ in order for t in head]
        for model, term in chosen:
            cs = [c for k, c in cells.items() if k[0] == app and (k[2], k[3]) == (model, term)]
            errors = [c["error"] for c in cs if c["error"] is not None]
            floors = [c["floor"] for c in cs if c["floor"] is not None]
            runs = [r for c in cs for r in c["rows"]]
            out.append([app, model, term, len(cs), median(errors), median(floors),
                        f"{sum(1 for c in cs if c['below'])}/{len(cs)}",
                        f"{sum(1 for r in runs if r['busy'])}/{len(runs)}", other_placement_count(runs),
                        f"{sum(1 for r in runs if r.get('marked'))}/{len(runs)}",
                        median([c["reliable_error"] for c in cs if c.get("reliable_error") is not None])])
    return out


def other_placement_count(runs):
    known = [r for r in runs if r["placement"] != run_placement.UNKNOWN]
    if not known:
        # Say why where a probe's CPUs moved while it ran: its file names no placement at all.
        return "n/a (probe's CPUs moved)" if any(r.get("probe_moved") for r in runs) else "n/a"
    other = sum(1 for r in known if r["placement"] == run_placement.OTHER)
    unknown = len(runs) - len(known)
    return f"{other}/{len(known)}" + (f" ({unknown} unknown)" if unknown else "")


def summary_table(cells):
    rows = summary_rows(cells)
    head = ('<h2 id="summary">Summary</h2><p class="small">Per app, model and total term, over '
            "its configurations: the median of the errors of the medians, the median noise "
            "floor, how many configurations are within noise, how many runs ran on a busy "
            "machine, how many at another placement of their CPUs than their probe's "
            "(of the runs where both measured it; n/a: none did) and how many the run itself "
            "marked unreliable under its own table (one rank's CPU slower than another's, "
            "a load or placement the run saw itself, or a calibration whose own run was "
            "marked); last, the median error of the medians over the reliable runs alone "
            "(n/a: no configuration has one). Parts and supersteps are in each app's "
            "section.</p>")
    if not rows:
        return head + "<p>No predicted run with /compare rows to score.</p>"
    body = [[f'<a href="#{anchor("app", r[0])}">{esc(r[0])}</a>',
             f'<a href="#{anchor("app", r[0], "model", r[1])}">{esc(r[1])}</a>', esc(r[2]), r[3],
             pct(r[4]), "n/a" if r[5] is None else f"{100 * r[5]:.1f}%", r[6], r[7], r[8], r[9], pct(r[10])]
            for r in rows]
    classes = ["busy" if not r[7].startswith("0/") or not r[8].startswith(("0/", "n/a")) or
               not r[9].startswith("0/") else
               "noise" if r[4] is not None and r[5] is not None and abs(r[4]) <= r[5] else ""
               for r in rows]
    return head + table(["app", "model", "term", "configurations", "median error of the medians",
                         "median noise floor", "within noise", "busy runs", "other placement",
                         "marked by the run", "median error, reliable runs"],
                        body, classes, numeric=(3, 4, 5, 6, 7, 8, 9, 10))


def contents(cells, figures, projections):
    items = ['<li><a href="#summary">Summary</a></li>', '<li><a href="#failed">Failed runs</a></li>']
    apps = apps_of(cells)
    for app in apps:
        models = "".join(f'<li><a href="#{anchor("app", app, "model", m)}">model {esc(m)}</a></li>'
                         for m, _, _ in ordered_terms(cells, app))
        items.append(f'<li><a href="#{anchor("app", app)}">{esc(app)}</a><ul>{models}</ul></li>')
    for app in dict.fromkeys(f[0] for f in figures if f[0] not in apps):
        items.append(f'<li><a href="#{anchor("app", app)}">{esc(app)}: plots</a></li>')
    items.append('<li><a href="#provenance">Provenance</a></li>')
    if projections:
        items.append('<li><a href="#projections">Projections</a></li>')
    items.append('<li><a href="#exports">Exports</a></li>')
    return '<h2 id="contents">Contents</h2><ul class="toc">' + "".join(items) + "</ul>"


def placement_detail(placed):
    """The provenance table's placement cell: the run's and the probe's round trips, the
    ratio and the verdict."""
    if not placed or placed["placement"] == run_placement.UNKNOWN:
        if placed and placed.get("probe_moved"):
            return (f"unknown (the probe's CPUs moved while it ran: {esc(placed['probe_moved'])}; its "
                    "figures are of no one placement)")
        if placed and placed.get("probe_s"):
            return f"unknown (probe {round_trip_text(placed['probe_s'])}; the run measured none)"
        return "unknown (no probe round trip for this run)"
    run = ", ".join(round_trip_text(v) for v in placed["run_s"])
    verdict = "<b>other</b>" if placed["placement"] == run_placement.OTHER else "same"
    return (f"{verdict}: run {run}, probe {round_trip_text(placed['probe_s'])} "
            f"({ratio_text(placed['ratio'])})")


def html_report(store, results, unreadable, cells, figures, projections, extrap, traces, placed=None):
    m = store.manifest
    steps = [s for s in store.steps]
    runs = [s for s in steps if s.get("kind") == "run"]
    counts = {}
    for s in steps:
        counts[s.get("status")] = counts.get(s.get("status"), 0) + 1
    by_id = {s["id"]: s for s in steps}
    parts = [f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Campaign {esc(m.get('name'))}"
             f"</title><style>{CSS}</style></head><body>",
             f"<h1>Campaign {esc(m.get('name'))}</h1>",
             table(["", ""], [[esc(k), esc(v)] for k, v in (
                 ("host", m.get("host")), ("CPU", m.get("cpu")), ("build", m.get("build")),
                 ("backend", m.get("backend")), ("created", m.get("created")),
                 ("steps", ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))),
                 ("runs", f"{sum(1 for s in runs if s.get('status') == 'done')} done, "
                          f"{sum(1 for s in runs if s.get('status') == 'failed')} failed of {len(runs)}"))])]
    failed = [s for s in steps if s.get("status") == "failed"]
    bad = [[esc(s["id"]), esc(s.get("group") or s.get("name")), esc(s.get("error"))] for s in failed] + \
        [[esc(i), esc(by_id[i].get("group")), esc("results unreadable: " + why)]
         for i, why in unreadable.items()]
    parts.append(contents(cells, figures, projections))
    parts.append(summary_table(cells))
    parts.append('<h2 id="failed">Failed runs</h2>')
    parts.append(table(["run", "group", "error"], bad, ["fail"] * len(bad)) if bad else
                 "<p>None: every step that ran succeeded.</p>")

    apps = apps_of(cells)
    for app in apps:
        parts.append(app_section(app, cells, [f for f in figures if f[0] == app]))
    for app in dict.fromkeys(f[0] for f in figures if f[0] not in apps):  # phases, no scores
        parts.append(f'<h2 id="{anchor("app", app)}">{esc(app)}: plots</h2>')
        parts += [f"<h3>{esc(title)}</h3>" + image(path, title)
                  for fig_app, _model, title, path in figures if fig_app == app]

    parts.append('<h2 id="provenance">Provenance: which run fed which constant</h2>')
    prov = []
    for s in runs:
        if s.get("role") != "predict":
            continue
        cals = ", ".join(f"{esc(c)} ({esc(by_id[c].get('group'))} "
                         f"{esc(configuration_key(by_id[c].get('config')))}, rep {esc(by_id[c].get('rep'))})"
                         if c in by_id else esc(c) for c in s.get("calibrations") or [])
        sources = sorted({r["source"] for r in results[s["id"]]["rows"]}) if s["id"] in results else []
        prov.append([esc(s["id"]), esc(s.get("group")), esc(configuration_key(s.get("config"))),
                     esc(s.get("rep")), cals or "(none)",
                     "<br>".join(esc(x) for x in sources) or esc(s.get("status")),
                     placement_detail((placed or {}).get(s["id"]))])
    parts.append(table(["predicted run", "group", "configuration", "rep", "calibration runs",
                        "inputs from (/compare source)",
                        "placement (cache-line round trips: run at bsp_begin, bsp_end; probe)"], prov))
    cal = [[esc(s["id"]), esc(s.get("group")), esc(configuration_key(s.get("config"))),
            esc(s.get("rep")), esc(s.get("status"))] for s in runs if s.get("role") == "calibrate"]
    parts.append("<h3>Calibration runs</h3>" + table(["run", "group", "configuration", "rep",
                                                      "status"], cal))

    if projections:
        parts.append('<h2 id="projections">Projections</h2>')
        for s, header, rows, note, plot in projections:
            parts.append(f"<h3>{esc(s.get('group'))} {esc(configuration_key(s.get('config')))} "
                         f"(run {esc(s['id'])})</h3>")
            if note:
                parts.append(f"<p class=\"small\">{esc(note)}</p>")
            if header:
                # As written by the program (its columns, its numbers); scrolls on its own.
                parts.append('<div class="scroll">' + table(list(header),
                                                            [[esc(c) for c in r] for r in rows]) + "</div>")
            if plot:
                parts.append(image(plot, f"projection {s['id']}"))

    parts.append('<h2 id="exports">Exports</h2><ul>')
    parts.append(f"<li>Extra-P: {', '.join(esc(f) for f in extrap['files'])} ({extrap['lines']} "
                 "measurements: phase inclusive seconds, max over ranks; open extrap/&lt;app&gt;.jsonl, "
                 "one parameter set per experiment)</li>")
    for note in extrap["notes"]:
        parts.append(f"<li>{esc(note)}</li>")
    for run_id, status, text in traces:
        parts.append(f"<li>OTF2 trace of run {esc(run_id)}: {esc(status)}: {esc(text)}</li>")
    if not traces:
        parts.append("<li>OTF2: no run of a group with trace = true</li>")
    parts.append("</ul></body></html>\n")
    return "\n".join(parts)


# ---------------------------------------------------------------- text summary

def print_summary(cells, unreadable, report_path):
    """The report's summary table on stdout, and how many runs' results could not be read."""
    lines = [[r[0], r[1], r[2], pct(r[4]), "n/a" if r[5] is None else f"{100 * r[5]:.1f}%",
              r[6], r[7], r[8], r[9], pct(r[10])] for r in summary_rows(cells)]
    header = ["app", "model", "term", "median error", "median floor", "within noise", "busy runs",
              "other placement", "marked by the run", "reliable runs' error"]
    if lines:
        widths = [max(len(str(x)) for x in col) for col in zip(header, *lines)]
        for row in [header] + lines:
            print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    else:
        print("no predicted run with /compare rows to score")
    if unreadable:
        first = min(unreadable)
        print(f"{len(unreadable)} run(s) with results not read (the report lists them), e.g. run "
              f"{first}: {unreadable[first]}")
    print(f"report: {report_path}")


# ---------------------------------------------------------------- entry

def write_report(campaign_dir):
    """Everything above for the campaign in campaign_dir; returns the path of report.html.
    Raises StoreError/NotOurs (one line) when the campaign or an output cannot be used."""
    store = Store.open(campaign_dir)
    steps = store.steps
    results, unreadable = read_all(store)
    placed = run_placement.placements(store, [s["id"] for s in steps if s.get("role") == "predict"
                                              and s["id"] in results])
    rows, cells = score(steps, results, placed)
    write_errors_csv(store.path("errors.csv"), rows)
    figures = draw_plots(store.dir, steps, results, cells)
    projections = []
    for s in steps:
        if s.get("kind") == "run" and s.get("role") == "project" and s.get("status") == "done" \
                and s.get("csv"):
            header, table_rows, note = read_projection(store.path(s["csv"]))
            plot = None
            if header:
                plot = plots.projection(os.path.join(store.dir, "plots", f"projection-{s['id']}.png"),
                                        f"{s.get('group')} {configuration_key(s.get('config'))}",
                                        header, table_rows)
            projections.append((s, header, table_rows, note, plot))
    run_steps = [s for s in steps if s.get("kind") == "run"]
    extrap = exports.write_extrap(store.dir, run_steps, results)
    traces = exports.export_traces(store.dir, store.manifest.get("build"), run_steps, results)
    page = html_report(store, results, unreadable, cells, figures, projections, extrap, traces, placed)
    report_path = store.path("report.html")

    def fill(fd):
        with io.open(fd, "w", encoding="utf-8", closefd=True) as out:
            out.write(page)
    write_output(report_path, "report", fill)
    print_summary(cells, unreadable, report_path)
    sys.stdout.flush()
    return report_path
