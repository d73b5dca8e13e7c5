#!/usr/bin/python3
"""tycho's model parts beside the sweeps' measured critical path (tycho/model_report.hpp),
read from the results file.

    check_path_parts.py TYCHO MPIEXEC RANKS MESH MACHINE WORK_DIR

A run with the models (machine file given) at RANKS ranks:
  - /tycho/critical_path: a row per walked sweep (iterations 2 and 3 of 3), compute > 0,
    compute + comm + other = walked_s to round-off, walked_s within the measured sweep time
    of that iteration (max over ranks, /solution/iterations) give or take the ranks' start;
    comm > 0 at 2 ranks, exactly 0 at 1 rank (no message);
  - /compare: part rows GM and MSM "compute" (and "comm" at more than one rank, none at one;
    no "other": without a calibration T_step is not priced, never from the run itself),
    measured and modelled > 0, measured = the mean of /tycho/critical_path's column;
  - /tycho/calibration/step_s_per_step (T_step) at one rank only, = the mean other over the
    mean steps of the walked sweeps (/tycho/steps);
  - the same run again with --calibration of a one-rank run (this one at one rank, a new one
    otherwise): GM and MSM "other" rows, measured = the path's mean other, the MSM's modelled =
    T_step x the mean over the walked sweeps of the most steps a rank took, and the T_sweep
    rows name T_step and the calibration file;
  - the totals rows are still one T_sweep a model.
The same run without the models (--no-machine) has no trace and no /tycho/critical_path.
Exit 1 with the first difference.
"""
import os
import subprocess
import sys

import h5py


