"""The inside of one Slurm job of a campaign: runs one step on the compute node exactly as the
local backend runs it (LocalBackend._run_step: the command, its timeout, the post commands,
the output checks, the load sampling, the one-line error) and writes DIR/runs/<id>/status.json.

    /usr/bin/python3 tools/suite_campaign/slurm_job.py DIR/runs/<id>/step.json

step.json is the step's manifest record plus "campaign_dir", written by backend_slurm.py
beside job.sh. The job records the step only in its status.json (the step record with
status, exit, error, elapsed, started, finished, load and job_id = SLURM_JOB_ID), never in
campaign.json, which belongs to the runner. A job without a status.json saying done or
failed did not finish (cancelled, timed out, node lost). The exit status is 0 exactly when
the step is done, so that a job submitted with --dependency=afterok on it starts only after
a step that succeeded.

MPICH's mpiexec starts its ranks through srun inside an allocation; here HYDRA_LAUNCHER=fork
(unless the step's environment sets it) makes them children of this process instead. A job
has one node, so srun adds nothing but a job step; and as children the ranks' CPU time is
this process's, so busy_others means the same as in a local run.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from suite_campaign.backend_local import LocalBackend  # noqa: E402
from suite_campaign.store import Store  # noqa: E402


class JobStore:
    """What LocalBackend._run_step needs of a store, writing only this step's status.json.
    The runner removed the step's earlier files before submitting it, and the job's own
    files (job.sh, step.json, job.out) live in the same directory: nothing is cleared here."""

    def __init__(self, campaign_dir, status_path, job_id):
        self.dir = campaign_dir
        self.status_path = status_path
        self.job_id = job_id

    def path(self, relative):
        return os.path.join(self.dir, relative)

    def clear_step_files(self, step):
        pass

    reset = staticmethod(Store.reset)

    def update(self, step, **fields):
        step.update(fields, job_id=self.job_id)
        temporary = f"{self.status_path}.tmp.{os.getpid()}"
        with open(temporary, "w") as f:
            json.dump(step, f, indent=1)
            f.write("\n")
        os.replace(temporary, self.status_path)

    def save(self):
        pass


def main(argv):
    if len(argv) != 2:
        print("usage: slurm_job.py DIR/runs/<id>/step.json", file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        step = json.load(f)
    campaign_dir = step.pop("campaign_dir")
    if "HYDRA_LAUNCHER" not in step.get("env", {}):
        os.environ["HYDRA_LAUNCHER"] = "fork"
    store = JobStore(campaign_dir, os.path.join(os.path.dirname(os.path.abspath(argv[1])),
                                                "status.json"), os.environ.get("SLURM_JOB_ID"))
    # Slurm started this job after the jobs of the steps it needs succeeded (afterok).
    needs_done = {n: {"status": "done"} for n in step.get("needs", [])}
    LocalBackend()._run_step(store, step, needs_done)
    if step["status"] == "done":
        return 0
    return min(step.get("exit") or 1, 255) if (step.get("exit") or 0) > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
