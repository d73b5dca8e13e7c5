"""What the Slurm backend's tests share: a real one-node Slurm started for the test
(scripts/slurm-local.sh) and always stopped, a small sweep3d campaign, wrappers of sbatch and
squeue that count their calls, a job that holds the node so that the campaign's jobs stay queued, and waiting
on campaign.json.

If Slurm cannot start, the test fails with slurm-local.sh's reason: it does not skip.
"""

import contextlib
import os
import subprocess
import sys
import time

from campaign_testlib import REPO, RUNNER, check, manifest, write

SLURM_LOCAL = os.path.join(REPO, "scripts", "slurm-local.sh")

# Two repetitions of a 1-rank calibration and a 2-rank prediction of sweep3d's small deck,
# after a quick LogGP probe: five jobs, the predictions needing the probe and a calibration.
SPEC = """
[campaign]
name = "slurm-small"
repetitions = 2
timeout = 120

[[probe]]
name = "loggps"
program = "instrument/loggps-probe"
ranks = 2
args = ["--quick", "--max-bytes", "65536", "--out", "{machine}"]

[[group]]
name = "cal"
app = "sweep3d"
role = "calibrate"
program = "sweep3d/sweep3d"
ranks = 1
args = ["{inputs}/sweep3d/small.input", "--mk", "4", "--mmi", "3",
        "--machine", "{probe.loggps}", "--results", "{results}"]

[[group]]
name = "pred"
app = "sweep3d"
role = "predict"
program = "sweep3d/sweep3d"
ranks = 2
args = ["{inputs}/sweep3d/small.input", "--mk", "4", "--mmi", "3", "--grid", "1x2",
        "--machine", "{probe.loggps}", "--calibration", "{calibrations}", "--results", "{results}"]
calibrated_by = [ { group = "cal" } ]
"""
STEPS = 5
RUNNERS = []    # the runners started in the background, killed when the test ends


@contextlib.contextmanager
def local_slurm(scratch_dir):
    """A running one-node Slurm for the block: sets SLURM_CONF, stops the daemons after."""
    state = os.path.join(scratch_dir, "slurm")
    started = subprocess.run(["bash", SLURM_LOCAL, "start", state], capture_output=True,
                             text=True, timeout=180)
    if started.returncode != 0:
        subprocess.run(["bash", SLURM_LOCAL, "stop", state], capture_output=True, timeout=120)
        raise AssertionError("Slurm did not start (scripts/slurm-local.sh start): "
                             + (started.stderr.strip() or f"exit {started.returncode}"))
    os.environ["SLURM_CONF"] = started.stdout.strip().splitlines()[-1]
    try:
        yield state
    finally:
        for runner in RUNNERS:      # a failed check leaves no runner behind either
            if runner.poll() is None:
                runner.kill()
                runner.wait()
        subprocess.run(["bash", SLURM_LOCAL, "stop", state], timeout=180)


def counting_command(scratch_dir, name):
    """Puts a `name` that logs each call's arguments, then runs the real one, first on PATH;
    returns a function giving the number of calls so far whose arguments contain `part` (every
    call by default)."""
    bin_dir = os.path.join(scratch_dir, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    log = os.path.join(scratch_dir, f"{name}-calls.log")
    # The real one, looked up past the wrappers (a wrapper found here would exec itself).
    path = os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep) if d != bin_dir)
    real = subprocess.run(["sh", "-c", f"command -v {name}"], capture_output=True, text=True,
                          env={**os.environ, "PATH": path}).stdout.strip()
    check(real, f"no {name} on PATH: install Debian's slurm-wlm")
    script = write(os.path.join(bin_dir, name), f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    os.chmod(script, 0o755)
    if os.environ["PATH"].split(os.pathsep)[0] != bin_dir:
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ["PATH"]

    def calls(part=""):
        if not os.path.exists(log):
            return 0
        with open(log) as f:
            return sum(1 for line in f if part in line)
    return calls


def counting_sbatch(scratch_dir):
    """counting_command for sbatch: the number of submissions so far."""
    return counting_command(scratch_dir, "sbatch")


# The runner's squeue call as counting_command logs it (the format of backend_slurm.py's
# _states: keep the two alike); the tests' own (job_state, -j JOB -o %T) lack it.
RUNNER_SQUEUE = "-o %i|%T|%r"


def hold_node():
    """Submits a job that takes every CPU of the node until cancelled; its job id."""
    out = subprocess.run(["sbatch", "--parsable", "--job-name=hold", "--nodes=1", "--exclusive",
                          "--output=/dev/null", "--wrap", "sleep 600"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    job = out.strip().split(";")[0]
    wait_for(lambda: job_state(job) == "RUNNING", 60, f"the holding job {job} to run")
    return job


def job_state(job_id):
    out = subprocess.run(["squeue", "-h", "-t", "all", "-j", job_id, "-o", "%T"],
                         capture_output=True, text=True, timeout=60).stdout.strip()
    return out or None


def scancel(job_id):
    subprocess.run(["scancel", job_id], check=True, timeout=60)


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def all_submitted(out_dir):
    """True when campaign.json records a job id for every step."""
    try:
        steps = manifest(out_dir)["steps"]
    except (OSError, ValueError, KeyError):
        return False
    return len(steps) == STEPS and all(s["status"] == "submitted" and s["job_id"] for s in steps)


def start_runner(spec, out_dir, build, *extra):
    """suite-campaign run ... --backend slurm in the background: the Popen."""
    runner = subprocess.Popen([sys.executable, RUNNER, "run", spec, "--out", out_dir, "--build",
                             build, "--backend", "slurm", "--slurm-poll", "0.3", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    RUNNERS.append(runner)
    return runner


def finish(runner, seconds=300):
    """(exit status, stdout, stderr) of a background runner."""
    out, err = runner.communicate(timeout=seconds)
    return runner.returncode, out, err


def check_done_run(out_dir, step):
    check(step["status"] == "done", f"step {step['id']} not done: {step['status']} {step['error']}")
    if step["results"]:
        check(os.path.isfile(os.path.join(out_dir, step["results"])),
              f"step {step['id']}: results file {step['results']} missing")
    job_sh = os.path.join(out_dir, "runs", step["id"], "job.sh")
    with open(job_sh) as f:
        text = f.read()
    ranks = max(1, step["ranks"])
    for line in (f"#SBATCH --ntasks={ranks}", "#SBATCH --nodes=1",
                 f"#SBATCH --job-name=suite-slurm-small-{step['id']}"):
        check(line in text, f"{job_sh}: no line {line!r}")
