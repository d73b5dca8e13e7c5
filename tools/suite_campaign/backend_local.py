"""The local backend: runs the campaign's steps one at a time on this machine, through
mpiexec, and records each in the store as it ends (the contract's Backend interface:
execute(store, steps, progress)).

A step runs in its own session (process group), with a mark in its environment that its
proxy and ranks inherit (marked_processes.py), and with stdout and stderr to files, so that a
timeout or an interruption can kill it and everything it started. After each step one
progress line goes to stderr:

  [12/40 done, 1 failed, 27 left, 3m12s elapsed, ETA 7m05s] run 0013 tycho-pred rep 2 ...

(ETA: the mean time of the steps finished so far times the steps left). A failed step is
recorded with a one-line error (the last line its program wrote to stderr, "no results
file", "timed out after 600 s", ...) and the campaign goes on; a step that needs a failed
one (a run whose calibration, probe or prepare failed) is recorded failed without running:
"calibration 0003 failed".

SIGINT or SIGTERM to the runner kills the running step, makes it pending again (its partial
files removed) and raises Interrupted once the manifest is saved; `run --resume` finishes
the campaign without rerunning any step that is done.

Companions. A step with companions = N (a group's `companions`: a one-rank calibration) runs
beside N copies of itself that write nothing (plan.py's companion_command), each started under
taskset and pinned with --pin-cpu on one of the CPUs of the runner's affinity mask after the
lowest (the step itself runs on the lowest: mpiexec binds it to the first core, and a one-rank
run pins itself to the lowest CPU of its mask), each started again as it ends until the step
ends, then stopped (SIGTERM, which mpiexec passes on, then SIGKILL) and waited for down to the
ranks (marked_processes.py). So the step's run sees the node as loaded as the runs it calibrates
do: on the AMD EPYC Zen 5 guest (2026-12-06) sweep3d's W_g read 1.88 ns alone, 2.35-2.48 beside
a copy, and 2.27-2.46 in the 1x2 run it calibrates, in the same minutes. A companion that fails
fails the step, with its last line. With fewer CPUs in the mask than the run and its companions
need, as many run as there are CPUs beside the run's (none on one CPU); the step records how
many ran (companions_run).
"""

import os
import signal
import subprocess
import sys
import time

from . import machine_state, marked_processes
from .store import now

SUITE_RESULTS_FORMAT = "suite-results-1"
KILL_GRACE_SECONDS = 5.0
POLL_SECONDS = 0.1
# Companions start this much before their step, so that their set-up is behind them.
COMPANION_HEAD_START_SECONDS = 0.5


class Interrupted(Exception):
    """The runner got SIGINT or SIGTERM; the manifest is saved. done: steps done."""

    def __init__(self, done):
        super().__init__(f"interrupted: {done} done, resume with --resume")
        self.done = done


def format_duration(seconds):
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def describe_step(step):
    """`run 0013 tycho-pred rep 2 mk=10 ranks=2` or `probe 0001 loggps`."""
    if step["kind"] != "run":
        return f"{step['kind']} {step['id']} {step['name']}"
    config = " ".join(f"{k}={v}" for k, v in step["config"].items())
    return f"run {step['id']} {step['group']} rep {step['rep']}" + (f" {config}" if config else "")


class Progress:
    """The progress line after each step, on stderr (or out)."""

    def __init__(self, steps, out=None):
        self.steps = steps
        self.out = out if out is not None else sys.stderr
        self.start = time.monotonic()
        self.durations = []

    def finished(self, step, seconds):
        """Prints the line for step, which just ended after seconds."""
        self.durations.append(seconds)
        done = sum(s["status"] == "done" for s in self.steps)
        failed = sum(s["status"] == "failed" for s in self.steps)
        left = len(self.steps) - done - failed
        elapsed = time.monotonic() - self.start
        eta = sum(self.durations) / len(self.durations) * left
        outcome = (f"done in {seconds:.1f}s" if step["status"] == "done"
                   else f"{step['status']}: {step['error']}")
        print(f"[{done}/{len(self.steps)} done, {failed} failed, {left} left, "
              f"{format_duration(elapsed)} elapsed, ETA {format_duration(eta)}] "
              f"{describe_step(step)}: {outcome}", file=self.out, flush=True)


