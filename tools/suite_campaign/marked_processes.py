"""The processes a command started, found by a mark in their environment, so that none
outlives its step.

A step's command runs in a session of its own, and killing that session's group was thought
enough. It is not: MPICH's mpiexec starts hydra_pmi_proxy in a session of its own, and the
proxy starts each rank in another. An mpiexec that a SIGTERM reaches while it starts up dies
at once and leaves its proxy and rank running, reparented away, where following the process
tree cannot find them (CI, 2026-12-07: a companion's sweep3d and its proxy alive after the
runner had returned; a stress run under load left one in 40). What every one of them still
has is the environment it was started with, and mpiexec passes the environment on to the
proxy and the ranks. So each command gets a mark of its own in its environment, and its
processes are the live ones whose /proc/PID/environ holds it.
"""

import itertools
import os
import signal
import time

MARK_NAME = "SUITE_CAMPAIGN_MARK"
_serial = itertools.count()


def new_mark():
    """A value of MARK_NAME that no other command of any runner has."""
    return f"{os.getpid()}.{time.time_ns()}.{next(_serial)}"


def marked(mark):
    """The pids of the live processes (zombies are not) whose environment holds the mark."""
    needle = f"{MARK_NAME}={mark}\0".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                environ = f.read()
        except OSError:
            continue  # gone, or not ours to read (a process of another user: not ours at all)
        # A zombie's environment reads empty.
        if (b"\0" + environ).find(b"\0" + needle) >= 0:
            found.append(int(name))
    return found


def _kill(pids, signum):
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def stop(processes, marks, grace):
    """Stops each Popen in `processes` (each a session leader, started with its mark of
    `marks` in its environment) and every process that carries one of the marks; returns once
    none is left and the leaders are reaped.

    SIGTERM goes to each leader's group (mpiexec passes it on to its proxy and the proxy to
    the ranks); once the leaders' groups are gone, to the marked processes left (no mpiexec is
    left to pass it on); after `grace` seconds SIGKILL to every one left."""
    for p in processes:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + grace
    orphans_told = False
    while True:
        groups = []
        for p in processes:
            p.poll()  # a leader is reaped as it ends (a zombie leader would keep its group)
            try:
                os.killpg(p.pid, 0)
                groups.append(p)
            except (ProcessLookupError, PermissionError):
                pass
        left = [pid for mark in marks for pid in marked(mark)]
        if not groups and not left:
            break
        if time.monotonic() > deadline + grace:
            break  # what SIGKILL does not end (uninterruptible sleep) cannot be waited for
        if time.monotonic() > deadline:
            for p in groups:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            _kill(left, signal.SIGKILL)
        elif not groups and not orphans_told:
            orphans_told = True
            _kill(left, signal.SIGTERM)
        time.sleep(0.02)
    for p in processes:
        p.wait()
