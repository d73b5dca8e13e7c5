"""extrap.jsonl against Extra-P's documented JSON Lines format (extra-p/extrap,
docs/file-formats.md, "JSON Lines format", and its reader jsonlines_file_reader.py): each
line one JSON object with "params" (an object of parameter name -> number) and "value" (a
number, or a list of numbers), optional "callpath" and "metric" strings; the parameter names
come from a file's first line and every line of it must carry the same ones. Checked on
the report_fixture campaign: every line, every per-app file, and the values against the
results files (the phase's inclusive seconds, max over ranks).

  test_extrap.py BUILD_DIR
"""
import json
import math
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import report_fixture  # noqa: E402  (puts tools/ on sys.path)

from suite_campaign import report  # noqa: E402

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}")


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_experiment(path):
    """Every line of one Extra-P experiment file; returns the parsed lines."""
    lines = []
    keys = None
    with open(path, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            where = f"{os.path.basename(path)} line {n}"
            check(text.endswith("\n") and "\n" not in text[:-1], f"{where}: one line")
            try:
                obj = json.loads(text)
            except ValueError as e:
                check(False, f"{where}: not JSON: {e}")
                continue
            check(isinstance(obj, dict), f"{where}: a JSON object")
            check(isinstance(obj.get("params"), dict) and obj["params"], f"{where}: params an object")
            check(all(isinstance(k, str) and is_number(v) for k, v in obj["params"].items()),
                  f"{where}: params numbers: {obj.get('params')}")
            check(is_number(obj.get("value")) and obj["value"] >= 0, f"{where}: value a number >= 0")
            check(isinstance(obj.get("callpath"), str) and obj["callpath"], f"{where}: callpath a string")
            check(obj.get("metric") == "time", f"{where}: metric \"time\"")
            if keys is None:
                keys = list(obj["params"])
            check(list(obj["params"]) == keys, f"{where}: params {list(obj['params'])} as line 1's {keys}")
            lines.append(obj)
    return lines


def main():
    import h5py
    build = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="campaign_extrap.")
    campaign = os.path.join(work, "campaign")
    os.makedirs(campaign)
    report_fixture.make_campaign(build, campaign)
    report.write_report(campaign)
    every = check_experiment(os.path.join(campaign, "extrap.jsonl"))
    app_lines = check_experiment(os.path.join(campaign, "extrap", "sweep3d.jsonl"))
    check(len(every) == len(app_lines) > 0, f"{len(every)} lines, sweep3d's {len(app_lines)}")
    # Every phase of every readable calibrate and predict run and repetition, once.
    expected = {}
    for run in ("0001", "0002", "0003", "0004"):
        with h5py.File(os.path.join(campaign, "runs", run, "results.h5"), "r") as f:
            for name in f["phases"]:
                expected[(run, name)] = max(f["phases"][name]["inclusive"][()])
    got = {(o["run"], o["callpath"]): o for o in every}
    check(len(got) == len(every), "one line per (run, phase)")
    check(set(got) == set(expected), f"lines for exactly the phases of runs 0001-0004 "
                                     f"(missing {sorted(set(expected) - set(got))[:3]}, "
                                     f"extra {sorted(set(got) - set(expected))[:3]})")
    for key, value in expected.items():
        if key in got:
            check(got[key]["value"] == float(value), f"{key}: value {got[key]['value']} == max inclusive {value}")
            p = 1 if key[0] in ("0001", "0003") else 2
            check(got[key]["params"] == {"p": p, "mk": 10}, f"{key}: params {got[key]['params']}")
    if failures:
        print(f"{len(failures)} check(s) failed; work kept in {work}")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print(f"extrap.jsonl: {len(every)} lines in Extra-P's JSON Lines format: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