def last_line(path):
    """The last non-blank line of a text file, shortened to one readable line, or None."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 8192))
            lines = [l.strip() for l in f.read().decode("utf-8", "replace").splitlines()]
    except OSError:
        return None
    lines = [l for l in lines if l]
    if not lines:
        return None
    line = lines[-1]
    return line if len(line) <= 300 else line[:297] + "..."


def check_results_file(path):
    """None when path is a suite results file, else the one-line error."""
    if not os.path.isfile(path):
        return "no results file"
    try:
        import h5py
        with h5py.File(path, "r") as f:
            value = f.attrs.get("format")
    except Exception as e:  # h5py raises OSError and others on a file that is not HDF5
        return f"results file unreadable ({type(e).__name__})"
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if value != SUITE_RESULTS_FORMAT:
        return f'results file is not a suite results file (format "{value}")'
    return None


class LocalBackend:
    """Runs steps here, one at a time, in list order."""

    def __init__(self, options=None):
        self.options = options
        self.process = None
        self.interrupted = False

    # --- signals -----------------------------------------------------------------------------

    def _on_signal(self, signum, frame):
        self.interrupted = True
        self._signal_group(signal.SIGTERM)

    def _signal_group(self, signum):
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signum)
            except (ProcessLookupError, PermissionError):
                pass

    # --- running -------------------------------------------------------------------------------

    def execute(self, store, steps, progress):
        previous = {s: signal.signal(s, self._on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            by_id = {s["id"]: s for s in store.steps}
            for step in steps:
                if step["status"] == "done":
                    continue
                if self.interrupted:
                    break
                start = time.monotonic()
                self._run_step(store, step, by_id)
                if self.interrupted:
                    break
                progress.finished(step, time.monotonic() - start)
            if self.interrupted:
                raise Interrupted(sum(s["status"] == "done" for s in store.steps))
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)

    def _run_step(self, store, step, by_id):
        blocked = next((n for n in step.get("needs", []) if by_id[n]["status"] != "done"), None)
        if blocked is not None:
            kind = "calibration" if blocked in step.get("calibrations", []) else by_id[blocked]["kind"]
            store.clear_step_files(step)
            store.reset(step)
            store.update(step, status="failed", error=f"{kind} {blocked} failed", finished=now())
            return
        store.clear_step_files(step)
        store.reset(step)
        os.makedirs(store.path(step["cwd"]), exist_ok=True)
        store.update(step, status="running", started=now())
        companions, error, command = self._start_companions(store, step)
        try:
            before = machine_state.Sample()
            start = time.monotonic()
            code = None
            if error is None:
                code, error = self._run_command(store, command, step["env"], step["cwd"],
                                                step["stdout"], step["stderr"], step["timeout"])
            elapsed = time.monotonic() - start
            after = machine_state.Sample()  # the companions' CPU time is in it as others'
        finally:
            companion_error = self._stop_companions(store, step, companions)
        if error is None:
            error = companion_error
        for k, command in enumerate(step.get("post", [])):
            if error is not None or self.interrupted:
                break
            base = f"{step['cwd']}/post{k}"
            post_env = step.get("post_env", [{}] * (k + 1))[k]
            post_code, post_error = self._run_command(
                store, command, post_env, step["cwd"], base + ".stdout.txt",
                base + ".stderr.txt", step["timeout"])
            if post_error is not None:
                error = f"post {k} ({os.path.basename(command[0])}): {post_error}"
        if self.interrupted:
            store.clear_step_files(step)
            store.reset(step)
            store.save()
            return
        if error is None:
            error = self._check_outputs(store, step)
        store.update(step, status="done" if error is None else "failed", exit=code, error=error,
                     elapsed=round(elapsed, 6), finished=now(),
                     load=machine_state.load_between(before, after))

    def _start_companions(self, store, step):
        """([(cpu, process, mark)], None, the step's command) with the step's companions started, or
        ([], the error, None). Where the runner's affinity mask has fewer CPUs than the run and
        its companions need, as many run as there are CPUs beside the run's (none on one CPU),
        the run is told that many (--beside) and the step records it (companions_run)."""
        n = step.get("companions") or 0
        command = step["command"]
        if not n:
            return [], None, command
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) < n + 1:
            n = len(cpus) - 1
            told = command[-2:] == ["--beside", str(step["companions"])]
            command = (command[:-2] if told else command) + (["--beside", str(n)] if n > 0 else [])
        store.update(step, companions_run=n)
        started = []
        full_env = dict(os.environ)
        full_env.update(step["env"])
        # Each copy again as it ends, until killed; the last copy's output kept beside the
        # step's (its stderr for the step's error).
        # The loop ends too when the runner is gone (killed before it could stop it).
        loop = 'while kill -0 "$RUNNER" 2> /dev/null; do "$@" > "$OUT" 2> "$ERR" < /dev/null || exit $?; done'
        for k, cpu in enumerate(cpus[1:n + 1] if n > 0 else []):
            mark = marked_processes.new_mark()
            env = dict(full_env, OUT=store.path(f"{step['cwd']}/companion{k}.stdout.txt"),
                       ERR=store.path(f"{step['cwd']}/companion{k}.stderr.txt"), RUNNER=str(os.getpid()))
            env[marked_processes.MARK_NAME] = mark
            # On its CPU from the start (taskset: mpiexec, its proxy and the copy's start-up too),
            # and pinned there by the copy itself (--pin-cpu) whatever its launcher does.
            copy = ["taskset", "-c", str(cpu), "sh", "-c", loop, "companion"] + \
                step["companion_command"] + ["--pin-cpu", str(cpu)]
            try:
                started.append((cpu, subprocess.Popen(copy, stdin=subprocess.DEVNULL,
                                                      stdout=subprocess.DEVNULL, cwd=store.path(step["cwd"]),
                                                      env=env, start_new_session=True), mark))
            except OSError as e:
                self._stop_companions(store, step, started)
                return [], f"cannot start companion {k}: {e.strerror}", None
        if started:
            time.sleep(COMPANION_HEAD_START_SECONDS)
        return started, None, command

    def _stop_companions(self, store, step, started):
        """None, or the one-line error of the first companion that ended before it was stopped."""
        error = None
        for k, (cpu, p, _) in enumerate(started):
            if p.poll() is not None and error is None:
                line = last_line(store.path(f"{step['cwd']}/companion{k}.stderr.txt"))
                error = f"companion {k} (CPU {cpu}) ended before the run did: " + (line or f"exit status {p.returncode}")
        # SIGTERM first: mpiexec passes it on to the copy it started (which its launcher put in
        # a session of its own); then wait until no process carries a copy's mark, so that no
        # copy outlives its step into the next one.
        left = marked_processes.stop([p for _, p, _ in started], [m for _, _, m in started], KILL_GRACE_SECONDS)
        if left and error is None:
            error = f"companions' processes {', '.join(map(str, left))} still running after SIGKILL"
        return error

    def _check_outputs(self, store, step):
        if step.get("results"):
            return check_results_file(store.path(step["results"]))
        if step.get("csv") and not os.path.isfile(store.path(step["csv"])):
            return "no table.csv written"
        if step.get("machine") and not os.path.isfile(store.path(step["machine"])):
            return "no machine file"
        return None

    def _run_command(self, store, command, env, cwd, stdout, stderr, timeout):
        """(exit status, None or the one-line error) of command run to its end or timeout."""
        full_env = dict(os.environ)
        full_env.update(env)
        mark = marked_processes.new_mark()  # its proxy and ranks inherit it (marked_processes.py)
        full_env[marked_processes.MARK_NAME] = mark
        try:
            with open(store.path(stdout), "wb") as out, open(store.path(stderr), "wb") as err:
                self.process = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                                cwd=store.path(cwd), env=full_env,
                                                start_new_session=True)
        except OSError as e:
            return None, f"cannot start {command[0]}: {e.strerror}"
        deadline = time.monotonic() + timeout
        timed_out = False
        kill_at = None
        while True:
            try:
                code = self.process.wait(timeout=POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                pass
            if not timed_out and time.monotonic() > deadline:
                timed_out = True
                self._signal_group(signal.SIGTERM)
            if (timed_out or self.interrupted) and kill_at is None:
                self._signal_group(signal.SIGTERM)  # again: a signal may have come before Popen
                kill_at = time.monotonic() + KILL_GRACE_SECONDS
            if kill_at is not None and time.monotonic() > kill_at:
                self._signal_group(signal.SIGKILL)
        # Whatever the step left behind in its group (a rank that outlived mpiexec) goes too,
        # and whatever the signals reached below it, which may be still ending.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        left = marked_processes.stop([self.process], [mark], KILL_GRACE_SECONDS)
        self.process = None
        if left:  # they would run on into the next step
            return code, f"processes {', '.join(map(str, left))} still running after SIGKILL"
        if timed_out:
            return code, f"timed out after {timeout:g} s"
        if code != 0:
            line = last_line(store.path(stderr)) or last_line(store.path(stdout))
            return code, line or (f"killed by signal {-code}" if code < 0 else f"exit status {code}")
        return code, None
