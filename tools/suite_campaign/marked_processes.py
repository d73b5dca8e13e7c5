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
# A scan reads every process's /proc/PID/stat and environ (~14 us each).
POLL_SECONDS = 0.05
_serial = itertools.count()


def new_mark():
    """A value of MARK_NAME that no other command of any runner has."""
    return f"{os.getpid()}.{time.time_ns()}.{next(_serial)}"


def _scan(marks):
    """({mark: [pids of the live processes whose environment holds it]}, {the process groups
    with a live member}); a zombie is not live (it has ended; its parent reaps it) and its
    environment reads empty."""
    needles = {mark: b"\0" + f"{MARK_NAME}={mark}\0".encode() for mark in marks}
    found = {mark: [] for mark in marks}
    groups = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            # The command name (field 2) is in parentheses and may hold spaces or ')'.
            state, _, group = stat[stat.rfind(b")") + 2:].split(b" ", 3)[:3]
            if state == b"Z":
                continue
            groups.add(int(group))
            if not needles:
                continue
            with open(f"/proc/{name}/environ", "rb") as f:
                environ = b"\0" + f.read()
        except (OSError, ValueError):
            continue  # gone, or not ours to read (a process of another user: not ours at all)
        for mark, needle in needles.items():
            if environ.find(needle) >= 0:
                found[mark].append(int(name))
    return found, groups


def marked(mark):
    """The pids of the live processes whose environment holds the mark."""
    return _scan([mark])[0][mark]


def _kill(pids, signum):
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def stop(processes, marks, grace):
    """Stops each Popen in `processes` (each a session leader, started with its mark of
    `marks` in its environment) and every process that carries one of the marks; returns the
    pids of those still alive after SIGKILL and a second grace (none, unless a process is in
    uninterruptible sleep), once the leaders are reaped.

    SIGTERM goes to each leader's group (mpiexec passes it on to its proxy and the proxy to
    the ranks); once the leaders' groups are gone, to each marked process left as it is found
    (no mpiexec is left to pass it on); after `grace` seconds SIGKILL to every one left. Done
    after two scans in a row find nothing: a process forked just as a scan read /proc (a rank
    its proxy started as the signal came) is in the next."""
    for p in processes:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + grace
    groups = {p.pid for p in processes}  # a leader's pid is its group's id
    told = set()
    empty_scans = 0
    left = []
    while True:
        for p in processes:
            p.poll()  # a leader is reaped as it ends (its zombie is no member of the group)
        found, live_groups = _scan(marks)
        groups &= live_groups  # a group once gone stays gone (its id may be taken again)
        left = [pid for mark in marks for pid in found[mark]]
        empty_scans = 0 if groups or left else empty_scans + 1
        if empty_scans == 2:
            break
        now = time.monotonic()
        if now > deadline + grace:
            break  # what SIGKILL does not end (uninterruptible sleep) cannot be waited for
        if now > deadline:
            for g in groups:
                try:
                    os.killpg(g, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            _kill(left, signal.SIGKILL)
        elif not groups:
            _kill([pid for pid in left if pid not in told], signal.SIGTERM)
            told.update(left)
        time.sleep(POLL_SECONDS)
    for p in processes:
        p.wait()
    return left
