"""The Slurm backend: every step of the campaign (prepares and probes too, so that they time
the compute node) is one batch job, submitted with sbatch, followed with squeue, collected
from the status.json the job writes (slurm_job.py).

Per step, in DIR/runs/<id>/: job.sh (the batch script: #SBATCH --job-name suite-<campaign>-<id>
--nodes=1 --ntasks=<ranks> --time --output job.out --error job.err, then slurm_job.py, which
runs the same command and post commands the local backend would), step.json (what
slurm_job.py runs) and, when the job ends, status.json.

Dependencies. Each job is submitted with --dependency=afterok:<the jobs of the steps it needs>
(its prepares, the probes it names, its calibrations) and --kill-on-invalid-dep=yes, so the
whole campaign is in the queue at once: the scheduler starts each run as soon as what it
needs is done, the runner can die without stalling anything (the queue keeps going; --resume
follows it), and a run whose calibration failed is cancelled by Slurm instead of started.
Waves (submit, wait, submit the next) would need the runner alive between waves and leave
the node idle while it polls. A step whose need already failed is not submitted: it is failed
as "calibration 0003 failed" (or "probe 0002 failed", "prepare 0001 failed"), as locally.

Following. squeue -t all gives the state of every job still in slurmctld's memory (finished
ones for MinJobAge seconds); a job it no longer lists is looked up with sacct when accounting
works, else its status.json decides. A job that ends without a status.json ended outside the
step (CANCELLED, TIMEOUT, NODE_FAIL, ...): the step is failed with that state in its error.

Resume. Job ids are saved in campaign.json as soon as sbatch returns them, with the step
"submitted". On --resume, done steps are skipped, a submitted step whose job is still queued
or running is followed (never submitted twice), one whose job finished is collected, and one
whose job vanished without a status.json, or failed, is submitted again.
"""

import json
import math
import os
import shlex
import signal
import subprocess
import sys
import time

from .backend_local import Interrupted, check_results_file, describe_step, format_duration, last_line
from .store import now

# squeue's states of a job that has not ended.
ACTIVE = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED",
          "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED",
          "RESV_DEL_HOLD"}
JOB_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "slurm_job.py")


class SlurmError(Exception):
    """A Slurm command failed: one line naming it and why."""


def _command(args, what):
    """stdout of the Slurm client command args; SlurmError with its stderr's last line."""
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise SlurmError(f"{args[0]} not found: the Slurm backend needs Slurm's client "
                         f"commands on PATH") from None
    except subprocess.TimeoutExpired:
        raise SlurmError(f"{what}: {args[0]} did not answer in 120 s") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise SlurmError(f"{what}: {args[0]} exit {done.returncode}: "
                         f"{lines[-1].strip() if lines else 'no message'}")
    return done.stdout


