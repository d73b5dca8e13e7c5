"""The campaign report on a small real campaign (report_fixture.py: sweep3d calibrated at
1 rank, predicted at 2, two repetitions, one failed run, one unreadable results file):

- errors.csv: one row per (model, term, configuration, repetition) of the predicted runs
  only, the contract's columns, one error recomputed by hand from the results file, the
  noise floor of a configuration recomputed from its measured times, the busy flag of the
  run the fixture marks loaded;
- noise_floor and below_floor on synthetic numbers;
- the layout on made-up scores: times in a unit per table with 4 significant digits, terms
  ordered totals first with bsplib's supersteps in one table per configuration (no heading
  each), the summary's numbers, the phase stack leaving out the send/recv split;
- the phase stack of a real 2-rank run adds up to no more than its top-level phases;
- the placement mark (placement_fixture.py: a probe at 150 ns, runs at 150 and 550 ns and one
  without round trips, scored by the real bsp_predict): the 550 ns run alone "other" (orange,
  in errors.csv and the summary), the one without samples "unknown", never "other"; the ratio
  as bspmodel::placement_ratio; a results file's /multigrid/core_round_trip read;
- report.html in headless Chromium: a screenshot that is not blank, and the DOM holding the
  expected headings, the summary table with working links, times with their unit in the
  headers and no raw seconds in the cells, and <img> tags whose data decode as PNGs.

  test_report.py BUILD_DIR
"""
import base64
import contextlib
import csv
import io
import math
import os
import re
import statistics
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import placement_fixture  # noqa: E402
import report_fixture  # noqa: E402  (puts tools/ on sys.path)

from suite_campaign import report, run_placement  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}")


def unit_tests():
    check(report.noise_floor([1.0]) is None, "one repetition has no noise floor")
    # median 2; |1-2| + |2-2| + |4-2| = 3; mean 1; / 2 = 0.5
    check(abs(report.noise_floor([1.0, 2.0, 4.0]) - 0.5) < 1e-12, "noise floor of 1, 2, 4 is 0.5")
    check(abs(report.noise_floor([1.0, 3.0]) - 0.5) < 1e-12, "noise floor of 1, 3 is 0.5")
    check(report.noise_floor([0.0, 0.0]) is None, "a zero median has no noise floor")
    check(report.below_floor(0.05, 0.10), "|+5%| <= 10% is within noise")
    check(report.below_floor(-0.10, 0.10), "|-10%| <= 10% is within noise (the bound included)")
    check(not report.below_floor(-0.11, 0.10), "|-11%| > 10% is not within noise")
    check(not report.below_floor(0.0, None), "no floor: never within noise")
    check(not report.below_floor(None, 0.5), "no error: never within noise")
    check(report.relative_error(1.5, 1.0) == 0.5, "relative error (1.5 - 1) / 1")
    check(report.is_busy({"load": {"busy_others": 0.3, "steal": 0.0}}), "busy_others 0.3 is busy")
    check(report.is_busy({"load": {"busy_others": 0.0, "steal": 0.06}}), "steal 0.06 is busy")
    check(not report.is_busy({"load": {"busy_others": 0.2, "steal": 0.01}}), "a quiet run is not busy")
    check(report.configuration_key({"mk": 10, "grid": "1x2"}) == "grid=1x2;mk=10", "configuration key sorted")


def unit_tests_placement():
    ratio = run_placement.placement_ratio
    check(ratio(None, [150e-9]) is None and ratio(0.0, [150e-9]) is None, "no probe figure: unknown")
    check(ratio(150e-9, []) is None, "no run sample: unknown")
    check(ratio(150e-9, [150e-9, 0.0]) is None, "a sample of 0 (not measured): unknown")
    check(math.isclose(ratio(150e-9, [150e-9, 550e-9]), 550 / 150), "the largest of run/probe: 550/150")
    check(math.isclose(ratio(550e-9, [150e-9, 500e-9]), 550 / 150), "the largest of probe/run: 550/150")
    check(run_placement.placement_of(None) == "unknown", "an unknown ratio is unknown, never other")
    check(run_placement.placement_of(1.5) == "same", "1.5x is the probe's placement (the bound included)")
    check(run_placement.placement_of(1.51) == "other", "1.51x is another placement")
    row = {"busy": False, "placement": "other", "placement_ratio": 3.7}
    check(report.unreliable(row) and not report.unreliable(dict(row, placement="unknown")),
          "another placement is unreliable, an unknown one is not")


