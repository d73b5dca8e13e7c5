"""The Slurm backend against a real one-node Slurm (started here, stopped at the end): a small
sweep3d campaign runs end to end through sbatch; a job cancelled while queued is recorded
failed with CANCELLED and the others finish; --resume submits that one step again and no
other.

Usage: /usr/bin/python3 test_slurm_cancel_resume.py BUILD_DIR
"""

import os

from campaign_testlib import build_dir, check, check_equal, manifest, run, scratch, write
from slurm_testlib import (SPEC, STEPS, all_submitted, check_done_run, counting_sbatch, finish,
                           hold_node, local_slurm, scancel, start_runner, wait_for)


def main():
    build = build_dir()
    tmp = scratch()
    spec = write(os.path.join(tmp, "spec.toml"), SPEC)
    out = os.path.join(tmp, "campaign")
    sbatch_calls = counting_sbatch(tmp)
    with local_slurm(tmp):
        hold = hold_node()      # the campaign's jobs stay queued until it goes
        held = sbatch_calls()   # the holding job's
        runner = start_runner(spec, out, build)
        wait_for(lambda: all_submitted(out), 120, "every step submitted")
        check_equal(sbatch_calls() - held, STEPS, "sbatch calls after submitting")
        first = {s["id"]: s["job_id"] for s in manifest(out)["steps"]}
        check_equal(len(set(first.values())), STEPS, "distinct job ids")
        # Dependencies: a prediction waits for the probe's and its calibration's jobs.
        with open(os.path.join(out, "runs", "0003", "step.json")) as f:
            check("0001" in f.read(), "step 0003's step.json: the probe 0001 not among its needs")
        cancelled = "0005"      # pred rep 2: nothing needs it
        scancel(first[cancelled])
        scancel(hold)
        code, _, err = finish(runner)
        check_equal(code, 1, f"runner exit with a cancelled job (stderr: {err.strip()})")
        steps = {s["id"]: s for s in manifest(out)["steps"]}
        bad = steps[cancelled]
        check_equal(bad["status"], "failed", "cancelled step's status")
        check("CANCELLED" in (bad["error"] or ""), f"cancelled step's error: {bad['error']!r}")
        check("\n" not in bad["error"], "the error is one line")
        for sid, step in steps.items():
            if sid != cancelled:
                check_done_run(out, step)
        check(f"run {cancelled} pred rep 2" in err and "CANCELLED" in err,
              f"no progress line for the cancelled run in:\n{err}")
        status = run("status", out)
        check(f"failed: run {cancelled}" in status.stdout and "CANCELLED" in status.stdout,
              f"status output:\n{status.stdout}")

        resumed = run("run", spec, "--out", out, "--build", build, "--backend", "slurm",
                      "--slurm-poll", "0.3", "--resume")
        check_equal(resumed.returncode, 0, f"resume exit (stderr: {resumed.stderr.strip()})")
        check_equal(sbatch_calls() - held, STEPS + 1, "sbatch calls after the resume (only the cancelled step)")
        steps = {s["id"]: s for s in manifest(out)["steps"]}
        for sid, step in steps.items():
            check_done_run(out, step)
            if sid != cancelled:
                check_equal(step["job_id"], first[sid], f"step {sid}'s job id after the resume")
        check(steps[cancelled]["job_id"] != first[cancelled], "the cancelled step got a new job")
    print("ok: campaign through sbatch, cancelled job recorded, resume reran only it")


if __name__ == "__main__":
    main()
