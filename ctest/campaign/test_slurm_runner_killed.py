"""The Slurm backend against a real one-node Slurm (started here, stopped at the end): the
runner is killed (SIGKILL) while its jobs are queued; `run --resume` follows the same jobs
to their end, submits none again, and every run is done with its results file.

Usage: /usr/bin/python3 test_slurm_runner_killed.py BUILD_DIR
"""

import os

from campaign_testlib import build_dir, check, check_equal, manifest, scratch, write
from slurm_testlib import (RUNNER_SQUEUE, SPEC, STEPS, all_submitted, check_done_run, counting_command,
                           counting_sbatch, finish, hold_node, job_state, local_slurm, scancel,
                           start_runner, wait_for)


def main():
    build = build_dir()
    tmp = scratch()
    spec = write(os.path.join(tmp, "spec.toml"), SPEC)
    out = os.path.join(tmp, "campaign")
    sbatch_calls = counting_sbatch(tmp)
    squeue_calls = counting_command(tmp, "squeue")
    with local_slurm(tmp):
        hold = hold_node()      # the campaign's jobs stay queued until it goes
        held = sbatch_calls()   # the holding job's
        runner = start_runner(spec, out, build)
        wait_for(lambda: all_submitted(out), 120, "every step submitted")
        runner.kill()
        runner.wait()
        first = {s["id"]: s["job_id"] for s in manifest(out)["steps"]}
        for sid, job in first.items():
            check_equal(job_state(job), "PENDING", f"step {sid}'s job {job} after the runner died")

        # The resumed runner follows the jobs still queued: it asks the queue again and again
        # (every 0.3 s) without ending or submitting anything.
        polled = squeue_calls(RUNNER_SQUEUE)
        resumed = start_runner(spec, out, build, "--resume")
        wait_for(lambda: squeue_calls(RUNNER_SQUEUE) >= polled + 5 or resumed.poll() is not None, 120,
                 "the resumed runner to ask the queue 5 times")
        check(resumed.poll() is None, "the resumed runner ended while its jobs were queued")
        check_equal(sbatch_calls() - held, STEPS, "sbatch calls while the resumed runner follows the queue")
        scancel(hold)
        code, _, err = finish(resumed)
        check_equal(code, 0, f"resume exit (stderr: {err.strip()})")
        check_equal(sbatch_calls() - held, STEPS, "sbatch calls (none after the runner was killed)")
        steps = manifest(out)["steps"]
        for step in steps:
            check_done_run(out, step)
            check_equal(step["job_id"], first[step["id"]], f"step {step['id']}'s job id")
    print("ok: killed runner, resume followed the same jobs, none submitted again")


if __name__ == "__main__":
    main()