def check_results_round_trip(work):
    """A results file's /<app>/core_round_trip (multigrid writes one) is read; one of another
    shape is no figure (unknown), not a failure."""
    import h5py
    good, bad = os.path.join(work, "rt-good.h5"), os.path.join(work, "rt-bad.h5")
    for path, data in ((good, [5.5e-7, 5.6e-7]), (bad, [[5.5e-7], [5.6e-7]])):
        with h5py.File(path, "w") as f:
            f.attrs["format"] = "suite-results-1"
            f.attrs["app"] = "multigrid"
            f.create_dataset("multigrid/core_round_trip", data=data)
    got = run_placement.results_round_trips(good)
    check(got == [5.5e-7, 5.6e-7], f"/multigrid/core_round_trip read: {got}")
    check(run_placement.results_round_trips(bad) == [], "a 2-D core_round_trip gives no samples")


def check_loggps_placement(work):
    """A sweep3d or tycho run: its round trips are its results file's root attributes
    core_round_trip_start/_end, its probe's the loggps-probe machine file's
    loggp.core_round_trip_seconds (the first probe it needs that keeps one)."""
    import h5py

    class Store:
        def __init__(self, steps):
            self.steps = steps

        def path(self, rel):
            return os.path.join(work, rel)

    with open(os.path.join(work, "loggps.machine"), "w") as f:
        f.write("format = suite-machine-1\nname = t\nloggp.core_round_trip_seconds = 1.2e-07\n")
    with open(os.path.join(work, "old.machine"), "w") as f:
        f.write("format = suite-machine-1\nname = t\nloggp.L = 1e-06\n")  # before the key
    with open(os.path.join(work, "moved.machine"), "w") as f:  # the probe's CPUs moved while it ran
        f.write("format = suite-machine-1\nname = t\nprobe.core_round_trip_moved = 135 ns, 514 ns\n")
    for name, attrs in (("same.h5", {"core_round_trip_start": 1.25e-7, "core_round_trip_end": 1.3e-7}),
                        ("other.h5", {"core_round_trip_start": 1.2e-7, "core_round_trip_end": 5.5e-7}),
                        ("none.h5", {}), ("bad.h5", {"core_round_trip_start": "fast"})):
        with h5py.File(os.path.join(work, name), "w") as f:
            f.attrs["format"] = "suite-results-1"
            f.attrs["app"] = "tycho"
            for k, v in attrs.items():
                f.attrs[k] = v
    check(run_placement.results_round_trips(os.path.join(work, "other.h5")) == [1.2e-7, 5.5e-7],
          "the root attributes read, start then end")
    check(run_placement.results_round_trips(os.path.join(work, "bad.h5")) == [],
          "a round trip that is not a number gives no samples")
    probes = [{"id": "p1", "kind": "probe", "program": "/b/instrument/loggps-probe", "machine": "loggps.machine"},
              {"id": "p2", "kind": "probe", "program": "/b/instrument/loggps-probe", "machine": "old.machine"},
              {"id": "p3", "kind": "probe", "program": "/b/tycho/tycho-mesh-example", "machine": "x"},
              {"id": "p4", "kind": "probe", "program": "/b/instrument/loggps-probe", "machine": "moved.machine"}]
    expected = {"same.h5": ("same", 1.3 / 1.2), "other.h5": ("other", 5.5 / 1.2), "none.h5": ("unknown", None)}
    for name, (placement, ratio) in expected.items():
        step = {"id": "r", "kind": "run", "results": name, "needs": ["p3", "p1"], "env": {}, "ranks": 2}
        got = run_placement.run_placement(Store(probes + [step]), step)
        check(got["placement"] == placement and
              (ratio is None if got["ratio"] is None else math.isclose(got["ratio"], ratio, rel_tol=1e-9)),
              f"{name} against loggps-probe's 120 ns: {placement} {ratio}, got {got}")
    step = {"id": "r", "kind": "run", "results": "other.h5", "needs": ["p2"], "env": {}, "ranks": 2}
    check(run_placement.run_placement(Store(probes + [step]), step)["placement"] == "unknown",
          "a probe file without the key: unknown, never other")
    step = {"id": "r", "kind": "run", "results": "other.h5", "needs": ["p1"], "env": {}, "ranks": 4}
    check(run_placement.run_placement(Store(probes + [step]), step)["placement"] == "unknown",
          "a 4-rank run against loggps-probe's 2-rank pair: not compared (unknown)")
    # A probe whose CPUs moved while it ran names no round trip: unknown, and the report says why.
    step = {"id": "r", "kind": "run", "results": "other.h5", "needs": ["p4"], "env": {}, "ranks": 2}
    moved = run_placement.run_placement(Store(probes + [step]), step)
    check(moved["placement"] == "unknown" and moved["probe_moved"] == "135 ns, 514 ns",
          f"a probe whose CPUs moved: unknown, its samples kept: {moved}")
    check(report.placement_detail(moved) == "unknown (the probe's CPUs moved while it ran: 135 ns, 514 ns; "
                                            "its figures are of no one placement)",
          f"provenance: {report.placement_detail(moved)}")
    rows = [{"placement": "unknown", "probe_moved": "135 ns, 514 ns"}, {"placement": "unknown", "probe_moved": None}]
    check(report.other_placement_count(rows) == "n/a (probe's CPUs moved)" and
          report.other_placement_count(rows[1:]) == "n/a", "the summary's n/a says when a probe's CPUs moved")
    step = {"id": "r", "kind": "run", "results": "other.h5", "needs": ["p1"], "env": {}, "ranks": 2}
    check(run_placement.run_placement(Store(probes + [step]), step)["probe_moved"] is None,
          "a probe at one placement: no probe_moved")