def fail(msg):
    print("check_path_parts: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b))


def main():
    if len(sys.argv) != 7:
        fail("usage: check_path_parts.py TYCHO MPIEXEC RANKS MESH MACHINE WORK_DIR")
    tycho, mpiexec, ranks, mesh, machine, work = sys.argv[1:]
    ranks = int(ranks)
    os.makedirs(work, exist_ok=True)
    results = os.path.join(work, "np%d.h5" % ranks)
    out = run([mpiexec, "-n", str(ranks), tycho, mesh, "--iterations", "3", "--machine", machine, "--results", results])
    if "The sweep's measured critical path" not in out:
        fail("%s: no line on the path's time no model term covers:\n%s" % (results, out))
    with h5py.File(results, "r") as f:
        if "tycho/critical_path" not in f:
            fail("%s: no /tycho/critical_path" % results)
        path = f["tycho/critical_path"][()]
        sweep_s = {int(r["iteration"]): float(r["sweep_s"]) for r in f["solution/iterations"][()]}
        rows = f["compare"][()]
    walked = [int(r["iteration"]) for r in path]
    if walked != [1, 2]:
        fail("%s: walked iterations %r, expected [1, 2] (the scored ones, from 0)" % (results, walked))
    for r in path:
        it, parts = int(r["iteration"]), [float(r["compute_s"]), float(r["comm_s"]), float(r["other_s"])]
        span = float(r["walked_s"])
        if not parts[0] > 0 or min(parts) < 0:
            fail("%s: iteration %d: compute, comm, other %r: compute not > 0 or a part < 0" % (results, it, parts))
        if not close(sum(parts), span, 1e-9):
            fail("%s: iteration %d: compute + comm + other = %r, walked %r" % (results, it, sum(parts), span))
        if not (0.5 * sweep_s[it] <= span <= 1.05 * sweep_s[it] + 1e-3):
            fail("%s: iteration %d: walked %r s, the sweep took %r s" % (results, it, span, sweep_s[it]))
        if ranks == 1 and parts[1] != 0.0:
            fail("%s: iteration %d: comm %r on one rank's path, expected 0" % (results, it, parts[1]))
        if ranks > 1 and not parts[1] > 0:
            fail("%s: iteration %d: comm %r on the path of %d ranks, expected > 0" % (results, it, parts[1], ranks))
    mean = {"compute": sum(float(r["compute_s"]) for r in path) / len(path),
            "comm": sum(float(r["comm_s"]) for r in path) / len(path),
            "other": sum(float(r["other_s"]) for r in path) / len(path)}
    with h5py.File(results, "r") as f:
        cal = dict(f["tycho/calibration"].attrs)
        step_rows = f["tycho/steps"][()] if "tycho/steps" in f else None
    if ranks == 1:
        if "step_s_per_step" not in cal:
            fail("%s: one rank, no /tycho/calibration/step_s_per_step" % results)
        if step_rows is None:
            fail("%s: no /tycho/steps" % results)
        steps = [sum(1 for s in step_rows if int(s["iteration"]) == it) for it in walked]
        expected = mean["other"] / (sum(steps) / len(steps))
        if not close(float(cal["step_s_per_step"]), expected, 1e-9):
            fail("%s: T_step %r, expected the path's other over its steps %r" % (results, float(cal["step_s_per_step"]), expected))
    elif "step_s_per_step" in cal:
        fail("%s: T_step written at %d ranks (only one rank's path is all steps)" % (results, ranks))
    for model in ("GM", "MSM", "TM"):
        totals = [r for r in rows if r["model"].decode() == model and r["kind"].decode() == "total"]
        if len(totals) != 1 or totals[0]["term"].decode() != "T_sweep":
            fail("%s: %s: %d total rows, expected one T_sweep" % (results, model, len(totals)))
    for model in ("GM", "MSM"):
        parts = {r["term"].decode(): r for r in rows if r["model"].decode() == model and r["kind"].decode() == "part"}
        expected = ["comm", "compute"] if ranks > 1 else ["compute"]
        if sorted(parts) != expected:
            fail("%s: %s part rows %r, expected %r" % (results, model, sorted(parts), expected))
        for term, r in parts.items():
            measured, modelled = float(r["measured"]), float(r["modelled"])
            if not (measured > 0 and modelled > 0):
                fail("%s: %s %s: measured %r, modelled %r, expected both > 0" % (results, model, term, measured, modelled))
            if not close(measured, mean[term], 1e-12):
                fail("%s: %s %s: measured %r, the path's mean %r" % (results, model, term, measured, mean[term]))
            if "critical path" not in r["source"].decode() or "modelled:" not in r["source"].decode():
                fail("%s: %s %s: the source %r does not say what each side covers" % (results, model, term, r["source"]))

    # Calibrated: T_step from a one-rank run, charged once a step.
    cal = results
    if ranks > 1:
        cal = os.path.join(work, "np1_for_np%d.h5" % ranks)
        run([mpiexec, "-n", "1", tycho, mesh, "--iterations", "3", "--machine", machine, "--results", cal])
    with h5py.File(cal, "r") as f:
        t_step = float(f["tycho/calibration"].attrs["step_s_per_step"])
    predicted = os.path.join(work, "np%d_calibrated.h5" % ranks)
    run([mpiexec, "-n", str(ranks), tycho, mesh, "--iterations", "3", "--machine", machine, "--calibration", cal,
         "--results", predicted])
    with h5py.File(predicted, "r") as f:
        ppath = f["tycho/critical_path"][()]
        prows = f["compare"][()]
        psteps = f["tycho/steps"][()]
    pwalked = [int(r["iteration"]) for r in ppath]
    pother = sum(float(r["other_s"]) for r in ppath) / len(ppath)
    most = []
    for it in pwalked:
        per_rank = {}
        for st in psteps:
            if int(st["iteration"]) == it:
                per_rank[int(st["rank"])] = per_rank.get(int(st["rank"]), 0) + 1
        most.append(max(per_rank.values()))
    for model in ("GM", "MSM"):
        other = [r for r in prows if r["model"].decode() == model and r["term"].decode() == "other"
                 and r["kind"].decode() == "part"]
        if len(other) != 1:
            fail("%s: %s: %d 'other' part rows with a one-rank calibration, expected 1" % (predicted, model, len(other)))
        if not close(float(other[0]["measured"]), pother, 1e-12):
            fail("%s: %s other measured %r, the path's %r" % (predicted, model, float(other[0]["measured"]), pother))
        if not float(other[0]["modelled"]) > 0:
            fail("%s: %s other modelled %r, expected > 0" % (predicted, model, float(other[0]["modelled"])))
        total = [r for r in prows if r["model"].decode() == model and r["term"].decode() == "T_sweep"][0]
        if "T_step" not in total["source"].decode() or cal not in total["source"].decode():
            fail("%s: %s T_sweep source %r does not name T_step and %s" % (predicted, model, total["source"], cal))
    msm_other = [r for r in prows if r["model"].decode() == "MSM" and r["term"].decode() == "other"][0]
    expected_other = t_step * sum(most) / len(most)
    if not close(float(msm_other["modelled"]), expected_other, 1e-9):
        fail("%s: MSM other modelled %r, expected T_step %r x mean steps %r" %
             (predicted, float(msm_other["modelled"]), t_step, sum(most) / len(most)))

    bare = os.path.join(work, "np%d_no_models.h5" % ranks)
    run([mpiexec, "-n", str(ranks), tycho, mesh, "--iterations", "2", "--no-machine", "--results", bare])
    with h5py.File(bare, "r") as f:
        if "trace" in f or "tycho/critical_path" in f:
            fail("%s: a run without the models has a trace or /tycho/critical_path" % bare)


if __name__ == "__main__":
    main()
