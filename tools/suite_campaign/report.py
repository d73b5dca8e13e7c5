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
                         load.steal > 0.05, campaign-design.md): its comparison is unreliable.
A run whose results file cannot be read is listed with its one-line reason; the report goes on.
"""
import base64
import csv
import html
import io
import math
import os
import sys

from . import exports, plots
from .output_file import write_output
from .results import NotOurs, ReaderBug, read_results
from .store import Store

BUSY_OTHERS = 0.25
BUSY_STEAL = 0.05
MAX_PROJECTION_ROWS = 500
MAX_PROJECTION_BYTES = 4 << 20

CSV_COLUMNS = ["app", "group", "model", "term", "kind", "configuration", "rep", "run_id", "ranks",
               "measured_s", "modelled_s", "error", "noise_floor", "below_floor", "busy"]


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


def configuration_key(config):
    """"k=v;k=v", keys sorted."""
    return ";".join(f"{k}={config[k]}" for k in sorted(config or {}))


def without_ranks(config):
    return configuration_key({k: v for k, v in (config or {}).items() if k != "ranks"})


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


def score(steps, results):
    """(rows of errors.csv as dicts, cells): cells[(app, group, model, term, config)] =
    {"rows": [...], "measured_median", "modelled_median", "error", "floor", "below"}."""
    rows = []
    for s in steps:
        if s.get("role") != "predict" or s["id"] not in results:
            continue
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
                         "source": r["source"], "busy": is_busy(s)})
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
                            int(r["below_floor"]), int(r["busy"])])
    write_output(path, "CSV", fill)


# ---------------------------------------------------------------- plots

def draw_plots(campaign_dir, steps, results, cells):
    """[(app, title, path)] of the PNGs drawn; plots/ holds nothing else of ours."""
    plot_dir = os.path.join(campaign_dir, "plots")
    os.makedirs(plot_dir, exist_ok=True)
    for name in os.listdir(plot_dir):
        if name.endswith(".png"):
            os.remove(os.path.join(plot_dir, name))
    out = []
    by_id = {s["id"]: s for s in steps}
    apps = []
    for key in cells:
        if key[0] not in apps:
            apps.append(key[0])
    for app in apps:
        models = []
        for key in cells:
            if key[0] == app and key[2] not in models:
                models.append(key[2])
        for model in models:
            terms = {}
            for key, cell in cells.items():
                if key[0] != app or key[2] != model:
                    continue
                config = cell["rows"][0]["config"]
                series = terms.setdefault(key[3], {}).setdefault(
                    f"{key[1]} {without_ranks(config)}".strip(), {})
                ranks = cell["rows"][0]["ranks"] or 0
                point = series.setdefault(ranks, ([], []))
                point[0].extend(r["measured_s"] for r in cell["rows"] if r["measured_s"] is not None)
                point[1].extend(r["modelled_s"] for r in cell["rows"] if r["modelled_s"] is not None)
            flat = {t: {n: [(p, v[0], v[1]) for p, v in pts.items()] for n, pts in ser.items()}
                    for t, ser in terms.items()}
            path = os.path.join(plot_dir, f"{exports.safe_name(app)}-{exports.safe_name(model)}-scaling.png")
            out.append((app, f"{app}, model {model}: measured and modelled against P",
                        plots.measured_vs_modelled(path, f"{app}: model {model}", flat)))
        configs = sorted({key[1] + " " + key[4] for key in cells if key[0] == app})
        columns = sorted({f"{key[2]}/{key[3]}" for key in cells if key[0] == app})
        errors = [[None] * len(columns) for _ in configs]
        for key, cell in cells.items():
            if key[0] == app:
                errors[configs.index(key[1] + " " + key[4])][columns.index(f"{key[2]}/{key[3]}")] = \
                    cell["error"]
        path = os.path.join(plot_dir, f"{exports.safe_name(app)}-errors.png")
        out.append((app, f"{app}: error of the medians per configuration and model/term",
                    plots.error_heatmap(path, f"{app}: error of the medians", configs, columns, errors)))
    # Per-phase stacks of every calibrate and predict configuration, median over repetitions.
    stacks = {}
    for run_id, data in results.items():
        s = by_id[run_id]
        app = s.get("app") or "?"
        label = f"{s.get('group')} {configuration_key(s.get('config'))}"
        per = stacks.setdefault(app, {}).setdefault(label, {})
        for name, ph in data["phases"].items():
            if ph["exclusive"]:
                per.setdefault(name, []).append(sum(ph["exclusive"]) / len(ph["exclusive"]))
    for app, configs in stacks.items():
        phases = {c: {n: median(v) for n, v in ph.items()} for c, ph in configs.items()}
        if not any(phases.values()):
            continue
        path = os.path.join(plot_dir, f"{exports.safe_name(app)}-phases.png")
        labels = sorted(phases)
        out.append((app, f"{app}: per-phase time per configuration",
                    plots.phase_stacks(path, f"{app}: time per phase", labels, phases)))
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
.small { font-size: 0.85em; color: #555; }
"""


def esc(text):
    return html.escape("" if text is None else str(text))


def pct(e):
    return "n/a" if e is None or not math.isfinite(e) else f"{100 * e:+.1f}%"


def secs(v):
    return "n/a" if v is None else f"{v:.6g}"


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