def check_placement(build, work):
    """The report on placement_fixture's campaign: run 0004 (550 ns against the probe's 150)
    marked other placement, orange and counted; 0002 and 0005 (150 ns) not; 0003 (no
    samples) unknown."""
    campaign = os.path.join(work, "placement")
    os.makedirs(campaign)
    placement_fixture.make_campaign(build, campaign)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        report.write_report(campaign)
    with open(os.path.join(campaign, "errors.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    check(rows and list(rows[0].keys()) == report.CSV_COLUMNS, "errors.csv columns with placement")
    expected = {"0002": ("same", 155 / 150), "0003": ("unknown", None), "0004": ("other", 550 / 150),
                "0005": ("same", 150 / 145)}
    for run_id, (placement, want) in expected.items():
        mine = [r for r in rows if r["run_id"] == run_id]
        check(mine and all(r["placement"] == placement for r in mine),
              f"errors.csv: run {run_id} placement {placement}: {sorted({r['placement'] for r in mine})}")
        got = {r["placement_ratio"] for r in mine}
        check(got == {""} if want is None else
              (len(got) == 1 and math.isclose(float(got.pop()), want, rel_tol=1e-5)),
              f"errors.csv: run {run_id} placement_ratio {want}")
        check(all(r["busy"] == "0" for r in mine),
              f"errors.csv: run {run_id} not busy (the busy flag is the load's)")
    with open(os.path.join(campaign, "report.html"), encoding="utf-8") as f:
        page = f.read()
    check(re.search(r"0004 \(rep 1\): [^,<]*<b>other placement 3\.67x</b>", page),
          "the per-run text marks 0004 other placement 3.67x")
    check(re.search(r"0002 \(rep 1\): [^,<]* \(placement 1\.03x\)", page), "0002's ratio shown, unmarked")
    check(not re.search(r"0003 \(rep 2\): [^,<]*(<b>|placement)", page), "0003 (no samples) unmarked")
    # Orange (class busy) are the tables' rows of configuration shift=b only.
    marked = set(re.findall(r'<tr class="busy"><td>bsplib-500</td><td>([^<]*)</td>', page))
    plain = set(re.findall(r'<tr><td>bsplib-500</td><td>([^<]*)</td>', page))
    check(marked == {"ranks=2;shift=b"} and plain == {"ranks=2;shift=a"},
          f"orange rows: shift=b only (orange {sorted(marked)}, plain {sorted(plain)})")
    rows = report.summary_rows(report.score(*placement_inputs(campaign))[1])
    check(rows and all(r[8] == "1/3 (1 unknown)" for r in rows),
          f"summary: 1 of 3 runs with a known placement at another: {[r[8] for r in rows]}")
    check("1/3 (1 unknown)" in printed.getvalue() and "other placement" in printed.getvalue(),
          "the printed summary counts it")
    check(rows and all(r[9] == "1/4" for r in rows),
          f"summary: 1 of 4 runs marked unreliable by the run itself (0005): {[r[9] for r in rows]}")
    check(re.search(r"other placement +marked by the run +reliable runs' error\n", printed.getvalue()) is not None,
          "the printed summary's last columns: marked by the run, reliable runs' error")
    # The reliable runs' error: each configuration's medians over the runs neither busy, at
    # another placement (0004) nor marked (0005), from errors.csv's own figures.
    with open(os.path.join(campaign, "errors.csv"), newline="") as f:
        scored = list(csv.DictReader(f))
    for r in rows:
        per_config = []
        for config in sorted({x["configuration"] for x in scored}):
            calm = [x for x in scored if (x["app"], x["model"], x["term"], x["configuration"]) ==
                    (r[0], r[1], r[2], config) and x["busy"] == "0" and x["placement"] != "other" and not x["marked"]]
            if calm:
                per_config.append(statistics.median(float(x["modelled_s"]) for x in calm) /
                                  statistics.median(float(x["measured_s"]) for x in calm) - 1)
        want = statistics.median(per_config) if per_config else None
        check((r[10] is None and want is None) or (want is not None and r[10] is not None and
                                                   math.isclose(r[10], want, rel_tol=1e-9, abs_tol=1e-12)),
              f"summary: reliable runs' error {r[10]} for {r[:3]}, expected {want} (0004 and 0005 left out)")
    check("<b>other</b>: run 550 ns, 540 ns, probe 150 ns (3.67x)" in page, "provenance: 0004's round trips")
    # 0005: at the probe's placement, but marked unreliable by the run itself (a slow CPU).
    with open(os.path.join(campaign, "errors.csv"), newline="") as f:
        marked = {r["run_id"]: r["marked"] for r in csv.DictReader(f)}
    check(marked.get("0005") == "cpus" and all(marked.get(k) == "" for k in ("0002", "0003", "0004")),
          f"errors.csv: marked 'cpus' on 0005 alone: {marked}")
    check(re.search(r'0005 \(rep 2\): [^,<]* \(placement 1\.03x\) <b title="cpus: rank 0 took 1\.74x[^"]*">'
                    r"marked by the run \(cpus\)</b>", page), "the per-run text marks 0005 with the run's reason")


def placement_inputs(campaign):
    """(steps, results, placements) of a campaign, as write_report scores them."""
    from suite_campaign.store import Store
    store = Store.open(campaign)
    results, _ = report.read_all(store)
    return store.steps, results, run_placement.placements(store, list(results))


def fake_scores(app, runs):
    """report.score over made-up predicted runs: runs = [(run id, rep, config, [(model, term,
    kind, measured, modelled)])]."""
    steps, results = [], {}
    for run_id, rep, config, rows in runs:
        steps.append({"id": run_id, "kind": "run", "role": "predict", "app": app, "group": f"{app}-pred",
                      "rep": rep, "config": config, "ranks": config.get("ranks"), "load": {}})
        results[run_id] = {"attrs": {"app": app}, "rows": [
            {"model": m, "term": t, "kind": k, "measured": me, "modelled": mo, "source": "test",
             "problem": ""} for m, t, k, me, mo in rows]}
    return report.score(steps, results)


def unit_tests_layout():
    # Units per table: the median magnitude picks s, ms or us; 4 significant digits.
    check(report.time_unit([0.001572, 0.0035, 3.5e-5]) == ("ms", 1e-3), "ms for a table of ms")
    check(report.time_unit([3.5e-5, 2e-6]) == ("us", 1e-6), "us for a table of us")
    check(report.time_unit([2.5, 0.3, 1.2]) == ("s", 1.0), "s for a table of seconds")
    check(report.time_unit([None]) == ("s", 1.0), "s for an empty table")
    for v, scale, text in ((0.001572, 1e-3, "1.572"), (3.51666e-05, 1e-3, "0.03517"),
                           (3.51666e-05, 1e-6, "35.17"), (12.3456, 1e-3, "12346"),
                           (4.259e-7, 1e-3, "0.0004259"), (1.5e-13, 1e-3, "1.500e-10"),
                           (0.0, 1.0, "0"), (None, 1.0, "n/a"), (0.25, 1.0, "0.2500")):
        check(report.in_unit(v, scale) == text, f"in_unit({v}, {scale}) = {report.in_unit(v, scale)!r}, "
                                                f"expected {text!r}")
    check(report.superstep_of("superstep 9 1 cyclic shift (exchange)") == (9, "1 cyclic shift (exchange)"),
          "a superstep term parsed")
    check(report.superstep_of("comm+sync total, l + h g(h)") is None, "a total is not a superstep")
    # Order: models as they come, totals first, supersteps apart and by index.
    _, cells = fake_scores("bsplib", [
        ("0001", 1, {"ranks": 2}, [("bsp", "superstep 10 b", "total", 1e-6, 2e-6),
                                   ("bsp", "superstep 2 a", "total", 1e-6, 1e-6),
                                   ("bsp", "a part", "part", 1e-6, 1e-6),
                                   ("bsp", "comm+sync total", "total", 2e-5, 3e-5),
                                   ("other", "T", "total", 1.0, 1.0)]),
        ("0002", 2, {"ranks": 2}, [("bsp", "superstep 10 b", "total", 1.2e-6, 2e-6),
                                   ("bsp", "superstep 2 a", "total", 1e-6, 1e-6),
                                   ("bsp", "a part", "part", 1e-6, 1e-6),
                                   ("bsp", "comm+sync total", "total", 2.2e-5, 3e-5),
                                   ("other", "T", "total", 1.0, 1.0)]),
        ("0003", 1, {"ranks": 4}, [("bsp", "superstep 2 a", "total", 1e-6, 1e-6),
                                   ("bsp", "comm+sync total", "total", 2e-5, 3e-5)])])
    order = report.ordered_terms(cells, "bsplib")
    check(order == [("bsp", ["comm+sync total", "a part"], ["superstep 2 a", "superstep 10 b"]),
                    ("other", ["T"], [])], f"terms ordered totals first, supersteps apart: {order}")
    columns = report.heatmap_columns(order)
    check(columns == (["bsp/comm+sync total", "bsp/a part", "bsp/superstep 2", "bsp/superstep 10", "other/T"],
                      [2]), f"heat-map columns in the tables' order: {columns}")
    # Supersteps: one table per configuration with the supersteps as rows, no heading each.
    section = report.app_section("bsplib", cells, [])
    check(section.count("<h4>per superstep:") == 2, "one superstep table per configuration")
    check("<h4>superstep" not in section and "&middot; superstep" not in section,
          "no heading per superstep")
    check(section.index("comm+sync total") < section.index("a part") < section.index("per superstep"),
          "the totals head the model's section, the supersteps come last")
    check("measured median [us]" in section, "the superstep table's times in us")
    # The summary: per app, model and total term; supersteps and parts left out.
    rows = report.summary_rows(cells)
    check([r[:4] for r in rows] == [["bsplib", "bsp", "comm+sync total", 2], ["bsplib", "other", "T", 1]],
          f"summary rows: {[r[:4] for r in rows]}")
    if rows:
        # ranks=2: medians 2.1e-5 measured, 3e-5 modelled: +42.857%; ranks=4: +50%; median +46.4%
        check(abs(rows[0][4] - (0.5 * (3e-5 / 2.1e-5 - 1) + 0.5 * 0.5)) < 1e-12,
              f"summary: median error of the medians {rows[0][4]}")
        check(abs(rows[0][5] - 1e-6 / 2.1e-5) < 1e-12, f"summary: median floor {rows[0][5]}")
        check(rows[0][6] == "0/2" and rows[0][7] == "0/3" and rows[0][8] == "n/a" and rows[0][9] == "0/3",
              f"within noise, busy, other placement (no run measured it), marked {rows[0][6:]}")
        check(rows[0][10] == rows[0][4], f"no run marked: the reliable runs' error is the error {rows[0][10]}")
    # A marked run leaves the reliable runs' error: 0002 (measured 2.2e-5) marked, so ranks=2's
    # reliable median is 0001's alone (+50%), ranks=4's +50%.
    steps, results = [], {}
    for run_id, measured, marked in (("0001", 2e-5, ""), ("0002", 2.2e-5, "cpus: slow"), ("0003", 2e-5, "")):
        steps.append({"id": run_id, "kind": "run", "role": "predict", "app": "bsplib", "group": "g", "rep": 1,
                      "config": {"ranks": 4 if run_id == "0003" else 2}, "ranks": 2, "load": {}})
        results[run_id] = {"attrs": {"app": "bsplib"}, "marked": marked, "rows": [
            {"model": "bsp", "term": "T", "kind": "total", "measured": measured, "modelled": 3e-5,
             "source": "test", "problem": ""}]}
    marked_rows = report.summary_rows(report.score(steps, results)[1])
    check(marked_rows and marked_rows[0][9] == "1/3" and marked_rows[0][10] is not None and
          abs(marked_rows[0][10] - 0.5) < 1e-12 and abs(marked_rows[0][4] - 0.5 * (3e-5 / 2.1e-5 - 1 + 0.5)) < 1e-12,
          f"a marked run out of the reliable runs' error only: {marked_rows}")
    # The phase stack leaves the send/recv split out (it re-splits send's and recv's time).
    phases = {"iteration": {"inclusive": [3.0, 3.0], "exclusive": [0.5, 0.5]},
              "recv": {"inclusive": [2.0, 1.0], "exclusive": [2.0, 1.0]},
              "recv_sync_wait": {"inclusive": [1.8, 0.8], "exclusive": [1.8, 0.8]},
              "recv_transfer": {"inclusive": [0.2, 0.2], "exclusive": [0.2, 0.2]},
              "sweep_compute": {"inclusive": [0.5, 1.5], "exclusive": [0.5, 1.5]}}
    stack = report.phase_stack(phases)
    check(stack == {"iteration": 0.5, "recv": 1.5, "sweep_compute": 1.0},
          f"phase stack: {stack}")
    check(abs(sum(stack.values()) - 3.0) < 1e-12, "the stack adds up to the iteration's time")


def check_phase_stack(campaign):
    """A 2-rank sweep3d run's stack adds up to its instrumented time: at least the iterations'
    (inclusive), at most the iterations' plus the other top-level phases (setup, balance and
    the collectives outside them), never more (the send/recv split counted twice did)."""
    import h5py
    with h5py.File(os.path.join(campaign, "runs/0002/results.h5"), "r") as f:
        ph = {n: {s: [float(v) for v in f["phases"][n][s][()]] for s in ("inclusive", "exclusive")}
              for n in f["phases"]}
    check(any(n in ph for n in report.SPLIT_PHASES), "run 0002 has the send/recv split")
    stack = sum(report.phase_stack(ph).values())
    mean = lambda name: sum(ph[name]["inclusive"]) / len(ph[name]["inclusive"])  # noqa: E731
    low = mean("iteration")
    high = sum(mean(n) for n in ("iteration", "setup", "balance", "barrier", "bcast", "allreduce")
               if n in ph)
    check(low <= stack * (1 + 1e-9) and stack <= high * (1 + 1e-9),
          f"the phase stack {stack:.6g} s lies in [iterations {low:.6g}, top-level phases {high:.6g}]")


def check_errors_csv(campaign):
    import h5py
    with open(os.path.join(campaign, "errors.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    check(rows and list(rows[0].keys()) == report.CSV_COLUMNS, f"errors.csv columns {list(rows[0]) if rows else []}")
    ids = sorted({r["run_id"] for r in rows})
    check(ids == ["0002", "0004"], f"errors.csv scores the readable predicted runs only: {ids}")
    with h5py.File(os.path.join(campaign, "runs/0002/results.h5"), "r") as f:
        compare = f["compare"][()]
    n_compare = len(compare)
    check(len(rows) == 2 * n_compare, f"errors.csv: {len(rows)} rows, expected 2 runs x {n_compare}")
    check(all(r["app"] == "sweep3d" and r["group"] == "sweep3d-pred" for r in rows), "app and group columns")
    check(all(r["configuration"] == "grid=1x2;mk=10;mmi=3;ranks=2" for r in rows), "configuration column")
    # One error by hand: run 0002's first /compare row.
    first = compare[0]
    model, term = first["model"].decode(), first["term"].decode()
    row = [r for r in rows if r["run_id"] == "0002" and r["model"] == model and r["term"] == term]
    check(len(row) == 1, f"one row for 0002 {model}/{term}")
    if row:
        by_hand = (first["modelled"] - first["measured"]) / first["measured"]
        check(math.isclose(float(row[0]["error"]), by_hand, rel_tol=1e-12),
              f"error {row[0]['error']} == (modelled - measured) / measured = {by_hand}")
        check(math.isclose(float(row[0]["measured_s"]), first["measured"], rel_tol=1e-15), "measured_s")
        check(row[0]["rep"] == "1" and row[0]["ranks"] == "2", "rep and ranks columns")
        # The floor of the configuration over its two repetitions, by hand.
        both = [r for r in rows if r["model"] == model and r["term"] == term]
        m = sorted(float(r["measured_s"]) for r in both)
        med = (m[0] + m[1]) / 2
        floor = (abs(m[0] - med) + abs(m[1] - med)) / 2 / med
        check(all(math.isclose(float(r["noise_floor"]), floor, rel_tol=1e-9) for r in both),
              f"noise floor {both[0]['noise_floor']} == {floor}")
        mod = sorted(float(r["modelled_s"]) for r in both)
        err = ((mod[0] + mod[1]) / 2 - med) / med
        check(all(r["below_floor"] == ("1" if abs(err) <= floor else "0") for r in both),
              "below_floor from the error of the medians and the floor")
    check(all(r["busy"] == ("1" if r["run_id"] == "0004" else "0") for r in rows),
          "busy marks the loaded run 0004 only")


def check_traces(build, campaign):
    """The fixture's runs are traced: with instrument-trace-export built, each has an OTF2
    archive that otf2-print reads; without it, the report says the export was skipped."""
    with open(os.path.join(campaign, "report.html"), encoding="utf-8") as f:
        page = f.read()
    if not os.access(os.path.join(build, "instrument", "instrument-trace-export"), os.X_OK):
        check("no OTF2 export" in page, "the report says the OTF2 export was skipped")
        return
    for run in ("0001", "0002", "0003", "0004"):
        check(f"OTF2 trace of run {run}: ok: traces/{run}/traces.otf2" in page, f"run {run}'s OTF2 export listed")
        done = subprocess.run(["otf2-print", os.path.join(campaign, "traces", run, "traces.otf2")],
                              capture_output=True, text=True, timeout=120)
        check(done.returncode == 0 and "ENTER" in done.stdout, f"otf2-print reads run {run}'s trace")


def png_non_blank(path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image
    import numpy as np
    img = matplotlib.image.imread(path)[:, :, :3]
    flat = (img.reshape(-1, 3) * 255).astype(np.uint8)
    colours = len(np.unique(flat[::7], axis=0))
    non_white = float(np.mean(np.any(flat < 245, axis=1)))
    return colours, non_white


def check_chromium(campaign, work):
    page = "file://" + os.path.abspath(os.path.join(campaign, "report.html"))
    shot = os.path.join(work, "shot.png")
    common = ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
              f"--user-data-dir={os.path.join(work, 'chromium-profile')}"]
    done = subprocess.run(common + [f"--screenshot={shot}", "--window-size=1400,3000", page],
                          capture_output=True, text=True, timeout=120)
    check(done.returncode == 0 and os.path.exists(shot),
          f"chromium screenshot (exit {done.returncode}): {done.stderr[-400:]}")
    if os.path.exists(shot):
        colours, non_white = png_non_blank(shot)
        print(f"screenshot: {colours} colours, {100 * non_white:.1f}% not white")
        check(colours > 20 and non_white > 0.05, "the screenshot is not blank")
    done = subprocess.run(common + ["--dump-dom", page], capture_output=True, text=True, timeout=120)
    dom = done.stdout
    check(done.returncode == 0 and "</html>" in dom, f"chromium --dump-dom (exit {done.returncode})")
    for heading in ("Campaign report-test", "Contents", "Summary", "Failed runs",
                    "sweep3d: models against runs", "Provenance: which run fed which constant",
                    "Exports"):
        check(re.search(r"<h[12][^>]*>" + re.escape(heading) + r"</h[12]>", dom) is not None,
              f"heading {heading!r} in the DOM")
    # The summary: a row per model and total term, linking to the app's section and model.
    summary = dom[dom.find('id="summary"'):dom.find('id="failed"')]
    for model in ("loggp", "pipeline"):
        check(re.search(r'<a href="#app-sweep3d">sweep3d</a></td><td><a href="#app-sweep3d-model-'
                        + model + r'">' + model + r"</a></td><td>T_total</td>", summary) is not None,
              f"summary row sweep3d {model} T_total with its links")
    check("median error of the medians" in summary and "busy runs" in summary, "summary columns")
    # The marked column counts what each run said of itself (its own load samples too, which
    # tests run beside it may trip): only its form is checked here; check_placement counts it.
    check(re.search(r'<td class="n">1/2</td><td class="n">n/a</td><td class="n">[0-2]/2</td>'
                    r'<td class="n">(n/a|[-+][0-9]+\.[0-9]%)</td></tr>', summary) is not None,
          "summary: one busy run of 2, the placement unknown (sweep3d has no bspprobe), the runs marked by "
          "themselves of 2, the reliable runs' error")
    for target in set(re.findall(r'href="#([^"]+)"', dom)):
        check(f'id="{target}"' in dom, f"the link #{target} has its anchor")
    # Times with their unit in the header, 3-4 significant digits in the cells.
    headers = re.findall(r"<th>measured median \[(s|ms|us)\]</th>", dom)
    check(len(headers) >= 10, f"{len(headers)} tables with the unit in the measured header")
    check("ms" in headers, f"the small deck's totals in ms: units {sorted(set(headers))}")
    app_part = dom[dom.find('id="app-sweep3d"'):dom.find('id="provenance"')]
    cells = re.findall(r'<td class="n">([^<]*)</td>', app_part)
    times = [c for c in cells if re.fullmatch(r"-?[0-9.]+(e[-+][0-9]+)?", c)]
    check(times, "numeric time cells in the sweep3d section")
    # 4 significant digits (an integer of 10000 and above has more, but no fraction).
    digits = lambda c: len(c.split("e")[0].replace("-", "").replace(".", "").lstrip("0"))  # noqa: E731
    long = [c for c in times if "." in c and digits(c) > 4]
    check(not long, f"time cells of at most 4 significant digits: {long[:5]}")
    check("a made-up failure" in dom, "the failed run's error line")
    check("0006" in dom and "not an HDF5 file" in dom, "the unreadable run and its reason")
    check("within noise" in dom or "noise floor" in dom, "the noise floor column")
    images = re.findall(r'<img alt="[^"]*" src="data:image/png;base64,([A-Za-z0-9+/=]+)"', dom)
    check(len(images) >= 4, f"{len(images)} embedded PNGs, expected >= 4 (2 models, heat-map, phases)")
    for data in images:
        raw = base64.b64decode(data)
        check(raw.startswith(PNG_MAGIC) and len(raw) > 1000, "an <img> decodes as a PNG")
    check(not re.search(r'(src|href)="(https?:|//)', dom), "no external link in the report")


def main():
    build = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="campaign_report.")
    campaign = os.path.join(work, "campaign")
    os.makedirs(campaign)
    unit_tests()
    unit_tests_layout()
    unit_tests_placement()
    check_results_round_trip(work)
    check_loggps_placement(work)
    check_placement(build, work)
    report_fixture.make_campaign(build, campaign)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        report.write_report(campaign)
    summary = printed.getvalue()
    sys.stdout.write(summary)
    check("1 run(s) with results not read (the report lists them), e.g. run 0006: " in summary,
          "the summary names the unreadable run")
    check_phase_stack(campaign)
    for name in ("report.html", "errors.csv", "extrap.jsonl"):
        check(os.path.isfile(os.path.join(campaign, name)), f"{name} written")
    check_errors_csv(campaign)
    check_traces(build, campaign)
    check_chromium(campaign, work)
    if failures:
        print(f"{len(failures)} check(s) failed; work kept in {work}")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("campaign report: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
