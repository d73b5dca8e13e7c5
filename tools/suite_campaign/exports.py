"""The campaign's exports for other tools: Extra-P's JSON Lines input and OTF2 traces.

extrap.jsonl follows Extra-P's "JSON Lines format" (extra-p/extrap, docs/file-formats.md):
one JSON object a line, {"params": {name: number}, "value": number} with the optional
"callpath" and "metric"; Extra-P takes the parameter names from the first line and needs
every line of a file to carry the same ones, and it reads lines of one point and callpath as
repetitions. Here: params p (the ranks) plus the group's `extrap` axes, callpath the phase,
metric "time", value the phase's inclusive seconds, max over ranks. Two keys Extra-P ignores,
"app" and "run", say where a line comes from.

Apps may differ in their parameters (sweep3d's n, tycho's none), and one Extra-P experiment
needs one set: extrap/<app>.jsonl holds each app alone, the experiment to open; extrap.jsonl
holds every line of the campaign.

Traces: a run of a group with trace = true whose results file holds /trace is exported by
{build}/instrument/instrument-trace-export RESULTS --otf2 DIR/traces/<id>.
"""
import json
import os
import subprocess

from .output_file import write_output


def phase_value(phase):
    # The max over ranks: a phase ends for the run when its slowest rank leaves it, and that
    # is the time a scaling model of the phase must fit; the mean would hide an imbalance
    # that grows with p.
    return max(phase["inclusive"]) if phase["inclusive"] else None


def number(text):
    """An axis value as Extra-P needs it (a number), or None."""
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        return text
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return int(v) if v.is_integer() else v


def extrap_lines(steps, results):
    """{app: [line dict]}, and notes on what was left out. steps: the manifest's run steps;
    results: {step id: read_results() dict} of the readable ones."""
    by_app, notes = {}, []
    axes_of_app = {}
    for s in steps:
        if s.get("role") in ("calibrate", "predict"):
            names = axes_of_app.setdefault(s.get("app") or "?", [])
            for a in s.get("extrap") or []:
                if a not in names and a not in ("p", "ranks"):
                    names.append(a)
    for s in steps:
        if s.get("role") not in ("calibrate", "predict") or s["id"] not in results:
            continue
        app = s.get("app") or "?"
        params = {"p": s.get("ranks")}
        config = s.get("config") or {}
        missing = []
        for a in axes_of_app[app]:
            v = number(config.get(a))
            if v is None:
                missing.append(a)
            params[a] = v
        if number(params["p"]) is None or missing:
            notes.append(f"run {s['id']} ({s.get('group')}): left out of extrap.jsonl, no numeric "
                         f"value for {', '.join(missing) or 'p'} (Extra-P needs every parameter "
                         "on every line)")
            continue
        for name, phase in results[s["id"]]["phases"].items():
            value = phase_value(phase)
            if value is None:
                continue
            by_app.setdefault(app, []).append(
                {"params": params, "callpath": name, "metric": "time", "value": value,
                 "app": app, "run": s["id"]})
    return by_app, notes


def write_extrap(campaign_dir, steps, results):
    """Writes DIR/extrap.jsonl and DIR/extrap/<app>.jsonl; returns {"files": [...],
    "lines": n, "notes": [...]}."""
    by_app, notes = extrap_lines(steps, results)

    def fill_with(lines):
        def fill(fd):
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                for line in lines:
                    out.write(json.dumps(line, sort_keys=False) + "\n")
        return fill
    every = [line for app in by_app for line in by_app[app]]
    write_output(os.path.join(campaign_dir, "extrap.jsonl"), "Extra-P export", fill_with(every))
    files = ["extrap.jsonl"]
    if by_app:
        os.makedirs(os.path.join(campaign_dir, "extrap"), exist_ok=True)
    for app, lines in by_app.items():
        name = os.path.join("extrap", f"{safe_name(app)}.jsonl")
        write_output(os.path.join(campaign_dir, name), "Extra-P export", fill_with(lines))
        files.append(name)
    return {"files": files, "lines": len(every), "notes": notes}


def safe_name(text):
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text) or "_"


def export_traces(campaign_dir, build, steps, results, timeout=300):
    """OTF2 archives of the traced runs: [(run id, "ok" | "skipped" | "failed", text)]."""
    program = os.path.join(build or "", "instrument", "instrument-trace-export")
    wanted = [s for s in steps if s.get("trace") and s["id"] in results]
    if not wanted:
        return []
    if not os.access(program, os.X_OK):
        return [(s["id"], "skipped", f"{program} is not built: no OTF2 export") for s in wanted]
    out = []
    for s in wanted:
        if not results[s["id"]]["has_trace"]:
            out.append((s["id"], "skipped", "its results file holds no /trace"))
            continue
        target = os.path.join(campaign_dir, "traces", s["id"])
        os.makedirs(os.path.dirname(target), exist_ok=True)
        command = [program, os.path.join(campaign_dir, s["results"]), "--otf2", target]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as e:
            out.append((s["id"], "failed", f"{' '.join(command)}: {e}"))
            continue
        if done.returncode != 0:
            line = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
            out.append((s["id"], "failed", line))
        else:
            out.append((s["id"], "ok", os.path.relpath(os.path.join(target, "traces.otf2"),
                                                       campaign_dir)))
    return out
