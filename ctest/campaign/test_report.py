"""The campaign report on a small real campaign (report_fixture.py: sweep3d calibrated at
1 rank, predicted at 2, two repetitions, one failed run, one unreadable results file):

- errors.csv: one row per (model, term, configuration, repetition) of the predicted runs
  only, the contract's columns, one error recomputed by hand from the results file, the
  noise floor of a configuration recomputed from its measured times, the busy flag of the
  run the fixture marks loaded;
- noise_floor and below_floor on synthetic numbers;
- report.html in headless Chromium: a screenshot that is not blank, and the DOM holding the
  expected headings and <img> tags whose data decode as PNGs of nonzero size.

  test_report.py BUILD_DIR
"""
import base64
import csv
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import report_fixture  # noqa: E402  (puts tools/ on sys.path)

from suite_campaign import report  # noqa: E402

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
    for heading in ("Campaign report-test", "Failed runs", "sweep3d: models against runs",
                    "sweep3d: plots", "Provenance: which run fed which constant", "Exports"):
        check(re.search(r"<h[12]>" + re.escape(heading) + r"</h[12]>", dom) is not None,
              f"heading {heading!r} in the DOM")
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
    report_fixture.make_campaign(build, campaign)
    report.write_report(campaign)
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