def html_report(store, results, unreadable, cells, figures, projections, extrap, traces):
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
    parts.append("<h2>Failed runs</h2>")
    parts.append(table(["run", "group", "error"], bad, ["fail"] * len(bad)) if bad else
                 "<p>None: every step that ran succeeded.</p>")

    apps = []
    for key in cells:
        if key[0] not in apps:
            apps.append(key[0])
    for app in apps:
        parts.append(f"<h2>{esc(app)}: models against runs</h2>")
        parts.append('<p class="small">Error = (modelled - measured) / measured. Noise floor = '
                     "mean |measured - median| / median over the repetitions. Green: the error of "
                     "the medians is within the noise floor. Orange: a run on a busy machine "
                     "(unreliable).</p>")
        keys = [k for k in cells if k[0] == app]
        for model, term in dict.fromkeys((k[2], k[3]) for k in keys):
            rows, classes = [], []
            for k in keys:
                if (k[2], k[3]) != (model, term):
                    continue
                c = cells[k]
                runs_text = ", ".join(f"{esc(r['run_id'])} (rep {esc(r['rep'])}): {pct(r['error'])}"
                                      + (" <b>busy</b>" if r["busy"] else "") for r in c["rows"])
                floor = "n/a (one repetition)" if c["floor"] is None else f"{100 * c['floor']:.1f}%"
                rows.append([esc(k[1]), esc(k[4]), secs(c["measured_median"]),
                             secs(c["modelled_median"]), pct(c["error"]), floor,
                             "within noise" if c["below"] else "", runs_text])
                busy = any(r["busy"] for r in c["rows"])
                classes.append("busy" if busy else "noise" if c["below"] else "")
            parts.append(f"<h3>{esc(app)} &middot; model {esc(model)} &middot; {esc(term)}</h3>")
            parts.append(table(["group", "configuration", "measured median [s]",
                                "modelled median [s]", "error of the medians", "noise floor",
                                "mark", "per-run errors"], rows, classes, numeric=(2, 3, 4, 5)))
        parts.append(f"<h2>{esc(app)}: plots</h2>")
        for fig_app, title, path in figures:
            if fig_app == app:
                parts.append(f"<h3>{esc(title)}</h3>" + image(path, title))
    for fig_app, title, path in figures:  # apps with phases but no scored rows
        if fig_app not in apps:
            parts.append(f"<h2>{esc(fig_app)}: plots</h2><h3>{esc(title)}</h3>" + image(path, title))

    parts.append("<h2>Provenance: which run fed which constant</h2>")
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
                     "<br>".join(esc(x) for x in sources) or esc(s.get("status"))])
    parts.append(table(["predicted run", "group", "configuration", "rep", "calibration runs",
                        "inputs from (/compare source)"], prov))
    cal = [[esc(s["id"]), esc(s.get("group")), esc(configuration_key(s.get("config"))),
            esc(s.get("rep")), esc(s.get("status"))] for s in runs if s.get("role") == "calibrate"]
    parts.append("<h3>Calibration runs</h3>" + table(["run", "group", "configuration", "rep",
                                                      "status"], cal))

    if projections:
        parts.append("<h2>Projections</h2>")
        for s, header, rows, note, plot in projections:
            parts.append(f"<h3>{esc(s.get('group'))} {esc(configuration_key(s.get('config')))} "
                         f"(run {esc(s['id'])})</h3>")
            if note:
                parts.append(f"<p class=\"small\">{esc(note)}</p>")
            if header:
                parts.append(table([h for h in header], [[esc(c) for c in r] for r in rows]))
            if plot:
                parts.append(image(plot, f"projection {s['id']}"))

    parts.append("<h2>Exports</h2><ul>")
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

def summary_lines(cells):
    groups = {}
    for (app, group, model, term, config), c in cells.items():
        groups.setdefault((app, model, term), []).append(c)
    lines = []
    for (app, model, term), cs in groups.items():
        errors = [c["error"] for c in cs if c["error"] is not None]
        floors = [c["floor"] for c in cs if c["floor"] is not None]
        within = sum(1 for c in cs if c["below"])
        med = median(errors)
        floor = median(floors)
        lines.append([app, model, term, pct(med), "n/a" if floor is None else f"{100 * floor:.1f}%",
                      f"{within}/{len(cs)}"])
    return lines


def print_summary(cells, report_path):
    lines = summary_lines(cells)
    header = ["app", "model", "term", "median error", "median floor", "within noise"]
    if lines:
        widths = [max(len(str(x)) for x in col) for col in zip(header, *lines)]
        for row in [header] + lines:
            print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    else:
        print("no predicted run with /compare rows to score")
    print(f"report: {report_path}")


# ---------------------------------------------------------------- entry

def write_report(campaign_dir):
    """Everything above for the campaign in campaign_dir; returns the path of report.html.
    Raises StoreError/NotOurs (one line) when the campaign or an output cannot be used."""
    store = Store.open(campaign_dir)
    steps = store.steps
    results, unreadable = read_all(store)
    rows, cells = score(steps, results)
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
    page = html_report(store, results, unreadable, cells, figures, projections, extrap, traces)
    report_path = store.path("report.html")

    def fill(fd):
        with io.open(fd, "w", encoding="utf-8", closefd=True) as out:
            out.write(page)
    write_output(report_path, "report", fill)
    print_summary(cells, report_path)
    sys.stdout.flush()
    return report_path