class SlurmBackend:
    """Runs a campaign's steps as Slurm batch jobs. options: an object with (all optional)
    partition, slurm_time (sbatch --time, e.g. "10" or "1:00:00"; default the step's timeout
    for its command and each post command, plus a minute), sbatch_arg (list of extra sbatch
    arguments), slurm_poll (seconds between squeue calls, default 2)."""

    def __init__(self, options=None):
        self.partition = getattr(options, "partition", None)
        self.time_limit = getattr(options, "slurm_time", None)
        self.extra = list(getattr(options, "sbatch_arg", None) or [])
        self.poll = float(getattr(options, "slurm_poll", None) or 2.0)

    # -- the campaign ----------------------------------------------------------------------

    def execute(self, store, steps, progress=None):
        """Submits every step not done, follows the jobs until all ended. SIGINT/SIGTERM stop
        the following (the jobs go on in Slurm) and raise Interrupted once the manifest is
        saved; a Slurm command that fails ends the runner with one line (exit 1)."""
        self.interrupted = False

        def on_signal(signum, frame):
            self.interrupted = True

        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            self._execute(store, steps, progress)
        except SlurmError as e:
            store.save()
            print(f"suite-campaign: error: {e}", file=sys.stderr)
            raise SystemExit(1) from None
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
        if self.interrupted:
            queued = sum(s["status"] == "submitted" for s in steps)
            self._report(f"{queued} jobs still in Slurm: `run --resume` follows them")
            raise Interrupted(sum(s["status"] == "done" for s in steps))

    def _execute(self, store, steps, progress):
        self.store = store
        self.steps = steps
        self.by_id = {s["id"]: s for s in steps}
        self.t0 = time.monotonic()
        self.out = getattr(progress, "out", sys.stderr)
        self.ended = 0
        name = store.manifest.get("name", "campaign")

        # Resume: what the queue says of the jobs submitted before.
        submitted = [s for s in steps if s["status"] == "submitted"]
        if submitted:
            states = self._states([s["job_id"] for s in submitted])
            for s in submitted:
                state = states.get(s["job_id"])
                if state and state[0] in ACTIVE:
                    continue
                if self._job_status(s) is not None or state:
                    self._collect(s, state)
                else:                       # vanished without a trace: submit it again
                    self._report(f"job {s['job_id']} of step {s['id']} is gone from Slurm "
                                 f"without a status.json: submitting it again")
                    store.reset(s)
                    store.save()
        for s in steps:
            if s["status"] in ("failed", "running"):
                store.clear_step_files(s)
                store.reset(s)
        store.save()

        for s in steps:
            if self.interrupted:
                return
            if s["status"] == "pending":
                self._submit(s, name)
        self._follow()

    def _submit(self, step, name):
        failed = [n for n in step.get("needs", []) if self.by_id[n]["status"] == "failed"]
        if failed:
            self.store.update(step, status="failed", error=self._need_failed(step, failed[0]),
                              finished=now())
            self._line(step, "not submitted")
            return
        job_dir = self.store.path(os.path.join("runs", step["id"]))
        if step["kind"] == "run":
            self.store.clear_step_files(step)
        os.makedirs(job_dir, exist_ok=True)
        for leftover in ("status.json", "job.out", "job.err"):
            try:
                os.remove(os.path.join(job_dir, leftover))
            except FileNotFoundError:
                pass
        job = dict(step, campaign_dir=self.store.dir)
        with open(os.path.join(job_dir, "step.json"), "w") as f:
            json.dump(job, f, indent=1)
            f.write("\n")
        script = os.path.join(job_dir, "job.sh")
        with open(script, "w") as f:
            f.write(self._script(step, name, job_dir))
        args = ["sbatch", "--parsable"]
        deps = [self.by_id[n]["job_id"] for n in step.get("needs", [])
                if self.by_id[n]["status"] == "submitted"]
        if deps:
            args += ["--dependency=afterok:" + ":".join(deps), "--kill-on-invalid-dep=yes"]
        args.append(script)
        out = _command(args, f"step {step['id']}: submitting {os.path.relpath(script, self.store.dir)}")
        job_id = out.strip().split(";")[0]
        if not job_id.isdigit():
            raise SlurmError(f"step {step['id']}: sbatch printed {out.strip()!r}, expected a job id")
        # Saved at once (not in status.json: the job writes that one), so that a killed runner
        # resumes by following this job rather than submitting the step again.
        step.update(status="submitted", job_id=job_id, started=None, finished=None,
                    error=None, exit=None)
        self.store.save()

    def _script(self, step, name, job_dir):
        ranks = max(1, int(step.get("ranks") or 0))
        lines = ["#!/bin/bash",
                 f"#SBATCH --job-name=suite-{name}-{step['id']}",
                 "#SBATCH --nodes=1",
                 f"#SBATCH --ntasks={ranks}",
                 f"#SBATCH --time={self.time_limit or self._minutes(step)}",
                 f"#SBATCH --output={os.path.join(job_dir, 'job.out')}",
                 f"#SBATCH --error={os.path.join(job_dir, 'job.err')}",
                 f"#SBATCH --chdir={job_dir}"]
        if self.partition:
            lines.append(f"#SBATCH --partition={self.partition}")
        lines += [f"#SBATCH {a}" for a in self.extra]
        what = f"{step['kind']} {step['id']} {step.get('name') or ''}"
        if step.get("rep"):
            what += f" rep {step['rep']}"
        lines += ["", f"# suite-campaign {name}: {what}, written by the Slurm backend.",
                  "# slurm_job.py runs, in " + step["cwd"] + " with the environment "
                  + (" ".join(f"{k}={shlex.quote(v)}" for k, v in step.get("env", {}).items())
                     or "of the job") + ":",
                  "#   " + shlex.join(step["command"])]
        lines += ["#   then " + shlex.join(p) for p in step.get("post", [])]
        lines += ["# and writes status.json beside this script.",
                  f"exec /usr/bin/python3 {shlex.quote(JOB_SCRIPT)} "
                  f"{shlex.quote(os.path.join(job_dir, 'step.json'))}", ""]
        return "\n".join(lines)

    def _minutes(self, step):
        """sbatch --time in minutes: the timeout for the command and each post, plus one."""
        timeout = step.get("timeout") or 600
        return math.ceil(timeout * (1 + len(step.get("post", []))) / 60) + 1

    # -- following -------------------------------------------------------------------------

    def _follow(self):
        while not self.interrupted:
            waiting = [s for s in self.steps if s["status"] == "submitted"]
            if not waiting:
                return
            states = self._states([s["job_id"] for s in waiting])
            ended = False
            for s in waiting:
                state = states.get(s["job_id"])
                if state and state[0] in ACTIVE:
                    continue
                self._collect(s, state)
                ended = True
            if not ended:
                wake = time.monotonic() + self.poll
                while not self.interrupted and time.monotonic() < wake:
                    time.sleep(min(0.1, self.poll))

    def _states(self, job_ids):
        """{job id: (state, reason)} of the jobs Slurm still knows (squeue, then sacct)."""
        wanted = set(job_ids)
        states = {}
        out = _command(["squeue", "-h", "-t", "all", "-o", "%i|%T|%r"], "following the jobs")
        for line in out.splitlines():
            fields = line.strip().split("|")
            if len(fields) == 3 and fields[0] in wanted:
                states[fields[0]] = (fields[1], fields[2])
        missing = wanted - set(states)
        if missing:
            states.update(self._sacct(missing))
        return states

    @staticmethod
    def _sacct(job_ids):
        """What accounting knows of job_ids; nothing when there is no accounting (no
        slurmdbd): then status.json decides."""
        try:
            done = subprocess.run(["sacct", "-n", "-X", "-P", "-o", "JobID,State",
                                   "-j", ",".join(sorted(job_ids))],
                                  capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return {}
        if done.returncode != 0:
            return {}
        states = {}
        for line in done.stdout.splitlines():
            fields = line.strip().split("|")
            if len(fields) == 2 and fields[0] in job_ids:
                # "CANCELLED by 0" -> CANCELLED
                states[fields[0]] = (fields[1].split()[0] if fields[1] else "UNKNOWN", "")
        return states

    def _job_status(self, step):
        """The status.json this step's current job wrote, or None."""
        path = self.store.path(os.path.join("runs", step["id"], "status.json"))
        try:
            with open(path) as f:
                record = json.load(f)
        except (OSError, ValueError):
            return None
        if record.get("job_id") != step["job_id"] or record.get("status") not in ("done", "failed"):
            return None
        return record

    def _collect(self, step, state):
        """Records the end of step's job; state is (state, reason) from Slurm or None."""
        record = self._job_status(step)
        fields = {}
        if record is not None:
            fields = {k: record.get(k) for k in ("status", "exit", "error", "elapsed", "started",
                                                 "finished", "load")}
            if fields["status"] == "done" and step.get("results"):
                problem = check_results_file(self.store.path(step["results"]))
                if problem:
                    fields.update(status="failed", error=problem)
        else:
            name, reason = state if state else ("UNKNOWN", "")
            failed = [n for n in step.get("needs", []) if self.by_id[n]["status"] == "failed"]
            if failed and (reason == "DependencyNeverSatisfied" or name == "CANCELLED"):
                error = self._need_failed(step, failed[0])
            elif state is None:
                error = f"slurm job {step['job_id']} ended without a status.json (Slurm no " \
                        f"longer knows it)"
            else:
                error = f"slurm job {step['job_id']} {name}"
                if reason and reason != "None" and name != "CANCELLED":  # (a queued job's
                    # last reason, e.g. Resources, says nothing of why it was cancelled)
                    error += f" ({reason})"
                detail = last_line(self.store.path(os.path.join("runs", step["id"], "job.err")))
                if detail:
                    error += f": {detail}"
            fields = {"status": "failed", "exit": None, "error": error, "finished": now()}
        fields["slurm_state"] = state[0] if state else None
        self.store.update(step, **fields)
        self._line(step, f"job {step['job_id']} {step['status']}")

    def _need_failed(self, step, need):
        kind = "calibration" if need in step.get("calibrations", []) else self.by_id[need]["kind"]
        return f"{kind} {need} failed"

    # -- progress ----------------------------------------------------------------------------

    def _line(self, step, event):
        """The local backend's progress line, with the steps still in Slurm; the ETA from the
        campaign's pace so far (jobs overlap, so their own durations would overstate it)."""
        done = sum(s["status"] == "done" for s in self.steps)
        failed = sum(s["status"] == "failed" for s in self.steps)
        queued = sum(s["status"] == "submitted" for s in self.steps)
        left = len(self.steps) - done - failed
        elapsed = time.monotonic() - self.t0
        self.ended += 1
        eta = f", ETA {format_duration(elapsed / self.ended * left)}" if left else ""
        outcome = event + (f": {step['error']}" if step["status"] == "failed" else "")
        self._report(f"[{done}/{len(self.steps)} done, {failed} failed, {left} left "
                     f"({queued} in Slurm), {format_duration(elapsed)} elapsed{eta}] "
                     f"{describe_step(step)}: {outcome}")

    def _report(self, line):
        print(line, file=self.out, flush=True)
